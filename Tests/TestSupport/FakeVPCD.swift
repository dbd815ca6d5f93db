import Foundation
import TransitFiles
import TransitModel

/// vpcd's side of the link, for one test: listens on 127.0.0.1 (a port the kernel picks), takes
/// the simulator's connection and exchanges messages as vpcd does (a 2-byte big-endian length, then
/// the payload; a 1-byte payload is a control code, 4 asks the ATR).
public final class FakeVPCD {
    private var listener: Int32
    private var link: Int32 = -1
    public let port: UInt16

    public init() throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.listener = listener
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = 0
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, length) == 0 && getsockname(listener, $0, &length) == 0 }
        }
        guard listener >= 0, bound, listen(listener, 1) == 0 else {
            let why = String(cString: strerror(errno))
            if listener >= 0 { Glibc.close(listener) }
            throw Failure("cannot listen: \(why)")
        }
        port = UInt16(bigEndian: addr.sin_port)
    }

    deinit { close() }

    /// Sends `payload` and returns the simulator's answer (waiting up to ten seconds for it to connect).
    public func exchange(_ payload: [UInt8]) throws -> [UInt8] {
        try send(payload)
        let deadline = Deadline(secondsFromNow: 10)
        guard let header = try? Descriptor.read(link, count: 2, until: deadline),
              let answer = try? Descriptor.read(link, count: Int(header[0]) << 8 | Int(header[1]), until: deadline) else {
            throw Failure("no answer from the simulator")
        }
        return answer
    }

    /// Sends `payload` without waiting for an answer, as vpcd sends a control code (0 power off,
    /// 2 reset) that the card does not answer.
    public func send(_ payload: [UInt8]) throws {
        if link < 0 {
            guard Descriptor.readable(listener, until: Deadline(secondsFromNow: 10)) else { throw Failure("the simulator never connected") }
            link = accept(listener, nil, nil)
            guard link >= 0 else { throw Failure("accept: \(String(cString: strerror(errno)))") }
        }
        let message = [UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)] + payload
        guard message.withUnsafeBytes({ Descriptor.writeAll(link, $0) }) else { throw Failure("send: \(String(cString: strerror(errno)))") }
    }

    /// Closes the link and the listener: the simulator sees vpcd go and exits.
    public func close() {
        if link >= 0 { Glibc.close(link); link = -1 }
        if listener >= 0 { Glibc.close(listener); listener = -1 }
    }

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
        init(_ description: String) { self.description = description }
    }
}
