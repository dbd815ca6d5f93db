import Foundation
import TransitFiles
import TransitModel

/// One end of the pipes between the host and its plugin worker. A message is a type byte, a 32-bit
/// big-endian length and that many bytes.
package final class WorkerLink: Sendable {
    package enum Kind: UInt8 {
        // host → worker
        case start = 0x01, answer = 0x02, failure = 0x03
        // worker → host
        case transmit = 0x11, log = 0x12, plugin = 0x13, outcome = 0x14, refused = 0x15, done = 0x16
    }

    /// The largest message either side accepts (a whole card reading with its history is far less).
    package static let maxMessage = 16 << 20

    package let input: Int32, output: Int32

    package init(input: Int32, output: Int32) { self.input = input; self.output = output }

    package func close() {
        Foundation.close(input)
        Foundation.close(output)
    }

    /// Sends one message; false when the other side is gone.
    @discardableResult
    package func send(_ kind: Kind, _ payload: [UInt8] = []) -> Bool {
        let n = UInt32(payload.count)
        let message = [kind.rawValue, UInt8(n >> 24), UInt8(n >> 16 & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n & 0xFF)] + payload
        return message.withUnsafeBytes { Descriptor.writeAll(output, $0) }
    }

    @discardableResult
    package func send<T: Encodable>(_ kind: Kind, json value: T) -> Bool {
        send(kind, Array((try? JSONEncoder().encode(value)) ?? Data()))
    }

    package enum Received {
        case message(Kind, [UInt8])
        /// The other side closed its end (it ended, or crashed).
        case closed
        /// Nothing, or only part of a message, came before the deadline.
        case timedOut
        /// What came is no message: an unknown type, or a length past `maxMessage`.
        case broken
    }

    /// The next message, waiting until `deadline` (nil: for ever).
    package func receive(until deadline: Deadline? = nil) -> Received {
        switch read(5, until: deadline) {
        case .timeout: return .timedOut
        case .eof: return .closed
        case .bytes(let h):
            let length = Int(h[1]) << 24 | Int(h[2]) << 16 | Int(h[3]) << 8 | Int(h[4])
            guard let kind = Kind(rawValue: h[0]), length <= Self.maxMessage else { return .broken }
            switch read(length, until: deadline) {
            case .bytes(let payload): return .message(kind, payload)
            case .timeout: return .timedOut
            case .eof: return .closed
            }
        }
    }

    private enum Chunk {
        case bytes([UInt8]), timeout, eof
    }

    private func read(_ count: Int, until deadline: Deadline?) -> Chunk {
        do {
            return try Descriptor.read(input, count: count, until: deadline).map(Chunk.bytes) ?? .eof
        } catch {
            return .timeout
        }
    }
}
