import Foundation
import TransitModel
import TransitOutput
import TransitEngine

extension TransitCommand {
    /// `transit verify --reference REF.json`: reads the card (or a --card file) and compares
    /// it with what the user noted from a ticket machine. "not verified" when the card was read but
    /// something differs (each mismatch names the field and both values), "fully verified" only
    /// when the balance and every listed journey match. Writes the log bundle beside
    /// the reference. A log that cannot be written is said on stderr ("log" absent from the JSON,
    /// "Log: not written" in text); the exit code stays the verification's (0 or 1).
    func verify(_ a: Arguments) throws {
        guard let refPath = a.value(.reference) else { throw TransitError(.usage, L10n.words("verify needs --reference FILE")) } // the table requires it
        let reference = try Reference.load(refPath)
        let logPath = a.value(.log) ?? Self.logPath(beside: refPath)
        let (raw, logWritten, reader) = try readCard(a, logPath: logPath)
        let reading = Self.named(raw.withoutPersonalData, stationLibrary(a))
        let mismatches = reference.mismatchWords(reading)
        Termination.shared.disarm()
        if a.has(.json) {
            // Scripts read the English: "fully verified" or "not verified", and each mismatch.
            let status = mismatches.isEmpty ? "fully verified" : "not verified"
            struct Report: Encodable { let status: String; let mismatches: [String]; let log: String?; let card: CardReading }
            standardOutput(JSONOutput.encode(Report(status: status, mismatches: mismatches.map(\.english), log: logWritten ? logPath : nil, card: reading)))
        } else {
            standardOutput(TextOutput.render(reading, style: .forOutput(verbose: a.has(.verbose))))
            standardOutput("\n" + (mismatches.isEmpty
                ? L10n.trn("Verification: fully verified (balance and %1$s journey match)", "Verification: fully verified (balance and %1$s journeys match)",
                           reference.journeys.count, String(reference.journeys.count))
                : L10n.tr("Verification: not verified")))
            for m in mismatches { standardOutput("  " + L10n.tr("mismatch: %1$s", TerminalText.escape(m.said))) }
            standardOutput(logWritten ? L10n.tr("Log: %1$s", TerminalText.escape(logPath)) : L10n.tr("Log: not written"))
        }
        save(reading, command: "verify", reader: reader, save: !a.has(.noSave))
        // A read that does not match the reference is not an error of the read, but scripts must tell.
        if !mismatches.isEmpty { throw QuietExit(code: 1) }
    }

    /// REF.json → REF.log.json in the same folder.
    static func logPath(beside reference: String) -> String {
        let url = URL(fileURLWithPath: reference)
        let base = url.deletingPathExtension().lastPathComponent
        return url.deletingLastPathComponent().appendingPathComponent("\(base).log.json").path
    }
}
