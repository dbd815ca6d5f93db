import TestSupport
import XCTest

/// A mistyped command or option is a usage error (exit 2) that says what was wrong, whether it was
/// taken for a command or an option, and the nearest one transit knows.
final class TypoSuggestionTests: XCTestCase {
    private func refused(_ arguments: [String], file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let run = try CommandRun.transit(arguments)
        XCTAssertEqual(run.status, 2, file: file, line: line)
        XCTAssertEqual(run.stdout, "", file: file, line: line)
        return run.stderr
    }

    func testAMistypedCommandGetsTheNearestCommand() throws {
        let scna = try refused(["scna"])
        XCTAssertTrue(scna.contains("unknown command scna"), scna)
        XCTAssertTrue(scna.contains("did you mean scan?"), scna)
        XCTAssertTrue(try refused(["histroy"]).contains("did you mean history?"))
        XCTAssertTrue(try refused(["help", "expotr"]).contains("did you mean export?"))
        let far = try refused(["xyzzy"])
        XCTAssertTrue(far.contains("unknown command xyzzy"), far)
        XCTAssertFalse(far.contains("did you mean"), "nothing is near xyzzy: \(far)")
    }

    func testAMistypedOptionBeforeTheCommandIsAnUnknownOption() throws {
        let verison = try refused(["--verison"])
        XCTAssertTrue(verison.contains("unknown option --verison"), verison)
        XCTAssertFalse(verison.contains("unknown command"), verison)
        XCTAssertTrue(verison.contains("did you mean --version?"), verison)
        XCTAssertTrue(try refused(["--hlep"]).contains("did you mean --help?"))
    }

    func testAShortOrMistypedOptionOfACommandIsAnUnknownOption() throws {
        let j = try refused(["scan", "-j"])
        XCTAssertTrue(j.contains("unknown option -j"), j)
        XCTAssertFalse(j.contains("operand"), "-j is no operand: \(j)")
        XCTAssertTrue(j.contains("did you mean --json?"), j)
        let jsno = try refused(["scan", "--jsno"])
        XCTAssertTrue(jsno.contains("unknown option --jsno"), jsno)
        XCTAssertTrue(jsno.contains("did you mean --json?"), jsno)
        XCTAssertTrue(try refused(["history", "--sinse", "2026-01-01"]).contains("did you mean --since?"))
        XCTAssertTrue(try refused(["forget", "#1", "--yse"]).contains("did you mean --yes?"))
    }
}
