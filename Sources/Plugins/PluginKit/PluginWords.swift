/// A family's human words marked for its own catalog (docs/ABI.md, "A family's words in other
/// languages"): a plugin writes English, the host translates it at display time in the text domain
/// `transit-<family>` (`po/plugins/<family>/`), and JSON and the exports keep the English.
///
/// `mark` returns its msgid unchanged: it only tells scripts/extract-pot.py that the literal is a
/// msgid of `family`'s catalog. A plain literal (a `StaticString`, no interpolation): words built
/// around a value are written with `%1$s` where the pass's tariff or zones go, and `fill` puts the
/// value in (`"Troika ticket %1$s"`): the host finds the msgid again by putting `%1$s` back in the
/// tariff's or the zones' place.
public enum PluginWords {
    /// `msgid`, marked as a word of `family`'s catalog.
    public static func mark(_ msgid: StaticString, in family: StaticString) -> String { msgid.description }

    /// `format` with `%1$s` replaced by `value` (the pass's tariff or zones).
    public static func fill(_ format: String, _ value: String) -> String {
        guard let at = format.firstRange(of: "%1$s") else { return format }
        var out = format
        out.replaceSubrange(at, with: value)
        return out
    }
}
