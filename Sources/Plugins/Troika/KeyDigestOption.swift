import PluginKit

/// The plugins.conf option `key-digests`: comma-separated 32-hex-digit digests (lowercase hex MD5
/// of salt ‖ key ‖ salt) added to the shipped ones, so a deployment whose city issued cards with
/// new keys names them without a rebuild. Entries that are not 32 hex digits are skipped with a
/// warning that does not repeat them (a key pasted by mistake stays out of the log).
enum KeyDigestOption {
    static let name = "key-digests"

    /// The shipped digests followed by the option's.
    static func digests(_ card: CardLink, shipped: [String]) -> [String] {
        guard let text = card.option(name) else { return shipped }
        var added = [String](), skipped = 0
        for entry in text.split(separator: ",") {
            let digest = String(entry.filter { $0 != " " && $0 != "\t" }).lowercased()
            if digest.count == 32 && digest.allSatisfy({ $0.isHexDigit }) { added.append(digest) } else { skipped += 1 }
        }
        if skipped > 0 { card.log("\(name): skipped \(skipped) entries that are not 32 hex digits", level: .warning) }
        return shipped + added
    }
}
