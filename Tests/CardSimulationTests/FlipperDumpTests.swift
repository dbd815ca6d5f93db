import CardSimulation
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
        // other builds): about 2 s here; the quadratic parse took minutes.
        XCTAssertLessThan(seconds, 5, "\(seconds) s of CPU")
    }

    private func threadCPUSeconds() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }
}
