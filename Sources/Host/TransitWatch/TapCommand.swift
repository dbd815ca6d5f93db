import CTransitShims
import Foundation
import Synchronization
import TransitFiles
import TransitModel
import TransitTransport
import TransitEngine

/// `watch --exec CMD`: runs CMD (through /bin/sh) for each tap with the watch line's JSON on its
/// standard input — one at a time, on a queue of its own, so a slow command never delays a read.
/// CMD's output goes to stderr (stdout stays the watch's lines). At most `maxWaiting` taps wait
/// for their turn; a tap past that is dropped and said.
///
/// CMD starts as a fresh program would: every signal at its default and none
/// blocked (the watch ignores SIGPIPE and handles SIGINT and SIGTERM itself), descriptors 0–2 only
/// (stdin the tap's JSON, stdout and stderr the watch's stderr), in a process group of its own.
/// Its environment is the watch's with `TRANSIT_READER` set to the tap's reader. A command still
/// running after `timeout` seconds, or when the watch ends, is ended with its whole group:
/// SIGTERM, then SIGKILL two seconds later.
package final class TapCommand: Sendable {
    package let command: String
    package let timeout: Double
    private let problem: @Sendable (String) -> Void
    private let queue = DispatchQueue(label: "transit.watch.exec")
    /// The taps queued for the command or running it.
    private let waiting = Mutex(0)
    package static let maxWaiting = 100
    /// How long a command has to end after SIGTERM before its group is killed.
    package static let grace = 2.0

    package init(command: String, timeout: Double, problem: @escaping @Sendable (String) -> Void) {
        self.command = command; self.timeout = timeout; self.problem = problem
    }

    package func run(json: String, reader: String) {
        let queued = waiting.withLock { count in
            guard count < Self.maxWaiting else { return false }
            count += 1
            return true
        }
        guard queued else {
            problem("--exec: " + L10n.tr("%1$s taps already wait for the command; this one (%2$s) is dropped", String(Self.maxWaiting), reader))
            return
        }
        queue.async { [self] in
            defer { waiting.withLock { $0 -= 1 } }
            switch spawn(reader: reader) {
            case .failure(let why): problem("--exec: " + L10n.tr("cannot run the command: %1$s", "\(why)"))
            case .success(let (pid, input)):
                Termination.shared.trackGroup(pid)
                defer { Termination.shared.forgetGroup(pid) }
                // The line goes in as the command reads it, inside the command's time: a line longer
                // than the pipe holds (a 68 KB tap named by a station table) and a command that
                // never reads it (`sleep 600`) cannot hold the timer back (issue 36 §2).
                switch wait(pid, input: input, line: Array((json + "\n").utf8)) {
                case .exited(0): break
                case .exited(let code): problem("--exec: " + L10n.tr("the command exited %1$s for the tap on %2$s", String(code), reader))
                case .signalled(let signal): problem("--exec: " + L10n.tr("the command ended on signal %1$s for the tap on %2$s", String(signal), reader))
                case .timedOut:
                    problem("--exec: " + L10n.tr("the command ran past its %1$s for the tap on %2$s; its process group was ended", ReadLimits.secondsWords(timeout).said, reader))
                }
            }
        }
    }

    /// CMD started with its stdin the write end returned (`transit_spawn_clean`).
    private func spawn(reader: String) -> Result<(pid_t, Int32), SpawnFailure> {
        var fds: [Int32] = [-1, -1]
        guard transit_pipe2(&fds, O_CLOEXEC) == 0 else { return .failure(SpawnFailure(errno)) }
        let argv: [UnsafeMutablePointer<CChar>?] = [strdup("/bin/sh"), strdup("-c"), strdup(command), nil]
        defer { argv.forEach { free($0) } }
        let env = ProcessInfo.processInfo.environment.merging(["TRANSIT_READER": reader]) { $1 }
        let envp: [UnsafeMutablePointer<CChar>?] = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { envp.forEach { free($0) } }
        let pid = transit_spawn_clean("/bin/sh", argv, envp, fds[0])
        let failure = errno
        close(fds[0])
        guard pid > 0 else { close(fds[1]); return .failure(SpawnFailure(failure)) }
        return .success((pid, fds[1]))
    }

    private enum Ending { case exited(Int32), signalled(Int32), timedOut }

    private struct SpawnFailure: Error, CustomStringConvertible {
        let description: String
        init(_ code: Int32) { description = String(cString: strerror(code)) }
    }

    /// Writes `line` into the command's stdin (`input`, made non-blocking) as the pipe takes it,
    /// and waits for the command, ending its group past the timeout; `input` is closed once the
    /// line is in, the command has gone, or its time is up.
    private func wait(_ pid: pid_t, input: Int32, line: [UInt8]) -> Ending {
        let deadline = Deadline(secondsFromNow: timeout)
        var status: Int32 = 0
        var input = input, sent = 0
        _ = fcntl(input, F_SETFL, fcntl(input, F_GETFL) | O_NONBLOCK)
        defer { if input >= 0 { close(input) } }
        while waitpid(pid, &status, WNOHANG) == 0 {
            if input >= 0 {
                let n = line.withUnsafeBytes { bytes in bytes.baseAddress.map { Glibc.write(input, $0 + sent, bytes.count - sent) } ?? 0 }
                if n > 0 { sent += n }
                // Done, or the command closed its stdin (EPIPE: the watch ignores SIGPIPE): no more to write.
                if sent == line.count || (n < 0 && errno != EAGAIN && errno != EINTR) { close(input); input = -1 }
                if n > 0 { continue }
            }
            if deadline.hasPassed {
                if input >= 0 { close(input); input = -1 }
                Self.end(group: pid)
                waitpid(pid, &status, 0)
                return .timedOut
            }
            usleep(5_000)
        }
        // wait(2) status: low seven bits the terminating signal, else the exit code in bits 8–15.
        return status & 0x7F == 0 ? .exited(status >> 8 & 0xFF) : .signalled(status & 0x7F)
    }

    /// SIGTERM to the group, SIGKILL after `grace` when its leader has not ended.
    package static func end(group pid: pid_t) {
        kill(-pid, SIGTERM)
        let giveUp = Deadline(secondsFromNow: grace)
        while !giveUp.hasPassed {
            var status: Int32 = 0
            if waitpid(pid, &status, WNOHANG) != 0 { break }
            usleep(20_000)
        }
        kill(-pid, SIGKILL)
    }
}
