import CardProtocol
import CardSimulation
import Foundation
import Synchronization
import TransitModel
import TransitTransport
import TransitPluginHost
import TransitEngine

/// Reads a card image through real plugin libraries and the engine `transit` ships (`ReadEngine`):
/// by default with the plugins in a plugin worker (the built `transit __plugin-worker`), as a read
/// from the command line runs them; every read records its log bundle.
public struct PluginRead {
    /// A plugin as a conf line would name it.
    public struct Plugin: Sendable {
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
        public static let calypso = Plugin("calypso", BuildProducts.plugin("TransitCalypso"))
        public static let chinaCity = Plugin("china-city", BuildProducts.plugin("TransitChinaCity"))
        public static let desfire = Plugin("desfire", BuildProducts.plugin("TransitDESFire"))
        public static let easycard = Plugin("easycard", BuildProducts.plugin("TransitEasyCard"))
        /// With the digests of samples/charliecard.json's MADE-UP sector 0 keys (md5 of "charlie" ‖ key ‖
        /// "charlie", scripts/make_classic_samples.py), as a deployment adds a new key's: the shipped
        /// digests are of the real keys, which no test card holds.
        public static let charliecard = Plugin("charliecard", BuildProducts.plugin("TransitCharlieCard"),
                                               options: ["key-digests": "58de1cd9312430aadce82eb222b534c9,9c502304a43d0a7bd258394288b37286"])
        public static let troika = Plugin("troika", BuildProducts.plugin("TransitTroika"))
        public static let podorozhnik = Plugin("podorozhnik", BuildProducts.plugin("TransitPodorozhnik"))
        public static let bilheteUnico = Plugin("bilhete-unico", BuildProducts.plugin("TransitBilheteUnico"))
        public static let nextfareUltralight = Plugin("nextfare-ul", BuildProducts.plugin("TransitNextfareUltralight"))
        public static let hslUltralight = Plugin("hsl-ul", BuildProducts.plugin("TransitHSLUltralight"))
        /// Options the tests add to a plugins.conf line, as a deployment would: charliecard's digests of
        /// the test cards' made-up keys.
        static let testOptions: [String: [String: String]] = [charliecard.name: charliecard.options]
        /// The default plugins.conf order: the repository's plugins.conf (`ShippedPlugins`), each
        /// library the build's, each line's options kept, and `testOptions` added.
        public static let defaultOrder: [Plugin] = ShippedPlugins.lines.map { line in
            Plugin(line.name, BuildProducts.directory.appendingPathComponent(line.library).path,
                   options: line.options.merging(testOptions[line.name] ?? [:]) { $1 })
        }
        /// The MIFARE Classic and Ultralight families, in plugins.conf order: those of `defaultOrder`
        /// whose descriptor declares only these technologies.
        public static let storageOrder: [Plugin] = defaultOrder.filter { plugin in
            let entry = PluginConfig.Entry(name: plugin.name, library: plugin.library, options: plugin.options, line: 0)
            let technologies = Set(PluginLoader.load(entry, path: plugin.library).technologies)
            return !technologies.isEmpty && technologies.isSubset(of: [.mifareClassic, .mifareUltralight])
        }
    }

    /// Where the plugins run.
    public enum Runner {
        /// A plugin worker process, as `transit` runs them.
        case worker
        /// This process (what the worker itself does inside), for tests that read thousands of times.
        case inProcess
    }

    /// What a read gave.
    public struct Outcome {
        public let reading: CardReading?
        /// The plugin whose read succeeded, or the one the error names.
        public let plugin: String?
        public let error: TransitError?
        /// APDUs the reader answered, the host's UID and system-code requests included.
        public let exchanges: Int
        /// Plugin and policy log lines.
        public let log: [String]
        /// The read's log bundle, as `scan --log` writes it.
        package let bundle: LogBundle
    }

    /// Changes the reader's answer to exchange `index` (0-based), for fault tests.
    public typealias Fault = (_ index: Int, _ command: [UInt8], _ answer: [UInt8]) throws -> [UInt8]

    public static func read(_ image: CardImage, plugins: [Plugin], dialect: String? = nil,
                            budget: (exchanges: Int, seconds: Double)? = nil, fault: Fault? = nil, runner: Runner = .worker,
                            readsBefore: Int = 0) throws -> Outcome {
        let specs = plugins.enumerated().map {
            WorkerMessages.Plugin(PluginConfig.Entry(name: $1.name, library: $1.library, options: $1.options, line: $0 + 1), path: $1.library)
        }
        let log = LogLines()
        let pluginRunner: PluginRunner
        switch runner {
        case .worker:
            let worker = PluginWorker(plugins: specs, executable: BuildProducts.transit)
            worker.log = log.append
            worker.problem = log.append
            pluginRunner = worker
        case .inProcess:
            let loaded = specs.map { PluginLoader.load($0.entry, path: $0.library) }
            for p in loaded { if let why = p.refusal { throw TransitError(.plugin, why) } }
            let inProcess = InProcessRunner(plugins: loaded)
            inProcess.log = log.append
            pluginRunner = inProcess
        }
        var limits = ReadLimits()
        if let budget { limits.maxExchanges = budget.exchanges; limits.readTimeout = budget.seconds }
        let engine = ReadEngine(runner: pluginRunner, limits: limits, dialects: DialectMemory())
        engine.log = log.append
        let channel = FaultyChannel(try EmulatedChannel(image: image), fault: fault)
        let forced = try dialect.map { name in
            guard let d = FeliCaDialect(rawValue: name) else { throw TransitError(.usage, "no dialect \(name)") }
            return d
        }
        // `readsBefore`: reads of the same card, left in the field, before the one returned.
        for _ in 0 ..< readsBefore { _ = engine.read(channel, dialect: forced) }
        let (result, bundle) = engine.read(channel, dialect: forced)
        let read = bundle.plugins.first { $0.outcome == .read }?.name
        switch result {
        case .success(let r): return Outcome(reading: r, plugin: read, error: nil, exchanges: channel.count, log: log.lines, bundle: bundle)
        case .failure(let e): return Outcome(reading: nil, plugin: e.plugin, error: e, exchanges: channel.count, log: log.lines, bundle: bundle)
        }
    }
}

/// Log lines collected from the engine and its runner (the worker's arrive on the reading thread).
final class LogLines: Sendable {
    private let stored = Mutex([String]())
    var lines: [String] { stored.withLock { $0 } }
    func append(_ line: String) { stored.withLock { $0.append(line) } }
}

/// A reader channel that passes exchanges to another and lets a test change any answer.
final class FaultyChannel: ReaderChannel {
    let inner: ReaderChannel
    let fault: PluginRead.Fault?
    private(set) var count = 0

    init(_ inner: ReaderChannel, fault: PluginRead.Fault?) { self.inner = inner; self.fault = fault }

    var readerName: String { inner.readerName }
    var atr: [UInt8] { inner.atr }

    func transmit(_ apdu: [UInt8], by deadline: Deadline) throws(TransitError) -> [UInt8] {
        let index = count
        count += 1
        let answer = try inner.transmit(apdu, by: deadline)
        guard let fault else { return answer }
        do { return try fault(index, apdu, answer) } catch { throw TransitError(error, while: "a test's fault") }
    }
}

/// Transport errors a test's fault can throw.
public enum HostErrors {
    /// The card left the reader.
    public static let removed: Error = TransitError(.sessionLost, "the card was removed during the read")
}

/// The keys a Classic dump's trailers hold pass through, as the engine takes them from the channel.
extension FaultyChannel: ClassicKeySource {
    package var classicKeys: ClassicKeyRing { (inner as? ClassicKeySource)?.classicKeys ?? ClassicKeyRing() }
}
