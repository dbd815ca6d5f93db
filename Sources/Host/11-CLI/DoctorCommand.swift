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
        let pcscdDown = pcsc.firstIndex { $0.check == "pcscd" && !$0.ok }
        // With an RC-S380 on USB, pcscd is needed only for the PC/SC readers: not running is no problem.
        if usb.readers > 0, let i = pcscdDown {
            pcsc[i] = DoctorCheck(check: "pcscd", ok: true, detail: "not running: a USB reader needs none, PC/SC readers do (\(pcsc[i].fix ?? ""))",
                                  fix: nil)
        }
        // No reader on either transport: one line says what was looked for on each.
        if usb.readers == 0, !pcsc.contains(where: { $0.check == "readers" && $0.ok }) {
            let none = NoReaderFound(pcscdRunning: pcscdDown == nil, unsupported: usb.unsupported)
            pcsc.removeAll { $0.check == "readers" }
            pcsc.append(DoctorCheck(check: "readers", ok: false, detail: "none found: \(none.pcsc.english); \(none.usb.english)", fix: NoReaderFound.advice.english))
        }
        checks += pcsc + usb.findings.map(DoctorCheck.init)
        checks += Self.pluginChecks(a.value(.config))
        checks.append(Self.archiveCheck())
        checks.append(Self.stationCheck())
        checks.append(Self.keysCheck())
        if a.has(.json) {
            standardOutput(JSONOutput.encode(checks))
        } else {
            for c in checks {
                standardOutput("\(c.ok ? "ok     " : "problem") \(c.check): \(TerminalText.escape(c.detail))"
                               + (c.fix.map { "\n        fix: \($0)" } ?? ""))
            }
        }
        if checks.contains(where: { !$0.ok }) { throw QuietExit(code: 1) }
    }

    private static func pluginChecks(_ configPath: String?) -> [DoctorCheck] {
        let config: PluginConfig
        do {
            config = try PluginConfig.load(explicit: configPath)
        } catch let e as TransitError {
            return [.init(check: "plugins.conf", ok: false, detail: e.message,
                          fix: "install transit's plugins.conf (make install, or the .deb), or give --config FILE; see plugins.conf(5)")]
        } catch {
            return [.init(check: "plugins.conf", ok: false, detail: "\(error)", fix: nil)]
        }
        let dropIns = PluginConfig.dropIns(beside: config.path)
        var checks = [DoctorCheck(check: "plugins.conf", ok: true,
                                  detail: config.path + (dropIns.isEmpty ? "" : " and \(dropIns.count) drop-in file(s)") + ", trusted", fix: nil)]
        for p in PluginLoader.load(config) {
            switch p.state {
            case .loaded:
                checks.append(.init(check: "plugin \(p.name)", ok: true, detail: "loaded from \(p.path)", fix: nil))
            case .refused(let why):
                checks.append(.init(check: "plugin \(p.name)", ok: false, detail: "refused: \(why)",
                                    fix: "fix or remove its line (\(p.entry.file):\(p.entry.line))"))
            case .misconfigured(let why):
                checks.append(.init(check: "plugin \(p.name)", ok: false, detail: why, fix: "correct the option (transit plugins --json lists what each takes)"))
            }
        }
        if !checks.dropFirst().contains(where: { $0.ok }) {
            checks.append(.init(check: "plugins", ok: false, detail: "no plugin can read a card", fix: "see the lines above"))
        }
        return checks
    }
}

extension TransitCommand {
    /// The history archive opens as a read would keep it: a private folder, a private file, the
    /// schema this version writes; or there is none yet, or saving is off.
    static func archiveCheck() -> DoctorCheck {
        let settings = ArchiveSettings.load()
        if let problem = settings.problem {
            return .init(check: "history archive", ok: false, detail: problem, fix: "correct transit.conf (transit(1), FILES)")
        }
        guard settings.save else { return .init(check: "history archive", ok: true, detail: "saving is off (save = no in transit.conf)", fix: nil) }
        do {
            guard let archive = try Archive.retryingWhileBusy({ try Archive.open(settings, create: false) }) else {
                return .init(check: "history archive", ok: true, detail: "none yet at \(settings.databasePath) (the first read creates it)", fix: nil)
            }
            let cards = try archive.cards()
            return .init(check: "history archive", ok: true,
                         detail: "\(settings.databasePath): \(cards.count) card\(cards.count == 1 ? "" : "s"), private", fix: nil)
        } catch {
            return .init(check: "history archive", ok: false, detail: (error as? TransitError)?.message ?? "\(error)",
                         fix: "do what the line says, or move the folder away to start a new archive")
        }
    }

    /// The station tables of the data folders load, every line of them.
    static func stationCheck() -> DoctorCheck {
        var notes = [String]()
        let library = StationLibrary(explicit: [])
        library.report = { notes.append($0) }
        do {
            let paths = try library.paths()
            guard !paths.isEmpty else {
                return .init(check: "station tables", ok: true, detail: "none (station codes stay codes; README \"Station names\")", fix: nil)
            }
            let table = try library.table()
            let detail = "\(paths.count) table\(paths.count == 1 ? "" : "s"), \(table.count) station\(table.count == 1 ? "" : "s")"
            guard notes.isEmpty else { return .init(check: "station tables", ok: false, detail: detail + "; " + notes.joined(separator: "; "), fix: "correct the lines named") }
            return .init(check: "station tables", ok: true, detail: detail, fix: nil)
        } catch {
            return .init(check: "station tables", ok: false, detail: (error as? TransitError)?.message ?? "\(error)", fix: nil)
        }
    }
}

extension TransitCommand {
    /// The keys folder's files load as a read would load them: how many files and keys (never a
    /// key), or each file a read passes over, with its fix.
    static func keysCheck() -> DoctorCheck {
        var files = ClassicKeyFiles(explicit: [])
        var read = 0, notes = [String]()
        files.log = { if $0.contains(" in the keys folder") { read += 1 } }
        files.warn = { notes.append($0) }
        let folder = ClassicKeyFiles.folder(ProcessInfo.processInfo.environment)
        do {
            let ring = try files.load()
            guard notes.isEmpty else {
                return .init(check: "Classic keys", ok: false, detail: notes.joined(separator: "; "),
                             fix: "do what each line says; a file passed over gives no key to any read")
            }
            guard read > 0 else { return .init(check: "Classic keys", ok: true, detail: "no key file in \(folder) (transit ships no key)", fix: nil) }
            return .init(check: "Classic keys", ok: true, detail: "\(read) file\(read == 1 ? "" : "s") in \(folder), "
                         + "\(ring.count) key\(ring.count == 1 ? "" : "s"), private", fix: nil)
        } catch {
            return .init(check: "Classic keys", ok: false, detail: (error as? TransitError)?.message ?? "\(error)", fix: nil)
        }
    }
}

/// One finding of `transit doctor`.
struct DoctorCheck: Encodable {
    let check: String
    let ok: Bool
    let detail: String
    let fix: String?

    init(check: String, ok: Bool, detail: String, fix: String?) { self.check = check; self.ok = ok; self.detail = detail; self.fix = fix }

    init(_ finding: ReaderFinding) { self.init(check: finding.check, ok: finding.ok, detail: finding.detail, fix: finding.fix) }
}
