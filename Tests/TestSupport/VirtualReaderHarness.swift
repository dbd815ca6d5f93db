import Foundation

/// pcscd with the vsmartcard vpcd driver, and the project's simulator on its first virtual reader.
/// Starts pcscd when it is not running and stops what it started.
public final class VirtualReaderHarness {
    public static let readerName = "Virtual PCD 00 00"
    /// The second virtual reader (vpcd's port 35964).
    public static let secondReaderName = "Virtual PCD 00 01"
    private var pcscd: Process?
    /// Simulators by vpcd port.
    private var simulators = [Int: Process]()

    /// True when this harness started pcscd (and so may restart it).
    public var ownsDaemon: Bool { pcscd != nil }

    public init() {}

    /// Makes sure pcscd serves the virtual readers; false when they cannot be had on this machine.
    public func startDaemon() throws -> Bool {
        if try readersVisible() { return true }
        guard let path = ["/usr/sbin/pcscd", "/usr/bin/pcscd"].first(where: FileManager.default.isExecutableFile) else { return false }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: path)
        p.arguments = ["--foreground"]
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        pcscd = p
        for _ in 0 ..< 50 {
            if try readersVisible() { return true }
            Thread.sleep(forTimeInterval: 0.1)
        }
        return false
    }

    private func readersVisible() throws -> Bool {
        let r = try CommandRun.transit(["readers"])
        return r.status == 0 && r.stdout.contains(Self.readerName)
    }

    /// Puts `card` on the virtual reader of `port` (35963: the first, 35964: the second); `extra`
    /// are more transit-sim options.
    public func insert(card: String, _ extra: [String] = [], port: Int = 35963) throws {
        removeCard(port: port)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: BuildProducts.simulator)
        p.arguments = ["--card", card, "--port", String(port)] + extra
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        simulators[port] = p
    }

    /// Takes the card away and waits until pcscd has seen it go.
    public func removeCard(port: Int = 35963) {
        guard let s = simulators.removeValue(forKey: port) else { return }
        if s.isRunning { s.terminate() }
        s.waitUntilExit()
        let name = port == 35963 ? Self.readerName : Self.secondReaderName
        for _ in 0 ..< 30 {
            guard let r = try? CommandRun.transit(["readers"]), r.stdout.contains("\(name)\tcard") else { return }
            Thread.sleep(forTimeInterval: 0.1)
        }
    }

    /// Stops and starts the pcscd this harness started (the simulators lose their link and end).
    public func restartDaemon() throws {
        guard let p = pcscd else { return }
        p.terminate()
        p.waitUntilExit()
        for s in simulators.values { s.waitUntilExit() }
        simulators = [:]
        pcscd = nil
        _ = try startDaemon()
    }

    public func stop() {
        for port in simulators.keys { removeCard(port: port) }
        if let p = pcscd, p.isRunning { p.terminate(); p.waitUntilExit() }
        pcscd = nil
    }
}
