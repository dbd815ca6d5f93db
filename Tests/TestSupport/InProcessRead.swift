// In-process reads need the host's internals (@testable), which only debug builds expose;
// `swift build -c release` still builds this target, so the file compiles only in debug.
#if DEBUG
import CardSimulation
import Foundation
@testable import Host

/// Reads a card image through real plugin libraries and the host's policy, in process.
public struct InProcessRead {
    /// A plugin as a conf line would name it.
    public struct Plugin {
        public let name: String, library: String, options: [String: String]
        public init(_ name: String, _ library: String, options: [String: String] = [:]) {
            self.name = name; self.library = library; self.options = options
        }
        public static let japanIC = Plugin("japan-ic", BuildProducts.plugin("TransitJapanIC"))
        public static let cepas = Plugin("cepas", BuildProducts.plugin("TransitCEPAS"))
        public static let edy = Plugin("edy", BuildProducts.plugin("TransitEdy"))
        public static let waon = Plugin("waon", BuildProducts.plugin("TransitWAON"))
        public static let nanaco = Plugin("nanaco", BuildProducts.plugin("TransitNanaco"))
        public static func octopus(offset: String? = nil) -> Plugin {
            Plugin("octopus", BuildProducts.plugin("TransitOctopus"), options: offset.map { ["balance-offset": $0] } ?? [:])
        }
        public static let ksx6924 = Plugin("ksx6924", BuildProducts.plugin("TransitKSX6924"))
        public static let tunion = Plugin("tunion", BuildProducts.plugin("TransitTUnion"))
        /// The default plugins.conf order.
        public static let defaultOrder: [Plugin] = [.japanIC, .edy, .waon, .nanaco, .octopus(), .cepas, .ksx6924, .tunion]
    }

    /// What a read gave.
    public struct Outcome {
        public let reading: CardReading?
        public let plugin: String?
        public let error: TransitError?
        /// APDUs the reader answered, the host's UID and system-code requests included.
        public let exchanges: Int
        public let log: [String]
    }

    /// Changes the reader's answer to exchange `index` (0-based), for fault tests.
    public typealias Fault = (_ index: Int, _ command: [UInt8], _ answer: [UInt8]) throws -> [UInt8]

    public static func read(_ image: CardImage, plugins: [Plugin], dialect: FeliCaDialect? = nil,
                            budget: (exchanges: Int, seconds: Double)? = nil, fault: Fault? = nil) throws -> Outcome {
        let entries = plugins.enumerated().map {
            PluginConfig.Entry(name: $1.name, library: $1.library, options: $1.options, line: $0 + 1)
        }
        let loaded = entries.map { PluginLoader.load($0, path: $0.library) }
        for p in loaded { if case .refused(let why) = p.state { throw TransitError(.plugin, "\(p.name) refused: \(why)") } }
        let channel = FaultyChannel(try EmulatedChannel(image: image), fault: fault)
        var log = [String]()
        var runner = ProbeRunner(plugins: loaded, log: { log.append($0) })
        if let budget { runner.budget = ReadBudget(maxExchanges: budget.exchanges, maxSeconds: budget.seconds) }
        do {
            let (reading, plugin) = try runner.read(CardSession(channel: channel, dialect: dialect))
            return Outcome(reading: reading, plugin: plugin, error: nil, exchanges: channel.count, log: log)
        } catch let e as TransitError {
            return Outcome(reading: nil, plugin: e.plugin, error: e, exchanges: channel.count, log: log)
        }
    }
}

/// A reader channel that passes exchanges to another and lets a test change any answer.
final class FaultyChannel: ReaderChannel {
    let inner: ReaderChannel
    let fault: InProcessRead.Fault?
    private(set) var count = 0

    init(_ inner: ReaderChannel, fault: InProcessRead.Fault?) { self.inner = inner; self.fault = fault }

    var readerName: String { inner.readerName }
    var atr: [UInt8] { inner.atr }

    func transmit(_ apdu: [UInt8]) throws -> [UInt8] {
        let index = count
        count += 1
        let answer = try inner.transmit(apdu)
        return try fault?(index, apdu, answer) ?? answer
    }
}



/// Transport errors a test's fault can throw.
public enum HostErrors {
    /// The card left the reader.
    public static let removed: Error = TransitError(.sessionLost, "the card was removed during the read")
}
#endif
