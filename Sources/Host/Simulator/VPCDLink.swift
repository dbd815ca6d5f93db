import Foundation
import TransitModel
import TransitFiles

/// The TCP link to vsmartcard's vpcd driver inside pcscd. vpcd listens; the virtual card connects.
/// Each message is a 2-byte big-endian length and a payload; a 1-byte payload is a control code
/// (0 power off, 1 power on, 2 reset, 4 ATR request), anything longer an APDU (vsmartcard docs).
final class VPCDLink {
    private let fd: Int32

    /// Connects to 127.0.0.1:`port`, retrying while pcscd starts (up to ten seconds). `say` hears
    /// once that it is still trying, and once that it is connected.
    init(port: UInt16, say: (String) -> Void = { _ in }) throws {
        let deadline = Deadline(secondsFromNow: 10)
        var tries = 0
        while true {
            let s = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var addr = sockaddr_in()
            addr.sin_family = sa_family_t(AF_INET)
            addr.sin_port = port.bigEndian
            addr.sin_addr.s_addr = inet_addr("127.0.0.1")
            let rc = withUnsafePointer(to: &addr) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(s, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            if rc == 0 {
                var one: Int32 = 1
                setsockopt(s, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
                fd = s
                say("connected to vpcd on 127.0.0.1:\(port): the card is on the virtual reader")
                return
            }
            close(s)
            tries += 1
            if tries == 5 { say("nothing listens on 127.0.0.1:\(port) yet: still trying for 10 s (is pcscd running with vsmartcard-vpcd?)") }
            guard !deadline.hasPassed else { throw SimulatorError("cannot reach vpcd on 127.0.0.1:\(port): is pcscd running with vsmartcard-vpcd?") }
            Thread.sleep(forTimeInterval: 0.1)
        }
    }

    deinit { close(fd) }

    /// The next message, or nil when vpcd closed the link.
    func receive() throws -> [UInt8]? {
        guard let header = try read(2) else { return nil }
        let length = Int(header[0]) << 8 | Int(header[1])
        return try read(length)
    }

    func send(_ payload: [UInt8]) throws {
        let message = [UInt8(payload.count >> 8 & 0xFF), UInt8(payload.count & 0xFF)] + payload
        var sent = 0
        while sent < message.count {
            let n = message[sent...].withUnsafeBytes { Foundation.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { throw SimulatorError("vpcd link closed while sending") }
            sent += n
        }
    }

    /// Pulls the card away: vpcd sees the link close and reports the card removed.
    func pullCard() { shutdown(fd, Int32(SHUT_RDWR)) }

    private func read(_ count: Int) throws -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: count)
        var got = 0
        while got < count {
            // vpcd writes a message's length and payload separately; without a quick ACK, Nagle on its
            // side and delayed ACK on ours add 40 ms to every exchange (TCP_QUICKACK is Linux's, tcp(7)).
            var one: Int32 = 1
            setsockopt(fd, Int32(IPPROTO_TCP), Int32(TCP_QUICKACK), &one, socklen_t(MemoryLayout<Int32>.size))
            let n = buffer[got...].withUnsafeMutableBytes { Descriptor.read(fd, into: $0) }
            if n == 0 { return nil }
            guard n > 0 else { throw SimulatorError("vpcd link: \(String(cString: strerror(errno)))") }
            got += n
        }
        return buffer
    }
}

struct SimulatorError: Error, CustomStringConvertible {
    let description: String
    init(_ d: String) { description = d }
}
