import XCTest
import CardProtocol
import TransitModel
import TransitFiles
import TransitTransport
import TransitStations
import TransitArchive
import TransitOutput

/// The reader table for the names pcscd really gives (libccid's Info.plist names with pcscd's
/// `[interface] (serial) NN SS`; logs cited in docs/readers.md).
final class ReaderTableTests: XCTestCase {
    func testRealReaderNamesFindTheirLines() {
        let names: [(String, String, [FeliCaDialect])] = [
            ("ACS ACR122U PICC Interface 00 00", "ACS ACR122U", [.pn532, .bareFrame, .acsDirect, .part3]),
            ("ACS ACR122U (A02014090501) 00 01", "ACS ACR122U", [.pn532, .bareFrame, .acsDirect, .part3]),
            ("ACS ACR1252 Dual Reader [ACR1252 Dual Reader PICC] 00 00", "ACS ACR1252U", [.acsDirect, .part3]),
            ("ACS ACR1252 1S CL Reader [ACR1252 Dual Reader PICC] 00 00", "ACS ACR1252U", [.acsDirect, .part3]),
            ("ACS ACR1552 1S CL Reader [ACR1552 1S CL Reader PICC] 00 00", "ACS ACR1552U", [.acsDirect, .part3]),
            ("SONY FeliCa RC-S300/P (0201504) 01 00", "Sony RC-S300", [.part3]),
            ("SONY FeliCa RC-S660/U (1234567) 00 00", "Sony RC-S660/U", [.part3]),
            ("Identiv uTrust 3700 F CL Reader [uTrust 3700 F CL Reader] (55021716210255) 00 00", "Identiv / SCM", [.part3]),
            ("Identive CLOUD 4700 F Dual Interface Reader [CLOUD 4700 F Contactless Reader] (53201324200379) 01 00", "Identiv / SCM", [.part3]),
            ("SCM Microsystems Inc. SCL011 Contactless Reader 00 00", "Identiv / SCM", [.part3]),
            ("HID Global OMNIKEY 5022 Smart Card Reader [OMNIKEY 5022 Smart Card Reader] 00 00", "HID OMNIKEY", []),
            ("HID OMNIKEY 5427 CK (010100534E5634303104531E20192530) 00 00", "HID OMNIKEY", []),
            ("Elatec TWN4 SmartCard NFC 00 00", "Elatec TWN4", [.part3, .pn532, .acsDirect]),
            ("Virtual PCD 00 00", "vsmartcard virtual reader", [.part3, .pn532, .acsDirect]),
            ("Gemalto Prox-DU 00 00", ReaderProfile.unknown.name, [.part3, .pn532, .acsDirect]),
        ]
        for (reader, line, dialects) in names {
            let profile = ReaderProfile.matching(reader)
            XCTAssertEqual(profile.name, line, reader)
            XCTAssertEqual(profile.dialects, dialects, reader)
        }
    }

    func testIdentivReadersNeverGetTheFF00Wrappers() {
        let profile = ReaderProfile.matching("Identiv uTrust 3700 F CL Reader [uTrust 3700 F CL Reader] (55021716210255) 00 00")
        XCTAssertNotNil(profile.unsafe[.pn532])
        XCTAssertNotNil(profile.unsafe[.acsDirect])
        for line in ReaderTable.lines {
            XCTAssertTrue(Set(line.dialects).isDisjoint(with: line.unsafe.keys), "\(line.name) lists a dialect it marks unsafe")
            XCTAssertFalse(line.source.isEmpty, "\(line.name) has no source")
        }
    }

    func testTheRCS300OpensASessionAndTheTWN4CapsItsCommands() {
        XCTAssertTrue(ReaderProfile.matching("SONY FeliCa RC-S300/S (1469193) 00 00").transparentSession)
        XCTAssertFalse(ReaderProfile.matching("ACS ACR122U PICC Interface 00 00").transparentSession)
        // ccid readers/Elatec_TWN4_SmartCard_NFC.txt: dwMaxCCIDMessageLength 64, less the 10-byte header.
        XCTAssertEqual(ReaderProfile.matching("Elatec TWN4 SmartCard NFC 00 00").maxCommand, 54)
    }

    func testSAMInterfacesAreToldFromTheCardsOwn() {
        XCTAssertTrue(ReaderProfile.isSAMSlot("ACS ACR1252 Dual Reader [ACR1252 Dual Reader SAM] 01 00"))
        XCTAssertTrue(ReaderProfile.isSAMSlot("ACS ACR1552 1S CL Reader [ACR1552 1S CL Reader SAM] 01 00"))
        XCTAssertFalse(ReaderProfile.isSAMSlot("ACS ACR1252 Dual Reader [ACR1252 Dual Reader PICC] 00 00"))
        XCTAssertFalse(ReaderProfile.isSAMSlot("SAMSUNG thing 00 00"))
        XCTAssertFalse(ReaderProfile.isSAMSlot("Virtual PCD 00 00"))
    }
}
