import TestSupport
import XCTest
@testable import CardSimulation

/// The storage-card pseudo-APDUs as each reader model answers them, vectors written from the
/// readers' manuals and public traces (cited at each), against the made-up card of
/// `StorageCardImages` (sector 1, blocks 4–7: key A FFFFFFFFFFFF, key B C0FFEE123456).
final class StorageReaderDialectTests: XCTestCase {
    typealias I = StorageCardImages
    private let ok: [UInt8] = [0x90, 0x00]
    private let failed: [UInt8] = [0x63, 0x00]

    private func reader(_ model: ReaderModel, _ image: CardImage = I.classic1K()) throws -> VirtualReader {
        try VirtualReader(image: image, model: model)
    }

    private func send(_ reader: VirtualReader, _ hex: String) -> [UInt8] { reader.transmit(I.bytes(hex)) }

    func testTheACR122TManualsExamplesReadBlock4() throws {
        for model in [ReaderModel.acr122u, .acr122u424, .acr1252u, .pcsc, .twn4] {
            let r = try reader(model)
            // ACR122T API: load FF×6 into volatile slot 00, authenticate block 04 with key A in slot 00, read 16 bytes.
            XCTAssertEqual(send(r, "FF 82 00 00 06 FF FF FF FF FF FF"), ok, model.rawValue)
            XCTAssertEqual(send(r, "FF 86 00 00 05 01 00 04 60 00"), ok, model.rawValue)
            XCTAssertEqual(send(r, "FF B0 00 04 10"), I.bytes(I.block4) + ok, model.rawValue)
            // The obsolete 6-byte form authenticates too (ACR122U API v2.04; ACM1252U-Y3 5.2.4.2).
            XCTAssertEqual(send(r, "FF 88 00 05 60 00"), ok, model.rawValue)
            XCTAssertEqual(send(r, "FF B0 00 05 10"), I.bytes(I.filled(5)) + ok, model.rawValue)
            XCTAssertEqual(r.authentications, 2, model.rawValue)
            XCTAssertEqual(r.storageReads, 2, model.rawValue)
            XCTAssertEqual(r.refusedCommands, [], model.rawValue)
        }
    }

    func testACSFailuresAnswer6300() throws {
        let r = try reader(.acr122u)
        // Key structure 20 (non-volatile) and key number 02 are "reserved" for these readers.
        XCTAssertEqual(send(r, "FF 82 20 00 06 FF FF FF FF FF FF"), failed)
        XCTAssertEqual(send(r, "FF 82 00 02 06 FF FF FF FF FF FF"), failed)
        // Nothing in slot 01 yet: the authentication fails without reaching the card.
        XCTAssertEqual(send(r, "FF 86 00 00 05 01 00 04 61 01"), failed)
        XCTAssertEqual(r.authentications, 0)
        // Key B of sector 1 into slot 01: it opens sector 1 as key B, not as key A.
        XCTAssertEqual(send(r, "FF 82 00 01 06 C0 FF EE 12 34 56"), ok)
        XCTAssertEqual(send(r, "FF 86 00 00 05 01 00 04 60 01"), failed)
        XCTAssertEqual(send(r, "FF B0 00 04 10"), failed, "the failed authentication left no sector open")
        XCTAssertEqual(send(r, "FF 86 00 00 05 01 00 04 61 01"), ok)
        // The trailer: key A as zeros, access bits FF 07 80 69, key B.
        XCTAssertEqual(send(r, "FF B0 00 07 10"), I.bytes("000000000000 FF078069 C0FFEE123456") + ok)
        // Outside sector 1: block 3 (sector 0) and block 8 (sector 2) fail.
        XCTAssertEqual(send(r, "FF B0 00 03 10"), failed)
        XCTAssertEqual(send(r, "FF B0 00 08 10"), failed)
        // The ACR122U reads "Maximum 16 bytes".
        XCTAssertEqual(send(r, "FF B0 00 04 20"), failed)
        // The locked sector 2 opens with neither slot.
        XCTAssertEqual(send(r, "FF 82 00 00 06 FF FF FF FF FF FF"), ok)
        XCTAssertEqual(send(r, "FF 86 00 00 05 01 00 08 60 00"), failed)
        XCTAssertEqual(send(r, "FF 86 00 00 05 01 00 0B 61 01"), failed)
        XCTAssertEqual(r.authentications, 4)
        XCTAssertEqual(r.classicCard?.failedAuthentications, 3)
    }

    func testTheACR1252UReadsThreeBlocksOfOneSectorAndATrailerAlone() throws {
        let r = try reader(.acr1252u)
        XCTAssertEqual(send(r, "FF 82 00 00 06 FF FF FF FF FF FF"), ok)
        XCTAssertEqual(send(r, "FF 86 00 00 05 01 00 04 60 00"), ok)
        // Le 30 = 48 bytes: blocks 4, 5, 6.
        XCTAssertEqual(send(r, "FF B0 00 04 30"), I.bytes(I.block4 + I.filled(5) + I.filled(6)) + ok)
        XCTAssertEqual(send(r, "FF B0 00 05 20"), I.bytes(I.filled(5) + I.filled(6)) + ok)
        // Over the trailer (blocks 5–7), past the sector's data blocks, or not a multiple of 16.
        XCTAssertEqual(send(r, "FF B0 00 05 30"), failed)
        XCTAssertEqual(send(r, "FF B0 00 04 40"), failed)
        XCTAssertEqual(send(r, "FF B0 00 04 18"), failed)
        // The trailer in single block mode.
        XCTAssertEqual(send(r, "FF B0 00 07 10"), I.bytes("000000000000 FF078069 C0FFEE123456") + ok)
    }

    func testTheACR1252UReads240BytesOfA4KBigSector() throws {
        let r = try reader(.acr1252u, I.classic4K())
        XCTAssertEqual(send(r, "FF 82 00 00 06 FF FF FF FF FF FF"), ok)
        // Block 0x8A = 138, in sector 32 (blocks 128–143).
        XCTAssertEqual(send(r, "FF 86 00 00 05 01 00 8A 60 00"), ok)
        // Le F0 = 240 bytes from block 0x80: blocks 128–142, each filled with its number.
        let expected = (128 ..< 143).flatMap { [UInt8](repeating: UInt8($0), count: 16) }
        XCTAssertEqual(send(r, "FF B0 00 80 F0"), expected + ok)
        XCTAssertEqual(send(r, "FF B0 00 8F 10"), I.bytes("000000000000 FF078069 FFFFFFFFFFFF") + ok)
        XCTAssertEqual(send(r, "FF B0 00 90 10"), failed, "block 144 is sector 33's")
    }

    func testTheOMNIKEYLoadsKeysWithP120() throws {
        let r = try reader(.omnikey5022)
        // HID's mifare-sample MifareTest.cpp: Load Key P1 20, key number 00; Read Binary with Le 00.
        XCTAssertEqual(send(r, "FF 82 20 00 06 FF FF FF FF FF FF"), ok)
        XCTAssertEqual(send(r, "FF 86 00 00 05 01 00 04 60 00"), ok)
        XCTAssertEqual(send(r, "FF B0 00 04 00"), I.bytes(I.block4) + ok)
        XCTAssertEqual(send(r, "FF B0 00 05 10"), I.bytes(I.filled(5)) + ok)
        // P1 00: 69 86, as an OMNIKEY 5321 answered (stackoverflow q/18830280).
        XCTAssertEqual(send(r, "FF 82 00 00 06 FF FF FF FF FF FF"), [0x69, 0x86])
        XCTAssertEqual(send(r, "FF 82 00 20 06 FF FF FF FF FF FF"), [0x69, 0x86])
        // The obsolete FF 88: 67 00, as an OMNIKEY 5127 CK answered (techqa.club q 27277214).
        XCTAssertEqual(send(r, "FF 88 00 04 60 00"), [0x67, 0x00])
        XCTAssertEqual(r.refusedCommands, [I.bytes("FF 88 00 04 60 00")])
        // Key B of sector 1 in key number 05.
        XCTAssertEqual(send(r, "FF 82 20 05 06 C0 FF EE 12 34 56"), ok)
        XCTAssertEqual(send(r, "FF 86 00 00 05 01 00 06 61 05"), ok)
        XCTAssertEqual(send(r, "FF B0 00 06 10"), I.bytes(I.filled(6)) + ok)
        XCTAssertEqual(send(r, "FF 86 00 00 05 01 00 00 61 05"), failed, "sector 0's key B is another")
    }

    func testTheUTrustLoadsAKeyPerKeyTypeAndAuthenticatesWithKeyNumber01() throws {
        let r = try reader(.utrust3700f)
        // uTrust 3720F reference 6.2.3–6.2.4: P2 = key type; General Authenticate with key number 01.
        XCTAssertEqual(send(r, "FF 82 00 60 06 FF FF FF FF FF FF"), ok)
        XCTAssertEqual(send(r, "FF 86 00 00 05 01 00 06 60 01"), ok)
        XCTAssertEqual(send(r, "FF B0 00 06 10"), I.bytes(I.filled(6)) + ok)
        // SCL3711 reference 6.2.3.4: 69 88 "Key number not valid", 69 87 "Non volatile memory not
        // available", 69 89 "Key length not correct".
        XCTAssertEqual(send(r, "FF 82 00 00 06 FF FF FF FF FF FF"), [0x69, 0x88])
        XCTAssertEqual(send(r, "FF 82 20 60 06 FF FF FF FF FF FF"), [0x69, 0x87])
        XCTAssertEqual(send(r, "FF 82 00 61 05 C0 FF EE 12 34"), [0x69, 0x89])
        // SCL010 reference 6.2.4.4: a key number other than 01, or no key B loaded: 69 84
        // "Referenced key not usable"; key type 62: 69 86 "Key type not known".
        XCTAssertEqual(send(r, "FF 86 00 00 05 01 00 06 60 00"), [0x69, 0x84])
        XCTAssertEqual(send(r, "FF 86 00 00 05 01 00 06 61 01"), [0x69, 0x84])
        XCTAssertEqual(send(r, "FF 86 00 00 05 01 00 06 62 01"), [0x69, 0x86])
        // Key B loaded beside key A: each opens its own way.
        XCTAssertEqual(send(r, "FF 82 00 61 06 C0 FF EE 12 34 56"), ok)
        XCTAssertEqual(send(r, "FF 86 00 00 05 01 00 07 61 01"), ok)
        // A read outside the open sector: 69 82 "Security status not satisfied" (SCM3712 reference 8.2.1.4).
        XCTAssertEqual(send(r, "FF B0 00 08 10"), [0x69, 0x82])
        // The wrong key (sector 0's key A is not FF×6): 63 00.
        XCTAssertEqual(send(r, "FF 86 00 00 05 01 00 00 60 01"), failed)
        XCTAssertEqual(send(r, "FF B0 00 04 10"), [0x69, 0x82], "no sector open after the failure")
        // FF 00 00 00 is the uTrust's load-keys / change-PIN command: refused, never carried.
        XCTAssertEqual(send(r, "FF 00 00 00 05 D4 40 01 30 04"), [0x6A, 0x81])
        XCTAssertEqual(send(r, "FF 88 00 04 60 01"), [0x6A, 0x81])
        XCTAssertEqual(r.refusedCommands.map { Array($0.prefix(2)) }, [[0xFF, 0x00], [0xFF, 0x88]])
    }

    func testTheRCS300RefusesToAuthenticate() throws {
        let r = try reader(.rcs300)
        XCTAssertEqual(send(r, "FF 82 00 00 06 FF FF FF FF FF FF"), [0x6A, 0x81])
        XCTAssertEqual(send(r, "FF 86 00 00 05 01 00 04 60 00"), [0x6A, 0x81])
        XCTAssertEqual(send(r, "FF B0 00 04 10"), failed)
        // The refused Load Keys is kept without its key.
        XCTAssertEqual(r.refusedCommands, [I.bytes("FF 82 00 00 06"), I.bytes("FF 86 00 00 05 01 00 04 60 00")])
        XCTAssertEqual(r.authentications, 0)
    }

    func testEveryWriteAndValueOperationIsRefusedAndRecorded() throws {
        for model in ReaderModel.allCases where model != .phone {
            let r = try reader(model)
            let writes = ["FF D6 00 04 10 " + I.block4,          // Update Binary
                          "FF D7 00 05 05 01 00 00 00 01",        // value block decrement (ACS form)
                          "FF D7 00 05 02 03 06",                  // restore / transfer
                          "FF B1 00 01 00"]                         // Identiv's Read Sector: not carried here
            for w in writes { XCTAssertEqual(send(r, w), [0x6A, 0x81], "\(model.rawValue) \(w)") }
            XCTAssertEqual(r.refusedCommands.count, writes.count, model.rawValue)
            XCTAssertEqual(r.refusedCommands.first.map { Array($0.prefix(2)) }, [0xFF, 0xD6], model.rawValue)
        }
    }

    func testGetDataAnswersTheUID() throws {
        for model in ReaderModel.allCases where model != .phone {
            XCTAssertEqual(send(try reader(model), "FF CA 00 00 00"), I.bytes("A1B2C3D4") + ok, model.rawValue)
            XCTAssertEqual(send(try reader(model, I.ultralight()), "FF CA 00 00 00"), I.bytes("04A1B2C3D4E5F6") + ok, model.rawValue)
        }
    }

    func testAPhoneBridgeCannotHoldAStorageCard() throws {
        for image in [I.classic1K(), I.ultralight()] {
            XCTAssertThrowsError(try reader(.phone, image)) { XCTAssertTrue("\($0)".contains("ISO 14443-4 cards only"), "\($0)") }
        }
    }

    /// Hostile APDUs (any length, FF-class headers of every instruction the reader takes, with
    /// short, long and odd bodies) never trap and always end in a status word.
    func testHostileCommandsNeverTrap() throws {
        var random = SplitMix64(seed: 42)
        for model in ReaderModel.allCases where model != .phone {
            for image in [I.classic4K(), I.ultralight()] {
                let r = try reader(model, image)
                for _ in 0 ..< 2_000 {
                    var apdu = (0 ..< random.below(24)).map { _ in random.byte() }
                    if apdu.count >= 2, random.below(2) == 0 {
                        apdu[0] = 0xFF
                        apdu[1] = [0x82, 0x86, 0x88, 0xB0, 0xCA, 0xD6][random.below(6)]
                    }
                    let answer = r.transmit(apdu)
                    XCTAssertGreaterThanOrEqual(answer.count, 2, "\(model.rawValue) \(apdu)")
                }
            }
        }
    }

    func testAResetClosesTheSectorAndTheReaderKeepsItsKeys() throws {
        let r = try reader(.acr122u)
        XCTAssertEqual(send(r, "FF 82 00 00 06 FF FF FF FF FF FF"), ok)
        XCTAssertEqual(send(r, "FF 86 00 00 05 01 00 04 60 00"), ok)
        r.resetStorageCard()
        XCTAssertEqual(send(r, "FF B0 00 04 10"), failed)
        XCTAssertEqual(send(r, "FF 86 00 00 05 01 00 04 60 00"), ok, "slot 00 still holds the key")
        XCTAssertEqual(send(r, "FF B0 00 04 10"), I.bytes(I.block4) + ok)
    }
}
