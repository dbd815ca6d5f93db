import Foundation
import TransitModel

/// Metrodroid's JSON card export (kotlinx.serialization of its `Card`; facts from Metrodroid's
/// card/felica, card/iso7816, card/cepas and serializers sources): byte strings in hex, map keys
/// in decimal, the card's technology told by which key is present.
/// - `tagId`: the UID, a FeliCa card's IDm;
/// - `felica.systems.<code>.services.<code>`: `blocksMap` `{address: {data}}` (since Metrodroid
///   7c4f17e62, December 2021), or the older `blocks` list (index = address); `skipped` for a
///   service that needs a key;
/// - `iso7816.applications`: `[type, {generic: {appName, appFci, files, sfiFiles}, …}]`, with the
///   type's extras: `cepas` purses and histories (file 4000, no appName), `ksx6924` balance,
///   `china` balances;
/// - `mifareClassic`: `sectors`, a list by sector number, each `{blocks: [hex], keyA, keyB,
///   isUnauthorized, error}` (ClassicCard.kt, ClassicSectorRaw.kt); `subType` PLUS is a MIFARE Plus
///   read in security level 3 (AES keys), which no family reads;
/// - `mifareUltralight`: `cardModel` and `pages`, a list by page number, each `{data: hex,
///   isUnauthorized}` (UltralightCard.kt, UltralightPage.kt);
/// - `mifareDesfire`, `vicinity`: technologies no family reads.
enum MetrodroidDump {
    static let protocolKeys = ["felica", "iso7816", "mifareClassic", "mifareUltralight", "mifareDesfire", "vicinity", "cepasCompat"]

    static func isMetrodroid(_ json: [String: Any]) -> Bool {
        json["format"] == nil && protocolKeys.contains { json[$0] != nil }
    }

    /// The card's entries: one per technology the card carries (a FeliCa and ISO combo card gives two).
    static func entries(_ json: [String: Any]) -> [CardFile.Entry] {
        let tagId = json["tagId"] as? String
        var out = [CardFile.Entry]()
        if let felica = json["felica"] as? [String: Any] { out.append(CardFile.Entry { try parseFeliCa(felica, tagId: tagId) }) }
        if let iso = json["iso7816"] as? [String: Any] { out.append(CardFile.Entry { try parseISO(iso, tagId: tagId) }) }
        if let classic = json["mifareClassic"] {
            if (classic as? [String: Any])?["subType"] as? String == "PLUS" {
                out.append(.otherTechnology("MIFARE Plus card"))
            } else {
                out.append(CardFile.Entry { try parseClassic(classic, tagId: tagId) })
            }
        }
        if let ultralight = json["mifareUltralight"] { out.append(CardFile.Entry { try parseUltralight(ultralight, tagId: tagId) }) }
        if json["mifareDesfire"] != nil { out.append(.otherTechnology("MIFARE DESFire card")) }
        if json["vicinity"] != nil { out.append(.otherTechnology("NFC-V (ISO 15693) card")) }
        if json["cepasCompat"] != nil {
            out.append(.unusable(L10n.words("a CEPAS card in the old form, which keeps values read from the card, not its answers")))
        }
        return out.isEmpty ? [.unusable(L10n.words("no FeliCa, ISO 7816, MIFARE Classic or Ultralight data"))] : out
    }

    private static func parseClassic(_ value: Any, tagId: String?) throws -> CardImage {
        guard let list = (value as? [String: Any])?["sectors"] as? [Any] else { throw CardImageError(L10n.words("a MIFARE Classic card without a sectors list")) }
        guard list.count <= ExportMifare.maxSectors else {
            throw CardImageError(L10n.words("a MIFARE Classic card of %1$s sectors (a 4K, the largest, has %2$s)", .init("\(list.count)"), .init("\(ExportMifare.maxSectors)")))
        }
        let sectors = try list.enumerated().map { index, item -> ExportMifare.Sector in
            guard let s = item as? [String: Any] else { throw CardImageError(L10n.words("MIFARE Classic sector %1$s is not an object", .init("\(index)"))) }
            // An unauthorized sector, or one whose read failed (`error`), holds nothing read.
            guard s["isUnauthorized"] as? Bool != true, s["error"] == nil || s["error"] is NSNull else { return .init(index: index) }
            guard let list = s["blocks"] as? [Any] ?? (s["blocks"] == nil ? [] : nil) else {
                throw CardImageError(L10n.words("MIFARE Classic sector %1$s: blocks is not a list", .init("\(index)")))
            }
            var blocks = [Int: [UInt8]]()
            for (n, block) in list.enumerated() {
                guard let hex = block as? String else { throw CardImageError(L10n.words("MIFARE Classic sector %1$s, block %2$s is not hex text", .init("\(index)"), .init("\(n)"))) }
                blocks[n] = try ExportMifare.hex(hex, L10n.words("MIFARE Classic sector %1$s, block %2$s", .init(String(index)), .init(String(n))))
            }
            func key(_ name: String) throws -> [UInt8]? {
                guard let value = s[name], !(value is NSNull) else { return nil }
                guard let hex = value as? String else { throw CardImageError(L10n.words("MIFARE Classic sector %1$s: %2$s is not hex text", .init("\(index)"), .init("\(name)"))) }
                return try ExportMifare.hex(hex, L10n.words("MIFARE Classic sector %1$s: %2$s", .init(String(index)), .init(name)))
            }
            return .init(index: index, blocks: blocks, keyA: try key("keyA"), keyB: try key("keyB"))
        }
        return try ExportMifare.classic(tagId: try tagId.map(HexText.bytes), sectors: sectors, description: "Metrodroid MIFARE Classic export")
    }

    private static func parseUltralight(_ value: Any, tagId: String?) throws -> CardImage {
        guard let card = value as? [String: Any], let list = card["pages"] as? [Any] else {
            throw CardImageError(L10n.words("a MIFARE Ultralight card without a pages list"))
        }
        guard list.count <= MifareLayout.maxPages else {
            throw CardImageError(L10n.words("a MIFARE Ultralight card of %1$s pages (at most %2$s)", .init("\(list.count)"), .init("\(MifareLayout.maxPages)")))
        }
        let pages = try list.enumerated().map { index, item -> ExportMifare.Page in
            guard let p = item as? [String: Any] else { throw CardImageError(L10n.words("MIFARE Ultralight page %1$s is not an object", .init("\(index)"))) }
            guard p["isUnauthorized"] as? Bool != true else { return .init(index: index) }
            guard let hex = p["data"] as? String else { throw CardImageError(L10n.words("MIFARE Ultralight page %1$s has no data", .init("\(index)"))) }
            return .init(index: index, data: try ExportMifare.hex(hex, L10n.words("MIFARE Ultralight page %1$s", .init(String(index)))))
        }
        return try ExportMifare.ultralight(tagId: try tagId.map(HexText.bytes), type: ExportMifare.ultralightType(metrodroidModel: card["cardModel"] as? String),
                                           pages: pages, description: "Metrodroid MIFARE Ultralight export")
    }

    private static func parseFeliCa(_ f: [String: Any], tagId: String?) throws -> CardImage {
        // The IDm is the tag ID (Metrodroid dropped felica.iDm in 2019; older files still carry it).
        guard let idm = (f["iDm"] as? String) ?? tagId else { throw CardImageError(L10n.words("a FeliCa card without tagId (its IDm)")) }
        guard let systems = f["systems"] as? [String: Any] else { throw CardImageError(L10n.words("a FeliCa card without systems")) }
        // Metrodroid keeps no system order; numeric order stands in for it.
        let parts = try systems.sorted { (Int($0.key) ?? 0) < (Int($1.key) ?? 0) }.map { key, value -> CardImageAssembler.System in
            guard let code = code(key), let system = value as? [String: Any] else { throw CardImageError(L10n.words("system %1$s is not a system code", .init(CardImageError.quote(key)))) }
            var services = [CardImageAssembler.Service]()
            for (serviceKey, serviceValue) in system["services"] as? [String: Any] ?? [:] {
                guard let service = Self.code(serviceKey), let s = serviceValue as? [String: Any] else {
                    throw CardImageError(L10n.words("service %1$s of system %2$s is not a service code", .init(CardImageError.quote(serviceKey)), .init(CardImageError.quote(key))))
                }
                services.append(.init(code: service, blocks: try blocks(s), locked: s["skipped"] as? Bool == true))
            }
            return .init(code: code, services: services.sorted { $0.code < $1.code })
        }
        return try CardImageAssembler.felica(idm: try HexText.bytes(idm), pmm: try (f["pMm"] as? String).map(HexText.bytes), systems: parts,
                                             description: "Metrodroid FeliCa export")
    }

    /// A service's blocks by address, from `blocksMap` (`{address: {data}}`, or `{address: hex}`) or
    /// the older `blocks` list (of `{data}` or hex, index = address; `{address, data}` as FareBot's).
    private static func blocks(_ s: [String: Any]) throws -> [Int: [UInt8]] {
        var byAddress = [Int: [UInt8]]()
        func data(_ item: Any) -> String? { (item as? String) ?? ((item as? [String: Any])?["data"] as? String) }
        if let map = s["blocksMap"] as? [String: Any] {
            for (key, item) in map {
                guard let address = Int(key), let hex = data(item) else { throw CardImageError(L10n.words("block %1$s has no data", .init(CardImageError.quote(key)))) }
                byAddress[address] = try HexText.bytes(hex)
            }
        } else if let list = s["blocks"] as? [Any] {
            for (i, item) in list.enumerated() {
                guard let hex = data(item) else { throw CardImageError(L10n.words("block %1$s has no data", .init("\(i)"))) }
                byAddress[((item as? [String: Any])?["address"] as? Int) ?? i] = try HexText.bytes(hex)
            }
        }
        return byAddress
    }

    private static func parseISO(_ iso: [String: Any], tagId: String?) throws -> CardImage {
        var apps = [CardImage.ApplicationImage]()
        for case let entry as [Any] in iso["applications"] as? [Any] ?? [] {
            guard entry.count == 2, let type = entry[0] as? String, let body = entry[1] as? [String: Any] else { continue }
            let generic = body["generic"] as? [String: Any] ?? [:]
            if type == "cepas" {
                apps.append(CardImageAssembler.cepas(purses: try hexByNumber(body["purses"]), histories: try hexByNumber(body["histories"])))
                continue
            }
            guard let name = generic["appName"] as? String else { continue }
            let aid = try HexText.bytes(name)
            guard (5 ... 16).contains(aid.count) else { throw CardImageError(L10n.words("application name %1$s is not a 5–16 byte AID", .init(CardImageError.quote(name)))) }
            var commands = [[UInt8]: [UInt8]]()
            if type == "ksx6924" || type == "tmoney", let balance = body["balance"] as? String {
                commands = CardImageAssembler.ksx6924Balance(try HexText.bytes(balance))
            }
            if type == "china" { commands = CardImageAssembler.chinaBalances(try hexByNumber(body["balances"])) }
            apps.append(CardImageAssembler.application(name: type, aid: aid, fci: try (generic["appFci"] as? String).map(HexText.bytes),
                                                       files: try CardImageAssembler.files(selectors: generic["files"] as? [String: Any] ?? [:],
                                                                                          sfiFiles: generic["sfiFiles"] as? [String: Any] ?? [:],
                                                                                          decode: HexText.bytes),
                                                       commands: commands))
        }
        guard !apps.isEmpty else { throw CardImageError(L10n.words("an ISO 7816 card with no application transit can select")) }
        return CardImage(description: "Metrodroid ISO 7816 export", iso7816: .init(uid: tagId ?? "", applications: apps))
    }

    /// `{"<decimal>": hex}` as bytes by number.
    private static func hexByNumber(_ value: Any?) throws -> [Int: [UInt8]] {
        var out = [Int: [UInt8]]()
        for (key, item) in value as? [String: Any] ?? [:] {
            guard let n = Int(key), let hex = item as? String else { continue }
            out[n] = try HexText.bytes(hex)
        }
        return out
    }

    /// A system or service code written in decimal.
    private static func code(_ key: String) -> UInt16? { Int(key).flatMap { (0 ... 0xFFFF).contains($0) ? UInt16($0) : nil } }
}
