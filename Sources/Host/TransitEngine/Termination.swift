import Dispatch
import Foundation
import TransitModel

/// Ctrl-C, SIGTERM, SIGHUP and SIGQUIT end the command at once, in any phase — even while a
/// reader call that never returns holds the main thread: the plugin workers are killed, the command's cancellation report
/// is printed (unless its final output already began) and the process ends. Output goes through
/// here, one whole line at a time, so the report never interleaves with a line. Output that cannot
/// be written to stdout (a full disk, a closed pipe) ends the command as well: one line on stderr
/// and exit 2, the code of every file `transit` cannot write (`config`).
package final class Termination: @unchecked Sendable { // Unchecked: state only under `lock` or `workersLock`, but `signalCode` (set before any signal).
    package static let shared = Termination()

    /// Held while a line is written (and by a signal's report).
    private let lock = NSRecursiveLock()
    /// Guards `workers` alone: a signal kills them even while a write blocks (a paused terminal).
    private let workersLock = NSLock()
    private var workers = Set<pid_t>()
    private var groups = Set<pid_t>()
    /// Prints what a signal means for the running command; nil once its final output has begun.
    private var onSignal: (() -> Void)?
    /// The exit code a signal ends the command with.
    private var signalCode = TransitError.Kind.cancelled.exitCode
    private var sources = [DispatchSourceSignal]()
    /// What gives back what the command holds outside the process (a USB reader's kernel driver),
    /// run when a signal or a failed write ends it.
    private var releases = [() -> Void]()

    /// The signals that would end the process and are caught to end it here (the reader given
    /// back first): Ctrl-C, SIGTERM, SIGHUP (the terminal closed, the ssh session dropped) and
    /// SIGQUIT (Ctrl-\). SIGPIPE is ignored from `main` on: a closed stdout is a failed write,
    /// which ends the command through `outputFailed`, the reader given back as well.
    package static let ending: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGQUIT]

    /// Catches `ending`'s signals from now on: `report` prints the command's cancellation, and the
    /// process ends with `exitCode`.
    package func arm(exitCode: Int32, _ report: @escaping () -> Void) {
        lock.lock(); defer { lock.unlock() }
        onSignal = report
        signalCode = exitCode
        guard sources.isEmpty else { return }
        for s in Self.ending {
            signal(s, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: s, queue: .global())
            source.setEventHandler { [unowned self] in self.terminate() }
            source.resume()
            sources.append(source)
        }
    }

    /// Writes `text` whole; `final` marks the command's last output, after which a signal no longer
    /// prints a cancellation (the process is about to end with this output's code).
    /// `line`: a newline after the text, written after it (a listing of 10,000 rows is not copied
    /// to have one more byte).
    package func write(_ text: String, to stream: UnsafeMutablePointer<FILE>, final: Bool = false, line: Bool = false) {
        lock.lock(); defer { lock.unlock() }
        if final { onSignal = nil }
        let written = fputs(text, stream) >= 0 && (!line || fputc(0x0A, stream) != EOF) && fflush(stream) == 0
        if !written, stream == StandardStream.output { outputFailed() }
    }

    /// Writes `bytes` whole (output in another encoding than UTF-8: the Shift_JIS of
    /// `report --format sfcard`), as `write(_:to:final:)` writes text.
    package func write(bytes: [UInt8], to stream: UnsafeMutablePointer<FILE>, final: Bool = false, line: Bool = false) {
        lock.lock(); defer { lock.unlock() }
        if final { onSignal = nil }
        let written = bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, stream) == $0.count }
            && (!line || fputc(0x0A, stream) != EOF) && fflush(stream) == 0
        if !written, stream == StandardStream.output { outputFailed() }
    }

    /// The command's final output begins: a signal from now on leaves it to end the process.
    package func disarm() { lock.lock(); onSignal = nil; lock.unlock() }

    /// Runs `release` if the process is ended by a signal or a failed write (from the signal's
    /// thread: it must not free what another thread may be using).
    package func onEnd(_ release: @escaping () -> Void) {
        workersLock.lock(); releases.append(release); workersLock.unlock()
    }

    package func track(_ pid: pid_t) { workersLock.lock(); workers.insert(pid); workersLock.unlock() }
    package func forget(_ pid: pid_t) { workersLock.lock(); workers.remove(pid); workersLock.unlock() }

    /// A process group (`watch --exec`'s command) ended with the command: SIGTERM, and SIGKILL a
    /// moment later for what did not end.
    package func trackGroup(_ pgid: pid_t) { workersLock.lock(); groups.insert(pgid); workersLock.unlock() }
    package func forgetGroup(_ pgid: pid_t) { workersLock.lock(); groups.remove(pgid); workersLock.unlock() }

    private func killWorkers() {
        workersLock.lock()
        for pid in workers { kill(pid, SIGKILL) }
        let running = groups
        let pending = releases
        releases = []
        workersLock.unlock()
        pending.forEach { $0() }
        guard !running.isEmpty else { return }
        for pgid in running { kill(-pgid, SIGTERM) }
        let giveUp = Deadline(secondsFromNow: 1)
        while !giveUp.hasPassed, running.contains(where: { kill(-$0, 0) == 0 }) { usleep(20_000) }
        for pgid in running { kill(-pgid, SIGKILL) }
    }

    /// stdout refused a write: what was printed is incomplete, so the command ends at once.
    private func outputFailed() -> Never {
        let reason = String(cString: strerror(errno))
        killWorkers()
        fputs("transit: " + L10n.tr("cannot write the output: %1$s", reason) + "\n", StandardStream.error)
        fflush(StandardStream.error)
        _exit(TransitError.Kind.config.exitCode)
    }

    private func terminate() {
        // The output lock before the kill: a read whose plugin worker the kill ends would otherwise
        // print the worker's death ("plugin … crashed", exit 5) as the command's final output before
        // the cancellation (1 run in 10 of HostileLoaderTests' Ctrl-C test, on a loaded machine).
        // A write blocked on a paused terminal or a stalled pipe holds the lock: end without a report.
        // NSLock's own timed wait (a wait on the kernel) takes its limit as a Date.
        let locked = lock.lock(before: Date().addingTimeInterval(1))
        killWorkers()
        guard locked else { _exit(signalCode) }
        guard let onSignal else { lock.unlock(); return }
        onSignal()
        fflush(StandardStream.output)
        fflush(StandardStream.error)
        _exit(signalCode)
    }
}
