import Foundation
import TransitArchive
import TransitEngine
import TransitModel
import TransitOutput
import TransitTransport
import TransitPluginHost
import TransitStations
import TransitWatch

extension TransitCommand {
    /// `transit doctor`: checks what a read needs — each kind of reader (`ReaderSource.check`: pcscd
    /// and its readers, USB's section), the conf and each plugin — and
    /// what it keeps and names with — the history archive, the station tables — and says what to
    /// fix. Exit 1 when something is wrong.
    func doctor(_ a: Arguments) throws {
        var checks = [DoctorCheck]()
        let usb = ReaderSources.usb.check()
        var pcsc = ReaderSources.pcsc.check().findings.map(DoctorCheck.init)
        let pcscdDown = pcsc.firstIndex { $0.check.english == "pcscd" && !$0.ok }
        // With a USB reader transit drives, pcscd is needed only for the PC/SC readers: not running is no problem.
        if usb.readers > 0, let i = pcscdDown {
            pcsc[i] = DoctorCheck(check: .init("pcscd"), ok: true,
                                  detail: L10n.words("not running: a USB reader needs none, PC/SC readers do (%1$s)", pcsc[i].fix ?? .init("")), fix: nil)
        }
        // No reader on either transport: one line says what was looked for on each.
        if usb.readers == 0, !pcsc.contains(where: { $0.check.english == "readers" && $0.ok }) {
            let none = NoReaderFound(pcscdRunning: pcscdDown == nil, unsupported: usb.unsupported)
            pcsc.removeAll { $0.check.english == "readers" }
            // TRANSLATORS: what doctor checked: the readers, PC/SC and USB.
            pcsc.append(DoctorCheck(check: L10n.words("readers"), ok: false, detail: L10n.words("none found: %1$s; %2$s", none.pcsc, none.usb),
                                    fix: none.advice))
        }
        checks += pcsc + usb.findings.map(DoctorCheck.init)
        checks += Self.pluginChecks(a.value(.config))
        checks.append(Self.archiveCheck())
        checks.append(Self.stationCheck())
        checks.append(Self.keysCheck())
        if a.has(.json) {
            standardOutput(JSONOutput.encode(checks))
        } else {
            // TRANSLATORS: doctor's verdict on a check, first on its line ("ok     pcscd: reachable").
            let ok = L10n.tr("ok"), problem = L10n.tr("problem")
            let width = max(DisplayWidth.of(ok), DisplayWidth.of(problem))
            for c in checks {
                standardOutput(DisplayWidth.padded(c.ok ? ok : problem, to: width) + " \(c.check.said): \(TerminalText.escape(c.detail.said))"
                               // TRANSLATORS: below a problem doctor found, what to do about it.
                               + (c.fix.map { "\n" + String(repeating: " ", count: width + 1) + L10n.tr("fix: %1$s", $0.said) } ?? ""))
            }
        }
        if checks.contains(where: { !$0.ok }) { throw QuietExit(code: 1) }
    }

    private static func pluginChecks(_ configPath: String?) -> [DoctorCheck] {
        let config: PluginConfig
        do {
            config = try PluginConfig.load(explicit: configPath)
        } catch let e as TransitError {
            return [.init(check: .init("plugins.conf"), ok: false, detail: e.words,
                          fix: L10n.words("install transit's plugins.conf (make install, or the .deb), or give --config FILE; see plugins.conf(5)"))]
        } catch {
            return [.init(check: .init("plugins.conf"), ok: false, detail: .init("\(error)"), fix: nil)]
        }
        let dropIns = PluginConfig.dropIns(beside: config.path)
        var checks = [DoctorCheck(check: .init("plugins.conf"), ok: true,
                                  detail: dropIns.isEmpty ? L10n.words("%1$s, trusted", .init(config.path))
                                      : L10n.words("%1$s and %2$s drop-in file(s), trusted", .init(config.path), .init(String(dropIns.count))), fix: nil)]
        for p in PluginLoader.load(config) {
            let check = L10n.words("plugin %1$s", .init(p.name))
            switch p.state {
            case .loaded:
                checks.append(.init(check: check, ok: true, detail: L10n.words("loaded from %1$s", .init(p.path)), fix: nil))
            case .refused(let why):
                checks.append(.init(check: check, ok: false, detail: L10n.words("refused: %1$s", why),
                                    fix: L10n.words("fix or remove its line (%1$s)", .init("\(p.entry.file):\(p.entry.line)"))))
            case .misconfigured(let why):
                checks.append(.init(check: check, ok: false, detail: why, fix: L10n.words("correct the option (transit plugins --json lists what each takes)")))
            }
        }
        if !checks.dropFirst().contains(where: { $0.ok }) {
            // TRANSLATORS: what doctor checked: that some plugin can read a card.
            checks.append(.init(check: L10n.words("plugins"), ok: false, detail: L10n.words("no plugin can read a card"), fix: L10n.words("see the lines above")))
        }
        return checks
    }
}

extension TransitCommand {
    /// The history archive opens as a read would keep it: a private folder, a private file, the
    /// schema this version writes; or there is none yet, or saving is off.
    static func archiveCheck() -> DoctorCheck {
        let settings = ArchiveSettings.load()
        // TRANSLATORS: what doctor checked.
        let check = L10n.words("history archive")
        if let problem = settings.problem {
            return .init(check: check, ok: false, detail: problem, fix: L10n.words("correct transit.conf (transit(1), FILES)"))
        }
        guard settings.save else { return .init(check: check, ok: true, detail: L10n.words("saving is off (save = no in transit.conf)"), fix: nil) }
        do {
            guard let archive = try Archive.retryingWhileBusy({ try Archive.open(settings, create: false) }) else {
                return .init(check: check, ok: true, detail: L10n.words("none yet at %1$s (the first read creates it)", .init(settings.databasePath)), fix: nil)
            }
            let cards = try archive.cards()
            return .init(check: check, ok: true,
                         detail: L10n.wordsn("%1$s: %2$s card, private", "%1$s: %2$s cards, private", cards.count, .init(settings.databasePath), .init(String(cards.count))),
                         fix: nil)
        } catch {
            return .init(check: check, ok: false, detail: L10n.Words(error: error),
                         fix: L10n.words("do what the line says, or move the folder away to start a new archive"))
        }
    }

    /// The station tables of the data folders load, every line of them.
    static func stationCheck() -> DoctorCheck {
        var notes = [L10n.Words]()
        let library = StationLibrary(explicit: [])
        library.say = { notes.append($0) }
        // TRANSLATORS: what doctor checked.
        let check = L10n.words("station tables")
        do {
            let paths = try library.paths()
            guard !paths.isEmpty else {
                return .init(check: check, ok: true, detail: L10n.words("none (station codes stay codes; README \"Station names\")"), fix: nil)
            }
            let table = try library.table()
            let detail = L10n.wordsn("%1$s table", "%1$s tables", paths.count, .init(String(paths.count))) + L10n.words(", ")
                + L10n.wordsn("%1$s station", "%1$s stations", table.count, .init(String(table.count)))
            guard notes.isEmpty else {
                return .init(check: check, ok: false, detail: detail + L10n.Words("; ") + notes.joined(separator: .init("; ")), fix: L10n.words("correct the lines named"))
            }
            return .init(check: check, ok: true, detail: detail, fix: nil)
        } catch {
            return .init(check: check, ok: false, detail: L10n.Words(error: error), fix: nil)
        }
    }
}

extension TransitCommand {
    /// The keys folder's files load as a read would load them: how many files and keys (never a
    /// key), or each file a read passes over, with its fix.
    static func keysCheck() -> DoctorCheck {
        var files = ClassicKeyFiles(explicit: [])
        var read = 0, notes = [L10n.Words]()
        files.log = { if $0.contains(" in the keys folder") { read += 1 } }
        files.say = { notes.append($0) }
        let folder = ClassicKeyFiles.folder(ProcessInfo.processInfo.environment)
        // TRANSLATORS: what doctor checked: the MIFARE Classic key files.
        let check = L10n.words("Classic keys")
        do {
            let ring = try files.load()
            guard notes.isEmpty else {
                return .init(check: check, ok: false, detail: notes.joined(separator: .init("; ")),
                             fix: L10n.words("do what each line says; a file passed over gives no key to any read"))
            }
            guard read > 0 else { return .init(check: check, ok: true, detail: L10n.words("no key file in %1$s (transit ships no key)", .init(folder)), fix: nil) }
            return .init(check: check, ok: true, detail: L10n.wordsn("%1$s file in %2$s", "%1$s files in %2$s", read, .init(String(read)), .init(folder))
                         + L10n.words(", ") + L10n.wordsn("%1$s key, private", "%1$s keys, private", ring.count, .init(String(ring.count))), fix: nil)
        } catch {
            return .init(check: check, ok: false, detail: L10n.Words(error: error), fix: nil)
        }
    }
}

/// One finding of `transit doctor`: English in its JSON, the chosen language in its text.
struct DoctorCheck: Encodable {
    let check: L10n.Words
    let ok: Bool
    let detail: L10n.Words
    let fix: L10n.Words?

    init(check: L10n.Words, ok: Bool, detail: L10n.Words, fix: L10n.Words?) { self.check = check; self.ok = ok; self.detail = detail; self.fix = fix }

    init(_ finding: ReaderFinding) { self.init(check: finding.checkWords, ok: finding.ok, detail: finding.detailWords, fix: finding.fixWords) }

    private enum CodingKeys: String, CodingKey { case check, ok, detail, fix }

    func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(check.english, forKey: .check)
        try c.encode(ok, forKey: .ok)
        try c.encode(detail.english, forKey: .detail)
        try c.encodeIfPresent(fix?.english, forKey: .fix)
    }
}
