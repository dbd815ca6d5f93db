import CardSimulation
import Foundation

/// An archive filled for `transit report` the honest way: card images read by `transit scan --card`
/// — a Japan IC card of 40 numbered records (October and November 2026) read three times past its
/// 20 slots, and an EZ-Link whose log crosses midnight into November in Singapore time — with a
/// station table whose names are hostile. Every expected figure is computed here from the records
/// written, never from `report`'s own output.
public struct ReportFixture {
    public let archive: ArchiveFixture
    public let stations: String

    /// One record written to a card, as the card holds it.
    public struct Written: Sendable {
        public var sequence: Int
        public var kind: String // trip, topup, purchase
        public var year = 2026, month: Int, day: Int
        public var time: String? // HH:MM:SS where the card stores one
        public var balance: Int? // the balance after it (CEPAS stores none)
        /// The amount a report can know: nil for the first read's oldest record.
        public var amount: Int?
        public var memo: String // what SFCard Viewer notes (Japan IC)
        public var stations: Bool
        public var dayText: String { String(format: "%04d-%02d-%02d", year, month, day) }

        public init(sequence: Int, kind: String, month: Int, day: Int, time: String? = nil, balance: Int? = nil, amount: Int? = nil,
                    memo: String, stations: Bool) {
            self.sequence = sequence; self.kind = kind; self.month = month; self.day = day; self.time = time
            self.balance = balance; self.amount = amount; self.memo = memo; self.stations = stations
        }
    }

    /// The Japan IC card's records, oldest first.
    public static let suica: [Written] = {
        var out = [Written](), balance = 10_000
        for n in 1 ... 40 {
            let (month, day) = n <= 24 ? (10, n) : (11, n - 24)
            var w = Written(sequence: n, kind: "trip", month: month, day: day, time: nil, balance: nil, amount: nil, memo: "", stations: true)
            switch n {
            case 30: w.kind = "topup"; w.memo = "ﾁｬｰｼﾞ"; w.stations = false; balance += 1000
            case 33: w.kind = "purchase"; w.memo = "物販"; w.stations = false; w.time = "13:45:00"; balance -= 150
            case 35: w.kind = "topup"; w.memo = "ｵｰﾄﾁｬｰｼﾞ"; balance += 2000
            case 37: w.memo = "ﾊﾞｽ/路面等"; w.stations = false; balance -= 220
            default: balance -= n % 2 == 0 ? 170 : 160
            }
            w.amount = n == 1 ? nil : abs(balance - (out.last?.balance ?? 10_000))
            w.balance = balance
            out.append(w)
        }
        return out
    }()

    /// The EZ-Link's records, oldest first (Singapore time): a top-up and a trip in October, a trip
    /// at 00:20 on 1 November, one on 2 November.
    public static let ezlink: [Written] = [
        Written(sequence: 1, kind: "topup", month: 10, day: 30, time: "12:00:00", amount: 2000, memo: "", stations: false),
        Written(sequence: 2, kind: "trip", month: 10, day: 31, time: "23:50:00", amount: 99, memo: "", stations: false),
        Written(sequence: 3, kind: "trip", month: 11, day: 1, time: "00:20:00", amount: 128, memo: "", stations: false),
        Written(sequence: 4, kind: "trip", month: 11, day: 2, time: "08:00:00", amount: 110, memo: "", stations: false),
    ]

    /// The hostile names of the station table (entry E33B in area 2, exit E621 in area 1).
    public static let entryName = "<img src=x onerror=alert(1)>"
    public static let exitName = "=HYPERLINK(\"http://example.invalid\")"
    public static let operatorName = "ＪＲ東"

    public init() throws {
        archive = ArchiveFixture()
        let dir = archive.directory
        stations = dir.appendingPathComponent("stations.csv").path
        try "area,line,station,operator,line_name,station_name\n2,E3,3B,\(Self.operatorName),Line,\(Self.entryName)\n1,E6,21,\(Self.operatorName),Line,\"=HYPERLINK(\"\"http://example.invalid\"\")\"\n"
            .write(toFile: stations, atomically: true, encoding: .utf8)
        // Three reads of the ring: records 1–20, 11–30, 21–40 (newest first in the slots).
        for (i, last) in [20, 30, 40].enumerated() {
            let ring = Self.suica.filter { $0.sequence > last - 20 && $0.sequence <= last }.reversed().map(Self.block)
            var image = CardImages.japanIC(history: Array(ring), balance: Self.suica[last - 1].balance ?? 0)
            image.felica?.idm = "0114AABBCCDDEEFF"
            let path = try CardImages.write(image, in: dir, name: "suica-\(i).json")
            let run = try archive.scan(path, ["--config", "plugins.conf"])
            guard run.status == 0 else { throw CardImageError("scan of \(path): \(run.stderr)") }
        }
        var ezlink = try CardImages.sample("ezlink.json")
        let log = Self.ezlink.reversed().map(Self.cepasRecord).joined() + "9000"
        ezlink.editApplication(select: "00A40000024000") { $0.commands["90320300010000"] = log }
        let path = try CardImages.write(ezlink, in: dir, name: "ezlink.json")
        let run = try archive.scan(path, ["--config", "plugins.conf"])
        guard run.status == 0 else { throw CardImageError("scan of \(path): \(run.stderr)") }
    }

    public func remove() { archive.remove() }

    /// A Japan IC history block (the layout of JapanICHistory's comment): console, process, date,
    /// stations (or a time, or a bus line and stop), balance little-endian, sequence, regions.
    public static func block(_ w: Written) -> String {
        let (console, process): (Int, Int) = switch w.memo {
        case "ﾁｬｰｼﾞ": (0x08, 0x02)
        case "物販": (0xC8, 0x46)
        case "ｵｰﾄﾁｬｰｼﾞ": (0x16, 0x15)
        case "ﾊﾞｽ/路面等": (0x05, 0x0D)
        default: (0x16, 0x01)
        }
        let date = (w.year - 2000) << 9 | w.month << 5 | w.day
        var middle = [0xE3, 0x3B, 0xE6, 0x21]
        if w.memo == "物販" { let t = 13 << 11 | 45 << 5; middle = [t >> 8, t & 0xFF, 0x12, 0x34] }
        if w.memo == "ﾊﾞｽ/路面等" { middle = [0x0A, 0x12, 0x34, 0x56] }
        if w.memo == "ﾁｬｰｼﾞ" { middle = [0, 0, 0, 0] }
        let balance = w.balance ?? 0
        let bytes = [console, process, 0, 0, date >> 8, date & 0xFF] + middle
            + [balance & 0xFF, balance >> 8 & 0xFF, 0, w.sequence >> 8, w.sequence & 0xFF, 0x90]
        return bytes.map { String(format: "%02X", $0) }.joined()
    }

    /// A CEPAS log record: type, signed amount in cents (3 bytes), seconds since 1995-01-01 in
    /// Singapore time (4 bytes), 8 bytes of user data.
    public static func cepasRecord(_ w: Written) -> String {
        let type = w.kind == "topup" ? 0x75 : 0x30
        let amount = (w.kind == "topup" ? 1 : -1) * (w.amount ?? 0) & 0xFF_FFFF
        let parts = (w.time ?? "00:00:00").split(separator: ":").compactMap { Int($0) }
        let days = daysFrom1995(w.year, w.month, w.day)
        let seconds = days * 86_400 + parts[0] * 3600 + parts[1] * 60 + parts[2]
        let bytes = [type, amount >> 16, amount >> 8 & 0xFF, amount & 0xFF,
                     seconds >> 24 & 0xFF, seconds >> 16 & 0xFF, seconds >> 8 & 0xFF, seconds & 0xFF] + Array("TRIP    ".utf8).map(Int.init)
        return bytes.map { String(format: "%02X", $0) }.joined()
    }

    private static func daysFrom1995(_ y: Int, _ m: Int, _ d: Int) -> Int {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        let start = calendar.date(from: DateComponents(year: 1995, month: 1, day: 1)) ?? Date()
        let day = calendar.date(from: DateComponents(year: y, month: m, day: d)) ?? Date()
        return Int((day.timeIntervalSince(start) / 86_400).rounded())
    }
}
