import CardProtocol
import TransitModel

/// A MIFARE Classic key dictionary, the text format MIFARE Classic Tool's `.keys`, Proxmark3's
/// `.dic` and the Flipper Zero's `mf_classic_dict*.nfc` share: one key a line as 12 hex digits
/// (either case), `#` beginning a comment (a whole line or the rest of one), blank lines, LF or CRLF
/// line ends. Anything else on a line is an error that names the file and the line number and never
/// shows the line: a mistyped key is still most of a key.
package enum ClassicKeyDictionary {
    /// The largest dictionary read: Proxmark3's and Flipper's own are about 20-70 KiB (a few
    /// thousand keys); 1 MiB holds 80,659 lines of 13 bytes (12 digits and LF).
    package static let sizeLimit = 1 << 20
    /// The most keys one read may hold in all, every file's together (`ClassicKeyFiles`).
    package static let keyLimit = 100_000

    /// The keys of `bytes`, the text of the file at `path`, in file order, each named "NAME line N"
    /// by the file's base name (what `--verbose` may say of a key); errors name `path` as given.
    /// Duplicates are kept: the ring (`ClassicKeyRing`) drops them.
    package static func parse(_ bytes: [UInt8], path: String) throws(TransitError) -> [ClassicKeyRing.Key] {
        let name = baseName(path)
        guard bytes.count <= sizeLimit else {
            throw TransitError(.config, L10n.words("%1$s is larger than %2$s MiB: a key file holds one 12-digit key a line", .init(path), .init(String(sizeLimit >> 20))))
        }
        var keys = [ClassicKeyRing.Key]()
        var lineNumber = 0
        for raw in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            lineNumber += 1
            var line = Array(raw)
            // A UTF-8 byte order mark, which some Windows editors write first.
            if lineNumber == 1, line.starts(with: [0xEF, 0xBB, 0xBF]) { line.removeFirst(3) }
            if let hash = line.firstIndex(of: UInt8(ascii: "#")) { line.removeSubrange(hash...) }
            let word = line.drop { isBlank($0) }.reversed().drop { isBlank($0) }.reversed()
            guard !word.isEmpty else { continue }
            guard word.count == 12, let key = HexFormat.bytes(String(decoding: word, as: UTF8.self)), key.count == 6 else {
                // The line is never quoted, not even in part: it may be a key with a typo.
                throw TransitError(.config, L10n.words("""
                    %1$s line %2$s is not a key: a key is 12 hex digits, alone on its line, and # begins a comment \
                    (the line is not shown: it may hold a key)
                    """, .init(path), .init(String(lineNumber))))
            }
            keys.append(ClassicKeyRing.Key(key, source: "\(name) line \(lineNumber)"))
        }
        return keys
    }

    /// `keys.dic` of `/home/ana/keys.dic`.
    package static func baseName(_ path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }

    /// Space, tab and the CR of a CRLF line end.
    private static func isBlank(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r")
    }
}
