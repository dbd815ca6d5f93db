import CardProtocol
import Foundation
import TransitModel

/// FareBot's JSON export: `{"cards": [ … ], "versionCode": N, …}` (its Gson export of 2016–2019,
/// and the current one, which adds appName, exportedAt and formatVersion), or one card alone.
/// Each card names its technology in `cardType`; byte strings are base64. Facts from FareBot's
/// ExportHelper, serialize/gson and serialize (KotlinxCardSerializer) sources and its Raw*Card
/// classes:
/// - `FeliCa`: `idm`, `pmm` (base64, or the Gson era's `{manufactureCode, cardIdentification}`
///   number arrays), `systems[{code, services[{serviceCode, blocks[{address, data}], skipped}]}]`;
/// - `CEPAS`: `purses` and `histories`, `[{id, data}]`;
/// - `ISO7816`: `applications[{type, appName, appFci, files{selector: {binaryData, records, fci}}, sfiFiles}]`;
/// - `MifareClassic`: `sectors[{type: data|unauthorized|invalid, index, blocks[{index, data}]}]`,
///   block indices inside the sector, no keys (RawClassicSector.kt, RawClassicBlock.kt);
/// - `MifareUltralight`: `pages[{index, data}]`, `ultralightType` (Android's MifareUltralight
///   TYPE_ULTRALIGHT 1, TYPE_ULTRALIGHT_C 2);
/// - `MifareDesfire`, `Vicinity`: technologies no family reads.
/// A card object without `cardType` but with Metrodroid's keys is read as Metrodroid's.
enum FareBotExport {
    /// A FareBot bulk export: an object with a `cards` list and no card of its own.
    static func isExport(_ json: [String: Any]) -> Bool { json["cards"] is [Any] && json["tagId"] == nil && json["scannedAt"] == nil }

    static func isCard(_ json: [String: Any]) -> Bool { json["cardType"] is String }

    /// What the export is, for messages: "a FareBot export (version 31)".
    static func format(_ json: [String: Any]) -> String {
        let app = (json["appName"] as? String) ?? "FareBot"
        return "a \(app) export" + ((json["versionCode"] as? Int).map { " (version \($0))" } ?? "")
    }

    static func entries(_ list: [Any]) -> [CardFile.Entry] {
        list.flatMap { item -> [CardFile.Entry] in
            guard let card = item as? [String: Any] else { return [.unusable(L10n.words("a card entry that is not an object"))] }
            if isCard(card) { return [entry(card)] }
            if MetrodroidDump.isMetrodroid(card) { return MetrodroidDump.entries(card) }
            return [.unusable(L10n.words("a card entry without cardType"))]
        }
    }

    static func entry(_ card: [String: Any]) -> CardFile.Entry {
        switch card["cardType"] as? String {
        case "FeliCa": return CardFile.Entry { try felica(card) }
        case "CEPAS": return CardFile.Entry { try cepas(card) }
        case "ISO7816": return CardFile.Entry { try iso(card) }
        case "MifareClassic": return CardFile.Entry { try classic(card) }
        case "MifareUltralight": return CardFile.Entry { try ultralight(card) }
        case "MifareDesfire": return .otherTechnology("MIFARE DESFire card")
        case "Vicinity": return .otherTechnology("NFC-V (ISO 15693) card")
        case let type: return .unusable(L10n.words("a card of type %1$s, which no transit family reads", .init(type.map(CardImageError.quote) ?? "none")))
        }
    }

    /// The tag ID under either spelling (the current exporter writes `_tagId` for FeliCa cards).
    private static func tagId(_ card: [String: Any]) throws -> [UInt8]? {
        try ((card["tagId"] as? String) ?? (card["_tagId"] as? String)).map(Base64Text.bytes)
    }

    private static func felica(_ card: [String: Any]) throws -> CardImage {
        guard let idm = try eightBytes(card["idm"], "manufactureCode", "cardIdentification") ?? tagId(card) else {
            throw CardImageError(L10n.words("a FeliCa card without idm"))
        }
        let systems = try (card["systems"] as? [Any] ?? []).map { item -> CardImageAssembler.System in
            guard let s = item as? [String: Any], let code = number(s["code"]) else { throw CardImageError(L10n.words("a system without a code")) }
            let services = try (s["services"] as? [Any] ?? []).map { item -> CardImageAssembler.Service in
                guard let service = item as? [String: Any], let serviceCode = number(service["serviceCode"]) else {
                    throw CardImageError(L10n.words("a service of system %1$s without a serviceCode", .init("\(code)")))
                }
                var blocks = [Int: [UInt8]]()
                for (i, b) in (service["blocks"] as? [Any] ?? []).enumerated() {
                    guard let block = b as? [String: Any], let data = block["data"] as? String else { throw CardImageError(L10n.words("block %1$s without data", .init("\(i)"))) }
                    let address = (block["address"] as? Int) ?? i
                    blocks[address < 0 ? address & 0xFF : address] = try Base64Text.bytes(data) // `address` is a signed byte
                }
                return .init(code: serviceCode, blocks: blocks, locked: service["skipped"] as? Bool == true)
            }
            return .init(code: code, services: services)
        }
        return try CardImageAssembler.felica(idm: idm, pmm: try eightBytes(card["pmm"], "icCode", "maximumResponseTime"), systems: systems,
                                             description: "FeliCa card of a FareBot export")
    }

    /// Eight bytes as base64, or as the Gson era's object of two signed-byte arrays (2 + 6).
    private static func eightBytes(_ value: Any?, _ first: String, _ second: String) throws -> [UInt8]? {
        if let text = value as? String { return try Base64Text.bytes(text) }
        guard let object = value as? [String: Any], let a = object[first] as? [Int], let b = object[second] as? [Int] else { return nil }
        return (a + b).map { UInt8(truncatingIfNeeded: $0) }
    }

    private static func cepas(_ card: [String: Any]) throws -> CardImage {
        func byID(_ key: String) throws -> [Int: [UInt8]] {
            var out = [Int: [UInt8]]()
            for case let entry as [String: Any] in card[key] as? [Any] ?? [] {
                guard let id = entry["id"] as? Int, let data = entry["data"] as? String else { continue } // an entry with errorMessage was not read
                out[id] = try Base64Text.bytes(data)
            }
            return out
        }
        let app = CardImageAssembler.cepas(purses: try byID("purses"), histories: try byID("histories"))
        return CardImage(description: "CEPAS card of a FareBot export",
                         iso7816: .init(uid: try tagId(card).map{ HexFormat.string($0) } ?? "", applications: [app]))
    }

    private static func iso(_ card: [String: Any]) throws -> CardImage {
        var apps = [CardImage.ApplicationImage]()
        for case let app as [String: Any] in card["applications"] as? [Any] ?? [] {
            guard let aid = try (app["appName"] as? String).map(Base64Text.bytes), (5 ... 16).contains(aid.count) else { continue }
            // FareBot's selectors are file ids in hex (`15`, `1001/15`), without Metrodroid's colon.
            let files = try CardImageAssembler.files(selectors: app["files"] as? [String: Any] ?? [:], sfiFiles: app["sfiFiles"] as? [String: Any] ?? [:],
                                                     selectorPrefix: ":", decode: Base64Text.bytes)
            apps.append(CardImageAssembler.application(name: app["type"] as? String ?? "generic", aid: aid,
                                                       fci: try (app["appFci"] as? String).map(Base64Text.bytes), files: files))
        }
        guard !apps.isEmpty else { throw CardImageError(L10n.words("an ISO 7816 card with no application transit can select")) }
        return CardImage(description: "ISO 7816 card of a FareBot export", iso7816: .init(uid: try tagId(card).map{ HexFormat.string($0) } ?? "", applications: apps))
    }

    private static func classic(_ card: [String: Any]) throws -> CardImage {
        guard let list = card["sectors"] as? [Any] else { throw CardImageError(L10n.words("a MIFARE Classic card without a sectors list")) }
        guard list.count <= ExportMifare.maxSectors else {
            throw CardImageError(L10n.words("a MIFARE Classic card of %1$s sectors (a 4K, the largest, has %2$s)", .init("\(list.count)"), .init("\(ExportMifare.maxSectors)")))
        }
        let sectors = try list.enumerated().map { position, item -> ExportMifare.Sector in
            guard let s = item as? [String: Any] else { throw CardImageError(L10n.words("MIFARE Classic sector entry %1$s is not an object", .init("\(position)"))) }
            guard let index = s["index"] as? Int else { throw CardImageError(L10n.words("MIFARE Classic sector entry %1$s has no index", .init("\(position)"))) }
            switch s["type"] as? String {
            case "data": break
            case "unauthorized", "invalid": return .init(index: index)
            case let type: throw CardImageError(L10n.words("MIFARE Classic sector %1$s of type %2$s (data, unauthorized or invalid)", .init(String(index)),
                                                      type.map { L10n.Words(CardImageError.quote($0)) } ?? L10n.words("none")))
            }
            guard let entries = s["blocks"] as? [Any] ?? (s["blocks"] == nil ? [] : nil) else {
                throw CardImageError(L10n.words("MIFARE Classic sector %1$s: blocks is not a list", .init("\(index)")))
            }
            guard entries.count <= MifareLayout.blocksInSector(index) else {
                throw CardImageError(L10n.words("MIFARE Classic sector %1$s lists %2$s blocks, more than its %3$s", .init("\(index)"), .init("\(entries.count)"), .init("\(MifareLayout.blocksInSector(index))")))
            }
            var blocks = [Int: [UInt8]]()
            for (position, entry) in entries.enumerated() {
                guard let block = entry as? [String: Any], let data = block["data"] as? String else {
                    throw CardImageError(L10n.words("MIFARE Classic sector %1$s, block entry %2$s has no data", .init("\(index)"), .init("\(position)")))
                }
                let n = block["index"] as? Int ?? position
                guard blocks[n] == nil else { throw CardImageError(L10n.words("MIFARE Classic sector %1$s, block %2$s is listed twice", .init("\(index)"), .init("\(n)"))) }
                blocks[n] = try ExportMifare.base64(data, L10n.words("MIFARE Classic sector %1$s, block %2$s", .init(String(index)), .init(String(n))))
            }
            return .init(index: index, blocks: blocks)
        }
        return try ExportMifare.classic(tagId: try tagId(card), sectors: sectors, description: "MIFARE Classic card of a FareBot export")
    }

    private static func ultralight(_ card: [String: Any]) throws -> CardImage {
        guard let list = card["pages"] as? [Any] else { throw CardImageError(L10n.words("a MIFARE Ultralight card without a pages list")) }
        guard list.count <= MifareLayout.maxPages else {
            throw CardImageError(L10n.words("a MIFARE Ultralight card of %1$s pages (at most %2$s)", .init("\(list.count)"), .init("\(MifareLayout.maxPages)")))
        }
        let pages = try list.enumerated().map { position, item -> ExportMifare.Page in
            guard let page = item as? [String: Any], let data = page["data"] as? String else {
                throw CardImageError(L10n.words("MIFARE Ultralight page entry %1$s has no data", .init("\(position)")))
            }
            let index = page["index"] as? Int ?? position
            return .init(index: index, data: try ExportMifare.base64(data, L10n.words("MIFARE Ultralight page %1$s", .init(String(index)))))
        }
        let type: String? = switch card["ultralightType"] as? Int { case 1: "Ultralight"; case 2: "Ultralight C"; default: nil }
        return try ExportMifare.ultralight(tagId: try tagId(card), type: type, pages: pages, description: "MIFARE Ultralight card of a FareBot export")
    }

    private static func number(_ value: Any?) -> UInt16? { (value as? Int).flatMap { (0 ... 0xFFFF).contains($0) ? UInt16($0) : nil } }
}
