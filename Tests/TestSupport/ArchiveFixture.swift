import CardSimulation
import Foundation

/// A private history archive for one test: its own XDG_DATA_HOME and XDG_CONFIG_HOME in a
/// temporary folder, so no test touches the developer's archive or transit.conf.
public struct ArchiveFixture: Sendable {
    public let directory: URL
    public var dataHome: URL { directory.appendingPathComponent("data") }
    public var configHome: URL { directory.appendingPathComponent("config") }
    public var folder: URL { dataHome.appendingPathComponent("transit") }
    public var database: String { folder.appendingPathComponent("history.db").path }
    public var environment: [String: String] {
        var env = ProcessInfo.processInfo.environment
        env["XDG_DATA_HOME"] = dataHome.path
        env["XDG_CONFIG_HOME"] = configHome.path
        return env
    }

    public init() { directory = temporaryDirectory() }

    public func remove() { try? FileManager.default.removeItem(at: directory) }

    /// Runs the built `transit` against this archive (`extra`: more of the environment, e.g. LANG).
    public func transit(_ arguments: [String], _ extra: [String: String] = [:]) throws -> CommandRun {
        try CommandRun.transit(arguments, environment: environment.merging(extra) { $1 })
    }

    /// `transit scan --card FILE` (saved unless `extra` says --no-save).
    public func scan(_ card: String, _ extra: [String] = []) throws -> CommandRun {
        try transit(["scan", "--card", card] + extra)
    }

    /// `transit history [CARD] --json`: each card's transactions, oldest first.
    public func history(_ card: String? = nil) throws -> [[String: Any]] {
        let run = try transit(["history", "--json"] + (card.map { [$0] } ?? []))
        return (try? JSONSerialization.jsonObject(with: Data(run.stdout.utf8))) as? [[String: Any]] ?? []
    }

    /// Writes transit.conf with `text`.
    public func configure(_ text: String) throws {
        let folder = configHome.appendingPathComponent("transit")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try text.write(to: folder.appendingPathComponent("transit.conf"), atomically: true, encoding: .utf8)
    }

    /// Runs SQL through python3's sqlite3 module (an independent client) and returns its rows. A
    /// database it creates is made 0600, as transit makes its own (transit refuses a looser one).
    public func sql(_ statement: String) throws -> String {
        let existed = FileManager.default.fileExists(atPath: database)
        let script = "import sqlite3,sys\nc=sqlite3.connect(sys.argv[1])\nfor r in c.execute(sys.argv[2]): print('|'.join(map(str,r)))\nc.commit()"
        let out = try CommandRun.run("/usr/bin/python3", ["-c", script, database, statement]).stdout
        if !existed { chmod(database, 0o600) }
        return out
    }

    /// The archive's folder, made as transit makes it: 0700, its parents too.
    public func makeFolder() throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        chmod(dataHome.path, 0o700)
    }
}

/// Japan IC history records (16 bytes, hex) with the fields the archive's tests vary.
public enum JapanICRecords {
    /// A rail trip on 2026-`month`-`day` numbered `sequence` (bytes 13–14), leaving `balance`.
    public static func trip(sequence: Int, month: Int = 10, day: Int, balance: Int, entry: UInt16 = 0xE33B, exit: UInt16 = 0xE621) -> String {
        let date = (2026 - 2000) << 9 | month << 5 | day
        let bytes: [Int] = [0x16, 0x01, 0, 0, date >> 8, date & 0xFF, Int(entry >> 8), Int(entry & 0xFF), Int(exit >> 8), Int(exit & 0xFF),
                            balance & 0xFF, balance >> 8 & 0xFF, 0, sequence >> 8 & 0xFF, sequence & 0xFF, 0x90]
        return bytes.map { String(format: "%02X", $0) }.joined()
    }

    /// A 20-slot card whose ring holds the records numbered `numbers` (newest first), 10 yen a
    /// trip from 5000; record n is dated from its number so every record is distinct.
    public static func card(numbers: [Int], idm: String = "0114AABBCCDDEEFF") -> CardImage {
        let history = numbers.map { n in trip(sequence: n, month: 1 + n / 28 % 12, day: 1 + n % 28, balance: 5000 - 10 * n) }
        var image = CardImages.japanIC(history: history, balance: 5000 - 10 * (numbers.first ?? 0))
        image.felica?.idm = idm
        return image
    }

    /// `image` with its 090F ring moved on by `count` records: new records numbered after the
    /// newest (copies of it with their own number and balance), the oldest dropped.
    public static func movedOn(_ image: CardImage, by count: Int) -> CardImage {
        var image = image
        guard var f = image.felica, let s = f.systems.firstIndex(where: { $0.services["090F"] != nil }),
              let ring = f.systems[s].services["090F"], let newest = ring.first.map(bytes) else { return image }
        let number = Int(newest[13]) << 8 | Int(newest[14]), balance = Int(newest[10]) | Int(newest[11]) << 8
        let added = (1 ... count).reversed().map { k -> String in
            var b = newest
            b[10] = UInt8((balance - 10 * k) & 0xFF); b[11] = UInt8((balance - 10 * k) >> 8 & 0xFF)
            b[13] = UInt8((number + k) >> 8 & 0xFF); b[14] = UInt8((number + k) & 0xFF)
            return b.map { String(format: "%02X", $0) }.joined()
        }
        f.systems[s].services["090F"] = Array((added + ring).prefix(ring.count))
        // The purse (008B bytes 11–12, little-endian) agrees with the newest record.
        if var purse = f.systems[s].services["008B"]?.first.map(bytes), purse.count == 16 {
            purse[11] = UInt8((balance - 10 * count) & 0xFF); purse[12] = UInt8((balance - 10 * count) >> 8 & 0xFF)
            f.systems[s].services["008B"] = [purse.map { String(format: "%02X", $0) }.joined()]
        }
        image.felica = f
        return image
    }

    private static func bytes(_ hex: String) -> [UInt8] {
        var out = [UInt8](), chars = Array(hex)
        var i = 0
        while i + 1 < chars.count { out.append(UInt8(String(chars[i ... i + 1]), radix: 16) ?? 0); i += 2 }
        return out
    }
}
