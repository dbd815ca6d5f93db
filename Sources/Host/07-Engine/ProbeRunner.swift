import CardProtocol
import TransitModel
import TransitTransport
import TransitPluginHost
/// Runs the loaded plugins in conf order against the card until one reads it.
package struct ProbeRunner {
    package let plugins: [LoadedPlugin]
    /// Receives plugin and policy log lines (stderr with --verbose).
    package var log: (String) -> Void = { _ in }
    /// Limits of each plugin's read.
    package var limits = ReadLimits()
    /// The read's deadline: every plugin's call ends by it.
    package var deadline: Deadline
    /// Receives each plugin's outcome as it happens.
    package var outcome: (PluginOutcome) -> Void = { _ in }
    /// Told the name of each plugin before its read runs.
    package var willRun: (String) -> Void = { _ in }

    package init(plugins: [LoadedPlugin], log: @escaping (String) -> Void = { _ in }, limits: ReadLimits, deadline: Deadline) {
        self.plugins = plugins; self.log = log; self.limits = limits; self.deadline = deadline
    }

    /// The probe on `session`, ended (`CardSession.finish`) whatever it gave.
    package func probe(_ session: CardSession) -> Result<CardReading, TransitError> {
        let result: Result<CardReading, TransitError>
        do {
            result = .success(try read(session).reading)
        } catch {
            result = .failure(TransitError(error, while: "reading the card"))
        }
        if case .failure(let e) = result { session.finish(after: e) } else { session.finish(after: nil) }
        return result
    }

    /// The reading and the plugin that made it.
    package func read(_ session: CardSession) throws -> (reading: CardReading, plugin: String) {
        try checkConfiguration()
        let technology = try session.identify()
        let uid = session.uid
        var systems: [UInt16]?
        if technology == .felica {
            // One Request System Code per card lets FeliCa plugins whose system is absent be skipped
            // without RF traffic.
            systems = try session.systemCodes(idm: uid)
            log("card: FeliCa IDm \(HexFormat.string(uid)), systems \(systems.map { $0.map(HexFormat.string).joined(separator: " ") } ?? "unknown")"
                + " (dialect \(session.dialect?.rawValue ?? "none"))")
        } else {
            log("card: ISO 14443-4, ATR \(HexFormat.string(session.channel.atr)), UID \(HexFormat.string(uid))")
        }
        var tried = [String]()
        var skipped = false
        for plugin in plugins where plugin.state == .loaded && plugin.technology == technology {
            if let systems, !plugin.systemCodes.isEmpty, !plugin.systemCodes.contains(where: systems.contains) {
                log("\(plugin.name): skipped, the card has none of its systems")
                outcome(PluginOutcome(name: plugin.name, outcome: .skipped))
                skipped = true
                continue
            }
            tried.append(plugin.name)
            willRun(plugin.name)
            let invocation = PluginInvocation(plugin: plugin, session: session, limits: limits, deadline: deadline, log: log)
            let status = invocation.run(uid: uid, systemCodes: systems)
            switch StatusTranslation.outcome(of: status, invocation) {
            case .read(let reading):
                outcome(PluginOutcome(name: plugin.name, outcome: .read, log: invocation.logLines))
                return (reading, plugin.name)
            case .nextPlugin:
                log("\(plugin.name): not this card")
                outcome(PluginOutcome(name: plugin.name, outcome: .notThisCard, log: invocation.logLines))
            case .failed(let error):
                outcome(PluginOutcome(name: plugin.name, outcome: .failed(error.kind), log: invocation.logLines))
                throw error
            }
        }
        let what = technology == .felica ? "FeliCa" : "ISO 14443-4"
        var notes = [String]()
        if let systems { notes.append("systems \(systems.isEmpty ? "none" : systems.map(HexFormat.string).joined(separator: " "))") }
        if !tried.isEmpty {
            notes.append("tried: \(tried.joined(separator: ", "))")
        } else if !skipped {
            notes.append("no plugin for this technology is loaded")
        } else {
            notes.append("no loaded plugin reads these systems")
        }
        throw TransitError(.tagNotSupported, "no plugin recognised this \(what) card (\(notes.joined(separator: "; ")))")
    }

    /// A misconfigured plugin line, or a conf none of whose plugins could be loaded, is a
    /// configuration error before any exchange: never a "no plugin recognised this card".
    private func checkConfiguration() throws {
        for p in plugins { if case .misconfigured(let why) = p.state { throw TransitError(.config, why) } }
        guard plugins.contains(where: { $0.state == .loaded }) else {
            throw TransitError(.config, plugins.isEmpty ? "plugins.conf names no plugin"
                               : "no plugin of plugins.conf could be loaded (\(plugins.map(\.name).joined(separator: ", ")) refused; see above)")
        }
    }
}
