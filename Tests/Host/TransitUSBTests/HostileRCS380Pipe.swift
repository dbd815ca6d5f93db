import CardProtocol
import Foundation
import TestSupport
import TransitModel
import TransitUSB

/// An RC-S380 that answers like one — every host frame taken and answered after its ACK, the
/// answers those of docs/research/port100.md §"Test vectors" (V1 open, V3–V5 sense, V7 read) — and then
/// mutates them, deterministically for a seed: transfers cut, lengthened, bit-flipped, split,
/// doubled, dropped (a silent reader), swapped for another command's answer or for noise; data
/// changed under checksums made right again (so the answer layer is reached, not only the frame
/// check); LEN fields made to lie; frames longer than any answer. A hostile device on the bus,
/// in process, for `USBFuzzTests`.
final class HostileRCS380Pipe: USBPipe {
    private var random: SplitMix64
    /// The IN transfers waiting to be read.
    private var inbox = [[UInt8]]()
    /// How often an answer is mutated (per cent): low enough that later commands are reached.
    private let rate: Int
    private(set) var mutations = [String: Int]()
    /// The time its silent reads pass on: a test's, so a run costs no real waits.
    let testClock = TestClock()
    var clock: MonotonicClock { testClock }

    init(seed: UInt64, rate: Int = 12) { random = SplitMix64(seed: seed); self.rate = rate }

    static let ack: [UInt8] = [0x00, 0x00, 0xFF, 0x00, 0xFF, 0x00]
    static let idm: [UInt8] = [0x01, 0x01, 0x07, 0x01, 0x26, 0x0C, 0xCA, 0x02]
    static let pmm: [UInt8] = [0x0F, 0x0D, 0x23, 0x04, 0x2F, 0x77, 0x83, 0xFF]

    /// A chip's frame around `data` (docs/research/port100.md §"Frames": LEN little-endian, LCS, DCS, postamble).
    static func frame(_ data: [UInt8]) -> [UInt8] {
        let low = UInt8(data.count & 0xFF), high = UInt8(data.count >> 8 & 0xFF)
        return [0x00, 0x00, 0xFF, 0xFF, 0xFF, low, high, 0 &- (low &+ high)] + data + [0 &- data.reduce(0, &+), 0x00]
    }

    func write(_ bytes: [UInt8], deadline: Deadline) throws(TransitError) {
        if bytes == Self.ack { return } // a reset or a cancel: nothing to answer
        // The host's frame: 00 00 FF FF FF LEN(2) LCS D6 cmd params DCS 00.
        guard bytes.count >= 10, bytes[8] == 0xD6 else { return }
        let command = bytes[9], parameters = Array(bytes[10 ..< bytes.count - 2])
        var answer: [UInt8] = [0xD7, command &+ 1]
        switch command {
        case 0x20: answer += [0x11, 0x01] // GetFirmwareVersion: 1.11 (V1)
        case 0x22: answer += [0x00, 0x01]
        case 0x04: answer += [0, 0, 0, 0, 0x08] + card(parameters.dropFirst(2).map { $0 })
        default: answer += [0x00] // a status: success
        }
        var transfers = [Self.ack, Self.frame(answer)]
        if random.below(100) < rate { mutate(&transfers, answer: answer) }
        inbox += transfers
    }

    /// The card's answer to a FeliCa frame: a Polling's 20 bytes (V5), a read's 29 (V7), a
    /// generic answer to anything else.
    private func card(_ frame: [UInt8]) -> [UInt8] {
        guard frame.count >= 2 else { return [] }
        switch frame[1] {
        case 0x00: return [0x14, 0x01] + Self.idm + Self.pmm + [0x12, 0xFC]
        case 0x06: return [0x1D, 0x07] + Self.idm + [0x00, 0x00, 0x01] + (0x10 ... 0x1F).map { UInt8($0) }
        default: return [0x0C, frame[1] &+ 1] + Self.idm + [0x00, 0x00]
        }
    }

    func read(maxLength: Int, deadline: Deadline) throws(TransitError) -> [UInt8] {
        guard !inbox.isEmpty else {
            // Nothing to send: the bulk read times out (at most a few ms here, so runs stay short).
            testClock.sleep(until: min(deadline, testClock.deadline(in: 0.002)))
            return []
        }
        let next = inbox.removeFirst()
        guard next.count > maxLength else { return next }
        inbox.insert(Array(next.dropFirst(maxLength)), at: 0)
        return Array(next.prefix(maxLength))
    }

    private func mutate(_ transfers: inout [[UInt8]], answer: [UInt8]) {
        let kinds = ["cut", "extend", "flip", "byte", "noACK", "silence", "double", "split", "reframe", "lyingLEN", "other",
                     "noise", "huge", "errorFrame", "ackOnly", "empty"]
        let kind = kinds[random.below(kinds.count)]
        mutations[kind, default: 0] += 1
        let i = random.below(transfers.count)
        switch kind {
        case "cut": transfers[i] = Array(transfers[i].prefix(random.below(transfers[i].count)))
        case "extend": transfers[i] += (0 ..< 1 + random.below(40)).map { _ in random.byte() }
        case "flip":
            guard !transfers[i].isEmpty else { break }
            let at = random.below(transfers[i].count)
            transfers[i][at] ^= 1 << UInt8(random.below(8))
        case "byte":
            guard !transfers[i].isEmpty else { break }
            transfers[i][random.below(transfers[i].count)] = random.byte()
        case "noACK": transfers.removeFirst()
        case "silence": transfers.removeLast()
        case "double": transfers.append(transfers[transfers.count - 1])
        case "split":
            let t = transfers.removeLast(), at = random.below(t.count + 1)
            transfers += [Array(t.prefix(at)), Array(t.dropFirst(at))]
        case "reframe":
            // The data changed, its checksums made right: the answer layer sees it.
            var data = answer
            switch random.below(4) {
            case 0: data = Array(data.prefix(random.below(data.count + 1)))
            case 1: data += (0 ..< 1 + random.below(300)).map { _ in random.byte() }
            case 2: if !data.isEmpty { data[random.below(data.count)] = random.byte() }
            default: if data.count > 7 { data[7] = random.byte() } // the card frame's LEN
            }
            transfers[transfers.count - 1] = Self.frame(data)
        case "lyingLEN":
            var t = transfers[transfers.count - 1]
            guard t.count > 8 else { break }
            let length = random.below(0x1_0000)
            t[5] = UInt8(length & 0xFF); t[6] = UInt8(length >> 8); t[7] = 0 &- (t[5] &+ t[6])
            transfers[transfers.count - 1] = t
        case "other": transfers[transfers.count - 1] = Self.frame([0xD7, random.byte()] + answer.dropFirst(2))
        case "noise": transfers[i] = (0 ..< random.below(64)).map { _ in random.byte() }
        case "huge": transfers[transfers.count - 1] = Self.frame(answer + [UInt8](repeating: 0x5A, count: 1100 + random.below(2000)))
        case "errorFrame": transfers[transfers.count - 1] = [0x00, 0x00, 0xFF, 0xFF, 0xFF]
        case "ackOnly": transfers[transfers.count - 1] = Self.ack
        default: transfers[i] = []
        }
    }
}
