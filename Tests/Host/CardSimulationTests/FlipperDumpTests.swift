@testable import CardSimulation
import Foundation
import TestSupport
import XCTest

/// Flipper Zero FeliCa files: LF or CRLF, and parsed in linear time.
final class FlipperDumpTests: XCTestCase {
    func testCRLFFileReadsAsTheLFOne() throws {
        let suica = try CardImages.sample("suica.json")
        let lf = try CardImage.parse(Data(DumpTexts.flipper(suica).utf8))
        let crlf = try CardImage.parse(Data(DumpTexts.flipper(suica, lineEnd: "\r\n").utf8))
        XCTAssertEqual(crlf, lf)
        XCTAssertEqual(crlf.felica?.idm, suica.felica?.idm)
        XCTAssertEqual(crlf.felica?.systems.map(\.services), suica.felica?.systems.map(\.services))
    }

    func testKeyVersionsOfTheDataFormat4FileAnswerRequestService() throws {
        // `System 00: 0003 | Key version 0100 |`, `Area 000: … | Key version 0200 |`, each service's
        // `| Key version 10NN |`; the `System 00 Key:` line and the directory tree are skipped.
        let suica = try CardImages.sample("suica.json")
        let image = try CardImage.parse(Data(DumpTexts.flipper(suica, keyVersions: true).utf8))
        XCTAssertEqual(image.felica?.systems.map(\.services), suica.felica?.systems.map(\.services))
        XCTAssertEqual(image.felica?.systems.map { $0.lockedServices ?? [] }, suica.felica?.systems.map { $0.lockedServices ?? [] })
        let versions = try XCTUnwrap(image.felica?.systems.first?.keyVersions)
        XCTAssertEqual(versions["FFFF"], "0100")
        XCTAssertEqual(versions["0000"], "0200")
        XCTAssertEqual(versions["008B"], "1000") // the first public service, 008B, then 090F, then the locked 0810, 1808
        XCTAssertEqual(versions["1808"], "1003")
        // Request Service (02) to system 0: key versions little-endian, FFFF for a node the card lacks
        // (FeliCa Card User's Manual); through the reader's Part 3 pass-through.
        let reader = try VirtualReader(image: image)
        let idm = try HexText.bytes(suica.felica?.idm ?? "")
        let frame = [UInt8(19), 0x02] + idm + [0x04, 0x8B, 0x00, 0x08, 0x18, 0x00, 0x00, 0x34, 0x12]
        let apdu = [0xFF, 0xC2, 0x00, 0x01, UInt8(9 + frame.count), 0x5F, 0x46, 0x04, 0x50, 0xC3, 0x00, 0x00, 0x95, UInt8(frame.count)] + frame + [0x00]
        let answer = reader.transmit(apdu)
        XCTAssertEqual(Array(answer.suffix(11)), [0x04, 0x00, 0x10, 0x03, 0x10, 0x00, 0x02, 0xFF, 0xFF, 0x90, 0x00])
    }

    func testHundredThousandBlockLinesParseInLinearTime() throws {
        let block = String(repeating: "00", count: 16)
        var image = CardImages.japanIC(history: [])
        image.felica?.systems[0].services["090F"] = Array(repeating: block, count: 100_000)
        let text = Data(DumpTexts.flipper(image).utf8)
        let started = threadCPUSeconds()
        let parsed = try CardImage.parse(text)
        let seconds = threadCPUSeconds() - started
        XCTAssertEqual(parsed.felica?.systems.first?.services["090F"]?.count, 100_000)
        // A sanity bound only, on this thread's CPU time (a debug build, the machine shared with
        // other builds): about 5.2 s on today's 2-core machines, before issue 42's changes as after
        // (measured at 637a66a and at its successor); the quadratic parse took minutes.
        XCTAssertLessThan(seconds, 12, "\(seconds) s of CPU")
    }

    private func threadCPUSeconds() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }
}
