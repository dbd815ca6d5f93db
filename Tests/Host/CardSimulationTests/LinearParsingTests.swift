import CardSimulation
import Foundation
import TestSupport
import XCTest

/// Issue 45: every dump parser's time grows linearly with its input, whatever a line holds — a run
/// of blanks, tabs, CRs or NULs inside one line — as docs/security.md promises: an input 8 times
/// longer takes about 8 times as long (a quadratic parser: 64). A Flipper DESFire dump with 40,000
/// blanks after one line took 4.3 s where 10,000 took 0.28 s, before it was read over bytes.
final class LinearParsingTests: XCTestCase {
    /// Each format's text (written by this project's test writers from the formats' facts, or a
    /// sample of ours) and a line end inside a line its parser reads.
    private func formats() throws -> [(name: String, text: String, marker: String)] {
        let root = BuildProducts.packageRoot.path
        func file(_ path: String) throws -> String { try String(contentsOfFile: "\(root)/\(path)", encoding: .utf8) }
        let suica = try CardImages.sample("suica.json"), easycard = try CardImages.sample("easycard.json")
        let mct = (easycard.mifareClassic?.blocks ?? []).enumerated().map { n, b in (n % 4 == 0 ? "+Sector: \(n / 4)\n" : "") + b + "\n" }.joined()
        return [
            ("Flipper FeliCa", DumpTexts.flipper(suica), "UID:"),
            ("Flipper DESFire", try file("samples/clipper.nfc"), "UID:"),
            ("Flipper Classic", try file("Tests/Fixtures/dumps/classic-1k.nfc"), "Block 4:"),
            ("Flipper Ultralight", try file("Tests/Fixtures/dumps/ultralight-11.nfc"), "Page 4:"),
            ("MIFARE Classic Tool", mct, "+Sector: 1"),
            ("Metrodroid JSON", String(decoding: try DumpTexts.metrodroid(suica), as: UTF8.self), "{"),
            ("Metrodroid Classic JSON", String(decoding: try ExportTexts.metrodroid(easycard), as: UTF8.self), "{"),
            ("XML export", ExportTexts.xml([suica]), "<card "),
            ("FareBot export", String(decoding: try ExportTexts.fareBot([suica]), as: UTF8.self), "{"),
        ]
    }

    func testEveryDumpParserIsLinearWhateverALineHolds() throws {
        for (name, text, marker) in try formats() {
            XCTAssertTrue(text.contains(marker), "\(name): the run goes after \(marker)")
            for (filler, byte) in Linearity.fillers {
                for atLineEnd in [false, true] {
                    let growth = Linearity.growth(n: 20_000, make: { Linearity.padded(text, after: marker, atLineEnd: atLineEnd, with: byte, count: $0) },
                                                  parse: { _ = try? CardFile.parse($0, name: name == "MIFARE Classic Tool" ? "dump.mct" : "dump") })
                    XCTAssertLessThan(growth, 24, "\(name), a run of \(filler) \(atLineEnd ? "ending" : "inside") a line: 8 times the input took \(growth) times as long")
                }
            }
        }
    }
}
