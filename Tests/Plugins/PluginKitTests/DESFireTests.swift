import PluginKit
import XCTest

/// A card answering from a script of exact command → answer pairs, recording what was sent.
final class ScriptedLink: CardLink {
    var script: [[UInt8]: [[UInt8]]]
    var sent = [[UInt8]]()
    init(_ script: [[UInt8]: [[UInt8]]]) { self.script = script }
    var uid: [UInt8] { [] }
    var systemCodes: [UInt16]? { nil }
    func felica(_ frame: [UInt8]) throws -> [UInt8] { throw PluginError.internal("no FeliCa") }
    func apdu(_ command: [UInt8]) throws -> [UInt8] {
        sent.append(command)
        guard var answers = script[command], !answers.isEmpty else { return [0x91, 0x1C] }
        let first = answers.removeFirst()
        if !answers.isEmpty { script[command] = answers }
        return first
    }
    func option(_ key: String) -> String? { nil }
    func log(_ message: String) {}
}

/// The DESFire layer against byte vectors written from the facts: HSL's public API document
/// (CardOperations.java: select `90 5A 00 00 03 11 20 EF 00`, read application info
/// `90 BD 00 00 07 08 00 00 00 0B 00 00 00`) and the DESFire status list.
final class DESFireTests: XCTestCase {
    static let selectHSL: [UInt8] = [0x90, 0x5A, 0x00, 0x00, 0x03, 0x11, 0x20, 0xEF, 0x00]
    static let readAppInfo: [UInt8] = [0x90, 0xBD, 0x00, 0x00, 0x07, 0x08, 0x00, 0x00, 0x00, 0x0B, 0x00, 0x00, 0x00]
    static let more: [UInt8] = [0x90, 0xAF, 0x00, 0x00, 0x00]

    func testCommandsAreWrappedAsTheHSLDocumentSendsThem() throws {
        XCTAssertEqual(DESFireCommand.selectApplication.apdu([0x11, 0x20, 0xEF]), Self.selectHSL)
        XCTAssertEqual(DESFireCommand.readData.apdu([0x08, 0, 0, 0, 0x0B, 0, 0]), Self.readAppInfo)
        XCTAssertEqual(DESFireCommand.additionalFrame.apdu(), Self.more)
        let link = ScriptedLink([Self.selectHSL: [[0x91, 0x00]], Self.readAppInfo: [Array(1 ... 11) + [0x91, 0x00]]])
        let card = DESFireCard(link)
        try card.selectApplication([0x11, 0x20, 0xEF])
        XCTAssertEqual(try card.readData(file: 8, length: 11)?.storage, Array(1 ... 11))
        XCTAssertEqual(link.sent, [Self.selectHSL, Self.readAppInfo])
    }

    func testChainedAnswersAreJoinedWithAdditionalFrames() throws {
        let read = DESFireCommand.readData.apdu([0x0E, 0, 0, 0, 0, 0, 0])
        let link = ScriptedLink([read: [[UInt8](repeating: 1, count: 59) + [0x91, 0xAF]],
                                 Self.more: [[UInt8](repeating: 2, count: 59) + [0x91, 0xAF], [3, 3] + [0x91, 0x00]]])
        let data = try XCTUnwrap(DESFireCard(link).readData(file: 0x0E))
        XCTAssertEqual(data.count, 120)
        XCTAssertEqual(data.storage.last, 3)
        XCTAssertEqual(link.sent, [read, Self.more, Self.more])
    }

    func testEndlessChainingIsMalformedNotALoop() {
        let read = DESFireCommand.readData.apdu([0x01, 0, 0, 0, 0, 0, 0])
        let link = ScriptedLink([read: [[0, 0x91, 0xAF]], Self.more: Array(repeating: [0, 0x91, 0xAF], count: 1000)])
        XCTAssertThrowsError(try DESFireCard(link).readData(file: 1)) { XCTAssertEqual($0 as? PluginError, .malformedResponse("DESFire answer chained past 64 frames")) }
        XCTAssertEqual(link.sent.count, DESFireCard.maxFrames)
    }

    func testApplicationNotFoundOrAnISOStatusIsNotThisCard() {
        for sw: [UInt8] in [[0x91, 0xA0], [0x6D, 0x00], [0x6E, 0x00]] {
            let link = ScriptedLink([Self.selectHSL: [sw]])
            XCTAssertThrowsError(try DESFireCard(link).selectApplication([0x11, 0x20, 0xEF])) { XCTAssertEqual($0 as? PluginError, .notThisCard, "\(sw)") }
        }
    }

    func testLockedOrMissingFilesAreAbsentAndOtherStatusesRefusals() throws {
        for sw: [UInt8] in [[0x91, 0xAE], [0x91, 0x9D], [0x91, 0xF0]] {
            XCTAssertNil(try DESFireCard(ScriptedLink([Self.readAppInfo: [sw]])).readData(file: 8, length: 11))
        }
        XCTAssertThrowsError(try DESFireCard(ScriptedLink([Self.readAppInfo: [[0x91, 0xBE]]])).readData(file: 8, length: 11)) {
            guard case PluginError.cardRefused = $0 else { return XCTFail("\($0)") }
        }
    }

    func testGetValueIsSignedLittleEndian() throws {
        let get: [UInt8] = [0x90, 0x6C, 0x00, 0x00, 0x01, 0x02, 0x00]
        XCTAssertEqual(try DESFireCard(ScriptedLink([get: [[0x38, 0xFF, 0xFF, 0xFF, 0x91, 0x00]]])).value(file: 2), -200)
    }

    func testFileSettingsReadAccessRightsAsTheDumpsShowThem() throws {
        // Standard file, plain, access 31 E3 (Opal file 7 in FareBot's dump), 16 bytes.
        let opal = try DESFireFileSettings(Bytes([0x00, 0x00, 0x31, 0xE3, 0x10, 0x00, 0x00]))
        XCTAssertEqual(opal.type, .standard)
        XCTAssertEqual(opal.readKey, 0xE)
        XCTAssertTrue(opal.freeRead)
        XCTAssertEqual(opal.size, 16)
        // Cyclic record file, access 32 E4 (ORCA), records of 48 bytes, 11 max, 5 held.
        let orca = try DESFireFileSettings(Bytes([0x04, 0x00, 0x32, 0xE4, 0x30, 0, 0, 0x0B, 0, 0, 0x05, 0, 0]))
        XCTAssertEqual(orca.type, .cyclicRecord)
        XCTAssertEqual(orca.size, 48)
        XCTAssertEqual(orca.records, 5)
        let locked = try DESFireFileSettings(Bytes([0x00, 0x03, 0x11, 0x11, 0x10, 0, 0]))
        XCTAssertFalse(locked.freeRead)
        XCTAssertThrowsError(try DESFireFileSettings(Bytes([0x00, 0x00, 0x31])))
    }

    func testNoCardChangingCommandCanBeBuilt() {
        for ins in DESFireCommand.cardChanging.keys {
            XCTAssertThrowsError(try DESFireCommand.apdu(ins: ins)) { error in
                guard case PluginError.internal(let why) = error else { return XCTFail("\(error)") }
                XCTAssertTrue(why.contains("refused"))
            }
        }
        for ins in UInt8.min ... UInt8.max where DESFireCommand(rawValue: ins) == nil {
            XCTAssertThrowsError(try DESFireCommand.apdu(ins: ins), "INS \(ins)")
        }
        XCTAssertEqual(try DESFireCommand.apdu(ins: 0x5A, data: [0x31, 0x45, 0x53]), [0x90, 0x5A, 0, 0, 3, 0x31, 0x45, 0x53, 0])
        XCTAssertTrue(Set(DESFireCommand.allCases.map(\.rawValue)).isDisjoint(with: DESFireCommand.cardChanging.keys))
    }
}
