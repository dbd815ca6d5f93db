/// Answers APDUs from a card image: SELECT commands enter applications, then each application
/// answers its listed commands and its record and binary files. Unknown SELECTs answer 6A82 (file
/// not found), READ RECORD past the last record 6A83, unknown commands 6D00 (ISO 7816-4 status words).
struct ISO7816Emulator {
    private struct Application {
        let select: [UInt8]
        let answer: [UInt8]
        let commands: [[UInt8]: [UInt8]]
        let records: [UInt8: [[UInt8]]]
        let binaries: [UInt8: [UInt8]]
    }

    private let applications: [Application]
    private let global: [[UInt8]: [UInt8]]
    private var selected: Int?

    init(_ image: CardImage.ISO7816Image) throws {
        applications = try image.applications.map { app in
            Application(select: try HexText.bytes(app.select), answer: try HexText.bytes(app.answer ?? "9000"),
                        commands: try Self.table(app.commands),
                        records: try Self.files(app.records ?? [:]) { try $0.map(HexText.bytes) },
                        binaries: try Self.files(app.binaries ?? [:], HexText.bytes))
        }
        global = try Self.table(image.commands ?? [:])
    }

    mutating func answer(_ apdu: [UInt8]) -> [UInt8] {
        if apdu.count >= 2, apdu[0] == 0x00, apdu[1] == 0xA4 {
            guard let index = applications.firstIndex(where: { $0.select == apdu }) else { return [0x6A, 0x82] }
            let answer = applications[index].answer
            if answer.suffix(2) == [0x90, 0x00] { selected = index }
            return answer
        }
        if let selected {
            let app = applications[selected]
            if let a = app.commands[apdu] { return a }
            if let a = Self.readFile(apdu, app) { return a }
        }
        return global[apdu] ?? [0x6D, 0x00]
    }

    /// READ RECORD `00 B2 n (sfi<<3|4) Le` and READ BINARY `00 B0 (80|sfi) offset Le`.
    private static func readFile(_ apdu: [UInt8], _ app: Application) -> [UInt8]? {
        guard apdu.count == 5, apdu[0] == 0x00 else { return nil }
        let le = Int(apdu[4])
        func sized(_ data: [UInt8]) -> [UInt8] {
            if le != 0, le < data.count { return [0x6C, UInt8(data.count & 0xFF)] } // wrong length: the right Le
            return data + [0x90, 0x00]
        }
        switch apdu[1] {
        case 0xB2 where apdu[3] & 0x07 == 0x04:
            guard let file = app.records[apdu[3] >> 3] else { return [0x6A, 0x82] }
            let n = Int(apdu[2])
            guard n >= 1, n <= file.count else { return [0x6A, 0x83] }
            return sized(file[n - 1])
        case 0xB0 where apdu[2] & 0x80 != 0:
            guard let file = app.binaries[apdu[2] & 0x1F] else { return [0x6A, 0x82] }
            let offset = Int(apdu[3])
            guard offset <= file.count else { return [0x6B, 0x00] }
            let rest = Array(file[offset...])
            return le == 0 ? rest + [0x90, 0x00] : Array(rest.prefix(le)) + [0x90, 0x00]
        default:
            return nil
        }
    }

    private static func table(_ t: [String: String]) throws -> [[UInt8]: [UInt8]] {
        var out = [[UInt8]: [UInt8]]()
        for (k, v) in t { out[try HexText.bytes(k)] = try HexText.bytes(v) }
        return out
    }

    /// Files keyed by two-hex-digit SFI, their contents converted.
    private static func files<T, U>(_ t: [String: T], _ convert: (T) throws -> U) throws -> [UInt8: U] {
        try t.reduce(into: [:]) { out, item in out[try sfi(item.key)] = try convert(item.value) }
    }

    private static func sfi(_ key: String) throws -> UInt8 {
        let b = try HexText.bytes(key)
        guard b.count == 1, b[0] >= 1, b[0] <= 30 else { throw CardImageError("SFI \(CardImageError.quote(key)) is not two hex digits 01–1E") }
        return b[0]
    }
}
