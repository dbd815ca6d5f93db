import Foundation
import Synchronization
import TestSupport
import TransitWatch
import XCTest

/// `watch --exec`'s command run for real through /bin/sh: its time holds whatever its input's
/// length, and a command that never reads its stdin does not hold back the taps after it.
final class TapCommandTests: XCTestCase {
    func testATapLineLongerThanThePipeDoesNotHoldTheTimeoutOrTheNextTap() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("tap-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let pidFile = dir.appendingPathComponent("pid").path, out = dir.appendingPathComponent("second.json").path
        let said = Said()
        // What a 20-record Suica named by a long station table makes: a line of about 70 KB (the pipe holds 64 KB).
        let line = "{\"card\":\"" + String(repeating: "x", count: 70_000) + "\"}"
        let hung = TapCommand(command: "echo $$ > '\(pidFile)'; exec sleep 600", timeout: 1) { said.add($0) }
        defer {
            if let pid = Int32((try? String(contentsOfFile: pidFile, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "") {
                kill(pid, SIGKILL)
            }
        }
        hung.run(json: line, reader: "R1")
        let started = Date()
        var messages: [String] { said.all }
        while Date().timeIntervalSince(started) < 10, !messages.contains(where: { $0.contains("ran past its 1 s") }) { Thread.sleep(forTimeInterval: 0.05) }
        XCTAssertTrue(messages.contains { $0.contains("ran past its 1 s") && $0.contains("R1") }, "said: \(messages)")
        XCTAssertLessThan(Date().timeIntervalSince(started), 1 + TapCommand.grace + 2, "ended by its time, not by the line")
        // The queue is free again: the next tap's command runs, and one that reads gets the whole line.
        try? FileManager.default.removeItem(atPath: pidFile)
        let next = Date()
        func received() -> Int { (try? Data(contentsOf: URL(fileURLWithPath: out)).count) ?? 0 }
        let reader = TapCommand(command: "cat > '\(out)'", timeout: 5) { said.add($0) }
        reader.run(json: line, reader: "R2")
        while Date().timeIntervalSince(next) < 10, received() < line.utf8.count + 1 { Thread.sleep(forTimeInterval: 0.05) }
        XCTAssertEqual(received(), line.utf8.count + 1, "a command that reads its stdin gets the whole line and its newline")
    }
}

/// What the commands said, from the queue's thread.
private final class Said: Sendable {
    private let lines = Mutex([String]())
    func add(_ line: String) { lines.withLock { $0.append(line) } }
    var all: [String] { lines.withLock { $0 } }
}
