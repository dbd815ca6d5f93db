import CardSimulation
import Foundation
import CardProtocol
import TransitModel
import TransitFiles
import TransitTransport
import TransitPluginHost
import TransitEngine
import TransitStations
import TransitArchive
import TransitOutput

/// Feeds the plugins mutated card answers, starting from a recorded read (a log bundle): answers
/// truncated, extended, bit-flipped, given random status words, answers to other commands, or none.
/// Deterministic for a seed. Every outcome must be a reading or a documented error; a trap would
/// end the test process, and a plugin that loops is ended by the host's exchange budget.
public final class Fuzzer {
    public struct Report {
        public var reads = 0
        public var readings = 0
        public var errors = [String: Int]()
        public var undocumented = [String]()
        public var mostExchanges = 0
    }

    private let plugins: [LoadedPlugin]
    private let log: LogBundle
    private var random: SplitMix64

    /// Loads the conf's plugins (the default order) once and the bundle to mutate.
    public init(capture path: String, config: String, seed: UInt64) throws {
        let conf = try PluginConfig.load(explicit: config)
        plugins = conf.entries.map { PluginLoader.load($0, path: conf.resolve($0)) }
        log = try LogBundle.load(path)
        random = SplitMix64(seed: seed)
    }

    static let documented: Set<TransitError.Kind> = [.tagNotSupported, .cardRefused, .communication, .malformedResponse, .plugin, .readerUnsupported]

    public func run(_ iterations: Int) throws -> Report {
        var report = Report()
        let answers = log.exchanges.map { HexFormat.bytes($0.response ?? "") ?? [] }
        let atr = HexFormat.bytes(log.atr) ?? []
        let engine = ReadEngine(runner: InProcessRunner(plugins: plugins), dialects: DialectMemory())
        for _ in 0 ..< iterations {
            var mutated = answers
            for _ in 0 ... random.below(3) where !mutated.isEmpty { mutate(&mutated, all: answers) }
            let channel = FuzzChannel(atr: atr, answers: mutated)
            report.reads += 1
            switch engine.read(channel, firstGuess: log.firstDialect).result {
            case .success: report.readings += 1
            case .failure(let e):
                report.errors[e.kind.rawValue, default: 0] += 1
                if !Self.documented.contains(e.kind) { report.undocumented.append("\(e.kind): \(e.message)") }
            }
            report.mostExchanges = max(report.mostExchanges, channel.asked)
        }
        return report
    }

    private func mutate(_ answers: inout [[UInt8]], all: [[UInt8]]) {
        let i = random.below(answers.count)
        var a = answers[i]
        switch random.below(7) {
        case 0: a = Array(a.prefix(random.below(a.count + 1)))                               // truncated
        case 1: a += (0 ... random.below(8)).map { _ in random.byte() }                      // extended
        case 2 where !a.isEmpty:                                                             // a flipped bit
            let bit = random.below(a.count * 8)
            a[bit / 8] ^= 1 << UInt8(bit % 8)
        case 3:                                                                              // another status word
            let words: [[UInt8]] = [[0x6A, 0x82], [0x6D, 0x00], [0x6A, 0x83], [0x67, 0x00], [0x69, 0x85], [0x61, random.byte()],
                                    [0x6C, random.byte()], [0x90, 0x00], [random.byte(), random.byte()]]
            a = Array(a.dropLast(min(2, a.count))) + words[random.below(words.count)]
        case 4: a = all[random.below(all.count)]                                             // the answer to another command
        case 5: a = []                                                                       // nothing
        case 6 where !a.isEmpty: a[random.below(a.count)] = random.byte()                    // a random byte
        default: break
        }
        answers[i] = a
    }
}

/// Answers exchanges in order from a list; past its end, "file not found".
final class FuzzChannel: ReaderChannel {
    let readerName = "fuzz"
    let atr: [UInt8]
    private let answers: [[UInt8]]
    private(set) var asked = 0

    init(atr: [UInt8], answers: [[UInt8]]) { self.atr = atr; self.answers = answers }

    func transmit(_ apdu: [UInt8], by deadline: Deadline) throws(TransitError) -> [UInt8] {
        defer { asked += 1 }
        return asked < answers.count ? answers[asked] : [0x6A, 0x82]
    }
}

