import Foundation
import XCTest

/// What a test needs from the machine (a tool, a release build, pcscd with vpcd): where it is
/// missing the test is skipped, saying so, except under CI (`CI=true`), where .ci/run installs
/// everything and a missing prerequisite is a failure.
public enum Prerequisite {
    /// Skips (or, under CI, fails) the calling test unless `present`; `missing` says what is
    /// missing and how to get it.
    public static func require(_ present: Bool, _ missing: String, file: StaticString = #filePath, line: UInt = #line) throws {
        guard !present else { return }
        if ProcessInfo.processInfo.environment["CI"] == "true" { XCTFail(missing, file: file, line: line) }
        throw XCTSkip(missing, file: file, line: line)
    }

    /// The executable at `path`, or a skip (a failure under CI) naming `installedBy`.
    public static func tool(_ path: String, installedBy: String = "scripts/test-setup.sh", file: StaticString = #filePath, line: UInt = #line) throws -> String {
        try require(FileManager.default.isExecutableFile(atPath: path),
                    "\((path as NSString).lastPathComponent) is missing: \(installedBy) installs it", file: file, line: line)
        return path
    }
}
