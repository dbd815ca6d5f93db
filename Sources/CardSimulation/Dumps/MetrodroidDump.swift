import Foundation

/// Metrodroid / FareBot JSON card exports:
/// - `felica.systems.<decimal code>.services.<decimal code>` with `blocks` (a list of
///   `{address, data}` or of hex strings) or `blocksMap` (`{address: hex}`);
/// - `iso7816.applications`: `[type, {generic: {appName, appFci, files: {"#<aid>:<sfi>": {records:
///   {n: hex}, fci}}}, …extras}]`, with the ksx6924 extra `balance` (the GET BALANCE answer).
enum MetrodroidDump {
    static func isMetrodroid(_ json: [String: Any]) -> Bool {
        json["format"] == nil && (json["felica"] is [String: Any] || json["iso7816"] is [String: Any])
    }

    static func parse(_ json: [String: Any]) throws -> CardImage {
        if let felica = json["felica"] as? [String: Any] { return try parseFeliCa(felica, tagId: json["tagId"] as? String) }
        if let iso = json["iso7816"] as? [String: Any] { return try parseISO(iso, tagId: json["tagId"] as? String) }
        throw CardImageError("Metrodroid export holds no felica or iso7816 card")
    }

    private static func parseFeliCa(_ f: [String: Any], tagId: String?) throws -> CardImage {
        guard let idm = (f["iDm"] as? String) ?? tagId, let systems = f["systems"] as? [String: Any] else {
            throw CardImageError("Metrodroid FeliCa export without iDm or systems")
        }
        // Metrodroid keeps no system order; numeric order stands in for it.
        let images = try systems.sorted { (Int($0.key) ?? 0) < (Int($1.key) ?? 0) }.map { key, value -> CardImage.FeliCaSystemImage in
            guard let code = Int(key), let system = value as? [String: Any] else { throw CardImageError("bad system \(key)") }
            var services = [String: [String]]()
            for (serviceKey, serviceValue) in system["services"] as? [String: Any] ?? [:] {
                guard let service = Int(serviceKey), let s = serviceValue as? [String: Any] else { continue }
                services[hex16(service)] = try blocks(s)
            }
            return .init(code: hex16(code), services: services)
        }
        return CardImage(description: "Metrodroid FeliCa export", felica: .init(idm: idm, pmm: f["pMm"] as? String, systems: images))
    }

    /// A service's blocks in address order, from `blocks` or `blocksMap`.
    private static func blocks(_ s: [String: Any]) throws -> [String] {
        var byAddress = [Int: String]()
        if let list = s["blocks"] as? [Any] {
            for (i, item) in list.enumerated() {
                if let hex = item as? String { byAddress[i] = hex }
                if let b = item as? [String: Any], let data = b["data"] as? String { byAddress[(b["address"] as? Int) ?? i] = data }
            }
        }
        for (k, v) in s["blocksMap"] as? [String: String] ?? [:] { if let a = Int(k) { byAddress[a] = v } }
        return try (0 ..< byAddress.count).map { a in
            guard let data = byAddress[a] else { throw CardImageError("service blocks skip address \(a)") }
            return data
        }
    }

    private static func parseISO(_ iso: [String: Any], tagId: String?) throws -> CardImage {
        var apps = [CardImage.ApplicationImage]()
        for case let entry as [Any] in iso["applications"] as? [Any] ?? [] {
            guard entry.count == 2, let type = entry[0] as? String, let body = entry[1] as? [String: Any],
                  let generic = body["generic"] as? [String: Any], let name = generic["appName"] as? String else { continue }
            let aid = try HexText.bytes(name)
            guard (5 ... 16).contains(aid.count) else { throw CardImageError("application name \(name) is not a 5–16 byte AID") }
            var app = CardImage.ApplicationImage(name: type, select: HexText.string([0x00, 0xA4, 0x04, 0x00, UInt8(aid.count)] + aid + [0x00]),
                                                 answer: ((generic["appFci"] as? String) ?? "") + "9000")
            var records = [String: [String]]()
            for (key, value) in generic["files"] as? [String: Any] ?? [:] {
                // "#<aid>:<sfi>" (decimal); ":df00" and the like are files by name, not SFIs.
                guard let sfi = key.split(separator: ":").last.flatMap({ Int($0) }), (1 ... 30).contains(sfi),
                      let file = value as? [String: Any], let recs = file["records"] as? [String: String], !recs.isEmpty else { continue }
                records[String(format: "%02X", sfi)] = recs.sorted { (Int($0.key) ?? 0) < (Int($1.key) ?? 0) }.map(\.value)
            }
            app.records = records
            if type == "ksx6924", let balance = body["balance"] as? String {
                app.commands["904C000004"] = balance + "9000" // GET BALANCE (Metrodroid KSX6924Application)
            }
            apps.append(app)
        }
        guard !apps.isEmpty else { throw CardImageError("Metrodroid ISO 7816 export without applications") }
        return CardImage(description: "Metrodroid ISO 7816 export", iso7816: .init(uid: tagId ?? "", applications: apps))
    }

    private static func hex16(_ v: Int) -> String { String(format: "%04X", v & 0xFFFF) }
}
