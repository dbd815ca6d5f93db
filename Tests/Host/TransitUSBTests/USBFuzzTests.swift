import CardProtocol
import Foundation
import TestSupport
import TransitModel
import TransitUSB
import XCTest

/// A hostile USB device posing as an RC-S380 (`HostileRCS380Pipe`): every open, sense and read
/// through the real Port-100 driver and `RCS380Channel` ends cleanly — a result whose frames hold
/// their lengths, or a documented error — and by its deadline. A seeded short run here; a long one
/// with scripts/fuzz_usb.sh (FUZZ_USB_RUNS, FUZZ_USB_SEED).
final class USBFuzzTests: XCTestCase {
    /// What a hostile reader may end a read with (README "Errors": communication exit 5, sessionLost 6).
    static let clean: Set<TransitError.Kind> = [.communication, .sessionLost, .malformedResponse]

    struct Tally { var runs = 0, cards = 0, reads = 0, answers = 0, errors = [String: Int](), unclean = [String](), slowest = 0.0 }

    func testMutatedPort100AnswersEndEveryReadCleanly() throws {
        let env = ProcessInfo.processInfo.environment
        let runs = env["FUZZ_USB_RUNS"].flatMap(Int.init) ?? 400
        let seed = env["FUZZ_USB_SEED"].flatMap(UInt64.init) ?? 0x36_2026_1202
        var tally = Tally()
        var mutations = [String: Int]()
        let started = Date()
        for run in 0 ..< runs {
            let pipe = HostileRCS380Pipe(seed: seed &+ UInt64(run))
            one(pipe, &tally)
            for (k, n) in pipe.mutations { mutations[k, default: 0] += n }
        }
        let summary = "USB fuzz: \(tally.runs) runs (seed \(seed)) in \(String(format: "%.1f", Date().timeIntervalSince(started))) s: "
            + "\(tally.cards) cards sensed, \(tally.reads) reads whole, \(tally.answers) card answers; errors \(tally.errors.sorted { $0.key < $1.key }); "
            + "mutations \(mutations.sorted { $0.key < $1.key }); slowest step \(String(format: "%.3f", tally.slowest)) s"
        print(summary)
        XCTAssertEqual(tally.unclean, [], summary)
        XCTAssertGreaterThan(tally.cards, runs / 4, "most runs reach the card: \(summary)")
        XCTAssertGreaterThan(tally.errors.values.reduce(0, +), runs / 10, "the mutations reach the driver: \(summary)")
        XCTAssertGreaterThan(tally.reads, runs / 10, summary)
    }

    /// Open, sense at 212 kbit/s, then GET DATA and three reads through the channel, as a scan does.
    private func one(_ pipe: HostileRCS380Pipe, _ tally: inout Tally) {
        tally.runs += 1
        let reader = RCS380(port: Port100(pipe: pipe, name: "the hostile RC-S380", commandTimeout: 0.03))
        // Time is the pipe's: its silent reads move it, as a real reader's silence takes real time.
        let clock = pipe.clock
        func step<T>(_ what: String, _ body: () throws(TransitError) -> T) -> T? {
            let t = clock.now
            defer { tally.slowest = max(tally.slowest, clock.seconds(since: t)) }
            do throws(TransitError) {
                let value = try body()
                if clock.seconds(since: t) > 1 { tally.unclean.append("\(what) took \(clock.seconds(since: t)) s") }
                return value
            } catch {
                tally.errors[error.kind.rawValue, default: 0] += 1
                if !Self.clean.contains(error.kind) { tally.unclean.append("\(what): \(error.kind): \(error.message)") }
                if error.message.isEmpty { tally.unclean.append("\(what): an error with no words") }
                return nil
            }
        }
        guard step("open", { () throws(TransitError) in try reader.open(by: clock.deadline(in: 0.5)) }) != nil,
              let sensed = step("sense", { () throws(TransitError) in try reader.sense(bitRate: .kbps212, deadline: clock.deadline(in: 0.5)) }),
              let card = sensed else { return }
        tally.cards += 1
        if card.idm.count != 8 || card.pmm.count != 8 { tally.unclean.append("a target of \(card.idm.count)/\(card.pmm.count) bytes") }
        let channel = RCS380Channel(reader: reader, target: card, readerName: "the hostile RC-S380", exchangeTimeout: 0.2, frameTimeout: 0.02)
        let deadline = clock.deadline(in: 1)
        let read: [UInt8] = [0x10, 0x06] + card.idm + [0x01, 0x0F, 0x09, 0x01, 0x80, 0x00]
        var whole = true
        for apdu in [[0xFF, 0xCA, 0x00, 0x00, 0x00], read, read, read] as [[UInt8]] {
            guard let answer = step("transmit", { () throws(TransitError) in try channel.transmit(apdu, by: deadline) }) else { whole = false; break }
            tally.answers += 1
            // A card frame comes back whole, its length byte its length; anything else is a status word alone.
            if apdu[0] != 0xFF, answer.count > 2, Int(answer[0]) != answer.count - 2 {
                tally.unclean.append("a frame of \(answer.count - 2) bytes whose length byte says \(answer[0])")
            }
        }
        if whole { tally.reads += 1 }
    }
}
