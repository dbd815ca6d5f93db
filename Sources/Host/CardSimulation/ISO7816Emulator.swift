import TransitModel
/// Answers APDUs from a card image: SELECT commands enter applications, then each application
/// answers its listed commands and its record and binary files; SELECT of the MF (3F00) goes back to
/// the image's own commands, where the card starts. Unknown SELECTs answer 6A82 (file not found),
/// READ RECORD past the last record 6A83, unknown commands 6D00 (ISO 7816-4 status words).
/// A card that takes one class byte only (`onlyClass`, Calypso's 94) answers 6E00 (class not
/// supported) to any other and reads its image's commands with that class in place of 00.
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
    private let quirks: RecordQuirks
    private let onlyClass: UInt8?
    private var selected: Int?
    /// SELECT of the MF by file identifier: `00 A4 00 00 02 3F 00`.
    private static let selectMF: [UInt8] = [0x00, 0xA4, 0x00, 0x00, 0x02, 0x3F, 0x00]

    /// How the card answers READ RECORD beyond ISO 7816-4's one record.
    struct RecordQuirks {
        /// P2 = SFI·8+5 reads every record from P1 (Calypso); else it answers 6A86.
        var multipleRecords = true
        /// An empty 9000 to a READ RECORD with Le 00 (docs/research/calypso-desfire-china.md §"Calypso reading", Proxmark3 PR #3446).
        var emptyAnswerToLeZero = false
    }

    init(_ image: CardImage.ISO7816Image) throws {
        applications = try image.applications.map { app in
            Application(select: try HexText.bytes(app.select), answer: try HexText.bytes(app.answer ?? "9000"),
                        commands: try Self.table(app.commands),
                        records: try Self.files(app.records ?? [:]) { try $0.map(HexText.bytes) },
                        binaries: try Self.files(app.binaries ?? [:], HexText.bytes))
        }
        global = try Self.table(image.commands ?? [:])
        quirks = RecordQuirks(multipleRecords: image.multipleRecordReads ?? true, emptyAnswerToLeZero: image.emptyAnswerToLeZero ?? false)
        onlyClass = try image.onlyClass.map { text in
            let b = try HexText.bytes(text)
            guard b.count == 1 else { throw CardImageError(L10n.words("onlyClass %1$s is not one byte in hex", .init(CardImageError.quote(text)))) }
            return b[0]
        }
    }

    mutating func answer(_ command: [UInt8]) -> [UInt8] {
        var apdu = command
        if let onlyClass, !apdu.isEmpty {
            guard apdu[0] == onlyClass else { return [0x6E, 0x00] }
            apdu[0] = 0x00
        }
        if apdu.count >= 2, apdu[0] == 0x00, apdu[1] == 0xA4 {
            guard let index = applications.firstIndex(where: { $0.select == apdu }) else {
                // The MF, by its reserved identifier 3F00 (ISO/IEC 7816-4, 5.1.1), is where the card
                // starts: the image's own commands are its files. Selecting it leaves any application.
                if apdu == Self.selectMF || apdu == Self.selectMF + [0x00] { selected = nil; return [0x90, 0x00] }
                return [0x6A, 0x82]
            }
            let answer = applications[index].answer
            if answer.suffix(2) == [0x90, 0x00] { selected = index }
            return answer
        }
        if let selected {
            let app = applications[selected]
            if let a = app.commands[apdu] { return a }
            if let a = Self.readFile(apdu, app, quirks) { return a }
        }
        return global[apdu] ?? [0x6D, 0x00]
    }

    /// READ RECORD `00 B2 n (sfi<<3|4) Le` (one record) and `00 B2 n (sfi<<3|5) Le` (every record
    /// from n, Calypso), and READ BINARY `00 B0 (80|sfi) offset Le`.
    private static func readFile(_ apdu: [UInt8], _ app: Application, _ quirks: RecordQuirks) -> [UInt8]? {
        guard apdu.count == 5, apdu[0] == 0x00 else { return nil }
        let le = Int(apdu[4])
        func sized(_ data: [UInt8]) -> [UInt8] {
            if le != 0, le < data.count { return [0x6C, UInt8(data.count & 0xFF)] } // wrong length: the right Le
            return data + [0x90, 0x00]
        }
        switch apdu[1] {
        case 0xB2 where apdu[3] & 0x07 == 0x04 || apdu[3] & 0x07 == 0x05:
            let all = apdu[3] & 0x07 == 0x05
            if all, !quirks.multipleRecords { return [0x6A, 0x86] } // incorrect P1-P2
            guard let file = app.records[apdu[3] >> 3] else { return [0x6A, 0x82] }
            let n = Int(apdu[2])
            guard n >= 1, n <= file.count else { return [0x6A, 0x83] }
            if le == 0, quirks.emptyAnswerToLeZero { return [0x90, 0x00] }
            return all ? records(file[(n - 1)...], le: le) : sized(file[n - 1])
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

    /// Calypso's multi-record answer: each record as its number, its length and its bytes, as many
    /// whole records from the first as fit in Le (00: 256 bytes, ISO 7816-4's short Le). The format:
    /// Eclipse Keyple, keyple-card-calypso-java-lib `CmdCardReadRecords.parseResponse` (record
    /// number byte, length byte, data, repeated).
    private static func records(_ file: ArraySlice<[UInt8]>, le: Int) -> [UInt8] {
        let room = le == 0 ? 256 : le
        var out = [UInt8]()
        var number = UInt8(file.startIndex + 1)
        for record in file {
            guard out.count + 2 + record.count <= room else { break }
            out += [number, UInt8(record.count & 0xFF)] + record
            number &+= 1
        }
        // Not even the first record fits: the Le that would hold it.
        guard !out.isEmpty else { return [0x6C, UInt8(((file.first?.count ?? 0) + 2) & 0xFF)] }
        return out + [0x90, 0x00]
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
        guard b.count == 1, b[0] >= 1, b[0] <= 30 else { throw CardImageError(L10n.words("SFI %1$s is not two hex digits 01–1E", .init(CardImageError.quote(key)))) }
        return b[0]
    }
}
