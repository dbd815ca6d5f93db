import CardProtocol
import Foundation
import TransitModel

/// Passes exchanges to another channel and keeps each one, with its time, for the log bundle.
package final class RecordingChannel: ReaderChannel {
    package let inner: ReaderChannel
    package private(set) var exchanges = [RecordedExchange]()

    package init(_ inner: ReaderChannel) { self.inner = inner }

    package var readerName: String { inner.readerName }
    package var atr: [UInt8] { inner.atr }
    package var maxCommand: Int? { inner.maxCommand }

    package func transmit(_ apdu: [UInt8], by deadline: Deadline) throws(TransitError) -> [UInt8] {
        let start = Deadline.now
        func ms() -> Double { (Deadline.now.seconds(since: start) * 10_000).rounded() / 10 }
        do {
            let answer = try inner.transmit(apdu, by: deadline)
            exchanges.append(.init(command: StorageCommand.recorded(apdu), response: HexFormat.string(answer), error: nil, ms: ms()))
            return answer
        } catch {
            exchanges.append(.init(command: StorageCommand.recorded(apdu), response: nil, error: error, ms: ms()))
            throw error
        }
    }

    /// The reader's answer to FF CA (UID / IDm), without its status word.
    package var uid: String? {
        exchanges.first { $0.command == "FFCA000000" }?.response.flatMap { $0.hasSuffix("9000") ? String($0.dropLast(4)) : nil }
    }

    /// The first AID whose SELECT (by name) succeeded.
    package var initialAID: String? {
        for e in exchanges where e.command.hasPrefix("00A40400") && e.response?.hasSuffix("9000") == true {
            let bytes = Array(e.command.utf8)
            guard bytes.count >= 10, let lc = Int(String(decoding: bytes[8 ..< 10], as: UTF8.self), radix: 16),
                  bytes.count >= 10 + 2 * lc else { continue }
            return String(decoding: bytes[10 ..< 10 + 2 * lc], as: UTF8.self)
        }
        return nil
    }
}
