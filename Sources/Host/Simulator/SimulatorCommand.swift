import CardSimulation
import Foundation
import TransitModel

/// `transit-sim`: puts a card image on the vsmartcard virtual reader, so pcscd (and any PC/SC
/// client) sees it as a card on "Virtual PCD 00 00".
enum SimulatorCommand {
    /// `transit-sim --help`: the usage line, then each option.
    static var usage: String {
        """
        transit-sim --card FILE [--index N] [--port 35963] [--reader-model M] [--dialect D] [--latency-ms N]
                    [--remove-after N] [--hang-after N] [--log FILE]

        """ + "\n" + options.map { $0.helpLines(width: .max) }.joined(separator: "\n") // as written: a tool for developers, in English
    }

    /// The options, each with the type of its value and what it does.
    static let card = OptionSpec(name: "card", value: "FILE", type: .file, required: true, summary: "the card image",
                                 help: "the card image, or a dump of another app (docs/card-image.md)")
    static let index = OptionSpec(name: "index", value: "N", type: .index, summary: "the card of a file that holds several",
                                  help: "the card of a file that holds several (1 is the first)")
    static let port = OptionSpec(name: "port", value: "N", type: .port, summary: "vpcd's port on 127.0.0.1",
                                 help: "vpcd's port on 127.0.0.1 (35963 is the first virtual reader, 35964 the second)")
    static let readerModel = OptionSpec(name: "reader-model", value: "M", type: .choice(ReaderModel.allCases.map(\.rawValue), what: "reader model"),
                                        summary: "answer as this reader does", help: """
        answer as this reader does: \(ReaderModel.allCases.map(\.rawValue).joined(separator: ", "))
        (its ATR, pass-throughs and refusals; docs/readers.md); default pcsc
        """)
    static let dialect = OptionSpec(name: "dialect", value: "D", type: .choice(SimulatedDialect.allCases.map(\.rawValue), what: "dialect"),
                                    summary: "accept FeliCa frames only in this dialect", help: """
        accept FeliCa frames only in this one of the model's dialects
        (\(SimulatedDialect.allCases.map(\.rawValue).joined(separator: ", ")))
        """)
    static let latency = OptionSpec(name: "latency-ms", value: "N", type: .count, summary: "wait N ms before each answer",
                                    help: "wait N ms before each answer, as a card in the field takes time")
    static let removeAfter = OptionSpec(name: "remove-after", value: "N", type: .count, summary: "answer N APDUs, then pull the card away",
                                        help: "answer N APDUs, then pull the card away (close the link) and exit")
    static let hangAfter = OptionSpec(name: "hang-after", value: "N", type: .count, summary: "answer N APDUs, then never again",
                                      help: "answer N APDUs, then never answer again, the card staying on the reader")
    static let log = OptionSpec(name: "log", value: "FILE", type: .file, summary: "append one line per exchange", help: """
        append one line per exchange: command and answer in hex (a new file
        is made 0600; a link, a FIFO, or a folder on the way that another user
        owns or may write is refused)
        """)
    static let options = [card, index, port, readerModel, dialect, latency, removeAfter, hangAfter, log]

    static func run(_ args: [String]) -> Int32 {
        if args.contains("--help") || args.contains("-h") {
            print(usage)
            return 0
        }
        let image: CardImage, dialect: SimulatedDialect?, model: ReaderModel, log: ExchangeLog?, a: CommandArguments
        do {
            // transit's parser: an unknown option or a value its type refuses is a usage error.
            a = try CommandArguments(args, command: "transit-sim", options: options, operands: .none, helpCommand: "transit-sim --help")
            let path = a.value(card) ?? ""
            do { image = try CardFile.load(path).card(index: try a.number(index)) } catch let e as CardFileTechnologyError { throw CardImageError(e.description) }
            dialect = try a.choice(Self.dialect, as: SimulatedDialect.self)
            model = try a.choice(readerModel, as: ReaderModel.self) ?? .pcsc
            _ = try VirtualReader(image: image, dialect: dialect, model: model) // a card the model cannot hold fails now
            log = try a.value(Self.log).map(ExchangeLog.init(path:)) // before vpcd: a refused log connects nothing
        } catch {
            // A wrong command line, card file or --log: 2, as transit says for its own usage errors.
            say((error as? TransitError)?.message ?? "\(error)")
            return 2
        }
        do {
            // On a terminal, whether vpcd was reached (piped output stays silent).
            let terminal = isatty(2) != 0
            let link = try VPCDLink(port: try a.port(port) ?? 35963) { line in
                if terminal { say(line) }
            }
            let card = SimulatedCard(image: image, dialect: dialect, model: model,
                                     latency: Double(try a.number(latency) ?? 0) / 1000,
                                     removeAfter: try a.number(removeAfter),
                                     hangAfter: try a.number(hangAfter),
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
