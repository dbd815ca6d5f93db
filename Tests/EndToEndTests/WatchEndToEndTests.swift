import Foundation
import TestSupport
import XCTest

/// `transit watch` on vpcd's two virtual readers: a stream of taps and removals, one line per tap.
final class WatchEndToEndTests: EndToEndTestCase {
    func testTwoReadersTapsRemovalsAndAPcscdRestart() throws {
        let h = Self.harness
        let (p, lines) = try startWatch(["--json", "--reader", "Virtual PCD"])
        defer { if p.isRunning { p.terminate() } }

        try h.insert(card: BuildProducts.sample("suica.json"))
        XCTAssertTrue(lines.wait(for: 1), "\(lines.all)")
        try h.insert(card: BuildProducts.sample("ezlink.json"), port: 35964)
        XCTAssertTrue(lines.wait(for: 2), "\(lines.all)")
        // A card left on its reader is read once. The watch looks at every reader again whenever
        // one changes: the Suica stays while the EZ-Link is taken away and a Snapper tapped on the
        // second reader, then the Snapper stays while the Suica goes and a T-Money comes. A
        // reader's reads run one after another, so a second read of a card that stayed would print
        // its line before the next card's on that reader: the next line is the new card's.
        h.removeCard(port: 35964)
        try h.insert(card: BuildProducts.sample("snapper.json"), port: 35964)
        XCTAssertTrue(lines.wait(for: 3), "\(lines.all)")
        XCTAssertEqual(lines.all.count, 3, "a card left on the reader is read once: \(lines.all)")
        // Take the Suica away and tap a T-Money on the same reader.
        h.removeCard()
        try h.insert(card: BuildProducts.sample("tmoney.json"))
        XCTAssertTrue(lines.wait(for: 4), "\(lines.all)")
        XCTAssertEqual(lines.all.count, 4, "a card left on the reader is read once: \(lines.all)")

        let seen = lines.all.map(json)
        XCTAssertEqual(seen.map { $0["reader"] as? String },
                       [VirtualReaderHarness.readerName, VirtualReaderHarness.secondReaderName, VirtualReaderHarness.secondReaderName,
                        VirtualReaderHarness.readerName])
        XCTAssertEqual(seen.map { ($0["card"] as? [String: Any])?["family"] as? String }, ["japan-ic", "cepas", "snapper", "ksx6924"])

        if h.ownsDaemon {
            // pcscd restarts under the watch; the next tap is still read (on the reader where the
            // Snapper stayed: a second read of it would have come first).
            try h.restartDaemon()
            try h.insert(card: BuildProducts.sample("octopus.json"), port: 35964)
            XCTAssertTrue(lines.wait(for: 5, timeout: 15), "after the restart: \(lines.all)")
            XCTAssertEqual((lines.all.last.map(json)?["card"] as? [String: Any])?["family"] as? String, "octopus")
        }

        p.interrupt()
        p.waitUntilExit()
        XCTAssertEqual(p.terminationReason, .exit)
        XCTAssertEqual(p.terminationStatus, 0, "Ctrl-C ends a watch normally")
        XCTAssertTrue(lines.waitForEnd(), "the watch's output ends with it")
        XCTAssertEqual(lines.all.count, h.ownsDaemon ? 5 : 4, "one line a tap, nothing more: \(lines.all)")
    }

    func testALowBalanceIsFlaggedInTheWatchsLinesAndItsExecsJSON() throws {
        let h = Self.harness
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let got = dir.appendingPathComponent("exec.json").path
        // The sample Suica holds ¥2,010 (samples/suica.json's balance block), the EZ-Link S$8.97 (its
        // purse): under 1,000 in each card's minor unit, only the EZ-Link is low.
        let (p, lines) = try startWatch(["--json", "--no-save", "--reader", "Virtual PCD", "--below", "1000", "--exec", "cat >> '\(got)'"])
        defer { if p.isRunning { p.terminate() } }
        try h.insert(card: BuildProducts.sample("suica.json"))
        XCTAssertTrue(lines.wait(for: 1), "\(lines.all)")
        try h.insert(card: BuildProducts.sample("ezlink.json"), port: 35964)
        XCTAssertTrue(lines.wait(for: 2), "\(lines.all)")
        let seen = Dictionary(lines.all.map(json).map { (($0["card"] as? [String: Any])?["family"] as? String ?? "", $0) }, uniquingKeysWith: { a, _ in a })
        XCTAssertEqual((seen["japan-ic"]?["card"] as? [String: Any])?["lowBalance"] as? Bool, false, "¥2,010 is not under 1,000: \(lines.all)")
        XCTAssertEqual((seen["cepas"]?["card"] as? [String: Any])?["lowBalance"] as? Bool, true, "897 cents is under 1,000: \(lines.all)")
        // The commands run one after the other, each tap's after its line: wait for both.
        var exec = ""
        for _ in 0 ..< 100 where exec.split(separator: "\n").count < 2 {
            Thread.sleep(forTimeInterval: 0.05)
            exec = (try? String(contentsOfFile: got, encoding: .utf8)) ?? ""
        }
        p.interrupt()
        p.waitUntilExit()
        XCTAssertTrue(exec.contains("\"lowBalance\":true"), "the --exec command sees it: \(exec)")
    }

    func testAStuckReaderNeverDelaysATapOnAnother() throws {
        let h = Self.harness
        let (p, lines) = try startWatch(["--json", "--reader", "Virtual PCD", "--exchange-timeout", "3"])
        defer { if p.isRunning { p.terminate() } }

        // The first reader stops answering after two exchanges; a tap on the second comes just
        // after (once the simulator has logged its second and last answer).
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let exchanges = dir.appendingPathComponent("exchanges.log").path
        try h.insert(card: BuildProducts.sample("suica.json"), ["--hang-after", "2", "--log", exchanges])
        XCTAssertTrue(VirtualReaderHarness.waitForAnswers(2, loggedIn: exchanges), "the first reader's read has begun and is stuck")
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
        // Once its card goes, the reader is watched again. Its reads run one after another, so a
        // second report of the stuck card would print before the new card's line: that line is next.
        h.removeCard()
        try h.insert(card: BuildProducts.sample("suica.json"))
        XCTAssertTrue(lines.wait(for: 3, timeout: 15), "\(lines.all)")
        XCTAssertEqual(lines.all.count, 3, "reported once: \(lines.all)")
        XCTAssertEqual(lines.all.last.map(json)?["reader"] as? String, VirtualReaderHarness.readerName, "\(lines.all)")
        XCTAssertEqual((lines.all.last.map(json)?["card"] as? [String: Any])?["family"] as? String, "japan-ic", "\(lines.all)")
        h.removeCard(port: 35964)
        h.removeCard()
        p.interrupt()
        p.waitUntilExit()
        XCTAssertEqual(p.terminationStatus, 0)
        XCTAssertTrue(lines.waitForEnd(), "the watch's output ends with it")
        XCTAssertEqual(lines.all.count, 3, "reported once, each tap read once: \(lines.all)")
    }

    func testExecRunsACommandPerTapWithTheCardsJSON() throws {
        let h = Self.harness
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("taps.jsonl").path
        let p = Self.harness.transitProcess(["watch", "--json", "--reader", "Virtual PCD", "--exec", "cat >> '\(out)'; echo \"$TRANSIT_READER\" >> '\(out).readers'"])
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
        // The tap is kept in the history archive too (a kiosk's audit trail).
        let cards = try Self.harness.transit(["cards", "--json"])
        XCTAssertTrue(cards.stdout.contains("\"1009123456789012\""), "the EZ-Link tap is in the archive: \(cards.stdout)")
    }

    /// The command starts as a fresh program would, and one that outlives its timeout (or leaves a
    /// background process behind) has its whole process group ended.
    func testExecStartsCleanAndItsGroupIsEndedAtItsTimeout() throws {
        let h = Self.harness
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let status = dir.appendingPathComponent("status").path, fds = dir.appendingPathComponent("fds").path
        let pidFile = dir.appendingPathComponent("background.pid").path
        // Its own /proc status and descriptors, then a background sleeper in its group, then a hang.
        let command = "cat /proc/self/status > '\(status)'; ls /proc/self/fd > '\(fds)'; sleep 300 & echo $! > '\(pidFile)'; sleep 300"
        let p = Self.harness.transitProcess(["watch", "--json", "--reader", "Virtual PCD", "--exec", command, "--exec-timeout", "1"])
        let err = Pipe()
        p.standardOutput = FileHandle.nullDevice
        p.standardError = err
        try p.run()
        defer { if p.isRunning { p.terminate() } }
        try h.insert(card: BuildProducts.sample("ezlink.json"), port: 35964)
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline, (try? String(contentsOfFile: pidFile, encoding: .utf8)) == nil { Thread.sleep(forTimeInterval: 0.1) }
        let background = Int32((try? String(contentsOfFile: pidFile, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "") ?? 0
        XCTAssertGreaterThan(background, 0)
        // Past its second, TERM then KILL reach the group: the background sleeper too.
        let ended = Date().addingTimeInterval(8)
        while Date() < ended, kill(background, 0) == 0 { Thread.sleep(forTimeInterval: 0.1) }
        XCTAssertNotEqual(kill(background, 0), 0, "the background process of the command was ended with its group")
        h.removeCard(port: 35964)
        p.interrupt()
        p.waitUntilExit()
        let said = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        XCTAssertTrue(said.contains("ran past its 1 s"), said)
        let text = try String(contentsOfFile: status, encoding: .utf8)
        func field(_ name: String) -> String? {
            text.split(separator: "\n").first { $0.hasPrefix(name + ":") }.map { String($0.dropFirst(name.count + 1)).trimmingCharacters(in: .whitespaces) }
        }
        XCTAssertEqual(field("SigIgn"), "0000000000000000", "no signal ignored (the watch ignores SIGPIPE and catches INT and TERM)")
        XCTAssertEqual(field("SigBlk"), "0000000000000000", "none blocked")
        // ls opens its own descriptor for the folder: 0, 1, 2 and that one.
        let open = try String(contentsOfFile: fds, encoding: .utf8).split(separator: "\n").compactMap { Int($0) }
        XCTAssertEqual(open.filter { $0 > 3 }, [], "only descriptors 0-2 are passed on: \(open)")
    }
}
