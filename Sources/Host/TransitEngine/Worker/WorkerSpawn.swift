import CTransitShims
import Foundation
import Synchronization
import TransitModel

/// Starts plugin workers: processes with their link on fds 3 and 4 and stdin from /dev/null. What a
/// plugin prints (and the Swift runtime's backtrace of a crashing plugin) reaches stderr with
/// --verbose and is dropped otherwise: never the host's stdout.
package enum WorkerSpawn {
    package typealias Worker = (pid: pid_t, link: WorkerLink)

    private static let prewarmed = Mutex<Worker?>(nil)

    /// Forks the first worker at start-up, while the host is still one thread (so the copy is
    /// safe) and before it has done anything: the worker costs a fork, not a second start of the
    /// executable. It loads the plugins when the first read reaches it.
    package static func forkEarly(verbose: Bool) {
        guard let toWorker = try? pipe(), let fromWorker = try? pipe() else { return }
        let pid = fork()
        if pid == 0 {
            close(toWorker.write)
            close(fromWorker.read)
            dup2(toWorker.read, WorkerProcess.inputFD)
            dup2(fromWorker.write, WorkerProcess.outputFD)
            let devnull = open("/dev/null", O_RDWR)
            dup2(devnull, 0)
            if !verbose { dup2(devnull, 2) }
            dup2(2, 1)
            _exit(WorkerProcess.run())
        }
        close(toWorker.read)
        close(fromWorker.write)
        guard pid > 0 else {
            close(toWorker.write)
            close(fromWorker.read)
            return
        }
        Termination.shared.track(pid)
        prewarmed.withLock { $0 = (pid, WorkerLink(input: fromWorker.read, output: toWorker.write)) }
    }

    /// The worker forked at start-up, once.
    package static func takePrewarmed() -> Worker? {
        prewarmed.withLock { worker in
            defer { worker = nil }
            return worker
        }
    }

    /// Starts `executable __plugin-worker` (a new worker after one was ended, or in tests).
    package static func start(_ executable: String, verbose: Bool) throws(TransitError) -> Worker {
        let toWorker = try pipe(), fromWorker = try pipe()
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, toWorker.read, WorkerProcess.inputFD)
        posix_spawn_file_actions_adddup2(&actions, fromWorker.write, WorkerProcess.outputFD)
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        if !verbose { posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0) }
        posix_spawn_file_actions_adddup2(&actions, 2, 1)
        let argv: [UnsafeMutablePointer<CChar>?] = [strdup("transit"), strdup(WorkerProcess.command), nil]
        defer { argv.forEach { free($0) } }
        var env = ProcessInfo.processInfo.environment
        if !verbose { env["SWIFT_BACKTRACE"] = "enable=no" }
        let envp: [UnsafeMutablePointer<CChar>?] = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { envp.forEach { free($0) } }
        var pid: pid_t = 0
        let rc = posix_spawn(&pid, executable, &actions, nil, argv, envp)
        close(toWorker.read)
        close(fromWorker.write)
        guard rc == 0 else {
            close(toWorker.write)
            close(fromWorker.read)
            throw TransitError(.plugin, L10n.words("cannot start the plugin worker: %1$s", L10n.system(rc)))
        }
        Termination.shared.track(pid)
        return (pid, WorkerLink(input: fromWorker.read, output: toWorker.write))
    }

    /// A pipe whose ends close on exec from the start (a worker spawned by another thread at the same
    /// moment inherits neither) and sit above the fds the worker gets (dup2 onto 3 and 4 never meets
    /// itself).
    private static func pipe() throws(TransitError) -> (read: Int32, write: Int32) {
        var fds: [Int32] = [-1, -1]
        guard transit_pipe2(&fds, O_CLOEXEC) == 0 else { throw TransitError(.plugin, L10n.words("cannot make a pipe for the plugin worker")) }
        func high(_ fd: Int32) throws(TransitError) -> Int32 {
            let moved = fcntl(fd, F_DUPFD_CLOEXEC, 10)
            close(fd)
            guard moved >= 0 else { throw TransitError(.plugin, L10n.words("cannot make a pipe for the plugin worker")) }
            return moved
        }
        let read = try high(fds[0])
        do { return (read, try high(fds[1])) } catch { close(read); throw error }
    }
}
