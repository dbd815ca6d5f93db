import Foundation

/// What is wrong with a JSON file that does not have the shape of the format it should be, in
/// the words of a person: which key, where, what it holds, what was expected
/// (`key "amount" of journey 1 is the number 1.28; expected a whole number…`). Never the decoder's
/// own text, which names Swift types and coding keys.
package struct JSONShape {
    /// A key's expected value in words (`"balance": "a whole number of minor units"`), marked for
    /// the catalog (`L10n.mark`) where they are declared.
    package var expected: [String: String]
    /// What one entry of a list is called (`"journeys": "journey"`: `journey 2`, not `journeys entry 2`), marked too.
    package var entryNames: [String: String]

    package init(expected: [String: String] = [:], entryNames: [String: String] = [:]) {
        self.expected = expected; self.entryNames = entryNames
    }

    /// The problem `error` (thrown by `JSONDecoder` on `data`) is, in words.
    package func problem(_ error: any Error, in data: Data) -> L10n.Words {
        let root = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        guard let root else { return L10n.words("it is not JSON") }
        let context: DecodingError.Context, missing: CodingKey?
        switch error as? DecodingError {
        case .keyNotFound(let key, let c)?: context = c; missing = key
        case .typeMismatch(_, let c)?, .valueNotFound(_, let c)?, .dataCorrupted(let c)?: context = c; missing = nil
        case nil, .some: return .init(TerminalText.excerpt("\(error)"))
        }
        var path = context.codingPath
        if let missing {
            // TRANSLATORS: %2$s is where (" of journey 1") or nothing, %3$s what was expected ("; expected …") or nothing.
            return L10n.words("key \"%1$s\" is missing%2$s%3$s", .init(TerminalText.excerpt(missing.stringValue)), place(path), expectation(missing.stringValue))
        }
        // A number the decoder could not take (1.28 for a whole number) comes without a path.
        if path.isEmpty, let found = Self.firstFraction(in: root) { path = found }
        guard let last = path.last else { return L10n.words("it holds %1$s where an object was expected", Self.describe(root)) }
        let parent = Array(path.dropLast())
        let found = Self.describe(Self.value(at: path, in: root))
        if last.intValue != nil { return L10n.words("%1$s is %2$s", name(path), found) }
        let key = last.stringValue
        let fallback = Self.value(at: path, in: root).map { Self.isFraction($0) ? L10n.words("; expected a whole number") : .init("") } ?? .init("")
        let wanted = expectation(key)
        // TRANSLATORS: %2$s is where (" of journey 1") or nothing, %3$s what the key holds ("the number 1.28"), %4$s what was expected or nothing.
        return L10n.words("key \"%1$s\"%2$s is %3$s%4$s", .init(TerminalText.excerpt(key)), place(parent), found, wanted.english.isEmpty ? fallback : wanted)
    }

    private func expectation(_ key: String) -> L10n.Words {
        expected[key].map { L10n.words("; expected %1$s", L10n.Words(english: $0, said: L10n.translated($0))) } ?? .init("")
    }

    /// ` of journey 1`, ` of felica`, or nothing at the top.
    private func place(_ path: [any CodingKey]) -> L10n.Words { path.isEmpty ? .init("") : L10n.words(" of %1$s", name(path)) }

    /// `journey 1`, `felica.systems entry 2`: the container a key is in.
    private func name(_ path: [any CodingKey]) -> L10n.Words {
        var parts = [(key: String?, words: L10n.Words)]()
        for key in path {
            if let index = key.intValue {
                let list = parts.popLast()
                let number = L10n.Words(String(index + 1))
                if let entry = list?.key.flatMap({ entryNames[$0] }) {
                    parts.append((nil, L10n.Words(english: entry, said: L10n.translated(entry)) + .init(" ") + number))
                } else {
                    parts.append((nil, L10n.words("%1$s entry %2$s", list?.words ?? L10n.words("the file"), number)))
                }
            } else {
                parts.append((key.stringValue, .init(TerminalText.excerpt(key.stringValue))))
            }
        }
        return parts.map(\.words).joined(separator: .init("."))
    }

    /// The value at `path` in a JSONSerialization tree, nil when there is none.
    private static func value(at path: [any CodingKey], in root: Any) -> Any? {
        var current: Any? = root
        for key in path {
            if let index = key.intValue { current = (current as? [Any]).flatMap { index < $0.count ? $0[index] : nil } }
            else { current = (current as? [String: Any])?[key.stringValue] }
        }
        return current
    }

    /// `the number 5`, `the text "8.97"`, `a list`, `null`…
    private static func describe(_ value: Any?) -> L10n.Words {
        switch value {
        case nil: return L10n.words("missing")
        case is NSNull: return .init("null")
        case let text as String: return L10n.words("the text \"%1$s\"", .init(TerminalText.excerpt(text)))
        case let number as NSNumber where isBool(number): return .init(number.boolValue ? "true" : "false")
        case let number as NSNumber: return L10n.words("the number %1$s", .init(TerminalText.excerpt(number.stringValue)))
        case is [Any]: return L10n.words("a list")
        case is [String: Any]: return L10n.words("an object")
        default: return L10n.words("another kind of value")
        }
    }

    private static func isBool(_ number: NSNumber) -> Bool {
        let type = String(cString: number.objCType)
        return type == "c" || type == "B"
    }

    private static func isFraction(_ value: Any) -> Bool {
        guard let number = value as? NSNumber, !isBool(number) else { return false }
        let double = number.doubleValue
        return double != double.rounded() || abs(double) >= 9.2e18
    }

    /// The path to the first number that is no whole number of Int64 (keys in alphabetical order).
    /// One path, a key pushed on the way down and popped on the way back: a walk as long as the
    /// tree, however deep.
    private static func firstFraction(in root: Any) -> [any CodingKey]? {
        var path = [any CodingKey]()
        func search(_ value: Any) -> Bool {
            if let object = value as? [String: Any] {
                for key in object.keys.sorted() {
                    guard let inner = object[key] else { continue }
                    path.append(PathKey(key))
                    if search(inner) { return true }
                    path.removeLast()
                }
            } else if let list = value as? [Any] {
                for (i, inner) in list.enumerated() {
                    path.append(PathKey(i))
                    if search(inner) { return true }
                    path.removeLast()
                }
            } else if isFraction(value) {
                return true
            }
            return false
        }
        return search(root) ? path : nil
    }

    /// A step of a path found in the tree.
    private struct PathKey: CodingKey {
        var stringValue: String
        var intValue: Int?
        init(_ key: String) { stringValue = key; intValue = nil }
        init(_ index: Int) { stringValue = "\(index)"; intValue = index }
        init?(stringValue: String) { self.init(stringValue) }
        init?(intValue: Int) { self.init(intValue) }
    }
}
