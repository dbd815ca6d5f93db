import Foundation
import TestSupport
import XCTest

/// The CLI reaches readers through the reader sources only (issue 35): it names no transport's
/// internals, so a new kind of reader touches no command.
final class CLILayerTests: XCTestCase {
    func testTheCLINamesNoTransportInternal() throws {
        let folder = BuildProducts.packageRoot.appendingPathComponent("Sources/Host/11-CLI")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".swift") }
        XCTAssertFalse(files.isEmpty)
        let internals = ["CallThread", "LibUSBDevice", "PCSCContext", "PCSCCard", "PCSCStatus", "RCS380Reader", "RCS380Channel", "ReaderWatcher",
                         "import TransitPCSC", "import TransitUSB"]
        for file in files {
            let code = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8).split(separator: "\n")
                .filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("//") }.joined(separator: "\n")
            for name in internals { XCTAssertFalse(code.contains(name), "\(file) names \(name)") }
        }
    }
}
