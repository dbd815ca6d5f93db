import Foundation
import TransitModel
import TransitTransport

/// pcscd's readers as a `ReaderSource`: listed with their cards' ATRs; pcscd holds them, so there
/// is nothing to give back.
package final class PCSCReaderSource: ReaderSource {
    package init() {}

    package var transport: ReaderTransport { .pcsc }

    package func list(by deadline: Deadline) throws -> ReaderListing {
        let context: PCSCContext
        do {
            context = try PCSCContext()
        } catch let e as TransitError where e.pcscCode == PCSCStatus.noService.code {
            return ReaderListing(readers: [], serviceRunning: false)
        }
        return ReaderListing(readers: try context.states(try context.readers()).map {
            ListedReader(name: $0.reader, transport: .pcsc, atr: $0.present ? $0.atr : nil)
        })
    }

    package func giveBackAll() {}

    package func search(filter: String?, exchangeTimeout: Double, log: @escaping (String) -> Void) -> CardSearch {
        PCSCCardSearch(filter: filter, exchangeTimeout: exchangeTimeout)
    }

    package func watch(filters: [String], exchangeTimeout: Double, log: @escaping (String) -> Void, handler: TapHandler) -> TapWatch {
        PCSCTapWatch(filters: filters, exchangeTimeout: exchangeTimeout, handler: handler)
    }

    /// pcscd reachable, its readers listed, each reader's line of the reader table; every call
    /// has a deadline: a stuck pcscd is a finding, not a hang.
    package func check() -> SourceCheck {
        let findings = checks()
        return SourceCheck(findings: findings, readers: findings.contains { $0.check == "readers" && $0.ok } ? 1 : 0,
                           serviceRunning: !findings.contains { $0.check == "pcscd" && !$0.ok })
    }

    /// The check of pcscd's readers: "readers" to scripts (`doctor --json`).
    // TRANSLATORS: what doctor checked: the PC/SC readers pcscd lists.
    private static var readersCheck: L10n.Words { L10n.words("readers") }

    private func checks() -> [ReaderFinding] {
        // Each call has a deadline: a stuck pcscd is a finding, not a hang.
        let calls = CallThread(name: "doctor")
        defer { calls.close() }
        guard let connected = calls.run(by: Deadline(secondsFromNow: 5), { Result { try PCSCContext() } }) else {
            return [ReaderFinding(check: .init("pcscd"), ok: false, detail: L10n.words("did not answer within 5 s"), fix: L10n.words("restart it: systemctl restart pcscd"))]
        }
        let context: PCSCContext
        switch connected {
        case .success(let c): context = c
        case .failure(let e as TransitError) where e.pcscCode == PCSCStatus.noService.code:
            return [ReaderFinding(check: .init("pcscd"), ok: false, detail: L10n.words("not running: only PC/SC readers need it"), fix: PCSCStatus.startPcscdWords)]
        case .failure(let e):
            return [ReaderFinding(check: .init("pcscd"), ok: false, detail: L10n.Words(error: e), fix: PCSCStatus.startPcscdWords)]
        }
        var checks = [ReaderFinding(check: .init("pcscd"), ok: true, detail: L10n.words("reachable"), fix: nil)]
        let readers = calls.run(by: Deadline(secondsFromNow: 5), { Result { try context.states(try context.readers()) } })
        switch readers {
        case .success(let states)? where !states.isEmpty:
            checks.append(ReaderFinding(check: Self.readersCheck, ok: true,
                                detail: states.map { L10n.Words($0.reader) + .init(" (") + ($0.present ? L10n.words("card") : L10n.words("no card")) + .init(")") }
                                    .joined(separator: .init(", ")), fix: nil))
            // Each reader's line of the reader table: how FeliCa cards will be read on it.
            for state in states where !ReaderProfile.isSAMSlot(state.reader) {
                let p = ReaderProfile.matching(state.reader)
                checks.append(ReaderFinding(check: L10n.words("reader %1$s", .init(state.reader)), ok: true,
                                    detail: p.summaryWords + .init(" (\(p.source))")
                                        + (p.dialects.isEmpty ? L10n.words("; it reads ISO 14443-4 cards only: FeliCa cards need a reader that passes FeliCa frames (docs/readers.md)") : .init("")),
                                    fix: nil))
            }
        case .success?:
            checks.append(ReaderFinding(check: Self.readersCheck, ok: false, detail: L10n.words("none connected"),
                                fix: L10n.words("plug in a reader; if it is connected, check `pcsc_scan` and the reader's driver (libccid)")))
        case .failure(let e)?:
            checks.append(ReaderFinding(check: Self.readersCheck, ok: false, detail: L10n.Words(error: e), fix: L10n.words("restart pcscd")))
        case nil:
            checks.append(ReaderFinding(check: Self.readersCheck, ok: false, detail: L10n.words("pcscd did not list them within 5 s"), fix: L10n.words("restart pcscd")))
        }
        return checks
    }
}

