import Foundation
import TransitModel
import TransitOutput
import TransitReader

extension TransitCommand {
    /// `transit doctor`: checks what a read needs — pcscd, readers, the conf and each plugin — and
    /// says what to fix. Exit 1 when something is wrong.
    func doctor(_ a: Arguments) throws {
        var checks = [DoctorCheck]()
        checks += Self.pcscChecks()
        checks += Self.pluginChecks(a.value("config"))
        if a.has("json") {
            standardOutput(JSONOutput.encode(checks))
        } else {
            for c in checks {
                standardOutput("\(c.ok ? "ok     " : "problem") \(c.check): \(TerminalText.escape(c.detail))"
                               + (c.fix.map { "\n        fix: \($0)" } ?? ""))
            }
        }
        if checks.contains(where: { !$0.ok }) { throw QuietExit(code: 1) }
    }

    private static func pcscChecks() -> [DoctorCheck] {
        // Each call has a deadline: a stuck pcscd is a finding, not a hang.
        guard let connected = BlockingCall.run(within: 5, { Result { try PCSCContext() } }) else {
            return [.init(check: "pcscd", ok: false, detail: "did not answer within 5 s", fix: "restart it: systemctl restart pcscd")]
        }
        let context: PCSCContext
        switch connected {
        case .success(let c): context = c
        case .failure(let e):
            return [.init(check: "pcscd", ok: false, detail: (e as? TransitError)?.message ?? "\(e)",
                          fix: "install and start it: apt install pcscd; systemctl start pcscd.socket")]
        }
        var checks = [DoctorCheck(check: "pcscd", ok: true, detail: "reachable", fix: nil)]
        let readers = BlockingCall.run(within: 5, { Result { try context.states(try context.readers()) } })
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

/// One finding of `transit doctor`.
struct DoctorCheck: Encodable {
    let check: String
    let ok: Bool
    let detail: String
    let fix: String?
}
