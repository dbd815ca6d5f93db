import CardSimulation
import Foundation

/// The project's sample cards written out as other apps export cards, from the formats' facts
/// (Metrodroid's and FareBot's serialisers, read for their formats only; never their test
/// assets): the same blocks and answers in each form, so a test can check that every form reads
/// to the same result.
public enum ExportTexts {
    /// A MIFARE Classic card no family reads, for multi-card files.
    public static let mifareClassicTagID = "DEADBEEF"

    // MARK: Metrodroid JSON

    /// Metrodroid's JSON (kotlinx): lowercase hex, decimal keys, FeliCa blocks in `blocksMap`
    /// (`{address: {data}}`, since December 2021) or the older `blocks` list.
    public static func metrodroid(_ image: CardImage, blocksMap: Bool = true) throws -> Data {
        try JSONSerialization.data(withJSONObject: metrodroidObject(image, blocksMap: blocksMap), options: [.sortedKeys])
    }

    public static func metrodroidObject(_ image: CardImage, blocksMap: Bool = true) -> [String: Any] {
        var card: [String: Any] = ["scannedAt": ["timeInMillis": 1_764_000_000_000, "tz": "Asia/Tokyo"]]
        if let f = image.felica {
            card["tagId"] = f.idm.lowercased()
            var systems = [String: Any]()
            for s in f.systems {
                var services = [String: Any]()
                for (code, blocks) in s.services {
                    let data = blocks.map { ["data": $0.lowercased()] }
                    services[decimal(code)] = blocksMap
                        ? ["blocksMap": Dictionary(uniqueKeysWithValues: data.enumerated().map { (String($0.offset), $0.element) })]
                        : ["blocks": data]
                }
                for code in s.lockedServices ?? [] { services[decimal(code)] = ["skipped": true] }
                systems[decimal(s.code)] = ["services": services]
            }
            var felica: [String: Any] = ["systems": systems]
            if let pmm = f.pmm { felica["pMm"] = pmm.lowercased() }
            card["felica"] = felica
        }
        if let iso = image.iso7816 {
            card["tagId"] = iso.uid.lowercased()
            card["iso7816"] = ["applications": iso.applications.map(metrodroidApplication)]
        }
        if let c = image.mifareClassic {
            card["tagId"] = c.uid.lowercased()
            card["mifareClassic"] = ["subType": "CLASSIC", "isPartialRead": false,
                                     "sectors": classicSectors(c).map { s -> [String: Any] in
                                         guard let blocks = s.blocks else { return ["blocks": [] as [Any], "isUnauthorized": true] }
                                         return ["blocks": readBlocks(blocks).map { $0.lowercased() }, "keyA": s.keyA.lowercased(), "isUnauthorized": false]
                                     }]
        }
        if let u = image.mifareUltralight {
            card["tagId"] = u.uid.lowercased()
            card["mifareUltralight"] = ["cardModel": "MF0ICU1", "isPartialRead": false,
                                        "pages": u.pages.map { ["data": $0.lowercased(), "isUnauthorized": false] }]
        }
        return card
    }

    // MARK: MIFARE Classic as the apps read it

    /// A sector of a Classic image: its blocks (nil when every byte is unread: a locked sector)
    /// and the keys its trailer holds.
    public struct ClassicSector {
        public var index: Int
        public var blocks: [String]?
        public var keyA: String
        public var keyB: String
    }

    public static func classicSectors(_ c: CardImage.ClassicImage) -> [ClassicSector] {
        var out = [ClassicSector](), block = 0
        while block < c.blocks.count {
            let size = out.count < 32 ? 4 : 16
            let blocks = Array(c.blocks[block ..< min(block + size, c.blocks.count)]).map { $0.replacingOccurrences(of: " ", with: "").uppercased() }
            let trailer = blocks.last ?? ""
            out.append(ClassicSector(index: out.count, blocks: blocks.allSatisfy { $0.allSatisfy { $0 == "?" } } ? nil : blocks,
                                     keyA: String(trailer.prefix(12)), keyB: String(trailer.suffix(12))))
            block += size
        }
        return out
    }

    /// The blocks as a phone reads them: key A in the trailer reads as zeros, the card hides it
    /// (MF1S50YYX datasheet, "Sector trailer"); key B and the access bits as they are.
    public static func readBlocks(_ blocks: [String]) -> [String] {
        blocks.enumerated().map { n, b in n == blocks.count - 1 ? String(repeating: "0", count: 12) + b.dropFirst(12) : b }
    }

    /// `[type, body]`: CEPAS by its purses and histories; KS X 6924 and China by AID, FCI, files
    /// and their extras, every stored answer without its status word.
    private static func metrodroidApplication(_ app: CardImage.ApplicationImage) -> [Any] {
        let answers = app.commands.mapValues { String($0.dropLast(4)).lowercased() }
        if app.select == "00A40000024000" {
            return ["cepas", ["generic": [:] as [String: Any], "purses": ["3": answers["9032030000"] ?? ""],
                              "histories": ["3": answers["90320300010000"] ?? ""]]]
        }
        var generic: [String: Any] = ["appName": aid(app).lowercased(), "appFci": String((app.answer ?? "9000").dropLast(4)).lowercased()]
        var sfiFiles = [String: Any]()
        for (sfi, records) in app.records ?? [:] {
            sfiFiles[decimal(sfi)] = ["records": Dictionary(uniqueKeysWithValues: records.enumerated().map { (String($0.offset + 1), $0.element.lowercased()) })]
        }
        generic["sfiFiles"] = sfiFiles
        var files = [String: Any]()
        for (sfi, binary) in app.binaries ?? [:] { files[":" + String(Int(sfi, radix: 16) ?? 0, radix: 16)] = ["binaryData": binary.lowercased()] }
        generic["files"] = files
        if let balance = answers["904C000004"] { return ["ksx6924", ["generic": generic, "balance": balance]] }
        let balances = [0, 1].reduce(into: [String: String]()) { out, p in
            if let b = answers["805C0\(p)0204"] { out[String(p)] = b }
        }
        return ["china", ["generic": generic, "balances": balances]]
    }

    /// A Metrodroid MIFARE Classic card no family reads: one block of sector 0 read, sector 1
    /// unauthorized (a partial read: the image is the smallest card that holds it, a Mini).
    public static var metrodroidClassic: [String: Any] { [
        "tagId": mifareClassicTagID.lowercased(), "scannedAt": ["timeInMillis": 1, "tz": "LOCAL"],
        "mifareClassic": ["sectors": [["blocks": [String(repeating: "00", count: 16)], "keyA": "ffffffffffff"], ["isUnauthorized": true]]],
    ] }

    // MARK: XML (Metrodroid to 2.9.37, FareBot to 2016)

    /// `<card>` (one image) or `<cards>`: base64 contents, the id hex, codes decimal.
    public static func xml(_ images: [CardImage]) -> String {
        let cards = images.map(xmlCard)
        return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" + (cards.count == 1 ? cards[0] : "<cards>\n" + cards.joined(separator: "\n") + "\n</cards>")
    }

    private static func xmlCard(_ image: CardImage) -> String {
        if let f = image.felica {
            var out = "<card type=\"4\" id=\"\(f.idm.lowercased())\" scanned_at=\"1764000000000\">"
            if let pmm = f.pmm { out += "<pmm>\(base64(pmm))</pmm>" }
            out += "<systems>"
            for s in f.systems {
                out += "<system code=\"\(decimal(s.code))\"><services>"
                for (code, blocks) in s.services.sorted(by: { $0.key < $1.key }) {
                    out += "<service code=\"\(decimal(code))\"><blocks>"
                        + blocks.enumerated().map { "<block address=\"\($0.offset)\">\(base64($0.element))</block>" }.joined() + "</blocks></service>"
                }
                out += "</services></system>"
            }
            return out + "</systems></card>"
        }
        if let c = image.mifareClassic {
            // The key that opened each sector: key A in even sectors, key B in odd ones.
            var out = "<card type=\"0\" id=\"\(c.uid.lowercased())\" scanned_at=\"1764000000000\"><sectors>"
            for s in classicSectors(c) {
                guard let blocks = s.blocks else { out += "<sector index=\"\(s.index)\" unauthorized=\"true\"/>"; continue }
                let (key, type) = s.index % 2 == 0 ? (s.keyA, "KeyA") : (s.keyB, "KeyB")
                out += "<sector index=\"\(s.index)\" key=\"\(base64(key))\" keytype=\"\(type)\"><blocks>"
                    + readBlocks(blocks).enumerated().map { "<block index=\"\($0.offset)\" type=\"data\"><data>\(base64($0.element))</data></block>" }.joined()
                    + "</blocks></sector>"
            }
            return out + "</sectors></card>"
        }
        if let u = image.mifareUltralight {
            return "<card type=\"1\" id=\"\(u.uid.lowercased())\" scanned_at=\"1764000000000\" cardModel=\"MF0ICU1\"><pages>"
                + u.pages.enumerated().map { "<page index=\"\($0.offset)\"><data>\(base64($0.element))</data></page>" }.joined() + "</pages></card>"
        }
        guard let iso = image.iso7816 else { return "" }
        var out = "<card type=\"5\" id=\"\(iso.uid.lowercased())\" scanned_at=\"1764000000000\" partial_read=\"false\"><applications>"
        for app in iso.applications {
            let answers = app.commands.mapValues { String($0.dropLast(4)) }
            if app.select == "00A40000024000" {
                out += "<application type=\"cepas\"><purses><purse idx=\"3\">\(base64(answers["9032030000"] ?? ""))</purse></purses>"
                    + "<histories><history idx=\"3\">\(base64(answers["90320300010000"] ?? ""))</history></histories></application>"
                continue
            }
            let name = aid(app)
            out += "<application type=\"\(answers["904C000004"] != nil ? "tmoney" : "china")\">"
                + "<application-data>\(base64(String((app.answer ?? "9000").dropLast(4))))</application-data>"
                + "<application-name>\(base64(name))</application-name><records>"
            for (sfi, records) in (app.records ?? [:]).sorted(by: { $0.key < $1.key }) {
                out += "<file name=\"#\(name.lowercased()):\(String(Int(sfi, radix: 16) ?? 0, radix: 16))\"><fci/><records>"
                    + records.enumerated().map { "<record index=\"\($0.offset + 1)\">\(base64($0.element))</record>" }.joined() + "</records></file>"
            }
            for (sfi, binary) in app.binaries ?? [:] {
                out += "<file name=\":\(String(Int(sfi, radix: 16) ?? 0, radix: 16))\"><data>\(base64(binary))</data></file>"
            }
            out += "</records>"
            if let balance = answers["904C000004"], let value = UInt32(balance, radix: 16) { out += "<balance>\(value)</balance>" }
            let china = [0, 1].compactMap { p in answers["805C0\(p)0204"].map { "<balance idx=\"\(p)\"><data>\($0)</data></balance>" } }
            if !china.isEmpty { out += "<balances>" + china.joined() + "</balances>" }
            out += "</application>"
        }
        return out + "</applications></card>"
    }

    // MARK: FareBot JSON

    /// FareBot's bulk export: `{"versionName", "versionCode", "cards"}`, base64 bytes, `cardType` on
    /// each card; `gson` writes the 2016–2019 form (epoch milliseconds, the IDm and PMm as
    /// reflected number arrays), otherwise the current one (`_tagId` for FeliCa, ISO times).
    public static func fareBot(_ images: [CardImage], classic: Bool = false, gson: Bool = false) throws -> Data {
        var cards: [[String: Any]] = images.map { fareBotCard($0, gson: gson) }
        if classic {
            cards.insert(["cardType": "MifareClassic", "tagId": base64(mifareClassicTagID), "scannedAt": gson ? 1_500_000_000_000 as Any : "2025-03-02T10:00:00Z" as Any,
                          "sectors": [["type": "unauthorized", "index": 0]]], at: 1)
        }
        var export: [String: Any] = ["versionName": "3.1.0", "versionCode": 31, "cards": cards]
        if !gson { export["appName"] = "FareBot"; export["formatVersion"] = 1; export["exportedAt"] = "2025-03-03T00:00:00Z" }
        return try JSONSerialization.data(withJSONObject: export, options: [.sortedKeys])
    }

    private static func fareBotCard(_ image: CardImage, gson: Bool) -> [String: Any] {
        if let f = image.felica {
            func split(_ hex: String, _ first: String, _ second: String) -> Any {
                guard gson else { return base64(hex) }
                let b = bytes(hex).map { Int(Int8(bitPattern: $0)) }
                return [first: Array(b.prefix(2)), second: Array(b.dropFirst(2))]
            }
            let systems = f.systems.map { s -> [String: Any] in
                let services = s.services.sorted(by: { $0.key < $1.key }).map { code, blocks -> [String: Any] in
                    ["serviceCode": Int(code, radix: 16) ?? 0, "skipped": false,
                     "blocks": blocks.enumerated().map { ["address": Int(Int8(bitPattern: UInt8($0.offset))), "data": base64($0.element)] }]
                } + (s.lockedServices ?? []).map { ["serviceCode": Int($0, radix: 16) ?? 0, "skipped": true, "blocks": [] as [Any]] }
                return ["code": Int(s.code, radix: 16) ?? 0, "services": services, "skipped": false]
            }
            var card: [String: Any] = ["cardType": "FeliCa", "idm": split(f.idm, "manufactureCode", "cardIdentification"), "systems": systems]
            if let pmm = f.pmm { card["pmm"] = split(pmm, "icCode", "maximumResponseTime") }
            if gson { card["tagId"] = base64(f.idm); card["scannedAt"] = 1_500_000_000_000 } else { card["_tagId"] = base64(f.idm); card["_scannedAt"] = "2025-03-01T09:00:00Z" }
            return card
        }
        let scannedAt: Any = gson ? 1_500_000_000_000 as Any : "2025-03-01T09:00:00Z" as Any
        if let c = image.mifareClassic {
            // FareBot keeps no key: each sector as read, or unauthorized.
            let sectors = classicSectors(c).map { s -> [String: Any] in
                guard let blocks = s.blocks else { return ["type": "unauthorized", "index": s.index] }
                return ["type": "data", "index": s.index, "blocks": readBlocks(blocks).enumerated().map { ["index": $0.offset, "data": base64($0.element)] }]
            }
            return ["cardType": "MifareClassic", "tagId": base64(c.uid), "scannedAt": scannedAt, "sectors": sectors]
        }
        if let u = image.mifareUltralight {
            return ["cardType": "MifareUltralight", "tagId": base64(u.uid), "scannedAt": scannedAt, "ultralightType": 1,
                    "pages": u.pages.enumerated().map { ["index": $0.offset, "data": base64($0.element)] }]
        }
        guard let iso = image.iso7816, let app = iso.applications.first else { return [:] }
        let answers = app.commands.mapValues { String($0.dropLast(4)) }
        return ["cardType": "CEPAS", "tagId": base64(iso.uid), "scannedAt": gson ? 1_500_000_000_000 as Any : "2025-03-01T09:00:00Z" as Any,
                "purses": [["id": 3, "data": base64(answers["9032030000"] ?? "")]],
                "histories": [["id": 3, "data": base64(answers["90320300010000"] ?? "")]]]
    }

    // MARK: Zip (Metrodroid's "export all")

    /// Writes `members` into a zip at `path` with Python's zipfile (an implementation that is not
    /// ours, and not the zip reader transit reads with), deflated.
    public static func zip(_ members: [(name: String, data: Data)], to path: String) throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        var names = [String]()
        for (i, m) in members.enumerated() {
            let file = dir.appendingPathComponent("m\(i)")
            try m.data.write(to: file)
            names.append("(\(pythonString(file.path)), \(pythonString(m.name)))")
        }
        let script = "import zipfile\nwith zipfile.ZipFile(\(pythonString(path)), 'w', zipfile.ZIP_DEFLATED) as z:\n"
            + "    for f, n in [\(names.joined(separator: ", "))]:\n        z.write(f, n)\n"
        let run = try CommandRun.run("/usr/bin/python3", ["-c", script])
        guard run.status == 0 else { throw CardImageError("python3 zipfile: \(run.stderr)") }
    }

    /// A zip whose one member inflates `megabytes` MiB of zeros (a zip bomb, small on disk).
    public static func zipBomb(megabytes: Int, to path: String) throws {
        let script = "import zipfile\nwith zipfile.ZipFile(\(pythonString(path)), 'w', zipfile.ZIP_DEFLATED) as z:\n"
            + "    z.writestr('Metrodroid-deadbeef-20250101-000000.json', b'\\x20' * (\(megabytes) << 20))\n"
        let run = try CommandRun.run("/usr/bin/python3", ["-c", script])
        guard run.status == 0 else { throw CardImageError("python3 zipfile: \(run.stderr)") }
    }

    // MARK: Helpers

    private static func pythonString(_ s: String) -> String { "'" + s.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'") + "'" }
    private static func decimal(_ hex: String) -> String { String(Int(hex, radix: 16) ?? 0) }
    private static func bytes(_ hex: String) -> [UInt8] {
        stride(from: 0, to: hex.count - 1, by: 2).compactMap { UInt8(String(Array(hex)[$0 ..< $0 + 2]), radix: 16) }
    }
    private static func base64(_ hex: String) -> String { Data(bytes(hex)).base64EncodedString() }
    /// The AID of a SELECT by name, `00 A4 04 00 Lc AID 00`.
    private static func aid(_ app: CardImage.ApplicationImage) -> String { String(app.select.dropFirst(10).dropLast(2)) }
}
