import CardSimulation
import Foundation
import TransitModel

/// `transit-sim`: puts a card image on the vsmartcard virtual reader, so pcscd (and any PC/SC
/// client) sees it as a card on "Virtual PCD 00 00".
enum SimulatorCommand {
    static let usage = """
    transit-sim --card FILE [--index N] [--port 35963] [--reader-model M] [--dialect D] [--latency-ms N]
                [--remove-after N] [--hang-after N] [--log FILE]

      --card FILE       the card image, or a dump of another app (docs/card-image.md)
      --index N         the card of a file that holds several (1 is the first)
      --port N          vpcd's port on 127.0.0.1 (35963 is the first virtual reader, 35964 the second)
      --reader-model M  answer as this reader does: \(ReaderModel.allCases.map(\.rawValue).joined(separator: ", "))
                        (its ATR, pass-throughs and refusals; docs/readers.md); default pcsc
      --dialect D       accept FeliCa frames only in this one of the model's dialects
                        (pn532, acs-direct, part3, bare-frame)
      --latency-ms N    wait N ms before each answer, as a card in the field takes time
      --remove-after N  answer N APDUs, then pull the card away (close the link) and exit
      --hang-after N    answer N APDUs, then never answer again, the card staying on the reader
      --log FILE        append one line per exchange: command and answer in hex (a new file
                        is made 0600; a link, a FIFO, or a folder on the way that another user
                        owns or may write is refused)
    """

    static func run(_ args: [String]) -> Int32 {
        var options = [String: String]()
        var i = 0
        while i < args.count {
            let key = args[i]
            guard key.hasPrefix("--"), key != "--help", i + 1 < args.count else {
                print(usage)
                return key == "--help" ? 0 : 2
            }
            options[String(key.dropFirst(2))] = args[i + 1]
            i += 2
        }
        guard let path = options["card"] else { print(usage); return 2 }
        let image: CardImage, dialect: SimulatedDialect?, model: ReaderModel, log: ExchangeLog?
        do {
            let index = try options["index"].map { text -> Int in
                guard let n = Int(text), n >= 1 else { throw CardImageError("--index takes a card's number in the file, 1 or more") }
                return n
            }
            do { image = try CardFile.load(path).card(index: index) } catch let e as CardFileTechnologyError { throw CardImageError(e.description) }
            dialect = try options["dialect"].map { d -> SimulatedDialect in
                guard let v = SimulatedDialect(rawValue: d) else { throw CardImageError("unknown dialect \(d)") }
                return v
            }
            model = try options["reader-model"].map { m -> ReaderModel in
                guard let v = ReaderModel(rawValue: m) else { throw CardImageError("unknown reader model \(m)") }
                return v
            } ?? .pcsc
            _ = try VirtualReader(image: image, dialect: dialect, model: model) // a card the model cannot hold fails now
            log = try options["log"].map(ExchangeLog.init(path:)) // before vpcd: a refused log connects nothing
        } catch {
            // A wrong command line, card file or --log: 2, as transit says for its own usage errors.
            say("\(error)")
            return 2
        }
        do {
            // On a terminal, whether vpcd was reached (piped output stays silent).
            let terminal = isatty(2) != 0
            let link = try VPCDLink(port: UInt16(options["port"] ?? "35963") ?? 35963) { line in
                if terminal { say(line) }
            }
            let card = SimulatedCard(image: image, dialect: dialect, model: model,
                                     latency: Double(options["latency-ms"] ?? "0").map { $0 / 1000 } ?? 0,
                                     removeAfter: options["remove-after"].flatMap { Int($0) },
                                     hangAfter: options["hang-after"].flatMap { Int($0) },
                                     log: log)
            try card.serve(link)
            return 0
        } catch {
            say("\(error)")
            return 1
        }
    }

    /// One line on stderr, its controls and format controls escaped (file names, card file errors).
    static func say(_ line: String) {
        FileHandle.standardError.write(Data(("transit-sim: " + TerminalText.escape(line) + "\n").utf8))
    }
}
