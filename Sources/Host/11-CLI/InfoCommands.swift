import CardProtocol
import TransitModel
import TransitOutput
import TransitTransport
import TransitPluginHost
extension TransitCommand {
    /// `transit readers`: the readers pcscd knows, the card on each, and each reader's line of the
    /// reader table (docs/readers.md).
    func readers(_ a: Arguments) throws {
        let context = try PCSCContext()
        let states = try context.states(try context.readers())
        let rows = states.map(ReaderRow.init)
        guard !rows.isEmpty else { throw TransitError(.noReader, "no reader is connected") }
        if a.has(.json) { standardOutput(JSONOutput.encode(rows)); return }
        for r in rows {
            let card = r.card ? "card (\(r.technology ?? "")), ATR \(r.atr ?? "")" : "no card"
            standardOutput("\(TerminalText.escape(r.name))\t\(card)\t\(r.samInterface ? "SAM interface, used only when named" : r.profile.summary)")
        }
    }

    /// `transit plugins`: the plugins of plugins.conf in probe order, with path, ABI version and state.
    func plugins(_ a: Arguments) throws {
        let config = try PluginConfig.load(explicit: a.value(.config))
        let loaded = PluginLoader.load(config)
        struct Row: Encodable {
            let name: String; let path: String; let abiVersion: UInt32?; let state: String; let reason: String?
            let technology: String?; let systemCodes: [String]; let options: [String: String]
        }
        let rows = loaded.map { p -> Row in
            let (state, reason): (String, String?) = {
                switch p.state {
                case .loaded: return ("loaded", nil)
                case .refused(let why): return ("refused", why)
                case .misconfigured(let why): return ("misconfigured", why)
                }
            }()
            return Row(name: p.name, path: p.path, abiVersion: p.abiVersion, state: state,
                       reason: reason, technology: p.technology?.rawValue,
                       systemCodes: p.systemCodes.map(HexFormat.string),
                       options: p.entry.options)
        }
        if a.has(.json) {
            standardOutput(JSONOutput.encode(rows))
        } else {
            let e = TerminalText.escape
            standardOutput("plugins.conf: \(e(config.path))")
            for r in rows {
                let abi = r.abiVersion.map { "ABI \($0)" } ?? "ABI -"
                standardOutput("\(e(r.name))\t\(r.state)\t\(abi)\t\(e(r.path))" + (r.reason.map { "\t(\(e($0)))" } ?? ""))
            }
        }
        // A conf with a plugin that cannot be used is a configuration to fix: scripts must tell.
        if rows.contains(where: { $0.state != "loaded" }) { throw QuietExit(code: TransitError.Kind.config.exitCode) }
    }
}

