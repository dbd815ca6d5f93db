import Foundation

/// A pcscd of the tests' own, in a private mount and network namespace (`unshare -mn`, a tmpfs on
/// /run/pcscd), with vsmartcard's vpcd readers named as real readers (`pcscd -c DIR`, one
/// reader.conf entry and one copy of libifdvpcd.so each: vpcd keeps one socket table per loaded
/// library), and the project's simulator on them. `transit` and `transit-sim` run inside through
/// `nsenter`, so no test meets the system's pcscd, its readers or another run's ports.
public final class VirtualReaderHarness {
    /// One vpcd reader: pcscd names its two slots "`name` 00 00" and "`name` 00 01"; the simulator
    /// reaches them on `port` and `port + 1`.
    public struct Reader: Sendable {
        public let name: String
        public let port: Int
        public init(name: String, port: Int) { self.name = name; self.port = port }
    }

    public static let readerName = "Virtual PCD 00 00"
    /// The second virtual reader (vpcd's second slot, port 35964).
    public static let secondReaderName = "Virtual PCD 00 01"
    public static let defaultReaders = [Reader(name: "Virtual PCD", port: 35963)]

    public let readers: [Reader]
    /// Holds the namespaces (a `sleep` inside them); pcscd and every command enter its namespaces.
    private var anchor: Process?
    private var pcscd: Process?
    private var pcscdPath = "/usr/sbin/pcscd"
    private var folder: URL?
    /// Simulators by vpcd port.
    private var simulators = [Int: Process]()

    /// True when the daemon runs (and so may be restarted).
    public var ownsDaemon: Bool { pcscd != nil }
    /// The process whose mount and network namespaces hold this harness's pcscd (0 before it starts).
    public var anchorProcess: Int32 { anchor?.processIdentifier ?? 0 }

    public init(readers: [Reader] = defaultReaders) { self.readers = readers }

    private static let vpcdLibrary = "/usr/lib/pcsc/drivers/serial/libifdvpcd.so"
    private static let tools = ["/usr/bin/unshare", "/usr/bin/nsenter", "/usr/sbin/ip"]

    /// Starts pcscd with the readers in namespaces of its own; false when this machine cannot
    /// (not root, or pcscd, vpcd, unshare or nsenter missing).
    public func startDaemon() throws -> Bool {
        if anchor != nil { return try readersVisible() }
        guard getuid() == 0, let path = ["/usr/sbin/pcscd", "/usr/bin/pcscd"].first(where: FileManager.default.isExecutableFile),
              (Self.tools + [Self.vpcdLibrary]).allSatisfy(FileManager.default.fileExists) else { return false }
        pcscdPath = path
        let dir = temporaryDirectory()
        folder = dir
        let conf = dir.appendingPathComponent("reader.conf.d")
        try FileManager.default.createDirectory(at: conf, withIntermediateDirectories: true)
        for (i, r) in readers.enumerated() {
            let library = dir.appendingPathComponent("libifdvpcd-\(i).so")
            // A copy of the library itself (Debian's path is a symlink).
            try FileManager.default.copyItem(at: URL(fileURLWithPath: Self.vpcdLibrary).resolvingSymlinksInPath(), to: library)
            let port = "0x" + String(r.port, radix: 16)
            try """
            FRIENDLYNAME "\(r.name)"
            DEVICENAME   /dev/null:\(port)
            LIBPATH      \(library.path)
            CHANNELID    \(port)

            """.write(to: conf.appendingPathComponent("reader-\(i)"), atomically: true, encoding: .utf8)
        }
        try FileManager.default.createDirectory(atPath: "/run/pcscd", withIntermediateDirectories: true)
        let a = Process()
        a.executableURL = URL(fileURLWithPath: "/usr/bin/unshare")
        a.arguments = ["--mount", "--net", "--propagation", "private", "--", "/bin/sh", "-c",
                       "mount -t tmpfs -o mode=0755 tmpfs /run/pcscd && /usr/sbin/ip link set lo up && exec sleep 100000"]
        a.standardOutput = FileHandle.nullDevice
        a.standardError = FileHandle.nullDevice
        try a.run()
        anchor = a
        // The anchor's namespaces are ready once its loopback is up (the shell then becomes sleep).
        for _ in 0 ..< 50 where !isSleeping(a.processIdentifier) { Thread.sleep(forTimeInterval: 0.05) }
        try startPcscd(conf: conf)
        for _ in 0 ..< 50 {
            if try readersVisible() { return true }
            Thread.sleep(forTimeInterval: 0.1)
        }
        return false
    }

    private func isSleeping(_ pid: Int32) -> Bool {
        ((try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8)) ?? "").hasPrefix("sleep")
    }

    private func startPcscd(conf: URL) throws {
        let p = inside(pcscdPath, ["--foreground", "-c", conf.path])
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        pcscd = p
    }

    /// A process that runs `executable` inside the namespaces (not started).
    public func inside(_ executable: String, _ arguments: [String]) -> Process {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/nsenter")
        p.arguments = ["--target", String(anchor?.processIdentifier ?? 0), "--mount", "--net",
                       "--wd=\(BuildProducts.packageRoot.path)", "--", executable] + arguments
        return p
    }

    /// `transit ARGUMENTS` run inside the namespaces (see `CommandRun.transit`).
    public func transit(_ arguments: [String], environment: [String: String]? = nil) throws -> CommandRun {
        _ = BuildProducts.transit // the conf beside the binary, the tests' XDG_DATA_HOME
        return try CommandRun.run("/usr/bin/nsenter", ["--target", String(anchor?.processIdentifier ?? 0), "--mount", "--net",
                                                       "--wd=\(BuildProducts.packageRoot.path)", "--", BuildProducts.transit] + arguments,
                                  environment: environment)
    }

    /// A `transit` process inside the namespaces (not started), for tests that signal it.
    public func transitProcess(_ arguments: [String]) -> Process {
        _ = BuildProducts.transit
        BuildProducts.isolateDataHome()
        return inside(BuildProducts.transit, arguments)
    }

    private func readersVisible() throws -> Bool {
        let r = try transit(["readers"])
        return r.status == 0 && readers.allSatisfy { r.stdout.contains($0.name + " 00 00") }
    }

    /// Puts `card` on the virtual reader of `port` (the first reader's first slot by default);
    /// `extra` are more transit-sim options.
    public func insert(card: String, _ extra: [String] = [], port: Int? = nil) throws {
        let port = port ?? readers[0].port
        removeCard(port: port)
        let p = inside(BuildProducts.simulator, ["--card", card, "--port", String(port)] + extra)
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        simulators[port] = p
    }

    /// Waits (up to five seconds) until pcscd sees a card on the slot behind `port`.
    public func waitForCard(port: Int) {
        let name = slotName(port: port)
        for _ in 0 ..< 50 {
            if let r = try? transit(["readers"]), r.stdout.contains("\(name)\tcard") { return }
            Thread.sleep(forTimeInterval: 0.1)
        }
    }

    /// Waits (up to `timeout` seconds) until the simulator's `--log` at `path` holds `count`
    /// exchanges, one line each answered: with `--hang-after count`, the card answers no more.
    public static func waitForAnswers(_ count: Int, loggedIn path: String, timeout: Double = 10) -> Bool {
        let end = Date().addingTimeInterval(timeout)
        repeat {
            let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
            if text.split(separator: "\n").count >= count { return true }
            Thread.sleep(forTimeInterval: 0.02)
        } while Date() < end
        return false
    }

    /// The name pcscd gives the slot behind `port`.
    public func slotName(port: Int) -> String {
        guard let r = readers.first(where: { $0.port == port || $0.port + 1 == port }) else { return "" }
        return r.name + (port == r.port ? " 00 00" : " 00 01")
    }

    /// Takes the card away and waits until pcscd has seen it go.
    public func removeCard(port: Int? = nil) {
        let port = port ?? readers[0].port
        guard let s = simulators.removeValue(forKey: port) else { return }
        if s.isRunning { s.terminate() }
        s.waitUntilExit()
        let name = slotName(port: port)
        for _ in 0 ..< 30 {
            guard let r = try? transit(["readers"]), r.stdout.contains("\(name)\tcard") else { return }
            Thread.sleep(forTimeInterval: 0.1)
        }
    }

    /// Stops and starts pcscd in the same namespaces (the simulators lose their link and end).
    public func restartDaemon() throws {
        guard let p = pcscd, let conf = folder?.appendingPathComponent("reader.conf.d") else { return }
        p.terminate()
        p.waitUntilExit()
        for s in simulators.values { s.waitUntilExit() }
        simulators = [:]
        try startPcscd(conf: conf)
        for _ in 0 ..< 50 {
            if try readersVisible() { return }
            Thread.sleep(forTimeInterval: 0.1)
        }
    }

    public func stop() {
        for port in simulators.keys { removeCard(port: port) }
        for p in [pcscd, anchor].compactMap({ $0 }) where p.isRunning {
            p.terminate()
            p.waitUntilExit()
        }
        pcscd = nil
        anchor = nil
        if let folder { try? FileManager.default.removeItem(at: folder) }
        folder = nil
    }
}
