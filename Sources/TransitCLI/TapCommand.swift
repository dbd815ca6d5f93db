import Foundation

/// `watch --exec CMD`: runs CMD (through /bin/sh) for each tap with the watch line's JSON on its
/// standard input and TRANSIT_READER set — one at a time, on a queue of its own, so a slow command
/// never delays a read. CMD's output goes to stderr (stdout stays the watch's lines). At most
/// `maxWaiting` taps wait for their turn; a tap past that is dropped and said.
final class TapCommand: @unchecked Sendable {
    let command: String
    private let problem: (String) -> Void
    private let queue = DispatchQueue(label: "transit.watch.exec")
    private let lock = NSLock()
    private var waiting = 0
    static let maxWaiting = 100

    init(command: String, problem: @escaping (String) -> Void) {
        self.command = command
        self.problem = problem
    }

    func run(json: String, reader: String) {
        lock.lock()
        guard waiting < Self.maxWaiting else {
            lock.unlock()
            problem("--exec: \(Self.maxWaiting) taps already wait for the command; this one (\(reader)) is dropped")
            return
        }
        waiting += 1
        lock.unlock()
        queue.async { [self] in
            defer { lock.lock(); waiting -= 1; lock.unlock() }
            let p = Process()
            p.executableURL = URL(fileURLWithPath: "/bin/sh")
            p.arguments = ["-c", command]
            p.environment = ProcessInfo.processInfo.environment.merging(["TRANSIT_READER": reader]) { $1 }
            let input = Pipe()
            p.standardInput = input
            p.standardOutput = FileHandle.standardError
            p.standardError = FileHandle.standardError
            do {
                try p.run()
                // A command that does not read its input must not block us: the pipe takes a line.
                try? input.fileHandleForWriting.write(contentsOf: Data((json + "\n").utf8))
                try? input.fileHandleForWriting.close()
                p.waitUntilExit()
                if p.terminationStatus != 0 { problem("--exec: the command exited \(p.terminationStatus) for the tap on \(reader)") }
            } catch {
                problem("--exec: cannot run the command: \(error.localizedDescription)")
            }
        }
    }
}
