import CardSimulation
import Foundation
import TestSupport
import XCTest
import CardProtocol
import TransitModel
import TransitFiles
import TransitEngine
import TransitStations
import TransitArchive
import TransitOutput

/// Mutated card images, Flipper dumps, Metrodroid exports, log bundles and references fed to the
/// parsers that read them, in process and a few through `transit decode`: no trap, no hang, every
/// outcome a value or the documented error for a file (`config`, naming it). Seeded: a failure
/// reproduces with the seed it prints.
final class FileFuzzTests: XCTestCase {
    static let seed: UInt64 = 20_261_130
    var dir: URL!
    override func setUp() { dir = temporaryDirectory() }
    override func tearDown() { try? FileManager.default.removeItem(at: dir) }

    /// What one input came to: nil when it was accepted, else the error's kind and message.
    typealias Outcome = (kind: String, message: String)?

    var slowest = (seconds: 0.0, input: "")

    /// Writes `data` and loads it with `load`, timing it.
    func run(_ name: String, _ data: Data, _ load: (String) throws -> Void) throws -> Outcome {
        let path = dir.appendingPathComponent(name).path
        try data.write(to: URL(fileURLWithPath: path))
        let started = Date()
        defer {
            let seconds = Date().timeIntervalSince(started)
            if seconds > slowest.seconds { slowest = (seconds, name) }
        }
        do {
            try load(path)
            return nil
        } catch let e as CardImageError {
            return ("config", e.description)
        } catch let e as TransitError {
            return (e.kind.reported, e.message)
        } catch {
            return ("undocumented \(type(of: error))", "\(error)")
        }
    }

    /// A card file read as `--card` reads it, then asked for its UID and polled.
    static func loadCard(_ path: String) throws {
        let reader = try VirtualReader(image: try CardImage.load(path))
        _ = reader.transmit([0xFF, 0xCA, 0x00, 0x00, 0x00])
        _ = reader.transmit([0xFF, 0x00, 0x00, 0x00, 0x06, 0x06, 0x00, 0xFF, 0xFF, 0x01, 0x00])
    }

    func cardSeeds() throws -> [(String, Data)] {
        let samples = try FileManager.default.contentsOfDirectory(atPath: BuildProducts.sample("")).sorted().filter { $0.hasSuffix(".json") }
        let suica = try CardImages.sample("suica.json")
        let ezlink = try CardImages.sample("ezlink.json"), tmoney = try CardImages.sample("tmoney.json")
        let zip = dir.appendingPathComponent("seed.zip").path
        try ExportTexts.zip([("Metrodroid-012e4cd8a1b2c3d4-20261101-000000.json", try ExportTexts.metrodroid(suica))], to: zip)
        return try (samples + ["clipper.nfc"]).map { ($0, try Data(contentsOf: URL(fileURLWithPath: BuildProducts.sample($0)))) }
            + [("suica.nfc", Data(DumpTexts.flipper(suica).utf8)), ("suica-metrodroid.json", try DumpTexts.metrodroid(suica)),
               ("suica-keys.nfc", Data(DumpTexts.flipper(suica, keyVersions: true).utf8)),
               ("suica-metrodroid-map.json", try ExportTexts.metrodroid(suica)), ("ezlink-metrodroid.json", try ExportTexts.metrodroid(ezlink)),
               ("tmoney-metrodroid.json", try ExportTexts.metrodroid(tmoney)), ("suica.xml", Data(ExportTexts.xml([suica]).utf8)),
               ("tmoney.xml", Data(ExportTexts.xml([tmoney]).utf8)), ("ezlink-farebot.json", try ExportTexts.fareBot([ezlink])),
               ("suica-farebot-gson.json", try ExportTexts.fareBot([suica], gson: true)), ("suica.zip", try Data(contentsOf: URL(fileURLWithPath: zip))),
               ("multi-farebot.json", try ExportTexts.fareBot([suica, ezlink], classic: true)), ("multi.xml", Data(ExportTexts.xml([suica, tmoney]).utf8))]
    }

    func logSeeds() throws -> [(String, Data)] {
        let captures = BuildProducts.packageRoot.appendingPathComponent("Tests/Fixtures/captures")
        return try FileManager.default.contentsOfDirectory(atPath: captures.path).sorted().map {
            ($0, try Data(contentsOf: captures.appendingPathComponent($0)))
        }
    }

    /// The reference of docs/verify.md, and one with every key.
    static let referenceSeeds = [
        ("verify-md.json", #"{"balance": 175, "currency": "JPY", "journeys": [{"date": "2018-09-17", "amount": 260, "entryStation": "8BA5", "exitStation": "8AA5"}, {"date": "2011-06-11", "amount": 200, "busLine": "0E51", "busStop": "0051"}, {"date": "2011-06-14", "time": "12:19", "amount": 100, "type": "purchase"}]}"#),
        ("every-key.json", #"{"balance": 2010, "currency": "JPY", "journeys": [{"date": "2026-11-04", "time": "13:45", "amount": 120, "type": "purchase", "entryStation": "E33B", "exitStation": "E621", "busLine": "0A12", "busStop": "3456"}]}"#),
    ].map { ($0.0, Data($0.1.utf8)) }

    func testMutatedFilesEndAsValuesOrConfigErrors() throws {
        var mutator = FileMutator(seed: Self.seed)
        var outcomes = [String: Int](), undocumented = [String]()
        var cardFiles = [(path: String, outcome: Outcome)]()
        func tally(_ what: String, _ o: Outcome) {
            outcomes["\(what) \(o?.kind ?? "accepted")", default: 0] += 1
            if let o, o.kind != "config" { undocumented.append("\(what): \(o.kind): \(o.message)") }
        }
        let trips = ["2026-11-04T13:45:00+09:00", "2018-09-17"].map {
            CardReading.TransactionRecord(type: .trip, amount: 120, date: date($0), entryStation: "E33B", exitStation: nil,
                                          metadata: ["busLineCode": "0A12"], rawType: nil, rawPayload: nil)
        }
        let reading = CardReading(family: "x", cardName: nil, serialNumber: "1", balance: 2010, currency: "JPY", validFrom: nil,
                                  validUntil: nil, metadata: [:], transactions: trips)
        for (name, data) in try cardSeeds() {
            for i in 0 ..< 80 {
                let file = "\(i)-\(name)"
                let outcome = try run(file, mutator.mutate(data), Self.loadCard)
                tally("card", outcome)
                // A file of several cards decodes to a line a card: only one-card files go through decode below.
                if i < 2, !name.hasPrefix("multi") { cardFiles.append((dir.appendingPathComponent(file).path, outcome)) }
            }
        }
        for (name, data) in try logSeeds() {
            for i in 0 ..< 40 { tally("log", try run("\(i)-\(name)", mutator.mutate(data)) { _ = try LogBundle.load($0) }) }
        }
        for (name, data) in Self.referenceSeeds {
            for i in 0 ..< 200 {
                tally("reference", try run("\(i)-\(name)", mutator.mutate(data)) { _ = try Reference.load($0).mismatches(reading) })
            }
        }
        print("file fuzz, seed \(Self.seed): \(outcomes.sorted { $0.key < $1.key }), slowest \(slowest.input) \(slowest.seconds) s")
        XCTAssertEqual(undocumented, [], "seed \(Self.seed)")
        XCTAssertLessThan(slowest.seconds, 2, "\(slowest.input) took \(slowest.seconds) s (seed \(Self.seed))")
        // Both outcomes happen, or the mutations are too weak or too strong to test anything.
        XCTAssertGreaterThan(outcomes["card accepted"] ?? 0, 0)
        XCTAssertGreaterThan(outcomes["card config"] ?? 0, 0)

        // Some of the card files through the binary: one line each, the same verdict on the file.
        let run = try CommandRun.run(BuildProducts.transit, ["decode"] + cardFiles.map(\.path), currentDirectory: BuildProducts.packageRoot,
                                     timeout: 60)
        XCTAssertTrue([0, 2, 4, 5].contains(run.status), "exit \(run.status): \(run.stderr)")
        let lines = run.stdout.split(separator: "\n").map { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        XCTAssertEqual(lines.count, cardFiles.count, run.stdout)
        let documented: Set<String> = ["config", "tagNotSupported", "communication", "plugin"]
        for (line, file) in zip(lines, cardFiles) {
            XCTAssertEqual(line?["file"] as? String, file.path)
            let error = line?["error"] as? [String: Any]
            if let kind = error?["kind"] as? String { XCTAssertTrue(documented.contains(kind), "\(file.path): \(kind)") }
            if file.outcome != nil {
                XCTAssertEqual(error?["kind"] as? String, "config", file.path)
                XCTAssertTrue((error?["message"] as? String)?.hasPrefix(file.path) == true, file.path)
            }
        }
    }

    /// The dump formats' structure mutated (`StructuredMutator`): XML, FareBot and Metrodroid JSON,
    /// zips. Every file loads in process (every card of it put behind a virtual reader) to a value
    /// or a `CardImageError`, never a trap, and in well under the 10 s a file may take.
    /// `scripts/fuzz_files.sh ITERATIONS SEED` runs as many as you like.
    func testStructureAwareMutationsOfEveryDumpFormat() throws {
        let environment = ProcessInfo.processInfo.environment
        let iterations = environment["FUZZ_FILE_ITERATIONS"].flatMap { Int($0) } ?? 2_000
        let seed = environment["FUZZ_FILE_SEED"].flatMap { UInt64($0) } ?? Self.seed
        let seeds = try cardSeeds().filter { name, _ in
            name.hasSuffix(".xml") || name.hasSuffix(".zip") || name.contains("farebot") || name.contains("metrodroid")
        } + dumpZipSeeds()
        var mutator = StructuredMutator(seed: seed)
        var outcomes = [String: Int](), undocumented = [String]()
        for i in 0 ..< iterations {
            let (name, data) = seeds[i % seeds.count]
            let file = "s\(i % 64)-\(name)"
            let outcome = try run(file, mutator.mutate(data, name: name)) { path in
                for case .card(let image) in try CardFile.load(path).entries {
                    let reader = try VirtualReader(image: image)
                    _ = reader.transmit([0xFF, 0xCA, 0x00, 0x00, 0x00])
                    _ = reader.transmit([0xFF, 0x00, 0x00, 0x00, 0x06, 0x06, 0x00, 0xFF, 0xFF, 0x01, 0x00])
                }
            }
            outcomes[outcome?.kind ?? "accepted", default: 0] += 1
            if let o = outcome, o.kind != "config" { undocumented.append("\(i) \(name): \(o.kind): \(o.message.prefix(300))") }
        }
        print("structured file fuzz, \(iterations) runs, seed \(seed): \(outcomes.sorted { $0.key < $1.key }), slowest \(slowest.input) \(slowest.seconds) s")
        XCTAssertEqual(undocumented, [], "seed \(seed)")
        XCTAssertLessThan(slowest.seconds, 5, "\(slowest.input) took \(slowest.seconds) s (seed \(seed))")
        XCTAssertGreaterThan(outcomes["accepted"] ?? 0, 0, "the mutations leave some files readable")
        XCTAssertGreaterThan(outcomes["config"] ?? 0, 0)
    }

    /// Zips of the other dump formats: an XML export and a FareBot export.
    func dumpZipSeeds() throws -> [(String, Data)] {
        let suica = try CardImages.sample("suica.json"), ezlink = try CardImages.sample("ezlink.json")
        let zip = dir.appendingPathComponent("dumps-seed.zip").path
        try ExportTexts.zip([("Metrodroid-suica.xml", Data(ExportTexts.xml([suica]).utf8)), ("FareBot-ezlink.json", try ExportTexts.fareBot([ezlink]))],
                            to: zip)
        return [("dumps.zip", try Data(contentsOf: URL(fileURLWithPath: zip)))]
    }
}
