import Foundation
import TransitArchive
import TransitModel
import TransitOutput
import TransitTransport
import TransitPCSC
import TransitPluginHost
import TransitStations
import TransitUSB
import TransitWatch

extension TransitCommand {
    /// `transit doctor`: checks what a read needs — pcscd, readers, the conf and each plugin — and
    /// what it keeps and names with — the history archive, the station tables — and says what to
    /// fix. Exit 1 when something is wrong.
    func doctor(_ a: Arguments) throws {
        var checks = [DoctorCheck]()
        let usb = Self.usbChecks()
        var pcsc = Self.pcscChecks()
        let pcscdDown = pcsc.firstIndex { $0.check == "pcscd" && !$0.ok }
        // With an RC-S380 on USB, pcscd is needed only for the PC/SC readers: not running is no problem.
        if usb.rcs380s > 0, let i = pcscdDown {
            pcsc[i] = DoctorCheck(check: "pcscd", ok: true, detail: "not running: the RC-S380 needs none, PC/SC readers do (\(pcsc[i].fix ?? ""))",
                                  fix: nil)
        }
        // No reader on either transport: one line says what was looked for on each.
        if usb.rcs380s == 0, !pcsc.contains(where: { $0.check == "readers" && $0.ok }) {
            let none = NoReaderFound(pcscdRunning: pcscdDown == nil, unsupported: usb.unsupported)
            pcsc.removeAll { $0.check == "readers" }
            pcsc.append(DoctorCheck(check: "readers", ok: false, detail: "none found: \(none.pcsc); \(none.usb)", fix: NoReaderFound.advice))
        }
        checks += pcsc + usb.checks
        checks += Self.pluginChecks(a.value(.config))
        checks.append(Self.archiveCheck())
        checks.append(Self.stationCheck())
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

    /// The USB section, always there: libusb usable; each Sony reader on the bus, and for each
    /// RC-S380 whether this user may open it (opened alone, nothing claimed or detached) and which
    /// kernel driver holds it (port100 is detached while transit reads and given back after);
    /// transit's udev rule, the group it names and this user's place in it. An RC-S330/360/370 is
    /// said to be a reader transit does not drive yet. A reader that cannot be opened gets the one
    /// fix that applies (`USBAccess.fix`).
    private static func usbChecks() -> (checks: [DoctorCheck], rcs380s: Int, unsupported: [String]) {
        var checks = [DoctorCheck]()
        let found: [LibUSBDevice.Found]
        do throws(TransitError) {
            found = try LibUSBDevice.list()
            checks.append(DoctorCheck(check: "libusb", ok: true, detail: "usable", fix: nil))
        } catch {
            found = []
            checks.append(DoctorCheck(check: "libusb", ok: true, detail: "\(error.message): no USB reader can be used here (PC/SC readers can)", fix: nil))
        }
        let access = USBAccess.here()
        let rcs380s = found.filter { $0.model.chipset == .port100 }
        if rcs380s.isEmpty {
            checks.append(DoctorCheck(check: "RC-S380", ok: true, detail: "none on USB (`lsusb -d 054c:` lists Sony's readers: 06c1 and 06c3 are RC-S380s)", fix: nil))
        }
        var blocked = false
        for reader in found {
            let check = "reader \(reader.readerName)"
            guard reader.model.chipset == .port100 else {
                checks.append(DoctorCheck(check: check, ok: false, detail: "an RC-S956 reader (054c:02e1), which transit does not drive yet (only the RC-S380)",
                                          fix: "read FeliCa cards with an RC-S380, an RC-S300 or another PC/SC reader (docs/readers.md)"))
                continue
            }
            let bound = reader.boundDriver.map { "the kernel's \($0) driver holds it (transit detaches it while it reads and gives it back)" }
                ?? "no kernel driver holds it"
            do throws(TransitError) {
                try LibUSBDevice.checkAccess(reader)
                checks.append(DoctorCheck(check: check, ok: true,
                                          detail: "USB, read without pcscd; \(reader.node) can be opened; \(bound); FeliCa cards only", fix: nil))
            } catch {
                let noAccess = error.message.contains("no write access")
                blocked = blocked || noAccess
                let fix = noAccess ? access.fix
                    : error.kind == .noReader ? "plug the reader in again" : "close the program that holds the reader (nfcpy…) and try again"
                checks.append(DoctorCheck(check: check, ok: false, detail: "cannot be opened: \(error.message); \(bound)", fix: fix))
            }
        }
        // Facts, a problem only where they keep a reader closed (the reader's line has the fix).
        checks.append(DoctorCheck(check: "udev rule", ok: !blocked || access.rulePath != nil, detail: access.ruleDetail, fix: nil))
        if access.rulePath != nil {
            checks.append(DoctorCheck(check: "group", ok: !blocked || access.inGroup, detail: access.groupDetail, fix: nil))
        }
        return (checks, rcs380s.count, found.filter { $0.model.chipset != .port100 }.map(\.readerName))
    }

    private static func pcscChecks() -> [DoctorCheck] {
        // Each call has a deadline: a stuck pcscd is a finding, not a hang.
        let calls = CallThread(name: "doctor")
        defer { calls.close() }
        guard let connected = calls.run(by: Deadline(secondsFromNow: 5), { Result { try PCSCContext() } }) else {
            return [.init(check: "pcscd", ok: false, detail: "did not answer within 5 s", fix: "restart it: systemctl restart pcscd")]
        }
        let context: PCSCContext
        switch connected {
        case .success(let c): context = c
        case .failure(let e as TransitError) where e.pcscCode == PCSCStatus.noService.code:
            return [.init(check: "pcscd", ok: false, detail: "not running: only PC/SC readers need it", fix: PCSCStatus.startPcscd)]
        case .failure(let e):
            return [.init(check: "pcscd", ok: false, detail: (e as? TransitError)?.message ?? "\(e)",
                          fix: PCSCStatus.startPcscd)]
        }
        var checks = [DoctorCheck(check: "pcscd", ok: true, detail: "reachable", fix: nil)]
        let readers = calls.run(by: Deadline(secondsFromNow: 5), { Result { try context.states(try context.readers()) } })
        switch readers {
        case .success(let states)? where !states.isEmpty:
            checks.append(.init(check: "readers", ok: true,
                                detail: states.map { "\($0.reader) (\($0.present ? "card" : "no card"))" }.joined(separator: ", "), fix: nil))
            // Each reader's line of the reader table: how FeliCa cards will be read on it.
            for row in states.map(ReaderRow.init) where !row.samInterface {
                let p = row.profile
                checks.append(.init(check: "reader \(row.name)", ok: true,
                                    detail: p.summary + " (\(p.source))"
                                        + (p.dialects.isEmpty ? "; it reads ISO 14443-4 cards only: FeliCa cards need a reader that passes FeliCa frames (docs/readers.md)" : ""),
                                    fix: nil))
            }
        case .success?:
            checks.append(.init(check: "readers", ok: false, detail: "none connected",
                                fix: "plug in a reader; if it is connected, check `pcsc_scan` and the reader's driver (libccid)"))
        case .failure(let e)?:
            checks.append(.init(check: "readers", ok: false, detail: (e as? TransitError)?.message ?? "\(e)", fix: "restart pcscd"))
        case nil:
            checks.append(.init(check: "readers", ok: false, detail: "pcscd did not list them within 5 s", fix: "restart pcscd"))
        }
        return checks
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

/// One finding of `transit doctor`.
struct DoctorCheck: Encodable {
    let check: String
    let ok: Bool
    let detail: String
    let fix: String?
}
