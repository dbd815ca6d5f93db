import Foundation
import TestSupport
import XCTest

/// Never crash on card data: every plugin, through the host, on mutated answers of the project's
/// captured reads (Tests/Fixtures/captures). FUZZ_ITERATIONS and FUZZ_SEED make longer runs
/// (scripts/fuzz.sh); the suite runs 10,000 mutated reads per capture with a fixed seed.
final class FuzzTests: XCTestCase {
    func testMutatedAnswersEndInAReadingOrADocumentedError() throws {
        let env = ProcessInfo.processInfo.environment
        let iterations = env["FUZZ_ITERATIONS"].flatMap(Int.init) ?? 10_000
        let seed = env["FUZZ_SEED"].flatMap(UInt64.init) ?? 0x7472_616E_7369_74
        let captures = BuildProducts.packageRoot.appendingPathComponent("Tests/Fixtures/captures")
        let names = try FileManager.default.contentsOfDirectory(atPath: captures.path).filter { $0.hasSuffix(".log.json") }.sorted()
        XCTAssertEqual(names.count, 11)
        for name in names {
            let fuzzer = try Fuzzer(capture: captures.appendingPathComponent(name).path,
                                    config: BuildProducts.packageRoot.appendingPathComponent("plugins.conf").path, seed: seed)
            let report = try fuzzer.run(iterations)
            XCTAssertEqual(report.reads, iterations)
            XCTAssertEqual(report.undocumented, [], name)
            XCTAssertLessThanOrEqual(report.mostExchanges, 1100, "\(name): a plugin ran away")
            print("fuzz \(name): \(report.reads) reads, \(report.readings) readings, errors \(report.errors.sorted { $0.key < $1.key }), most exchanges \(report.mostExchanges)")
        }
    }
}
