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
        if let problem = settings.problem { standardError("transit: \(problem)"); return }
        guard settings.save else { return }
        do {
            let result = try Archive.retryingWhileBusy { () -> (String, Archive.Stored)? in
                guard let archive = try Archive.open(settings, create: true) else { return nil }
                return (archive.path, try archive.store(reading, command: command, reader: reader))
            }
            if let (path, stored) = result, let why = stored.keptApart {
                standardError("transit: this read of card \(reading.serialNumber) contradicts its history in \(path) (\(why)): "
                    + "it is kept as a read of its own, apart from the card's timeline")
            }
        } catch {
            // Which file, and why: an archive's SQLite failure says its file (`SQLiteDatabase.Failure`).
            standardError("transit: the read was not saved to the history: \(TransitError(error, while: "saving to the history").message)")
        }
    }
}
