import TransitFiles
import CardSimulation
import Foundation
import TestSupport
import XCTest

/// Files a user did not write: FIFOs, files over their size limit, CRLF dumps, card images that
/// parse but describe no usable card. Every problem is `config` (exit 2) naming the file.
final class HostileFileTests: XCTestCase {
    var dir: URL!
    override func setUp() { dir = temporaryDirectory() }
    override func tearDown() { try? FileManager.default.removeItem(at: dir) }

    /// `transit` with a deadline: a command blocked on a file is killed, and fails the test.
    func transit(_ arguments: [String]) throws -> CommandRun {
        try CommandRun.run(BuildProducts.transit, arguments, currentDirectory: BuildProducts.packageRoot, timeout: 20)
    }

    func path(_ name: String) -> String { dir.appendingPathComponent(name).path }

    /// A sparse file one byte over `limit` (no disk used).
    func oversized(_ name: String, limit: Int) throws -> String {
        XCTAssertTrue(FileManager.default.createFile(atPath: path(name), contents: nil))
        XCTAssertEqual(truncate(path(name), off_t(limit + 1)), 0)
        return path(name)
    }

    func assertConfig(_ run: CommandRun, naming file: String, _ text: String, line: UInt = #line) {
        XCTAssertEqual(run.status, 2, run.stdout + run.stderr, line: line)
        let error = run.json?["error"] as? [String: Any]
        XCTAssertEqual(error?["kind"] as? String, "config", run.stdout, line: line)
        let message = error?["message"] as? String ?? ""
        XCTAssertTrue(message.contains(file) && message.contains(text), message, line: line)
    }

    func testFIFOIsRefusedWithoutBlocking() throws {
        let fifo = path("card.json")
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        let started = Date()
        assertConfig(try transit(["scan", "--card", fifo, "--json"]), naming: fifo, "not a regular file")
        assertConfig(try transit(["replay", fifo, "--json"]), naming: fifo, "not a regular file")
        assertConfig(try transit(["verify", "--reference", fifo, "--card", BuildProducts.sample("suica.json"), "--json"]),
                     naming: fifo, "not a regular file")
        XCTAssertLessThan(Date().timeIntervalSince(started), 15, "no command waited for a writer")
    }

    func testFilesOverTheirLimitAreRefusedNamingFileAndLimit() throws {
        let card = try oversized("card.json", limit: CardImage.fileLimit)
        let run = try transit(["decode", card, BuildProducts.sample("suica.json")])
        XCTAssertEqual(run.status, 2)
        let lines = run.stdout.split(separator: "\n").map { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        XCTAssertEqual(lines.count, 2, run.stdout)
        let error = lines.first??["error"] as? [String: Any]
        XCTAssertEqual(error?["kind"] as? String, "config")
        XCTAssertEqual(error?["message"] as? String, "\(card): larger than the 4 MiB limit for this file")
        XCTAssertNotNil(lines.last??["card"], "the next file is read")

        let log = try oversized("big.log.json", limit: 16 << 20)
        assertConfig(try transit(["replay", log, "--json"]), naming: log, "larger than the 16 MiB limit")
        let reference = try oversized("ref.json", limit: 1 << 20)
        assertConfig(try transit(["verify", "--reference", reference, "--card", BuildProducts.sample("suica.json"), "--json"]),
                     naming: reference, "larger than the 1 MiB limit")
    }

    func testSizeIsCheckedWhileReadingNotOnlyAsReported() throws {
        // /proc files report a size of 0 and are regular: the read itself stops past the limit.
        XCTAssertThrowsError(try BoundedFile.read("/proc/self/maps", limit: 16)) {
            XCTAssertEqual("\($0)", "/proc/self/maps: larger than the 16-byte limit for this file")
        }
        let exact = path("exact")
        try Data(repeating: 0x41, count: 100).write(to: URL(fileURLWithPath: exact))
        XCTAssertEqual(try BoundedFile.read(exact, limit: 100).count, 100)
        XCTAssertThrowsError(try BoundedFile.read(exact, limit: 99))
        XCTAssertThrowsError(try BoundedFile.read(dir.path, limit: 99)) { XCTAssertEqual("\($0)", "\(self.dir.path): not a regular file") }
    }

    func testCRLFFlipperFileDecodes() throws {
        let nfc = path("Suica.nfc")
        try DumpTexts.flipper(try CardImages.sample("suica.json"), lineEnd: "\r\n").write(toFile: nfc, atomically: true, encoding: .utf8)
        let run = try transit(["decode", nfc])
        XCTAssertEqual(run.status, 0, run.stdout)
        let card = run.json?["card"] as? [String: Any]
        XCTAssertEqual(card?["family"] as? String, "japan-ic")
        XCTAssertEqual(card?["balance"] as? Int, 2010)
    }

    /// Each way an image can parse and still describe no card, with the start of what `decode` says.
    func invalidImages() throws -> [(String, CardImage, String)] {
        let suica = try CardImages.sample("suica.json"), tmoney = try CardImages.sample("tmoney.json")
        func felica(_ edit: (inout CardImage.FeliCaImage) -> Void) -> CardImage {
            var image = suica
            if var f = image.felica { edit(&f); image.felica = f }
            return image
        }
        func iso(_ edit: (inout CardImage.ISO7816Image) -> Void) -> CardImage {
            var image = tmoney
            if var i = image.iso7816 { edit(&i); image.iso7816 = i }
            return image
        }
        let system = CardImage.FeliCaSystemImage(code: "FE00", services: [:])
        return [
            ("17-systems", felica { $0.systems += Array(repeating: system, count: 17 - $0.systems.count) }, "a FeliCa card holds 1 to 16 systems"),
            ("no-systems", felica { $0.systems = [] }, "a FeliCa card holds 1 to 16 systems"),
            ("idm-7-bytes", felica { $0.idm = "0114AABBCCDDEE" }, "IDm must be 8 bytes"),
            ("block-15-bytes", felica { $0.systems[0].services["090F"]?[0] = String(repeating: "00", count: 15) }, "block of service 090F is not 16 bytes"),
            ("block-bad-hex", felica { $0.systems[0].services["090F"]?[0] = String(repeating: "ZZ", count: 16) }, "bad hex"),
            ("idm-odd-hex", felica { $0.idm = "0114AABBCCDDEEF" }, "odd hex string"),
            ("pmm-bad-hex", felica { $0.pmm = "XX0B4B428485D0FF" }, "bad hex"),
            ("system-code-3-digits", felica { $0.systems[0].code = "003" }, "odd hex string"),
            ("service-code-6-digits", felica { $0.systems[0].services["00090F"] = [] }, "code 00090F is not 4 hex digits"),
            ("locked-code-bad", felica { $0.systems[0].lockedServices = ["08"] }, "code 08 is not 4 hex digits"),
            ("system-idm-7-bytes", felica { $0.systems[1].idm = "03FE11223344AA" }, "IDm of system FE00 must be 8 bytes"),
            ("system-0-idm", felica { $0.systems[0].idm = "0000000000000000" }, "system 0's IDm is the card's idm"),
            ("shared-idm", felica { $0.systems[1].idm = $0.idm }, "two FeliCa systems share an IDm"),
            ("historical-16-bytes", iso { $0.historicalBytes = String(repeating: "80", count: 16) }, "an ATR holds at most 15 historical bytes"),
            ("historical-bad-hex", iso { $0.historicalBytes = "8G" }, "bad hex"),
            ("uid-bad-hex", iso { $0.uid = "04C1C2C3C4C5CZ" }, "bad hex"),
            ("select-bad-hex", iso { $0.applications[0].select = "00A4 04 0Q" }, "bad hex"),
            ("command-bad-hex", iso { $0.applications[0].commands["904C000004"] = "0000271" }, "odd hex string"),
            ("sfi-1F", iso { $0.applications[0].records = ["1F": ["00"]] }, "SFI 1F is not two hex digits 01–1E"),
            ("sfi-00", iso { $0.applications[0].binaries = ["00": "00"] }, "SFI 00 is not two hex digits 01–1E"),
            ("global-command-bad-hex", iso { $0.commands = ["00": "9"] }, "odd hex string"),
            ("both-cards", { var i = suica; i.iso7816 = tmoney.iso7816; return i }(), "a card image holds exactly one of felica, iso7816, mifareClassic and mifareUltralight"),
        ]
    }

    func testEveryImageValidationErrorIsConfigNamingTheFileAndDecodeGoesOn() throws {
        let cases = try invalidImages()
        let files = try cases.map { try CardImages.write($0.1, in: dir, name: "\($0.0).json") } + [BuildProducts.sample("suica.json")]
        let run = try transit(["decode"] + files)
        XCTAssertEqual(run.status, 2, "the first failure's code")
        let lines = run.stdout.split(separator: "\n").map { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        XCTAssertEqual(lines.count, files.count, "one line per file")
        XCTAssertEqual(lines.map { $0?["file"] as? String }, files)
        for (i, c) in cases.enumerated() where i < lines.count {
            let error = lines[i]?["error"] as? [String: Any]
            XCTAssertEqual(error?["kind"] as? String, "config", c.0)
            let message = error?["message"] as? String ?? ""
            XCTAssertTrue(message.hasPrefix("\(files[i]): \(c.2)"), "\(c.0): \(message)")
        }
        XCTAssertEqual((lines.last??["card"] as? [String: Any])?["balance"] as? Int, 2010, "the file after them is read")
        // --card says the same, with the same exit code.
        assertConfig(try transit(["scan", "--card", files[0], "--json"]), naming: files[0], cases[0].2)
    }
}
