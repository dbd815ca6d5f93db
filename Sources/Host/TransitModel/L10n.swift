import CTransitShims
import Glibc

/// The words a person reads, in the language GNU gettext chose: the one place transit calls glibc's
/// gettext (docs/translating.md). Text domain `transit`, catalogs `<dir>/<lang>/LC_MESSAGES/transit.mo`
/// compiled from `po/` (scripts/build-locales.sh). The language follows LANGUAGE, LC_ALL,
/// LC_MESSAGES and LANG as every Debian program's does; a locale that is not installed is English.
///
/// Only plain literals are translated (`StaticString`: no interpolation, so `scripts/extract-pot.py`
/// finds every msgid); values go in as positional `%1$s`, `%2$s` (msgfmt --check holds a
/// translation to the same ones); `// TRANSLATORS:` above a call speaks to the translator.
/// Machine formats (JSON, CSV, ledger, OFX, SFCard) never go through here.
public enum L10n {
    public static let domain = "transit"

    /// The catalog's language ("ja"), or nil when gettext chose none (English): what station names,
    /// date style and `<html lang>` follow. Set once by `start`, before any thread or fork.
    // Safe: written once by `start`, first thing in main, before any other thread exists.
    public nonisolated(unsafe) private(set) static var language: String?

    /// The catalogs' folder `start` bound, where the plugins' domains are bound too (`plugin`).
    nonisolated(unsafe) private static var catalogs: String? // Safe: as `language`, written once by `start`.

    /// Called once, first thing in each executable's main: the messages' locale from the
    /// environment (LC_MESSAGES only: LC_ALL would fail as a whole when another category's locale
    /// is missing, and LC_NUMERIC or LC_TIME must never reach a machine format), the catalogs'
    /// folder, UTF-8 whatever LC_CTYPE says. The catalog is loaded here, so a forked plugin worker
    /// (which may open no file) has it too.
    public static func start(catalogs: String) {
        setlocale(LC_MESSAGES, "")
        self.catalogs = catalogs
        bindtextdomain(domain, catalogs)
        bind_textdomain_codeset(domain, "UTF-8")
        // libc's own messages (strerror) in UTF-8 too: LC_CTYPE stays C, which would make them "???".
        bind_textdomain_codeset("libc", "UTF-8")
        textdomain(domain)
        // The catalog's header (msgid ""), or "" itself when no catalog was found.
        let header = String(cString: gettext(""))
        language = header.split(separator: "\n").first { $0.hasPrefix("Language: ") }
            .map { String($0.dropFirst("Language: ".count).filter { $0 != " " }) }
            .flatMap { $0.isEmpty ? nil : $0 }
    }

    /// `msgid` in the chosen language, its `%1$s`… replaced by `values`.
    public static func tr(_ msgid: StaticString, _ values: String...) -> String {
        fill(translated(msgid.description), values)
    }

    /// `singular` or `plural` as the language counts `n` (Japanese has one form), `%1$s`… replaced.
    public static func trn(_ singular: StaticString, _ plural: StaticString, _ n: Int, _ values: String...) -> String {
        let one = singular.description, many = plural.description
        let said = one.withCString { s in many.withCString { p in String(cString: ngettext(s, p, UInt(clamping: n))) } }
        return fill(said, values)
    }

    /// A message in English and in the chosen language at once: an error's `message` stays English
    /// (JSON, logs and the worker's pipe carry it, as machine formats never change with the
    /// locale) and its `said` is what stderr shows.
    public struct Words: Sendable, Equatable {
        public var english: String
        public var said: String
        /// Words that are the same in every language: a reader's name, a plugin's text.
        public init(_ same: String) { english = same; said = same }
        public init(english: String, said: String) { self.english = english; self.said = said }
        public static func + (a: Words, b: Words) -> Words { Words(english: a.english + b.english, said: a.said + b.said) }
    }

    /// `msgid` filled with `values` in English and in the chosen language.
    public static func words(_ msgid: StaticString, _ values: Words...) -> Words {
        Words(english: fill(msgid.description, values.map(\.english)), said: fill(translated(msgid.description), values.map(\.said)))
    }

    /// The system's words for `errno` `code` ("No such file or directory"): English from the C
    /// locale, said as libc's catalog says it in the chosen language.
    public static func system(_ code: Int32) -> Words {
        Words(english: String(cString: transit_strerror_english(code)), said: String(cString: strerror(code)))
    }

    /// The system's name of `signal` ("Segmentation fault"): English, and as libc's catalog says it.
    public static func signal(_ number: Int32) -> Words {
        let english = transit_strsignal_english(number).map { String(cString: $0) } ?? "signal \(number)"
        return Words(english: english, said: strsignal(number).map { String(cString: $0) } ?? english)
    }

    /// `words` for a count: `singular` or `plural` as English counts `n` (the `message`), and as
    /// the chosen language does (`said`).
    public static func wordsn(_ singular: StaticString, _ plural: StaticString, _ n: Int, _ values: Words...) -> Words {
        let one = singular.description, many = plural.description
        let said = one.withCString { s in many.withCString { p in String(cString: ngettext(s, p, UInt(clamping: n))) } }
        return Words(english: fill(n == 1 ? one : many, values.map(\.english)), said: fill(said, values.map(\.said)))
    }

    /// A literal marked for the catalog where it is declared (an option's help), translated where
    /// it is shown (`translated`); the declaration keeps English, which the man page is written from.
    public static func mark(_ msgid: StaticString) -> String { msgid.description }

    /// A string marked with `mark`, in the chosen language.
    public static func translated(_ msgid: String) -> String {
        guard !msgid.isEmpty else { return msgid }
        return msgid.withCString { String(cString: gettext($0)) }
    }

    /// A marked string in the chosen language, `%1$s`… replaced by `values`.
    public static func translated(_ msgid: String, _ values: [String]) -> String {
        fill(translated(msgid), values)
    }

    /// The text domain of a family's words: `transit-<family>` (docs/ABI.md), the same rule for
    /// every family, named by none here.
    public static func pluginDomain(_ family: String) -> String { "transit-" + family }

    /// Words a plugin of `family` wrote (a pass's name, an event, a metadata value) in the chosen
    /// language, from the family's own catalog `<catalogs>/<lang>/LC_MESSAGES/transit-<family>.mo`
    /// (dgettext), for the text output only: JSON and the exports keep the plugin's English.
    /// `text` itself is the msgid; else, for each of `parts` (a pass's tariff, its zones: the
    /// fields a name is built from) that `text` holds, `text` with its last occurrence made `%1$s`
    /// ("Troika ticket %1$s", "eTicket for zones %1$s"), filled back with the part. Untranslated,
    /// or in English, `text` as the plugin wrote it.
    public static func plugin(_ text: String, family: String, parts: [String?] = []) -> String {
        guard language != nil, let catalogs, !text.isEmpty, !family.isEmpty else { return text }
        let name = pluginDomain(family)
        // Bound on every call: glibc changes nothing (and drops no cache) when the folder is the same.
        bindtextdomain(name, catalogs)
        bind_textdomain_codeset(name, "UTF-8")
        func look(_ msgid: String) -> String? {
            let said = msgid.withCString { String(cString: dgettext(name, $0)) }
            return said == msgid ? nil : said
        }
        if let said = look(text) { return said }
        for case let part? in parts where !part.isEmpty {
            guard let at = lastRange(of: part, in: text) else { continue }
            let template = String(text[..<at.lowerBound]) + "%1$s" + String(text[at.upperBound...])
            if let said = look(template) { return fill(said, [part]) }
        }
        return text
    }

    /// Where `part` last occurs in `text` (by Characters), or nil.
    private static func lastRange(of part: String, in text: String) -> Range<String.Index>? {
        var end = text.endIndex
        while true {
            let head = text[..<end]
            if head.hasSuffix(part) {
                let start = text.index(end, offsetBy: -part.count)
                return start ..< end
            }
            guard end > text.startIndex else { return nil }
            end = text.index(before: end)
        }
    }

    /// `%1$s`, `%2$s`… replaced by the values, `%%` by `%`; anything else stays as written.
    public static func fill(_ format: String, _ values: [String]) -> String {
        guard !values.isEmpty else { return format }
        var out = "", rest = Substring(format)
        while let percent = rest.firstIndex(of: "%") {
            out += rest[..<percent]
            let after = rest[rest.index(after: percent)...]
            if after.first == "%" { out += "%"; rest = after.dropFirst(); continue }
            let digits = after.prefix { $0.isASCII && $0.isNumber }
            if !digits.isEmpty, after.dropFirst(digits.count).hasPrefix("$s"), let n = Int(digits), n >= 1, n <= values.count {
                out += values[n - 1]
                rest = after.dropFirst(digits.count + 2)
            } else {
                out += "%"
                rest = after
            }
        }
        return out + rest
    }
}

/// An error that says itself in English (`description`: what JSON and logs carry) and in the
/// chosen language (`words.said`: what stderr shows).
public protocol SaidError: Error, CustomStringConvertible {
    var words: L10n.Words { get }
}

extension SaidError {
    public var description: String { words.english }
}

extension Array where Element == L10n.Words {
    /// The words one after another, `separator` between them.
    public func joined(separator: L10n.Words) -> L10n.Words {
        L10n.Words(english: map(\.english).joined(separator: separator.english), said: map(\.said).joined(separator: separator.said))
    }
}

extension L10n.Words {
    /// What `error` says: its words when it has them (a `TransitError`, a `SaidError`), else its
    /// description, the same in every language.
    public init(error: Error) {
        if let e = error as? TransitError { self = e.words } else if let e = error as? SaidError { self = e.words } else { self.init("\(error)") }
    }
}
