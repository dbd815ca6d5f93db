import Foundation

/// A pseudo-terminal to give a command as one of its streams: what the command says only on a
/// terminal (a long wait's line, see WaitSpeaker) is read on the other side, so a test waits for
/// that event by a deadline.
public final class PseudoTerminal {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    private let master: Int32
    /// The terminal side, for the command (`Process.standardError = terminal.terminal`).
    public let terminal: FileHandle
    private var output = Data()

    public init() throws {
        // Glibc's module leaves out the XSI pseudo-terminal calls: they are looked up in libc.
        guard let openpt = Self.libc("posix_openpt", as: (@convention(c) (Int32) -> Int32).self),
              let grantpt = Self.libc("grantpt", as: (@convention(c) (Int32) -> Int32).self),
              let unlockpt = Self.libc("unlockpt", as: (@convention(c) (Int32) -> Int32).self),
              let ptsname = Self.libc("ptsname", as: (@convention(c) (Int32) -> UnsafeMutablePointer<CChar>?).self) else {
            throw Failure(description: "libc has no posix_openpt, grantpt, unlockpt or ptsname")
        }
        master = openpt(O_RDWR | O_NOCTTY)
        guard master >= 0 else { throw Failure(description: "posix_openpt: \(String(cString: strerror(errno)))") }
        guard grantpt(master) == 0, unlockpt(master) == 0, let name = ptsname(master) else {
            close(master)
            throw Failure(description: "cannot unlock the pseudo-terminal: \(String(cString: strerror(errno)))")
        }
        let side = open(name, O_RDWR | O_NOCTTY)
        guard side >= 0 else {
            close(master)
            throw Failure(description: "cannot open \(String(cString: name)): \(String(cString: strerror(errno)))")
        }
        terminal = FileHandle(fileDescriptor: side, closeOnDealloc: true)
    }

    deinit { close(master) }

    private static func libc<T>(_ name: String, as type: T.Type) -> T? {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), name) else { return nil } // RTLD_DEFAULT
        return unsafeBitCast(symbol, to: type)
    }

    /// Everything written to the terminal so far (read as far as `wait` read it).
    public var text: String { String(decoding: output, as: UTF8.self) }

    /// Reads what the command writes until it contains `text` (false at the deadline).
    public func wait(for text: String, timeout: Double = 10) -> Bool {
        let end = Date().addingTimeInterval(timeout)
        while !self.text.contains(text) {
            let left = end.timeIntervalSinceNow
            guard left > 0 else { return false }
            var p = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
            guard poll(&p, 1, Int32(left * 1000) + 1) > 0 else { continue }
            var chunk = [UInt8](repeating: 0, count: 4096)
            let n = read(master, &chunk, chunk.count)
            if n < 0, errno == EINTR { continue }
            // EIO: no process holds the terminal side any more; nothing more will come.
            guard n > 0 else { return self.text.contains(text) }
            output.append(contentsOf: chunk[0 ..< n])
        }
        return true
    }
}
