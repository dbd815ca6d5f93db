import CardProtocol
import TransitModel
/// What the exports of other apps store, assembled into card images: a FeliCa card from its
/// systems' blocks by address, an ISO 7816 application from what its SELECT, files and records
/// answered, a CEPAS purse file from its GET PURSE answers. Metrodroid's JSON and XML and FareBot's
/// export each parse their own syntax into these parts, so the same blocks give the same card.
enum CardImageAssembler {
    struct Service {
        var code: UInt16
        /// Blocks by block number; a dump may hold gaps.
        var blocks: [Int: [UInt8]]
        /// Present on the card but not read (it needs a key).
        var locked: Bool
    }

    struct System {
        var code: UInt16
        var services: [Service]
    }

    /// A FeliCa card; `idm` is system 0's IDm. Each service answers its blocks from block 0 up to the
    /// first one the dump lacks (a Read Without Encryption past them answers "no such block").
    static func felica(idm: [UInt8], pmm: [UInt8]?, systems: [System], description: String) throws -> CardImage {
        guard idm.count == 8 else { throw CardImageError(L10n.words("a FeliCa IDm of %1$s bytes", .init(String(idm.count)))) }
        guard !systems.isEmpty else { throw CardImageError(L10n.words("a FeliCa card without systems")) }
        let images = systems.map { s -> CardImage.FeliCaSystemImage in
            var services = [String: [String]](), locked = [String]()
            for service in s.services {
                let code = HexFormat.string(service.code)
                if service.locked { locked.append(code); continue }
                var blocks = [String]()
                while let block = service.blocks[blocks.count] { blocks.append(HexFormat.string(block)) }
                services[code] = blocks
            }
            return .init(code: HexFormat.string(s.code), services: services, lockedServices: locked.isEmpty ? nil : locked.sorted())
        }
        return CardImage(description: description, felica: .init(idm: HexFormat.string(idm), pmm: pmm.map{ HexFormat.string($0) }, systems: images))
    }

    /// A file of an ISO 7816 application as an export stores it: its binary contents and records
    /// (1-based), data only.
    struct StoredFile {
        var binary: [UInt8]?
        var records = [Int: [UInt8]]()
    }

    /// An application entered by SELECT of `aid` (by name, `00 A4 04 00 Lc AID 00`, as the plugins
    /// send it) answering `fci`; its files by short file identifier answer READ BINARY and READ
    /// RECORD; `commands` answers anything else (data + 90 00 added).
    static func application(name: String, aid: [UInt8], fci: [UInt8]?, files: [UInt8: StoredFile],
                            commands: [[UInt8]: [UInt8]] = [:]) -> CardImage.ApplicationImage {
        let select = [0x00, 0xA4, 0x04, 0x00, UInt8(aid.count)] + aid + [0x00]
        return fileApplication(name: name, select: select, answer: (fci ?? []) + [0x90, 0x00], files: files, commands: commands)
    }

    /// CEPAS: entered by SELECT of file 4000; GET PURSE `90 32 <purse> 00 00` answers the purse
    /// record, and `90 32 <purse> 00 01 <offset> 00` the log's 16-byte records from `offset`, 16 at a
    /// time (Metrodroid CEPASProtocol; EZ-Link: purse 3).
    static func cepas(purses: [Int: [UInt8]], histories: [Int: [UInt8]]) -> CardImage.ApplicationImage {
        var commands = [[UInt8]: [UInt8]]()
        for (purse, record) in purses where (0 ... 15).contains(purse) { commands[[0x90, 0x32, UInt8(purse), 0x00, 0x00]] = record }
        for (purse, log) in histories where (0 ... 15).contains(purse) {
            let records = min(log.count / 16, 255)
            for offset in stride(from: 0, to: records, by: 16) {
                commands[[0x90, 0x32, UInt8(purse), 0x00, 0x01, UInt8(offset), 0x00]] = Array(log[(16 * offset) ..< 16 * min(records, offset + 16)])
            }
        }
        return fileApplication(name: "CEPAS file 4000", select: [0x00, 0xA4, 0x00, 0x00, 0x02, 0x40, 0x00], answer: [0x90, 0x00], files: [:], commands: commands)
    }

    private static func fileApplication(name: String, select: [UInt8], answer: [UInt8], files: [UInt8: StoredFile],
                                        commands: [[UInt8]: [UInt8]]) -> CardImage.ApplicationImage {
        var records = [String: [String]](), binaries = [String: String]()
        for (sfi, file) in files where (1 ... 30).contains(sfi) {
            let key = HexFormat.string([sfi])
            if let binary = file.binary { binaries[key] = HexFormat.string(binary) }
            var list = [String]()
            while let record = file.records[list.count + 1] { list.append(HexFormat.string(record)) }
            if !list.isEmpty { records[key] = list }
        }
        var answered = [String: String]()
        for (command, data) in commands { answered[HexFormat.string(command)] = HexFormat.string(data + [0x90, 0x00]) }
        return .init(name: name, select: HexFormat.string(select), answer: HexFormat.string(answer), commands: answered,
                     records: records.isEmpty ? nil : records, binaries: binaries.isEmpty ? nil : binaries)
    }

    /// The files of an application in an export's JSON (Metrodroid's `generic`, FareBot's
    /// application): `files` by selector (`selectorPrefix` put before each key) and `sfiFiles` by
    /// decimal SFI, each `{binaryData, records: {"<n>": bytes}}`; bytes decoded by `decode` (hex or
    /// base64).
    static func files(selectors: [String: Any], sfiFiles: [String: Any], selectorPrefix: String = "",
                      decode: (String) throws -> [UInt8]) throws -> [UInt8: StoredFile] {
        func stored(_ file: [String: Any]) throws -> StoredFile {
            var stored = StoredFile(binary: try (file["binaryData"] as? String).map(decode))
            for (key, value) in file["records"] as? [String: Any] ?? [:] {
                guard let n = Int(key), let text = value as? String else { continue }
                stored.records[n] = try decode(text)
            }
            return stored
        }
        var out = [UInt8: StoredFile]()
        for (key, value) in selectors {
            guard let sfi = shortFileIdentifier(selector: selectorPrefix + key), let file = value as? [String: Any] else { continue }
            out[sfi] = try stored(file)
        }
        for (key, value) in sfiFiles {
            guard let sfi = UInt8(key), (1 ... 30).contains(sfi), let file = value as? [String: Any] else { continue }
            out[sfi] = try stored(file)
        }
        return out
    }

    /// The short file identifier a stored file's selector names: Metrodroid's `:<hex id>` or
    /// `#<aid>:<hex id>` (ISO7816Selector: hex digits after each `:`), when its last element is a
    /// file id of 1–30; nil for a path deeper than the application (`:3f00:4000:1`) or a DF name.
    static func shortFileIdentifier(selector: String) -> UInt8? {
        let elements = selector.split(separator: ":", omittingEmptySubsequences: false)
        guard elements.count == 2, let last = elements.last, let id = UInt8(last, radix: 16), (1 ... 30).contains(id) else { return nil }
        let head = elements[0]
        return head.isEmpty || head.hasPrefix("#") ? id : nil
    }

    /// The application's extra answers by its export type: KS X 6924 GET BALANCE `90 4C 00 00 04`;
    /// T-Union/China GET BALANCE `80 5C <purse> 02 04` (Metrodroid KSX6924Application, ChinaCard).
    static func ksx6924Balance(_ balance: [UInt8]) -> [[UInt8]: [UInt8]] { [[0x90, 0x4C, 0x00, 0x00, 0x04]: balance] }

    static func chinaBalances(_ balances: [Int: [UInt8]]) -> [[UInt8]: [UInt8]] {
        var out = [[UInt8]: [UInt8]]()
        for (purse, balance) in balances where (0 ... 255).contains(purse) { out[[0x80, 0x5C, UInt8(purse), 0x02, 0x04]] = balance }
        return out
    }
}
