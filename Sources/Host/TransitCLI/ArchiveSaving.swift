import TransitArchive
import TransitModel
extension TransitCommand {
    /// Keeps a successful read in the history archive, unless `save` is false or transit.conf says
    /// `save = no`. Runs after the read was printed: whatever happens here, the read is not lost —
    /// an archive that cannot be used (read-only, corrupt, from a newer transit, a planted symlink)
    /// is one line on stderr and the command keeps its exit code. A read that contradicts the card's
    /// timeline is kept apart from it and said on stderr.
    func save(_ reading: CardReading, command: String, reader: String, save: Bool, settings: ArchiveSettings = .load()) {
        guard save else { return }
        if let problem = settings.problem { standardError("transit: \(problem.said)"); return }
        guard settings.save else { return }
        do {
            let result = try Archive.retryingWhileBusy { () -> (String, Archive.Stored)? in
                guard let archive = try Archive.open(settings, create: true) else { return nil }
                return (archive.path, try archive.store(reading, command: command, reader: reader))
            }
            if let (path, stored) = result, let why = stored.keptApart {
                // TRANSLATORS: %3$s is why, in English (it is kept with the read in the archive).
                standardError("transit: " + L10n.tr("this read of card %1$s contradicts its history in %2$s (%3$s): it is kept as a read of its own, apart from the card's timeline",
                                                    reading.serialNumber, path, why))
            }
        } catch {
            // Which file, and why: an archive's SQLite failure says its file (`SQLiteDatabase.Failure`).
            standardError("transit: " + L10n.tr("the read was not saved to the history: %1$s", TransitError(error, while: "saving to the history").text))
        }
    }
}
