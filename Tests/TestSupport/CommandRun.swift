import Foundation

/// The outcome of running a command: exit code and both streams.
public struct CommandRun {
    public let status: Int32
    public let stdout: String
    public let stderr: String
    /// Ended by a signal it did not catch (a trap, an abort), not by exiting: `status` is the signal.
    public var crashed = false

    /// stdout parsed as one JSON object.
    public var json: [String: Any]? {
        (try? JSONSerialization.jsonObject(with: Data(stdout.utf8))) as? [String: Any]
    }

    /// Runs `executable` with `arguments` and waits for it (killed after `timeout` seconds). stdout
    /// goes to `standardOutput` when given (e.g. /dev/full; `stdout` is then empty), else to a pipe.
    public static func run(_ executable: String, _ arguments: [String], currentDirectory: URL? = nil,
                           environment: [String: String]? = nil, timeout: Double = 60,
                           standardOutput: FileHandle? = nil) throws -> CommandRun {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: executable)
        p.arguments = arguments
        if let currentDirectory { p.currentDirectoryURL = currentDirectory }
        // An explicit environment still gets the tests' own XDG_DATA_HOME unless it names one:
        // no test run writes into the developer's history archive.
        if var environment {
            if environment["XDG_DATA_HOME"] == nil { environment["XDG_DATA_HOME"] = BuildProducts.testDataHome.path }
            p.environment = environment
        } else {
            BuildProducts.isolateDataHome()
        }
        let out = Pipe(), err = Pipe()
        p.standardOutput = standardOutput ?? out
        p.standardError = err
        p.standardInput = FileHandle.nullDevice
        try p.run()
        let deadline = DispatchTime.now() + timeout
        let done = DispatchSemaphore(value: 0)
        let outData = Collected(), errData = Collected()
        let group = DispatchGroup()
        if standardOutput == nil {
            DispatchQueue.global().async(group: group) { outData.data = out.fileHandleForReading.readDataToEndOfFile() }
        }
        DispatchQueue.global().async(group: group) { errData.data = err.fileHandleForReading.readDataToEndOfFile() }
        DispatchQueue.global().async { p.waitUntilExit(); done.signal() }
        if done.wait(timeout: deadline) == .timedOut { p.terminate(); p.waitUntilExit() }
        group.wait() // the reads are complete before the data is looked at
        return CommandRun(status: p.terminationStatus, stdout: String(decoding: outData.data, as: UTF8.self),
                          stderr: String(decoding: errData.data, as: UTF8.self), crashed: p.terminationReason == .uncaughtSignal)
    }

    /// Runs the built `transit`.
    public static func transit(_ arguments: [String], currentDirectory: URL? = nil, environment: [String: String]? = nil,
                               standardOutput: FileHandle? = nil) throws -> CommandRun {
        try run(BuildProducts.transit, arguments, currentDirectory: currentDirectory ?? BuildProducts.packageRoot,
                environment: environment, standardOutput: standardOutput)
    }
}

/// A stream's bytes, written by one reader thread and read after the group has waited for it.
// Unchecked: `data` is written once, on the reader thread, and read only after `group.wait()`.
private final class Collected: @unchecked Sendable {
    var data = Data()
}
