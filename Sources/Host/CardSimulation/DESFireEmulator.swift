import TransitModel
/// Answers the ISO-wrapped MIFARE DESFire native commands (`90 INS 00 00 [Lc data] 00`) from a card
/// image, as the DESFire EV1 command set describes them (Metrodroid DesfireProtocol, the HSL API
/// document's exchanges): Get Version (60), Get Application IDs (6A), Select Application (5A), Get
/// File IDs (6F), Get File Settings (F5), Read Data (BD), Read Records (BB), Get Value (6C), and
/// Additional Frame (AF) for answers longer than a frame. Statuses: 91 00 done, 91 AF more, 91 A0 no
/// such application, 91 F0 no such file, 91 AE a file whose read key is not free (no authentication
/// is ever made here), 91 BE past a file's end, 91 7E wrong length, 91 1C any other command (card-
/// changing ones included: the image never changes).
///
/// As NXP's DESFire EV1 datasheet has a card answer (issue 43): Read Data of a record file `91 7E`;
/// Read Records of a record file holding no records `91 BE` (boundary error); Read Records from
/// record `offset` (0 the newest) back `count` records (0: all from there), the records in the order
/// they were written, oldest first. The image lists records newest first.
struct DESFireEmulator {
    struct File {
        let type: UInt8
        let access: [UInt8]
        let data: [UInt8]
        let recordSize: Int
        let maxRecords: Int
        let records: [[UInt8]]
        let value: Int32

        var freeRead: Bool { access[0] >> 4 == 0xE || access[1] >> 4 == 0xE }
    }

    private let applications: [[UInt8]: [(id: UInt8, file: File)]]
    private let order: [[UInt8]]
    private let frameSize: Int
    private var selected: [UInt8] = [0, 0, 0]
    private var pending: [UInt8] = []

    static let types: [String: UInt8] = ["standard": 0, "backup": 1, "value": 2, "linear-record": 3, "cyclic-record": 4]

    init(_ image: CardImage.DESFireImage) throws {
        var apps = [[UInt8]: [(id: UInt8, file: File)]]()
        var order = [[UInt8]]()
        for app in image.applications {
            let aid = try HexText.bytes(app.aid)
            guard aid.count == 3 else { throw CardImageError(L10n.words("DESFire AID %1$s is not 3 bytes", .init(CardImageError.quote(app.aid)))) }
            guard apps[aid] == nil else { throw CardImageError(L10n.words("DESFire AID %1$s twice", .init(CardImageError.quote(app.aid)))) }
            apps[aid] = try app.files.map { f in
                let id = try HexText.bytes(f.id)
                guard id.count == 1, id[0] < 32 else { throw CardImageError(L10n.words("DESFire file id %1$s is not 00–1F", .init(CardImageError.quote(f.id)))) }
                guard let type = Self.types[f.type] else { throw CardImageError(L10n.words("DESFire file type %1$s", .init(CardImageError.quote(f.type)))) }
                let access = try HexText.bytes(f.access)
                guard access.count == 2 else { throw CardImageError(L10n.words("DESFire access rights %1$s are not 2 bytes", .init(CardImageError.quote(f.access)))) }
                let records = try (f.records ?? []).map(HexText.bytes)
                let size = f.recordSize ?? records.first?.count ?? 0
                guard records.allSatisfy({ $0.count == size }) else { throw CardImageError(L10n.words("DESFire file %1$s: records of other sizes than %2$s", .init(f.id), .init(String(size)))) }
                return (id[0], File(type: type, access: access, data: try f.data.map(HexText.bytes) ?? [], recordSize: size,
                                    maxRecords: max(f.maxRecords ?? records.count, records.count), records: records, value: f.value ?? 0))
            }
            order.append(aid)
        }
        applications = apps
        self.order = order
        frameSize = image.frameSize ?? 59
        guard (1 ... 250).contains(frameSize) else { throw CardImageError(L10n.words("DESFire frame size %1$s is not 1–250", .init(String(frameSize)))) }
    }

    /// The answer to a wrapped command, or nil when the APDU is not one (CLA other than 90).
    mutating func answer(_ apdu: [UInt8]) -> [UInt8]? {
        guard apdu.count >= 5, apdu[0] == 0x90, apdu[2] == 0, apdu[3] == 0 else { return nil }
        let data: [UInt8]
        if apdu.count == 5 { data = [] } else {
            let lc = Int(apdu[4])
            guard apdu.count == 6 + lc else { return [0x91, 0x7E] }
            data = Array(apdu[5 ..< 5 + lc])
        }
        if apdu[1] == 0xAF {
            guard !pending.isEmpty else { return [0x91, 0x1C] }
            return frame()
        }
        pending = []
        switch (apdu[1], data.count) {
        case (0x60, 0):
            // Hardware, software and production frames (DESFire EV1 Get Version: vendor 04 NXP).
            pending = [0x04, 0x01, 0x01, 0x01, 0x00, 0x18, 0x05, 0x04, 0x01, 0x01, 0x01, 0x04, 0x18, 0x05] + [UInt8](repeating: 0, count: 14)
            return frame(limit: 7)
        case (0x6A, 0):
            pending = order.flatMap { $0 }
            return frame()
        case (0x5A, 3):
            guard data == [0, 0, 0] || applications[data] != nil else { return [0x91, 0xA0] }
            selected = data
            return [0x91, 0x00]
        case (0x6F, 0):
            pending = (applications[selected] ?? []).map(\.id)
            return frame()
        case (0xF5, 1):
            guard let f = file(data[0]) else { return [0x91, 0xF0] }
            pending = settings(f)
            return frame()
        case (0xBD, 7), (0xBB, 7), (0x6C, 1):
            guard let f = file(data[0]) else { return [0x91, 0xF0] }
            guard f.freeRead else { return [0x91, 0xAE] }
            return read(apdu[1], f, data)
        default:
            return [0x91, 0x1C]
        }
    }

    private func file(_ id: UInt8) -> File? { applications[selected]?.first { $0.id == id }?.file }

    private mutating func read(_ ins: UInt8, _ f: File, _ data: [UInt8]) -> [UInt8] {
        func le3(_ at: Int) -> Int { Int(data[at]) | Int(data[at + 1]) << 8 | Int(data[at + 2]) << 16 }
        switch ins {
        case 0x6C:
            guard f.type == 2 else { return [0x91, 0x9E] }
            let v = UInt32(bitPattern: f.value)
            pending = [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 24)]
        case 0xBD:
            // Read Data of a record file: refused as a length error, as FareBot's published Clipper dump
            // and the datasheet have it (issue 43); of a value file: a parameter error.
            guard f.type <= 1 else { return [0x91, f.type >= 3 ? 0x7E : 0x9E] }
            let offset = le3(1), length = le3(4)
            guard offset <= f.data.count, length <= f.data.count - offset else { return [0x91, 0xBE] }
            pending = Array(f.data[offset ..< (length == 0 ? f.data.count : offset + length)])
        default:
            guard f.type >= 3 else { return [0x91, 0x9E] }
            let offset = le3(1), count = le3(4)
            // No record at `offset` (an empty file included) or fewer than `count` from it: boundary error.
            guard offset < f.records.count, count <= f.records.count - offset else { return [0x91, 0xBE] }
            let chosen = f.records.dropFirst(offset)
            // The image lists newest first; the card answers oldest first.
            pending = Array((count == 0 ? chosen : chosen.prefix(count)).reversed().joined())
        }
        return frame()
    }

    private func settings(_ f: File) -> [UInt8] {
        func le3(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v >> 16 & 0xFF)] }
        let head = [f.type, 0x00] + f.access
        switch f.type {
        case 0, 1: return head + le3(f.data.count)
        case 2: return head + [0, 0, 0, 0] + [0xFF, 0xFF, 0xFF, 0x7F] + [0, 0, 0, 0] + [0]
        default: return head + le3(f.recordSize) + le3(f.maxRecords) + le3(f.records.count)
        }
    }

    /// The next frame of the pending answer: `91 AF` while more follows.
    private mutating func frame(limit: Int? = nil) -> [UInt8] {
        let n = min(limit ?? frameSize, pending.count)
        let out = Array(pending.prefix(n))
        pending.removeFirst(n)
        return out + (pending.isEmpty ? [0x91, 0x00] : [0x91, 0xAF])
    }
}
