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
        guard let refPath = a.value(.reference) else { throw TransitError(.usage, "verify needs --reference FILE") } // the table requires it
        let reference = try Reference.load(refPath)
        let logPath = a.value(.log) ?? Self.logPath(beside: refPath)
        let (raw, logWritten, reader) = try readCard(a, logPath: logPath)
        let reading = Self.named(raw.withoutPersonalData, stationLibrary(a))
        let mismatches = reference.mismatches(reading)
        let status = mismatches.isEmpty ? "fully verified" : "not verified"
        Termination.shared.disarm()
        if a.has(.json) {
            struct Report: Encodable { let status: String; let mismatches: [String]; let log: String?; let card: CardReading }
            standardOutput(JSONOutput.encode(Report(status: status, mismatches: mismatches, log: logWritten ? logPath : nil, card: reading)))
        } else {
            standardOutput(TextOutput.render(reading, style: .forOutput(verbose: a.has(.verbose))))
            standardOutput("\nVerification: \(status)" + (mismatches.isEmpty ? " (balance and \(reference.journeys.count) journeys match)" : ""))
            for m in mismatches { standardOutput("  mismatch: \(TerminalText.escape(m))") }
            standardOutput(logWritten ? "Log: \(TerminalText.escape(logPath))" : "Log: not written")
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
