import Foundation
import TestSupport
import XCTest

/// `transit watch` on vpcd's two virtual readers: a stream of taps and removals, one line per tap.
final class WatchEndToEndTests: XCTestCase {
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

    /// Lines a running command prints, collected as they come.
    final class Lines: @unchecked Sendable {
        private var lines = [String]()
        private let lock = NSLock()
        func append(_ l: String) { lock.lock(); lines.append(l); lock.unlock() }
        var all: [String] { lock.lock(); defer { lock.unlock() }; return lines }

        /// Waits until `count` lines have come (false on timeout).
        func wait(for count: Int, timeout: Double = 10) -> Bool {
            let end = Date().addingTimeInterval(timeout)
            while Date() < end { if all.count >= count { return true }; Thread.sleep(forTimeInterval: 0.05) }
            return false
        }
    }

    func json(_ line: String) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]) ?? [:]
    }

    func testTwoReadersTapsRemovalsAndAPcscdRestart() throws {
        let h = Self.harness
        let p = Process()
        p.executableURL = URL(fileURLWithPath: BuildProducts.transit)
        p.arguments = ["watch", "--json", "--reader", "Virtual PCD"]
        p.currentDirectoryURL = BuildProducts.packageRoot
        let out = Pipe()
        p.standardOutput = out
        p.standardError = FileHandle.nullDevice
        let lines = Lines()
        let buffer = LineBuffer()
        out.fileHandleForReading.readabilityHandler = { handle in
            for line in buffer.take(handle.availableData) { lines.append(line) }
        }
        try p.run()
        defer { if p.isRunning { p.terminate() } }

        try h.insert(card: BuildProducts.sample("suica.json"))
        XCTAssertTrue(lines.wait(for: 1), "\(lines.all)")
        try h.insert(card: BuildProducts.sample("ezlink.json"), port: 35964)
        XCTAssertTrue(lines.wait(for: 2), "\(lines.all)")
        // Both cards stay on their readers: nothing more is printed.
        Thread.sleep(forTimeInterval: 1.5)
        XCTAssertEqual(lines.all.count, 2, "a card left on the reader is read once: \(lines.all)")
        // Take the Suica away and tap a T-Money on the same reader.
        h.removeCard()
        try h.insert(card: BuildProducts.sample("tmoney.json"))
        XCTAssertTrue(lines.wait(for: 3), "\(lines.all)")

        let seen = lines.all.map(json)
        XCTAssertEqual(seen.map { $0["reader"] as? String },
                       [VirtualReaderHarness.readerName, VirtualReaderHarness.secondReaderName, VirtualReaderHarness.readerName])
        XCTAssertEqual(seen.map { ($0["card"] as? [String: Any])?["family"] as? String }, ["japan-ic", "cepas", "ksx6924"])

        if h.ownsDaemon {
            // pcscd restarts under the watch; the next tap is still read.
            try h.restartDaemon()
            try h.insert(card: BuildProducts.sample("octopus.json"), port: 35964)
            XCTAssertTrue(lines.wait(for: 4, timeout: 15), "after the restart: \(lines.all)")
            XCTAssertEqual((lines.all.last.map(json)?["card"] as? [String: Any])?["family"] as? String, "octopus")
        }

        p.interrupt()
        p.waitUntilExit()
        XCTAssertEqual(p.terminationReason, .exit)
        XCTAssertEqual(p.terminationStatus, 0, "Ctrl-C ends a watch normally")
    }

    func testAStuckReaderNeverDelaysATapOnAnother() throws {
        let h = Self.harness
        let p = Process()
        p.executableURL = URL(fileURLWithPath: BuildProducts.transit)
        p.arguments = ["watch", "--json", "--reader", "Virtual PCD", "--exchange-timeout", "3"]
        p.currentDirectoryURL = BuildProducts.packageRoot
        let out = Pipe()
        p.standardOutput = out
        p.standardError = FileHandle.nullDevice
        let lines = Lines()
        let buffer = LineBuffer()
        out.fileHandleForReading.readabilityHandler = { handle in
            for line in buffer.take(handle.availableData) { lines.append(line) }
        }
        try p.run()
        defer { if p.isRunning { p.terminate() } }

        // The first reader stops answering after two exchanges; a tap on the second comes just after.
        try h.insert(card: BuildProducts.sample("suica.json"), ["--hang-after", "2"])
        Thread.sleep(forTimeInterval: 0.5)
        try h.insert(card: BuildProducts.sample("ezlink.json"), port: 35964)
        XCTAssertTrue(lines.wait(for: 1), "\(lines.all)")
        let first = json(lines.all[0])
        XCTAssertEqual(first["reader"] as? String, VirtualReaderHarness.secondReaderName,
                       "the second reader's tap is read while the first is stuck: \(lines.all)")
        XCTAssertEqual((first["card"] as? [String: Any])?["family"] as? String, "cepas")
        // The stuck reader is reported once, at its deadline.
        XCTAssertTrue(lines.wait(for: 2), "\(lines.all)")
        let stuck = json(lines.all[1])
        XCTAssertEqual(stuck["reader"] as? String, VirtualReaderHarness.readerName)
        XCTAssertTrue(((stuck["error"] as? [String: Any])?["message"] as? String)?.contains("stopped answering") == true, "\(stuck)")
        Thread.sleep(forTimeInterval: 1)
        XCTAssertEqual(lines.all.count, 2, "reported once: \(lines.all)")
        // Once its card goes, the reader is watched again.
        h.removeCard()
        try h.insert(card: BuildProducts.sample("suica.json"))
        XCTAssertTrue(lines.wait(for: 3, timeout: 15), "\(lines.all)")
        XCTAssertEqual((lines.all.last.map(json)?["card"] as? [String: Any])?["family"] as? String, "japan-ic", "\(lines.all)")
        h.removeCard(port: 35964)
        h.removeCard()
        p.interrupt()
        p.waitUntilExit()
        XCTAssertEqual(p.terminationStatus, 0)
    }

    func testExecRunsACommandPerTapWithTheCardsJSON() throws {
        let h = Self.harness
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("taps.jsonl").path
        let p = Process()
        p.executableURL = URL(fileURLWithPath: BuildProducts.transit)
        p.arguments = ["watch", "--json", "--reader", "Virtual PCD", "--exec", "cat >> '\(out)'; echo \"$TRANSIT_READER\" >> '\(out).readers'"]
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        defer { if p.isRunning { p.terminate() } }
        try h.insert(card: BuildProducts.sample("ezlink.json"), port: 35964)
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline, (try? String(contentsOfFile: out + ".readers", encoding: .utf8)) == nil { Thread.sleep(forTimeInterval: 0.1) }
        h.removeCard(port: 35964)
        p.interrupt()
        p.waitUntilExit()
        let line = try String(contentsOfFile: out, encoding: .utf8)
        let tap = json(line.trimmingCharacters(in: .newlines))
        XCTAssertEqual(tap["reader"] as? String, VirtualReaderHarness.secondReaderName)
        XCTAssertEqual((tap["card"] as? [String: Any])?["balance"] as? Int, 897)
        XCTAssertEqual(try String(contentsOfFile: out + ".readers", encoding: .utf8), VirtualReaderHarness.secondReaderName + "\n")
    }
}

/// Bytes from a pipe cut into lines; one reader thread at a time hands it data.
final class LineBuffer: @unchecked Sendable {
    private var buffer = Data()
    private let lock = NSLock()

    func take(_ data: Data) -> [String] {
        lock.lock(); defer { lock.unlock() }
        buffer.append(data)
        var lines = [String]()
        while let nl = buffer.firstIndex(of: 0x0A) {
            lines.append(String(decoding: buffer[buffer.startIndex ..< nl], as: UTF8.self))
            buffer.removeSubrange(buffer.startIndex ... nl)
        }
        return lines
    }
}
