import Foundation

/// A field list as the docs write it: keys, `?` after an optional one, a nested list after `:`.
struct FieldList: CustomStringConvertible {
    struct Field { let key: String; let optional: Bool; let nested: FieldList? }
    var fields = [Field]()
    var keys: [String] { fields.map(\.key) }
    var description: String { "{" + fields.map { "\"\($0.key)\"" + ($0.optional ? "?" : "") }.joined(separator: ", ") + "}" }

    /// What keeps `object` from matching: a key printed but not listed, a listed key not printed.
    func problems(_ object: [String: Any]) -> [String] {
        var out = [String]()
        for key in object.keys.sorted() where !keys.contains(key) { out.append("\"\(key)\" is printed but not listed") }
        for field in fields {
            guard let value = object[field.key] else {
                if !field.optional { out.append("\"\(field.key)\" is listed but not printed") }
                continue
            }
            if let nested = field.nested {
                let inner = value as? [String: Any] ?? (value as? [[String: Any]])?.first
                if let inner { out += nested.problems(inner).map { "in \"\(field.key)\": \($0)" } }
            }
        }
        return out
    }

    /// Every top-level `{…}` of `text` that lists at least one key.
    static func all(in text: String) -> [FieldList] {
        let scalars = Array(text.unicodeScalars)
        var out = [FieldList](), i = 0
        while i < scalars.count {
            if scalars[i] == "{", var parser = Optional(Parser(scalars: scalars, at: i)), let list = parser.object(), !list.fields.isEmpty {
                out.append(list)
                i = parser.at
            } else {
                i += 1
            }
        }
        return out
    }

    private struct Parser {
        let scalars: [Unicode.Scalar]
        var at: Int

        init(scalars: [Unicode.Scalar], at: Int) { self.scalars = scalars; self.at = at }

        private mutating func skipSpace() {
            while at < scalars.count, " \n`".unicodeScalars.contains(scalars[at]) { at += 1 }
            // A note in parentheses belongs to the key before it.
            if at < scalars.count, scalars[at] == "(" {
                var depth = 0
                while at < scalars.count {
                    if scalars[at] == "(" { depth += 1 } else if scalars[at] == ")" { depth -= 1; if depth == 0 { at += 1; break } }
                    at += 1
                }
                skipSpace()
            }
        }

        private mutating func take(_ c: Unicode.Scalar) -> Bool {
            skipSpace()
            guard at < scalars.count, scalars[at] == c else { return false }
            at += 1
            return true
        }

        private mutating func key() -> String? {
            skipSpace()
            var word = ""
            if take("\"") {
                while at < scalars.count, scalars[at] != "\"" { word.unicodeScalars.append(scalars[at]); at += 1 }
                at += 1
            } else {
                while at < scalars.count, CharacterSet.alphanumerics.contains(scalars[at]) { word.unicodeScalars.append(scalars[at]); at += 1 }
            }
            return word.isEmpty ? nil : word
        }

        mutating func object() -> FieldList? {
            guard take("{") else { return nil }
            var list = FieldList()
            if take("}") { return list }
            repeat {
                guard let key = key() else { return nil }
                let optional = take("?")
                var nested: FieldList?
                if take(":") {
                    skipSpace()
                    if at < scalars.count, scalars[at] == "{" { nested = object() }
                    else if take("[") {
                        skipSpace()
                        if at < scalars.count, scalars[at] == "{" { nested = object() }
                        while at < scalars.count, scalars[at] != "]" { at += 1 }
                        at += 1
                    } else { return nil }
                }
                list.fields.append(Field(key: key, optional: optional, nested: nested))
            } while take(",")
            return take("}") ? list : nil
        }
    }
}
