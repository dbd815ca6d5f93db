/// MIFARE Classic helpers shared by the Classic families: a sector's bytes with their size checked,
/// and the key digests a family ships plus those a deployment adds in plugins.conf.
extension CardLink {
    /// The sector's data blocks (the trailer left out) as bounds-checked bytes, or nil when no key
    /// opens it. A sector shorter than its 3 (or, for 4K sectors 32–39, 15) data blocks is a
    /// malformed answer.
    public func classicSectorBytes(_ sector: Int) throws -> Bytes? {
        guard let raw = try classicSector(sector) else { return nil }
        let expected = sector < 32 ? 48 : 240
        guard raw.count >= expected else {
            throw PluginError.malformedResponse("MIFARE Classic sector \(sector) of \(raw.count) bytes (\(expected) expected)")
        }
        return Bytes(raw)
    }

    /// The shipped key digests plus the valid ones in the `option` (comma-separated, 32 hex digits
    /// each, any case); a malformed entry is logged as a warning and skipped.
    public func classicKeyDigests(shipped: [String], option: String = PluginOption.keyDigests.name) -> [String] {
        guard let text = self.option(option) else { return shipped }
        var digests = shipped
        for entry in text.split(separator: ",") {
            let digest = entry.trimmingSpaces.lowercased()
            guard digest.count == 32, digest.allSatisfy({ $0.isHexDigit }) else {
                log("\(option): skipped an entry that is not 32 hex digits", level: .warning)
                continue
            }
            if !digests.contains(digest) { digests.append(digest) }
        }
        return digests
    }
}

extension PluginOption {
    /// `key-digests`: comma-separated 32-hex-digit digests (lowercase hex MD5 of salt ‖ key ‖ salt)
    /// added to those a family ships, so a deployment whose city issued cards with new keys names
    /// them without a rebuild (`classicKeyDigests`). A malformed entry is skipped with a warning
    /// that does not repeat it: a key pasted by mistake stays out of the log.
    public static let keyDigests = PluginOption("key-digests", .text)
}

extension Bytes {
    /// Block `index` (16 bytes) of a sector's bytes.
    public func block(_ index: Int) throws -> Bytes { try slice(index * 16, 16) }

    /// True when every byte is zero.
    public var isAllZero: Bool { storage.allSatisfy { $0 == 0 } }
}

private extension Substring {
    var trimmingSpaces: Substring {
        var s = self
        while let f = s.first, f == " " || f == "\t" || f == "\n" { s = s.dropFirst() }
        while let l = s.last, l == " " || l == "\t" || l == "\n" { s = s.dropLast() }
        return s
    }
}
