import Foundation
import TestSupport
import XCTest

/// What every end-to-end class shares: a pcscd of its own in private namespaces with the vpcd
/// readers the class names (`readers`; started for the class, stopped after it), skipped where it
/// cannot be had — except in CI, where that fails — and every virtual reader emptied after each test.
class EndToEndTestCase: XCTestCase {
    /// The readers this class's pcscd has: vpcd's own name by default.
    class var readers: [VirtualReaderHarness.Reader] { VirtualReaderHarness.defaultReaders }

    // Safe: XCTest runs the classes one at a time, each class's setUp, tests and tearDown on one thread.
    nonisolated(unsafe) private static var harnesses = [ObjectIdentifier: VirtualReaderHarness]()
    // Safe: as `harnesses`.
    nonisolated(unsafe) private static var availability = [ObjectIdentifier: Bool]()

    /// This class's pcscd and simulators.
    static var harness: VirtualReaderHarness {
        if let h = harnesses[ObjectIdentifier(self)] { return h }
        let h = VirtualReaderHarness(readers: readers)
        harnesses[ObjectIdentifier(self)] = h
        return h
    }

    override class func setUp() { availability[ObjectIdentifier(self)] = (try? harness.startDaemon()) ?? false }
    override class func tearDown() { harness.stop() }

    override func setUpWithError() throws {
        let available = Self.availability[ObjectIdentifier(Self.self)] ?? false
        try Prerequisite.require(available, "pcscd with vsmartcard-vpcd in a namespace of its own is not available; .ci/run installs them and runs as root")
    }

    override func tearDown() {
        for r in Self.readers {
            Self.harness.removeCard(port: r.port)
            Self.harness.removeCard(port: r.port + 1)
        }
    }

    /// `transit watch ARGUMENTS` running, its stdout collected line by line.
    func startWatch(_ arguments: [String]) throws -> (process: Process, lines: StreamLines) {
        let p = Self.harness.transitProcess(["watch"] + arguments)
        let out = Pipe()
        p.standardOutput = out
        p.standardError = FileHandle.nullDevice
        let lines = StreamLines(reading: out)
        try p.run()
        return (p, lines)
    }

    func json(_ line: String) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]) ?? [:]
    }
}
