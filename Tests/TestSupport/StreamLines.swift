import Foundation

/// The lines a running command writes to a pipe, collected as they come (bytes cut at newlines),
/// so a test waits, by a deadline, for the line that says an event happened instead of sleeping a
/// fixed time and hoping it did.
// Unchecked: `lines`, `buffer` and `ended` are used only with `lock` held.
public final class StreamLines: @unchecked Sendable {
    private var lines = [String]()
    private var buffer = Data()
    private var ended = false
    private let lock = NSLock()

    public init() {}

    /// Collects what is written to `pipe` from now on (its read end is read on another thread).
    public convenience init(reading pipe: Pipe) {
        self.init()
        pipe.fileHandleForReading.readabilityHandler = { [self] handle in
            let data = handle.availableData
            if data.isEmpty { handle.readabilityHandler = nil } // end of file: every writer closed it
            take(data)
        }
    }

    /// Takes more bytes; empty data is the end of the stream.
    public func take(_ data: Data) {
        lock.lock(); defer { lock.unlock() }
        if data.isEmpty { ended = true; return }
        buffer.append(data)
        while let nl = buffer.firstIndex(of: 0x0A) {
            lines.append(String(decoding: buffer[buffer.startIndex ..< nl], as: UTF8.self))
            buffer.removeSubrange(buffer.startIndex ... nl)
        }
    }

    /// The whole lines so far.
    public var all: [String] { lock.lock(); defer { lock.unlock() }; return lines }

    /// Waits until `count` lines have come (false on timeout).
    public func wait(for count: Int, timeout: Double = 10) -> Bool {
        wait(timeout: timeout) { $0.count >= count }
    }

    /// Waits until a line contains `text` (false on timeout).
    public func wait(forLineContaining text: String, timeout: Double = 10) -> Bool {
        wait(timeout: timeout) { $0.contains { $0.contains(text) } }
    }

    /// Waits until every writer has closed the pipe, so `all` is all the command wrote (false on timeout).
    public func waitForEnd(timeout: Double = 10) -> Bool {
        let end = Date().addingTimeInterval(timeout)
        while Date() < end {
            lock.lock(); let done = ended; lock.unlock()
            if done { return true }
            Thread.sleep(forTimeInterval: 0.02)
        }
        return false
    }

    private func wait(timeout: Double, until done: ([String]) -> Bool) -> Bool {
        let end = Date().addingTimeInterval(timeout)
        while Date() < end {
            if done(all) { return true }
            Thread.sleep(forTimeInterval: 0.02)
        }
        return done(all)
    }
}
