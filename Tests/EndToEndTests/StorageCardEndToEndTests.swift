import CardProtocol
import CardSimulation
import Foundation
import TestSupport
import XCTest

/// MIFARE Classic and Ultralight cards read live through a real pcscd as an ACR122U, an OMNIKEY
/// 5022, an Identiv uTrust and an ACR1281U answer them (`transit-sim --reader-model`, each reader's Load Keys
/// form from its manual), with the card's keys in a key file (`--keys`), against the same card read
/// from its dump (`transit decode`, the dump's trailer keys): the same values, and no key in any
/// output, log bundle or archive. The values themselves are each family's tests' (PluginTests).
final class StorageCardEndToEndTests: EndToEndTestCase {
    static let acr122u = VirtualReaderHarness.Reader(name: "ACS ACR122U PICC Interface", port: 36100)
    static let omnikey = VirtualReaderHarness.Reader(name: "HID Global OMNIKEY 5022 Smart Card Reader [OMNIKEY 5022 Smart Card Reader]", port: 36102)
    static let utrust = VirtualReaderHarness.Reader(name: "Identiv uTrust 3700 F CL Reader [uTrust 3700 F CL Reader] (55021716210255)", port: 36104)
    static let rcs300 = VirtualReaderHarness.Reader(name: "SONY FeliCa RC-S300/P (0201504)", port: 36106)
    static let acr1281u = VirtualReaderHarness.Reader(name: "ACS ACR1281 1S Dual Reader [ACR1281 1S Dual Reader PICC] 00 00", port: 36108)

    override class var readers: [VirtualReaderHarness.Reader] { [acr122u, omnikey, utrust, rcs300, acr1281u] }

    /// Each reader and the model transit-sim answers as.
    static let models: [(VirtualReaderHarness.Reader, String)] = [(acr122u, "acr122u"), (omnikey, "omnikey-5022"), (utrust, "utrust-3700f"),
                                                                  (acr1281u, "acr1281u")]

    /// The Classic and Ultralight samples (scripts/make_*_samples.py): family, card.
    static let classicSamples = ["easycard.json", "charliecard.json", "troika-e3.json", "troika-e5.json", "podorozhnik.json", "podorozhnik-4k.json", "bilhete-unico.json"]
    static let ultralightSamples = ["troika-ul.json", "troika-ul-a.json", "compass.json", "ventra.json", "hsl-ul.json"]

    /// The sample's image, or nil (and a note) when this tree has not got it.
    private func sample(_ name: String) -> CardImage? {
        let path = BuildProducts.sample(name)
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        return try? CardImage.load(path)
    }

    /// The distinct keys of an image's trailers, in sector order, as 12 hex digits.
    private func trailerKeys(_ image: CardImage) -> [String] {
        var keys = [String](), block = 0, sector = 0
        let blocks = image.mifareClassic?.blocks ?? []
        while block < blocks.count {
            let size = sector < 32 ? 4 : 16
            if block + size - 1 < blocks.count {
                let t = blocks[block + size - 1].replacingOccurrences(of: " ", with: "").uppercased()
                for k in [String(t.prefix(12)), String(t.suffix(12))] where k.count == 12 && !k.contains("?") && !keys.contains(k) { keys.append(k) }
            }
            block += size
            sector += 1
        }
        return keys
    }

    /// A key file of `keys` (0600, as the trust rules want), with a comment line.
    private func keyFile(_ keys: [String], in dir: URL) throws -> String {
        let path = dir.appendingPathComponent("card.keys").path
        try ("# keys of a test card, made up by its author\n" + keys.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        chmod(path, 0o600)
        return path
    }

    /// A plugins.conf like the shipped one, with `key-digests` for the families a made-up key cannot
    /// otherwise name (podorozhnik is told only by its key's digest): hashlib's
    /// md5(b"podorozhnik" + bytes.fromhex("5A6B7C8D9E0F") + b"podorozhnik"), the sample's sector 4 key;
    /// charliecard, told only by its sector 0 key's digest: md5(b"charlie" + key + b"charlie") of
    /// charliecard.json's made-up keys C0FFEE123456 and BADC0DE65432 (scripts/make_classic_samples.py).
    private func conf(in dir: URL) throws -> String {
        let shipped = try String(contentsOf: BuildProducts.packageRoot.appendingPathComponent("plugins.conf"), encoding: .utf8)
        let text = shipped.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
            line.hasPrefix("podorozhnik ") ? line + " key-digests=eb1db438b3662f3e4adede4120952d0a"
                : line.hasPrefix("charliecard ") ? line + " key-digests=58de1cd9312430aadce82eb222b534c9,9c502304a43d0a7bd258394288b37286"
                : String(line)
        }.joined(separator: "\n")
        let path = dir.appendingPathComponent("plugins.conf").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// The keys that are not also card data (a made-up key may repeat the UID's bytes): only those
    /// can be looked for in an output that shows the card's UID and blocks.
    private func secretKeys(_ keys: [String], of image: CardImage) -> [String] {
        let blocks = image.mifareClassic?.blocks ?? []
        let data = ([image.mifareClassic?.uid ?? ""] + blocks.enumerated().filter { ($0.offset + 1) % 4 != 0 }.map(\.element))
            .joined(separator: " ").uppercased()
        return keys.filter { !data.contains($0) }
    }

    /// What a user compares between two reads of one card.
    private func summary(_ json: [String: Any]?) -> String {
        guard let json else { return "nothing" }
        let keys = ["family", "cardName", "serialNumber", "balance", "currency", "transactions", "passes"]
        let picked = Dictionary(uniqueKeysWithValues: keys.compactMap { k in json[k].map { (k, $0) } })
        let data = (try? JSONSerialization.data(withJSONObject: picked, options: [.sortedKeys])) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }

    func testEachClassicCardReadsLiveOnEachReaderFromAKeyFileAsFromItsDump() throws {
        var read = 0
        for name in Self.classicSamples {
            guard let image = sample(name) else { XCTFail("samples/\(name) is missing (scripts/make_*_samples.py writes it)"); continue }
            let dir = temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: dir) }
            let keys = trailerKeys(image)
            XCTAssertFalse(keys.isEmpty, name)
            let keyPath = try keyFile(keys, in: dir)
            let config = try conf(in: dir)
            let secrets = secretKeys(keys, of: image)
            XCTAssertFalse(secrets.isEmpty, "\(name): a key to look for")
            let decoded = try Self.harness.transit(["decode", "--config", config, BuildProducts.sample(name)])
            XCTAssertEqual(decoded.status, 0, "\(name): \(decoded.stdout) \(decoded.stderr)")
            let expected = summary(decoded.json?["card"] as? [String: Any])
            for (reader, model) in Self.models {
                let bundle = dir.appendingPathComponent("\(model).log.json").path
                try Self.harness.insert(card: BuildProducts.sample(name), ["--reader-model", model], port: reader.port)
                let run = try Self.harness.transit(["scan", "--json", "--no-save", "--reader", reader.name, "--wait", "5", "--keys", keyPath,
                                                    "--config", config, "--verbose", "--log", bundle])
                Self.harness.removeCard(port: reader.port)
                XCTAssertEqual(run.status, 0, "\(name) on \(model): \(run.stdout) \(run.stderr)")
                XCTAssertEqual(summary(run.json), expected, "\(name) on \(model): the same values as its dump")
                let log = (try? String(contentsOfFile: bundle, encoding: .utf8)) ?? ""
                XCTAssertTrue(log.contains("XXXXXXXXXXXX"), "\(name) on \(model): a Load Keys was recorded, its key hidden")
                // Issue 42's budget: at most 3 × the sectors read + the keys in the file + 4 authentications.
                let commands = ((try? JSONSerialization.jsonObject(with: Data(log.utf8)) as? [String: Any])?["exchanges"] as? [[String: Any]] ?? [])
                    .compactMap { $0["command"] as? String }
                let auths = commands.filter { $0.hasPrefix("FF86") }
                let sectors = Set(auths.compactMap { c -> Int? in
                    guard c.count >= 16, let block = Int(c.dropFirst(14).prefix(2), radix: 16) else { return nil }
                    return block < 128 ? block / 4 : 32 + (block - 128) / 16
                })
                XCTAssertLessThanOrEqual(auths.count, 3 * sectors.count + keys.count + 4,
                                         "\(name) on \(model): \(auths.count) authentications for \(sectors.count) sectors and \(keys.count) keys")
                for key in secrets {
                    for (what, text) in [("stdout", run.stdout), ("stderr", run.stderr), ("the log bundle", log)] {
                        XCTAssertFalse(text.uppercased().contains(key), "\(name) on \(model): a key in \(what)")
                    }
                }
                // The read is replayed from its bundle although the bundle holds no key.
                let replay = try Self.harness.transit(["replay", bundle, "--json", "--config", config])
                XCTAssertEqual(replay.status, 0, "\(name) on \(model): replay: \(replay.stderr)")
                XCTAssertEqual(summary(replay.json), expected, "\(name) on \(model): replay")
            }
            read += 1
        }
        XCTAssertEqual(read, Self.classicSamples.count, "every Classic sample read")
    }

    /// A kiosk's watch with a key file: each Classic card tapped on the ACR122U is read with the
    /// keys, one JSON line a tap, and no key reaches its output or its errors.
    func testAWatchReadsEachClassicTapWithItsKeyFileAndShowsNoKey() throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let names = ["troika-e3.json", "easycard.json", "bilhete-unico.json"]
        var keys = [String](), secrets = [String]()
        for name in names {
            let image = try XCTUnwrap(sample(name), "samples/\(name)")
            let own = trailerKeys(image)
            keys += own.filter { !keys.contains($0) }
            secrets += secretKeys(own, of: image)
        }
        let keyPath = try keyFile(keys, in: dir)
        let config = try conf(in: dir)
        let p = Self.harness.transitProcess(["watch", "--json", "--no-save", "--reader", Self.acr122u.name, "--keys", keyPath, "--config", config])
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        let lines = StreamLines(reading: out)
        try p.run()
        defer { if p.isRunning { p.terminate() } }
        for (n, name) in names.enumerated() {
            try Self.harness.insert(card: BuildProducts.sample(name), ["--reader-model", "acr122u"], port: Self.acr122u.port)
            XCTAssertTrue(lines.wait(for: n + 1, timeout: 15), "\(name): \(lines.all)")
            Self.harness.removeCard(port: Self.acr122u.port)
        }
        p.interrupt()
        p.waitUntilExit()
        XCTAssertEqual(p.terminationStatus, 0)
        XCTAssertTrue(lines.waitForEnd())
        let errors = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        XCTAssertEqual(lines.all.map { (json($0)["card"] as? [String: Any])?["family"] as? String }, ["troika", "easycard", "bilhete-unico"],
                       "\(lines.all) \(errors)")
        XCTAssertFalse(secrets.isEmpty)
        for key in secrets {
            XCTAssertFalse(lines.all.joined(separator: "\n").uppercased().contains(key), "a key in the watch's lines")
            XCTAssertFalse(errors.uppercased().contains(key), "a key in the watch's errors")
        }
    }

    func testAClassicCardWithoutItsKeysSaysItsSectorsAreLockedAndNamesKeys() throws {
        let name = "easycard.json"
        try Self.harness.insert(card: BuildProducts.sample(name), ["--reader-model", "acr122u"], port: Self.acr122u.port)
        let run = try Self.harness.transit(["scan", "--json", "--no-save", "--reader", Self.acr122u.name, "--wait", "5"])
        XCTAssertTrue([4, 5].contains(run.status), "\(run.status): \(run.stdout) \(run.stderr)")
        XCTAssertTrue(run.stderr.contains("locked"), run.stderr)
        XCTAssertTrue(run.stderr.contains("--keys"), run.stderr)
    }

    /// A 1K card of UID A1B2C3D4 whose sectors open with the factory key: sector 0's manufacturer
    /// block, then each data block `data(sector, block)`.
    private func factoryKeyed1K(_ description: String, data: (Int, Int) -> String) -> CardImage {
        let trailer = "FFFFFFFFFFFFFF078069FFFFFFFFFFFF"
        var blocks = [String]()
        for s in 0 ..< 16 {
            blocks += (0 ..< 3).map { b in s == 0 && b == 0 ? "A1B2C3D4DE0804006263646566676869" : data(s, b) } + [trailer]
        }
        return CardImage(description: description, mifareClassic: .init(uid: "A1B2C3D4", type: "1K", blocks: blocks))
    }

    /// `transit scan --json` of `image` held to `reader`, answered as `model` does.
    private func scan(_ image: CardImage, on reader: VirtualReaderHarness.Reader, as model: String) throws -> CommandRun {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("card.json").path
        try JSONEncoder().encode(image).write(to: URL(fileURLWithPath: path))
        try Self.harness.insert(card: path, ["--reader-model", model], port: reader.port)
        defer { Self.harness.removeCard(port: reader.port) }
        return try Self.harness.transit(["scan", "--json", "--no-save", "--reader", reader.name, "--wait", "5"])
    }

    func testABlankClassicCardSaysItIsBlank() throws {
        // Every sector opens with the factory key and holds zeros (sector 0's manufacturer block aside).
        let run = try scan(factoryKeyed1K("blank 1K") { _, _ in String(repeating: "0", count: 32) }, on: Self.omnikey, as: "omnikey-5022")
        XCTAssertEqual(run.status, 4, "\(run.stdout) \(run.stderr)")
        XCTAssertTrue(run.stderr.contains("blank MIFARE Classic 1K"), run.stderr)
    }

    /// A card of made-up data whose sectors open with the factory key, that no family's data or key
    /// digest names: exit 4, said as a Classic card of no known system (issue 42, item 5).
    func testAClassicCardOfNoKnownSystemSaysSo() throws {
        let image = factoryKeyed1K("a 1K of no system") { _, b in String(repeating: ["5A", "A5", "3C"][b], count: 16) }
        let run = try scan(image, on: Self.utrust, as: "utrust-3700f")
        XCTAssertEqual(run.status, 4, "\(run.stdout) \(run.stderr)")
        XCTAssertTrue(run.stderr.contains("a MIFARE Classic 1K card of no known system"), run.stderr)
        XCTAssertFalse(run.stderr.contains("blank"), run.stderr)
    }

    /// An Ultralight whose user memory (pages 4 and up, MF0ICU1 §8.5) holds only zeros: blank, not
    /// a ticket of no known system.
    func testABlankUltralightSaysItIsBlank() throws {
        let pages = ["04A1B29F", "D4E5F6A7", "60480000", "00000000"] + Array(repeating: "00000000", count: 12)
        let image = CardImage(description: "a blank Ultralight", mifareUltralight: .init(uid: "04A1B2D4E5F6A7", type: "Ultralight", pages: pages))
        let run = try scan(image, on: Self.acr122u, as: "acr122u")
        XCTAssertEqual(run.status, 4, "\(run.stdout) \(run.stderr)")
        XCTAssertTrue(run.stderr.contains("a blank MIFARE Ultralight"), run.stderr)
    }

    func testTheRCS300NamesItselfAsUnableToOpenClassicSectors() throws {
        let name = "easycard.json"
        try Self.harness.insert(card: BuildProducts.sample(name), ["--reader-model", "rc-s300"], port: Self.rcs300.port)
        let run = try Self.harness.transit(["scan", "--json", "--no-save", "--reader", Self.rcs300.name, "--wait", "5"])
        XCTAssertEqual(run.status, 5, "\(run.stdout) \(run.stderr)")
        XCTAssertTrue(run.stderr.contains("RC-S300 cannot open MIFARE Classic sectors"), run.stderr)
    }

    func testEachUltralightTicketReadsLiveOnEachReaderAsFromItsImage() throws {
        var read = 0
        for name in Self.ultralightSamples {
            let decoded = try Self.harness.transit(["decode", BuildProducts.sample(name)])
            XCTAssertEqual(decoded.status, 0, "\(name): \(decoded.stdout) \(decoded.stderr)")
            for (reader, model) in Self.models + [(Self.rcs300, "rc-s300")] {
                try Self.harness.insert(card: BuildProducts.sample(name), ["--reader-model", model], port: reader.port)
                let run = try Self.harness.transit(["scan", "--json", "--no-save", "--reader", reader.name, "--wait", "5"])
                Self.harness.removeCard(port: reader.port)
                XCTAssertEqual(run.status, 0, "\(name) on \(model): \(run.stdout) \(run.stderr)")
                XCTAssertEqual(summary(run.json), summary(decoded.json?["card"] as? [String: Any]), "\(name) on \(model)")
            }
            read += 1
        }
        XCTAssertEqual(read, Self.ultralightSamples.count, "every Ultralight sample read")
    }
}
