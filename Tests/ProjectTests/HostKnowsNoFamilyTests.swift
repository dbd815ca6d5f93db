import Foundation
import TestSupport
import XCTest

/// The host knows no card family (docs/ARCHITECTURE.md's first rule, issue 48): no Swift file of
/// Sources/Host names a shipped family as a string, so what the host does for a family's cards
/// (fonts, station names) it does for a third party's family too. Other tools' dump formats
/// (CardSimulation/Dumps) name their own card types, which may share a family's word: they are
/// those tools' vocabulary, read as such; the card image's "desfire" key is a technology's.
final class HostKnowsNoFamilyTests: XCTestCase {
    func testNoHostSourceNamesAFamily() throws {
        let families = ShippedPlugins.familyNames
        XCTAssertTrue(families.contains("japan-ic"), "plugins.conf was read")
        XCTAssertTrue(families.contains("opal") && families.contains("snapper"), "the FAMILY.md files were read")
        let host = BuildProducts.packageRoot.appendingPathComponent("Sources/Host")
        let files = (FileManager.default.enumerator(atPath: host.path)?.compactMap { $0 as? String } ?? [])
            .filter { $0.hasSuffix(".swift") && !$0.contains("/Dumps/") }
        XCTAssertGreaterThan(files.count, 100)
        for file in files {
            let text = try String(contentsOf: host.appendingPathComponent(file), encoding: .utf8)
            for family in families where text.contains("\"\(family)\"") {
                let allowed = file.hasSuffix("CardImage.swift") && family == "desfire"
                XCTAssertTrue(allowed, "Sources/Host/\(file) names the family \(family)")
            }
        }
    }
}
