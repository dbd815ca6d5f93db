import Foundation
import TransitModel

/// read(2), write(2) and poll(2) on a file descriptor, with EINTR retried here and nowhere else:
/// the files `transit` writes and reads, the worker's pipes, the simulator's vpcd socket.
package enum Descriptor {
    /// Writes every byte; false when the descriptor fails or takes nothing (errno says why).
    package static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        var done = 0
        while done < bytes.count {
            let n = write(fd, base + done, bytes.count - done)
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { return false }
            done += n
        }
        return true
    }

    /// One read of at most `buffer.count` bytes: the count read, 0 at the end, -1 on failure (errno).
    package static func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) -> Int {
        while true {
            let n = Foundation.read(fd, buffer.baseAddress, buffer.count)
            if n < 0, errno == EINTR { continue }
            return n
        }
    }

    /// Exactly `count` bytes, or nil when the descriptor ends or fails first; before each read,
    /// waits for input until `deadline` (nil: for ever) and throws `TimedOut` past it.
    package static func read(_ fd: Int32, count: Int, until deadline: Deadline? = nil) throws(TimedOut) -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: count)
        var got = 0
        while got < count {
            if let deadline, !readable(fd, until: deadline) { throw TimedOut() }
            let n = bytes[got...].withUnsafeMutableBytes { read(fd, into: $0) }
            guard n > 0 else { return nil }
            got += n
        }
        return bytes
    }

    /// True once `fd` has input (or its end) before `deadline`.
    package static func readable(_ fd: Int32, until deadline: Deadline) -> Bool {
        while true {
            let ms = Int32(max(0, min(Double(Int32.max), deadline.secondsLeft * 1000)).rounded(.up))
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let r = poll(&p, 1, ms)
            if r < 0, errno == EINTR { continue }
            return r != 0
        }
    }

    /// Nothing came before the deadline.
    package struct TimedOut: Error {}
}
