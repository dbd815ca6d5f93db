import Foundation

/// pcscd with the vsmartcard vpcd driver, and the project's simulator on its first virtual reader.
/// Starts pcscd when it is not running and stops what it started.
public final class VirtualReaderHarness {
    public static let readerName = "Virtual PCD 00 00"
    private var pcscd: Process?
    private var simulator: Process?

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

    /// Puts `card` on the first virtual reader; `extra` are more transit-sim options.
    public func insert(card: String, _ extra: [String] = []) throws {
        removeCard()
        let p = Process()
        p.executableURL = URL(fileURLWithPath: BuildProducts.simulator)
        p.arguments = ["--card", card] + extra
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        simulator = p
    }

    /// Takes the card away and waits until pcscd has seen it go.
    public func removeCard() {
        guard let s = simulator else { return }
        if s.isRunning { s.terminate() }
        s.waitUntilExit()
        simulator = nil
        for _ in 0 ..< 30 {
            guard let r = try? CommandRun.transit(["readers"]), r.stdout.contains("\(Self.readerName)\tcard") else { return }
            Thread.sleep(forTimeInterval: 0.1)
        }
    }

    public func stop() {
        removeCard()
        if let p = pcscd, p.isRunning { p.terminate(); p.waitUntilExit() }
        pcscd = nil
    }
}
