import CardProtocol
import TransitModel
import TransitOutput
import TransitTransport
import TransitPluginHost
import TransitWatch
extension TransitCommand {
    /// `transit readers`: every reader source's readers (pcscd's, the USB readers transit drives), the card on each, and
    /// each reader's line of the reader table (docs/readers.md). With only USB readers, pcscd need not run.
    func readers(_ a: Arguments) throws {
        var rows = [ReaderRow]()
        var pcscdRunning = true
        for source in ReaderSources.all {
            let listing = try source.list(by: Deadline(secondsFromNow: ReadLimits().exchangeTimeout))
            rows += listing.readers.map(ReaderRow.init)
            // pcscd not running: only PC/SC readers need it, said below when nothing else is found either.
            pcscdRunning = pcscdRunning && listing.serviceRunning
        }
        guard !rows.isEmpty else { throw NoReaderFound(pcscdRunning: pcscdRunning).error }
        if a.has(.json) { standardOutput(JSONOutput.encode(rows)); return }
        for r in rows {
            let card = r.problem.map { L10n.tr("cannot look: %1$s", $0) }
                ?? (r.card ? L10n.tr("card (%1$s), ATR %2$s", r.technology ?? "", r.atr ?? "") : L10n.tr("no card"))
            let line = r.samInterface ? L10n.tr("SAM interface, used only when named") : ReaderProfile.matching(r.name).summaryWords.said
            standardOutput("\(TerminalText.escape(r.name))\t\(TerminalText.escape(card))\t\(line)")
        }
    }

    /// `transit plugins`: the plugins of plugins.conf in probe order, with path, ABI version and state.
    func plugins(_ a: Arguments) throws {
        let config = try PluginConfig.load(explicit: a.value(.config))
        let loaded = PluginLoader.load(config)
        struct Row: Encodable {
            let name: String; let path: String; let abiVersion: UInt32?; let state: String; let reason: String?
            let technology: String?; let systemCodes: [String]; let options: [String: String]
            /// The state and reason in the chosen language, for the text (the JSON's are English).
            var said: (state: String, reason: String?) = ("", nil)
            enum CodingKeys: String, CodingKey { case name, path, abiVersion, state, reason, technology, systemCodes, options }
        }
        let rows = loaded.map { p -> Row in
            // TRANSLATORS: a plugin's state in `transit plugins`.
            let (state, reason): (L10n.Words, L10n.Words?) = {
                switch p.state {
                case .loaded: return (L10n.words("loaded"), nil)
                case .refused(let why): return (L10n.words("refused"), why)
                case .misconfigured(let why): return (L10n.words("misconfigured"), why)
                }
            }()
            var row = Row(name: p.name, path: p.path, abiVersion: p.abiVersion, state: state.english,
                          reason: reason?.english, technology: p.technology,
                          systemCodes: p.systemCodes.map(HexFormat.string),
                          options: p.entry.options)
            row.said = (state.said, reason?.said)
            return row
        }
        if a.has(.json) {
            standardOutput(JSONOutput.encode(rows))
        } else {
            let e = TerminalText.escape
            standardOutput(L10n.tr("plugins.conf: %1$s", e(config.path)))
            for r in rows {
                let abi = r.abiVersion.map { "ABI \($0)" } ?? "ABI -"
                standardOutput("\(e(r.name))\t\(r.said.state)\t\(abi)\t\(e(r.path))" + (r.said.reason.map { "\t(\(e($0)))" } ?? ""))
            }
            // Where a drop-in must go to be read, and those written where they are not.
            let read = PluginConfig.dropIns(beside: config.path).map { String($0.split(separator: "/").last ?? "") }
            standardOutput(L10n.tr("drop-ins read from %1$s: %2$s", e(PluginConfig.dropInFolder(beside: config.path)),
                                   read.isEmpty ? L10n.tr("none") : read.map(e).joined(separator: ", ")))
            for unread in PluginConfig.unreadDropIns(using: config.path) {
                standardOutput(L10n.tr("not read: %1$s (%2$s): it is not beside the plugins.conf in use", e(unread.folder), unread.files.map(e).joined(separator: ", ")))
            }
        }
        // A conf with a plugin that cannot be used is a configuration to fix: scripts must tell.
        if rows.contains(where: { $0.state != "loaded" }) { throw QuietExit(code: TransitError.Kind.config.exitCode) }
    }
}

