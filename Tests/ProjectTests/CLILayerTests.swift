import Foundation
import TestSupport
import XCTest

/// The CLI reaches readers through the reader sources only (issue 35): it names no transport's
/// internals, so a new kind of reader touches no command. TransitWatch (`CardFinder`, `WatchLoop`
/// and its lanes) reaches them the same way: only its composition root, `ReaderSources.swift`,
/// names the transports.
final class CLILayerTests: XCTestCase {
    static let internals = ["CallThread", "LibUSBDevice", "PCSCContext", "PCSCCard", "PCSCStatus", "RCS380Reader", "RCS380Channel", "RCS380TypeAChannel", "ReaderWatcher",
                            "import TransitPCSC", "import TransitUSB"]

    /// Each Swift file of `folder` but `except`, with its comment lines left out.
    private func code(in folder: String, except: Set<String> = []) throws -> [(file: String, code: String)] {
        let url = BuildProducts.packageRoot.appendingPathComponent(folder)
        let files = try FileManager.default.contentsOfDirectory(atPath: url.path).filter { $0.hasSuffix(".swift") && !except.contains($0) }
        XCTAssertFalse(files.isEmpty, folder)
        return try files.map { file in
            (file, try String(contentsOf: url.appendingPathComponent(file), encoding: .utf8).split(separator: "\n")
                .filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("//") }.joined(separator: "\n"))
        }
    }

    func testTheCLINamesNoTransportInternal() throws {
        for (file, code) in try code(in: "Sources/Host/TransitCLI") {
            for name in Self.internals { XCTAssertFalse(code.contains(name), "\(file) names \(name)") }
        }
    }

    /// A new USB chipset touches nothing in TransitWatch (docs/ARCHITECTURE.md): the watch loop and
    /// the card finder name no transport's type, nor an RC-S380's.
    func testTransitWatchNamesTheTransportsOnlyInItsCompositionRoot() throws {
        let watch = try code(in: "Sources/Host/TransitWatch", except: ["ReaderSources.swift"])
        XCTAssertTrue(watch.contains { $0.file == "WatchLoop.swift" }, "the watch loop is in TransitWatch")
        for (file, code) in watch {
            for name in Self.internals + ["RCS380", "USBTapWatch", "PCSCTapWatch", "USBCardSearch", "PCSCCardSearch"] {
                XCTAssertFalse(code.contains(name), "\(file) names \(name)")
            }
        }
        let root = try String(contentsOf: BuildProducts.packageRoot.appendingPathComponent("Sources/Host/TransitWatch/ReaderSources.swift"), encoding: .utf8)
        XCTAssertTrue(root.contains("import TransitUSB") && root.contains("import TransitPCSC"), "ReaderSources.swift is where both are composed")
    }
}
