import Foundation
import TestSupport
import XCTest

/// What every end-to-end class shares: pcscd with the vpcd readers (started for the class when not
/// running, stopped after it), skipped where it cannot be had — except in CI, where that fails —
/// and both virtual readers emptied after each test.
class EndToEndTestCase: XCTestCase {
    static let harness = VirtualReaderHarness()
    static var available = false

    override class func setUp() { available = (try? harness.startDaemon()) ?? false }
    override class func tearDown() { harness.stop() }

    override func setUpWithError() throws {
        if !Self.available, ProcessInfo.processInfo.environment["CI"] == "true" {
            XCTFail("pcscd with vsmartcard-vpcd is not available; .ci/run installs them")
        }
        try XCTSkipUnless(Self.available, "pcscd with vsmartcard-vpcd is not available")
    }

    override func tearDown() {
        Self.harness.removeCard()
        Self.harness.removeCard(port: 35964)
    }

    /// `transit watch ARGUMENTS` running, its stdout collected line by line.
    func startWatch(_ arguments: [String]) throws -> (process: Process, lines: WatchLines) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: BuildProducts.transit)
        p.arguments = ["watch"] + arguments
        p.currentDirectoryURL = BuildProducts.packageRoot
        let out = Pipe()
        p.standardOutput = out
        p.standardError = FileHandle.nullDevice
        let lines = WatchLines()
        out.fileHandleForReading.readabilityHandler = { handle in lines.take(handle.availableData) }
        try p.run()
        return (p, lines)
    }

    func json(_ line: String) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]) ?? [:]
    }
}

/// The lines a running command prints, collected as they come (bytes cut at newlines).
final class WatchLines: @unchecked Sendable {
    private var lines = [String]()
    private var buffer = Data()
    private let lock = NSLock()

    func take(_ data: Data) {
        lock.lock(); defer { lock.unlock() }
        buffer.append(data)
        while let nl = buffer.firstIndex(of: 0x0A) {
            lines.append(String(decoding: buffer[buffer.startIndex ..< nl], as: UTF8.self))
            buffer.removeSubrange(buffer.startIndex ... nl)
        }
    }

    var all: [String] { lock.lock(); defer { lock.unlock() }; return lines }

    /// Waits until `count` lines have come (false on timeout).
    func wait(for count: Int, timeout: Double = 10) -> Bool {
        let end = Date().addingTimeInterval(timeout)
        while Date() < end { if all.count >= count { return true }; Thread.sleep(forTimeInterval: 0.05) }
        return false
    }
}
