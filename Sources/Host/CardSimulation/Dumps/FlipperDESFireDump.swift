import CardProtocol
import TransitModel

/// Flipper Zero "NFC device" files of MIFARE DESFire cards (`Device type: Mifare DESFire`), as the
/// firmware writes them (lib/nfc/protocols/mf_desfire/mf_desfire_i.c): `Application IDs: 31 45 53`,
/// then per application `Application 314553 File IDs: 07 …` and per file, its id in decimal,
/// `Application 314553 File 7 Type: 00`, `… Access Rights: 31 E3` (the wire's two bytes),
/// `… Size: 16` (data files; record files: the record size, with `… Max:` and `… Cur:`) and
/// `Application 314553 File 7: <bytes>` (the contents the Flipper could read: none for a locked
/// file; a value file's 4 bytes little-endian). The card image answers as the card: files the
/// dump holds no data for answer `91 AE`, as the card did to the Flipper.
enum FlipperDESFireDump {
    /// The `Device type:` line is in the file's header (its third line): only the first lines are
    /// looked at, so a huge FeliCa dump costs no further pass.
    static func isDESFire(_ text: String) -> Bool {
        // The first lines only, walked by hand: `split(maxSplits:)` over the whole text cost a
        // 100,000-line FeliCa dump seconds of CPU in a debug build (FlipperDumpTests).
        let bytes = text.utf8
        var start = bytes.startIndex, lines = 0
        while lines < headerLines, start < bytes.endIndex {
            let end = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.endIndex
            let line = bytes[start ..< end]
            if !line.isEmpty { // empty lines are not counted, as split omitted them
                lines += 1
                if line.starts(with: "Device type:".utf8), String(decoding: line, as: UTF8.self).contains("Mifare DESFire") { return true }
            }
            start = end == bytes.endIndex ? end : bytes.index(after: end)
        }
        return false
    }
    static let headerLines = 16

    static func parse(_ text: String) throws -> CardImage {
        // `Key: value` lines over the UTF-8 bytes (DumpLines): trimming a String's Characters one at
        // a time made a line of 40,000 blanks cost seconds (issue 45).
        var values = [String: String]()
        for line in DumpLines.of(text) where line.first != UInt8(ascii: "#") {
            guard let (key, value) = DumpLines.keyValue(line) else { continue }
            values[DumpLines.string(key)] = DumpLines.string(value)
        }
        guard let uid = values["UID"].map({ $0.replacingSpaces() }), !uid.isEmpty else { throw CardImageError(L10n.words("Flipper DESFire dump without a UID")) }
        let aids = try hexBytes(values["Application IDs"] ?? "", L10n.Words("Application IDs"))
        guard aids.count % 3 == 0 else { throw CardImageError(L10n.words("%1$s: application IDs of %2$s bytes", L10n.words("Flipper DESFire dump"), .init("\(aids.count)"))) }
        var applications = [CardImage.DESFireApplicationImage]()
        for start in stride(from: 0, to: aids.count, by: 3) {
            let aid = HexFormat.string(Array(aids[start ..< start + 3]))
            let prefix = "Application \(aid.lowercased())"
            let ids = try hexBytes(values["\(prefix) File IDs"] ?? "", L10n.words("file IDs"))
            var files = [CardImage.DESFireFileImage]()
            for id in ids {
                let file = "\(prefix) File \(id)"
                guard let typeText = values["\(file) Type"], let type = try hexBytes(typeText, L10n.words("file type")).first else { continue }
                let access = try hexBytes(values["\(file) Access Rights"] ?? "", L10n.words("access rights"))
                guard access.count == 2 else { throw CardImageError(L10n.words("%1$s: access rights of %2$s", L10n.words("Flipper DESFire dump"), .init(CardImageError.quote(file)))) }
                let data = try values[file].map { try hexBytes($0, L10n.words("file data")) }
                // A file the Flipper could not read is locked: its Read and Read&Write keys become key 0.
                let readWrite: UInt8 = access[0] >> 4 == 0xE ? access[0] & 0x0F : access[0]
                let rights: [UInt8] = data == nil ? [readWrite, access[1] & 0x0F] : access
                var image = CardImage.DESFireFileImage(id: HexFormat.string([id]), type: "standard", access: HexFormat.string(rights))
                switch type {
                case 0x00, 0x01:
                    image.type = type == 0 ? "standard" : "backup"
                    image.data = HexFormat.string(data ?? [])
                case 0x02:
                    image.type = "value"
                    if let d = data, d.count == 4 { image.value = Int32(bitPattern: UInt32(d[0]) | UInt32(d[1]) << 8 | UInt32(d[2]) << 16 | UInt32(d[3]) << 24) }
                case 0x03, 0x04:
                    image.type = type == 3 ? "linear-record" : "cyclic-record"
                    guard let size = values["\(file) Size"].flatMap({ Int($0) }), size > 0, size <= 1 << 16 else {
                        throw CardImageError(L10n.words("%1$s: record size of %2$s", L10n.words("Flipper DESFire dump"), .init(CardImageError.quote(file))))
                    }
                    let bytes = data ?? []
                    image.recordSize = size
                    image.maxRecords = values["\(file) Max"].flatMap { Int($0) }
                    // The Flipper keeps what Read Records answered, oldest first (NXP's datasheet); an
                    // image lists records newest first.
                    image.records = Array(stride(from: 0, to: bytes.count - bytes.count % size, by: size).map { HexFormat.string(Array(bytes[$0 ..< $0 + size])) }.reversed())
                default:
                    continue
                }
                files.append(image)
            }
            applications.append(.init(aid: aid, files: files))
        }
        return CardImage(description: "Flipper Zero MIFARE DESFire dump",
                         iso7816: .init(uid: uid, historicalBytes: values["T1...Tk"]?.replacingSpaces(), applications: [],
                                        desfire: .init(applications: applications)))
    }

    private static func hexBytes(_ s: String, _ what: L10n.Words) throws -> [UInt8] {
        guard let b = HexFormat.bytes(s, ignoringSpaces: true) else {
            throw CardImageError(L10n.words("%1$s: unreadable %2$s %3$s", L10n.words("Flipper DESFire dump"), what, .init(CardImageError.quote(s))))
        }
        return b
    }
}

private extension StringProtocol {
    func replacingSpaces() -> String { String(filter { $0 != " " }) }
}
