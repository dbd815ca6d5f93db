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
        } else if technology == .mifareClassic || technology == .mifareUltralight {
            log("card: \(technology == .mifareClassic ? "MIFARE Classic" : "MIFARE Ultralight"), UID \(HexFormat.string(uid))")
        } else {
            log("card: ISO 14443-4, ATR \(HexFormat.string(session.channel.atr)), UID \(HexFormat.string(uid))")
        }
        var tried = [String]()
        var skipped = false
        for plugin in plugins where plugin.state == .loaded && plugin.technologies.contains(technology) {
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
        if let storage = session.storage, !tried.isEmpty { throw Self.unknownStorageCard(technology, storage, session) }
        let what = technology == .felica ? "FeliCa" : "ISO 14443-4"
        var notes = [L10n.Words]()
        if let systems {
            notes.append(systems.isEmpty ? L10n.words("systems none") : L10n.words("systems %1$s", .init(systems.map(HexFormat.string).joined(separator: " "))))
        }
        if !tried.isEmpty {
            notes.append(L10n.words("tried: %1$s", .init(tried.joined(separator: ", "))))
        } else if !skipped {
            notes.append(L10n.words("no plugin for this technology is loaded"))
        } else {
            notes.append(L10n.words("no loaded plugin reads these systems"))
        }
        // TRANSLATORS: %1$s is the card's technology (FeliCa, ISO 14443-4…), %2$s the systems and what was tried.
        throw TransitError(.tagNotSupported, L10n.words("no plugin recognised this %1$s card (%2$s)", .init(what), notes.joined(separator: .init("; "))))
    }

    /// What a MIFARE Classic or Ultralight card no family recognised is: blank, locked (the user's
    /// keys are needed: `--keys`), or a card of no known system; `tagNotSupported` (exit 4) each.
    private static func unknownStorageCard(_ technology: CardTechnology, _ storage: StorageCardReader, _ session: CardSession) -> TransitError {
        let name: String
        if case .storage(let n) = session.verdict { name = n } else { name = technology.rawValue }
        if technology == .mifareUltralight {
            // Pages 4-15, the user memory of the smallest Ultralight (MF0ICU1 §8.5), all zeros: a
            // blank ticket (Metrodroid's BlankUltralightTransitData tells it so too).
            if storage.ultralightLooksBlank {
                return TransitError(.tagNotSupported, L10n.words("a blank %1$s: its pages 4 to 15 hold no data", .init(name)))
            }
            return TransitError(.tagNotSupported, L10n.words("a %1$s ticket of no known system: no transit family recognised its pages", .init(name)))
        }
        // No family asked for a sector (none loaded reads Classic by data): sector 0 tells what the card is.
        if storage.lockedSectors.isEmpty, storage.openSectors.isEmpty, storage.sectorCount > 0 { _ = try? storage.sector(0) }
        let locked = storage.lockedSectors, open = storage.openSectors
        func list(_ s: [Int]) -> L10n.Words { .init(s.map(String.init).joined(separator: ", ")) }
        let card = L10n.Words(name)
        if storage.looksBlank {
            return TransitError(.tagNotSupported, L10n.wordsn("a blank %1$s card: sector %2$s opens with a generic key and holds no data",
                                                              "a blank %1$s card: sectors %2$s open with a generic key and hold no data", open.count, card, list(open)))
        }
        if open.isEmpty {
            return TransitError(.tagNotSupported, L10n.wordsn("""
                a %1$s card whose sectors are locked: no key at hand opens sector %2$s, so no family could recognise it; \
                bring the card's keys with --keys FILE (a key dictionary: one 12-digit hex key a line)
                """, """
                a %1$s card whose sectors are locked: no key at hand opens sectors %2$s, so no family could recognise it; \
                bring the card's keys with --keys FILE (a key dictionary: one 12-digit hex key a line)
                """, locked.count, card, list(locked)))
        }
        let lockedNote = locked.isEmpty ? L10n.Words("")
            : L10n.wordsn("; sector %1$s stays locked (--keys FILE brings more keys)", "; sectors %1$s stay locked (--keys FILE brings more keys)", locked.count, list(locked))
        return TransitError(.tagNotSupported, L10n.wordsn("a %1$s card of no known system: no transit family recognised sector %2$s%3$s",
                                                          "a %1$s card of no known system: no transit family recognised sectors %2$s%3$s",
                                                          open.count, card, list(open), lockedNote))
    }

    /// A misconfigured plugin line, or a conf none of whose plugins could be loaded, is a
    /// configuration error before any exchange: never a "no plugin recognised this card".
    private func checkConfiguration() throws {
        for p in plugins { if case .misconfigured(let why) = p.state { throw TransitError(.config, why) } }
        guard plugins.contains(where: { $0.state == .loaded }) else {
            throw TransitError(.config, plugins.isEmpty ? L10n.words("plugins.conf names no plugin")
                               : L10n.words("no plugin of plugins.conf could be loaded (%1$s refused; see above)", .init(plugins.map(\.name).joined(separator: ", "))))
        }
    }
}
