import Foundation

/// What is wrong with a JSON file that does not have the shape of the format it should be, in
/// the words of a person: which key, where, what it holds, what was expected
/// (`key "amount" of journey 1 is the number 1.28; expected a whole number…`). Never the decoder's
/// own text, which names Swift types and coding keys.
package struct JSONShape {
    /// A key's expected value in words (`"balance": "a whole number of minor units"`).
    package var expected: [String: String]
    /// What one entry of a list is called (`"journeys": "journey"`: `journey 2`, not `journeys entry 2`).
    package var entryNames: [String: String]

    package init(expected: [String: String] = [:], entryNames: [String: String] = [:]) {
        self.expected = expected; self.entryNames = entryNames
    }

    /// The problem `error` (thrown by `JSONDecoder` on `data`) is, in words.
    package func problem(_ error: any Error, in data: Data) -> String {
        let root = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        guard let root else { return "it is not JSON" }
        let context: DecodingError.Context, missing: CodingKey?
        switch error as? DecodingError {
        case .keyNotFound(let key, let c)?: context = c; missing = key
        case .typeMismatch(_, let c)?, .valueNotFound(_, let c)?, .dataCorrupted(let c)?: context = c; missing = nil
        case nil, .some: return TerminalText.excerpt("\(error)")
        }
        var path = context.codingPath
        if let missing { return "key \"\(TerminalText.excerpt(missing.stringValue))\" is missing\(place(path))\(expectation(missing.stringValue))" }
        // A number the decoder could not take (1.28 for a whole number) comes without a path.
        if path.isEmpty, let found = Self.firstFraction(in: root) { path = found }
        guard let last = path.last else { return "it holds \(Self.describe(root)) where an object was expected" }
        let parent = Array(path.dropLast())
        let found = Self.describe(Self.value(at: path, in: root))
        if last.intValue != nil { return "\(name(path)) is \(found)" }
        let key = last.stringValue
        let fallback = Self.value(at: path, in: root).map { Self.isFraction($0) ? "; expected a whole number" : "" } ?? ""
        let wanted = expectation(key)
        return "key \"\(TerminalText.excerpt(key))\"\(place(parent)) is \(found)\(wanted.isEmpty ? fallback : wanted)"
    }

    private func expectation(_ key: String) -> String { expected[key].map { "; expected \($0)" } ?? "" }

    /// ` of journey 1`, ` of felica`, or nothing at the top.
    private func place(_ path: [any CodingKey]) -> String { path.isEmpty ? "" : " of \(name(path))" }

    /// `journey 1`, `felica.systems entry 2`: the container a key is in.
    private func name(_ path: [any CodingKey]) -> String {
        var parts = [String]()
        for key in path {
            if let index = key.intValue {
                let list = parts.popLast() ?? "the file"
                parts.append(entryNames[list].map { "\($0) \(index + 1)" } ?? "\(list) entry \(index + 1)")
            } else {
                parts.append(TerminalText.excerpt(key.stringValue))
            }
        }
        return parts.joined(separator: ".")
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
    private static func describe(_ value: Any?) -> String {
        switch value {
        case nil: return "missing"
        case is NSNull: return "null"
        case let text as String: return "the text \"\(TerminalText.excerpt(text))\""
        case let number as NSNumber where isBool(number): return number.boolValue ? "true" : "false"
        case let number as NSNumber: return "the number \(TerminalText.excerpt(number.stringValue))"
        case is [Any]: return "a list"
        case is [String: Any]: return "an object"
        default: return "another kind of value"
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
