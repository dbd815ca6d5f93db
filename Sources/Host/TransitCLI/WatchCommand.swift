import Foundation
import TransitArchive
import TransitModel
import TransitOutput
import TransitEngine
import TransitWatch

extension TransitCommand {
    /// `transit watch`: waits for cards on every reader (or the named ones), reads each tap once and
    /// prints one line (or one JSON line) per card, until Ctrl-C. TransitWatch's `WatchLoop` watches;
    /// this says what to do with each tap (its line, --exec, the archive).
    func watch(_ a: Arguments) throws {
        let dialect = try Self.dialect(a.value(.dialect))
        let specs = try pluginSpecs(a.value(.config))
        let keys = try classicKeys(a) // once for every lane's engine: each file said once
        let limits = try limits(a)
        let stations = stationLibrary(a)
        let settings = ArchiveSettings.load()
        let below = try Self.below(a, settings: settings)
        Termination.shared.arm(exitCode: 0) {} // Ctrl-C ends a watch quietly, with success
        let filters = a.all(.readers)
        // On a terminal, what is watched and how to stop (piped output stays silent).
        if isatty(2) != 0 {
            // TRANSLATORS: %1$s is the reader names asked for, each in quotes, "or" between them.
            standardError("transit: " + (filters.isEmpty ? L10n.tr("watching every reader for cards; Ctrl-C stops")
                : L10n.tr("watching the readers whose names contain %1$s for cards; Ctrl-C stops",
                          filters.map { "\"\($0)\"" }.joined(separator: L10n.tr(" or ")))))
        }
        let execTimeout = try Self.seconds(a, .execTimeout, positive: true) ?? 30
        let exec = a.value(.exec).map { TapCommand(command: $0, timeout: execTimeout, problem: { [standardError] in standardError("transit: \($0)") }) }
        /// A tap's line, its --exec and its place in the archive, for a reader of either kind.
        let report = { (reader: String, result: Result<CardReading, TransitError>) in
            let named = result.map { Self.named($0.withoutPersonalData, stations) }
            let nickname = (try? named.get()).flatMap { Self.nickname(of: $0, settings) }
            standardOutput(WatchLine.text(reader, named, json: a.has(.json), nickname: nickname, below: below))
            exec?.run(json: WatchLine.text(reader, named, json: true, nickname: nickname, below: below), reader: reader)
            // Every tap is kept: a kiosk's audit trail (each lane stores on its own connection).
            if case .success(let reading) = named {
                save(reading, command: "watch", reader: reader, save: !a.has(.noSave), settings: settings)
            }
        }
        try WatchLoop(filters: filters, dialect: dialect, exchangeTimeout: limits.exchangeTimeout,
                      engine: { try readEngine(a, plugins: specs, keys: keys) }, report: report,
                      problem: { standardError("transit: \($0)") }, log: verboseLog(a)).run()
    }
}

extension TransitCommand {
    /// The nickname the archive gives the card read, when it has one; an archive that cannot be
    /// used gives none (the tap's line is never worth less for it).
    static func nickname(of reading: CardReading, _ settings: ArchiveSettings) -> String? {
        guard settings.save, let archive = try? Archive.open(settings, create: false) else { return nil }
        return try? archive.nickname(of: reading)
    }
}
