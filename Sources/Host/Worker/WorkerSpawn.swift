import Foundation

/// Starts `transit __plugin-worker` from this very executable, with its link on fds 3 and 4, stdin
/// from /dev/null and its stdout sent to our stderr (a plugin that prints can never corrupt the
/// host's one JSON object). The Swift runtime's crash backtrace of a plugin is left out unless asked for.
enum WorkerSpawn {
    static func start(_ executable: String, backtraces: Bool) throws -> (pid: pid_t, link: WorkerLink) {
        let toWorker = try pipe(), fromWorker = try pipe()
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, toWorker.read, WorkerProcess.inputFD)
        posix_spawn_file_actions_adddup2(&actions, fromWorker.write, WorkerProcess.outputFD)
        posix_spawn_file_actions_adddup2(&actions, 2, 1)
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        let argv: [UnsafeMutablePointer<CChar>?] = [strdup("transit"), strdup(WorkerProcess.command), nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        var env = ProcessInfo.processInfo.environment
        if !backtraces { env["SWIFT_BACKTRACE"] = "enable=no" }
        let envp: [UnsafeMutablePointer<CChar>?] = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { envp.forEach { free($0) } }
        let rc = posix_spawn(&pid, executable, &actions, nil, argv, envp)
        close(toWorker.read)
        close(fromWorker.write)
        guard rc == 0 else {
            close(toWorker.write)
            close(fromWorker.read)
            throw TransitError(.plugin, "cannot start the plugin worker: \(String(cString: strerror(rc)))")
        }
        Termination.shared.track(pid)
        return (pid, WorkerLink(input: fromWorker.read, output: toWorker.write))
    }

    /// A pipe whose ends sit above the fds the worker gets (so dup2 onto 3 and 4 never meets itself)
    /// and close on exec (so the worker holds only its own two ends).
    private static func pipe() throws -> (read: Int32, write: Int32) {
        var fds: [Int32] = [0, 0]
        guard Glibc.pipe(&fds) == 0 else { throw TransitError(.plugin, "cannot make a pipe for the plugin worker") }
        func high(_ fd: Int32) -> Int32 {
            let moved = fcntl(fd, F_DUPFD_CLOEXEC, 10)
            close(fd)
            return moved
        }
        return (high(fds[0]), high(fds[1]))
    }
}
