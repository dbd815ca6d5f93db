import Foundation
import TransitFiles

/// `--log FILE`: one line an exchange appended, command and answer in hex. The file is opened once,
/// before vpcd is reached, the way `transit` writes files (`PrivateFile.openForAppending`): its
/// folders walked from `/` without following a link and each root's or the user's and writable by
/// no one else unless sticky; the file itself opened `O_APPEND | O_NOFOLLOW | O_CREAT`, made 0600,
/// and refused unless it is a private regular file of the user's own.
final class ExchangeLog {
    private let fd: Int32
    private let path: String

    /// Opens `path`; throws a `SimulatorError` naming it and saying why it may not be used.
    init(path: String) throws {
        do {
            fd = try PrivateFile.openForAppending(path)
        } catch {
            throw SimulatorError("cannot append to the log \(path): \(error)")
        }
        self.path = path
    }

    deinit { close(fd) }

    /// Appends `line` and a newline.
    func append(_ line: String) throws {
        let bytes = Array((line + "\n").utf8)
        guard bytes.withUnsafeBytes({ Descriptor.writeAll(fd, $0) }) else {
            throw SimulatorError("cannot append to the log \(path): \(String(cString: strerror(errno)))")
        }
    }
}
