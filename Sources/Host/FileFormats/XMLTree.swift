import Foundation
import TransitModel

/// An XML document as a tree of elements, read by the project's own small parser: the exports of
/// Metrodroid and FareBot need elements, attributes, text, CDATA, comments and the five predefined
/// entities and character references (XML 1.0, sections 2.4–2.8, 3.1, 4.1, 4.6), nothing more.
/// What makes an XML file stall or balloon a reader is refused by the grammar itself, in one pass
/// linear in the file: any document type declaration (and so any entity declaration, internal or
/// external), an entity reference other than the predefined five, an encoding other than UTF-8 in
/// the declaration (read as the declaration's own pseudo-attribute, wherever it sits), bytes that
/// are not UTF-8, more than `maxDepth` open elements, `maxAttributes` on one element or
/// `maxElements` in all. The tree is never deeper than `maxDepth`, so no walk or teardown recurses
/// further than that.
package struct XMLTree {
    package final class Element {
        package let name: String
        package let attributes: [String: String]
        package fileprivate(set) var children = [Element]()
        package fileprivate(set) var text = ""

        init(name: String, attributes: [String: String]) { self.name = name; self.attributes = attributes }

        /// Child elements of `name` (case-insensitive, as Metrodroid's reader compares).
        package func children(_ name: String) -> [Element] { children.filter { $0.name.caseInsensitiveCompare(name) == .orderedSame } }
        package func child(_ name: String) -> Element? { children(name).first }

        /// The elements of `name` below this one, in document order, without looking inside one
        /// found (a `<service>` inside a `<service>` is its own): each query visits an element once,
        /// so reading a card's systems, their services and their blocks is linear in the file.
        package func descendants(_ name: String) -> [Element] {
            var found = [Element]()
            var pending = Array(children.reversed())
            while let e = pending.popLast() {
                if e.name.caseInsensitiveCompare(name) == .orderedSame {
                    found.append(e)
                } else {
                    pending.append(contentsOf: e.children.reversed())
                }
            }
            return found
        }

        package var trimmedText: String { text.trimmingCharacters(in: .whitespacesAndNewlines) }
    }

    /// The most elements a document may hold (a Suica in XML is a few hundred).
    package static let maxElements = 200_000
    /// The deepest nesting (the export formats need fewer than 10).
    package static let maxDepth = 64
    /// The most attributes one element may carry (the exports use at most 5).
    package static let maxAttributes = 32

    package static func parse(_ data: Data) throws -> Element {
        var bytes = [UInt8](data)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) } // the UTF-8 byte order mark
        guard !bytes.contains(0), String(validating: bytes, as: UTF8.self) != nil else {
            throw FileFormatError(L10n.words("an XML file that is not UTF-8 text"))
        }
        var parser = Parser(bytes)
        return try parser.document()
    }

    /// One pass over the bytes; every loop advances `i`.
    private struct Parser {
        let b: [UInt8]
        var i = 0
        var elements = 0

        init(_ bytes: [UInt8]) { b = bytes }

        mutating func document() throws -> Element {
            var root: Element?
            var stack = [Element]()
            if starts("<?xml"), i + 5 < b.count, isSpace(b[i + 5]) { try declaration() }
            while i < b.count {
                guard b[i] == UInt8(ascii: "<") else {
                    let text = try characterData()
                    if let open = stack.last {
                        open.text += text
                    } else if !text.allSatisfy(\.isWhitespace) {
                        throw fail(L10n.words("text outside the root element"))
                    }
                    continue
                }
                if starts("<!--") {
                    try skip(past: "-->", what: L10n.words("a comment that is never closed"))
                } else if starts("<![CDATA[") {
                    guard let open = stack.last else { throw fail(L10n.words("CDATA outside the root element")) }
                    i += 9
                    let start = i
                    try skip(past: "]]>", what: L10n.words("a CDATA section that is never closed"))
                    open.text += String(decoding: b[start ..< i - 3], as: UTF8.self)
                } else if starts("<!DOCTYPE") || starts("<!doctype") {
                    throw FileFormatError(L10n.words("an XML file with a document type declaration (not an export of Metrodroid or FareBot)"))
                } else if starts("<!") {
                    throw fail(L10n.words("a markup declaration, which the exports never hold"))
                } else if starts("<?") {
                    if starts("<?xml"), i + 5 < b.count, isSpace(b[i + 5]) { throw fail(L10n.words("an XML declaration that is not at the start")) }
                    try skip(past: "?>", what: L10n.words("a processing instruction that is never closed"))
                } else if starts("</") {
                    i += 2
                    let name = try self.name()
                    skipSpace()
                    guard i < b.count, b[i] == UInt8(ascii: ">") else { throw fail(L10n.words("an end tag </%1$s not closed by >", .init("\(TerminalText.excerpt(name))"))) }
                    i += 1
                    guard let open = stack.popLast(), open.name == name else { throw fail(L10n.words("</%1$s> does not close the open element", .init("\(TerminalText.excerpt(name))"))) }
                } else {
                    guard root == nil || !stack.isEmpty else { throw fail(L10n.words("a second root element")) }
                    let (element, empty) = try startTag()
                    elements += 1
                    guard elements <= XMLTree.maxElements else { throw fail(L10n.words("more than %1$s elements", .init("\(XMLTree.maxElements)"))) }
                    if let parent = stack.last { parent.children.append(element) } else { root = element }
                    if !empty {
                        guard stack.count < XMLTree.maxDepth else { throw fail(L10n.words("elements nested more than %1$s deep", .init("\(XMLTree.maxDepth)"))) }
                        stack.append(element)
                    }
                }
            }
            guard let root else { throw fail(L10n.words("no root element")) }
            guard stack.isEmpty else { throw fail(L10n.words("<%1$s> is never closed", .init(stack.last?.name ?? ""))) }
            return root
        }

        /// `<?xml version="1.0" encoding="…" standalone="…"?>`: the encoding, when named, is UTF-8.
        mutating func declaration() throws {
            i += 5
            let attributes = try pseudoAttributes(until: "?>")
            if let encoding = attributes["encoding"], encoding.lowercased() != "utf-8", encoding.lowercased() != "utf8" {
                throw FileFormatError(L10n.words("an XML file in an encoding other than UTF-8 (%1$s)", .init("\(TerminalText.excerpt(encoding))")))
            }
        }

        mutating func startTag() throws -> (Element, empty: Bool) {
            i += 1
            let name = try self.name()
            var attributes = [String: String]()
            while true {
                let spaced = skipSpace()
                guard i < b.count else { throw fail(L10n.words("<%1$s is never closed", .init("\(TerminalText.excerpt(name))"))) }
                if b[i] == UInt8(ascii: ">") { i += 1; return (Element(name: name, attributes: attributes), false) }
                if starts("/>") { i += 2; return (Element(name: name, attributes: attributes), true) }
                guard spaced else { throw fail(L10n.words("attributes of <%1$s> not separated by white space", .init("\(TerminalText.excerpt(name))"))) }
                let (key, value) = try attribute()
                guard attributes[key] == nil else { throw fail(L10n.words("<%1$s> names attribute %2$s twice", .init("\(TerminalText.excerpt(name))"), .init("\(TerminalText.excerpt(key))"))) }
                guard attributes.count < XMLTree.maxAttributes else { throw fail(L10n.words("<%1$s> with more than %2$s attributes", .init("\(TerminalText.excerpt(name))"), .init("\(XMLTree.maxAttributes)"))) }
                attributes[key] = value
            }
        }

        /// The declaration's `name="value"` pairs up to `end`.
        mutating func pseudoAttributes(until end: String) throws -> [String: String] {
            var out = [String: String]()
            while true {
                skipSpace()
                guard i < b.count else { throw fail(L10n.words("an XML declaration that is never closed")) }
                if starts(end) { i += end.utf8.count; return out }
                let (key, value) = try attribute()
                guard out.count < XMLTree.maxAttributes else { throw fail(L10n.words("an XML declaration with too many pseudo-attributes")) }
                out[key] = value
            }
        }

        /// `name = "value"` or `name='value'`, white space allowed around `=` (XML 1.0 [25]).
        mutating func attribute() throws -> (String, String) {
            let key = try name()
            skipSpace()
            guard i < b.count, b[i] == UInt8(ascii: "=") else { throw fail(L10n.words("attribute %1$s without a value", .init("\(key)"))) }
            i += 1
            skipSpace()
            guard i < b.count, b[i] == UInt8(ascii: "\"") || b[i] == UInt8(ascii: "'") else { throw fail(L10n.words("attribute %1$s without a quoted value", .init("\(key)"))) }
            let quote = b[i]
            i += 1
            var value = [UInt8]()
            while i < b.count, b[i] != quote {
                guard b[i] != UInt8(ascii: "<") else { throw fail(L10n.words("< inside the value of attribute %1$s", .init("\(key)"))) }
                if b[i] == UInt8(ascii: "&") { value += try reference() } else { value.append(b[i]); i += 1 }
            }
            guard i < b.count else { throw fail(L10n.words("the value of attribute %1$s is never closed", .init("\(key)"))) }
            i += 1
            return (key, String(decoding: value, as: UTF8.self))
        }

        /// Text up to the next `<`, references replaced.
        mutating func characterData() throws -> String {
            var out = [UInt8]()
            while i < b.count, b[i] != UInt8(ascii: "<") {
                if b[i] == UInt8(ascii: "&") { out += try reference() } else { out.append(b[i]); i += 1 }
            }
            return String(decoding: out, as: UTF8.self)
        }

        /// `&lt;` `&gt;` `&amp;` `&quot;` `&apos;`, `&#N;` or `&#xH;`: the character's UTF-8 bytes.
        /// Any other name would need a declaration, and the file may hold none.
        mutating func reference() throws -> [UInt8] {
            let start = i + 1
            var end = start
            while end < b.count, end - start < 12, b[end] != UInt8(ascii: ";") { end += 1 }
            guard end < b.count, b[end] == UInt8(ascii: ";") else { throw fail(L10n.words("an & that starts no reference")) }
            let name = String(decoding: b[start ..< end], as: UTF8.self)
            i = end + 1
            let predefined: [String: UInt8] = ["lt": 0x3C, "gt": 0x3E, "amp": 0x26, "quot": 0x22, "apos": 0x27]
            if let byte = predefined[name] { return [byte] }
            let digits = name.hasPrefix("#x") ? (name.dropFirst(2), 16) : name.hasPrefix("#") ? (name.dropFirst(1), 10) : nil
            guard let (text, radix) = digits, let value = UInt32(text, radix: radix), let scalar = Unicode.Scalar(value), value != 0 else {
                throw fail(L10n.words("the reference &%1$s; (the file declares no entities)", .init("\(TerminalText.excerpt(name))")))
            }
            return Array(String(Character(scalar)).utf8)
        }

        /// A name: the bytes up to white space or markup (the parser takes any such run; names are
        /// compared as the exports write them).
        mutating func name() throws -> String {
            let start = i
            while i < b.count, !isSpace(b[i]), !"/>=<'\"?".utf8.contains(b[i]) { i += 1 }
            guard i > start else { throw fail(L10n.words("a tag or attribute without a name")) }
            return String(decoding: b[start ..< i], as: UTF8.self)
        }

        /// Skips white space; true when there was some.
        @discardableResult
        mutating func skipSpace() -> Bool {
            let start = i
            while i < b.count, isSpace(b[i]) { i += 1 }
            return i > start
        }

        /// Moves past the next `end` (a comment's, a CDATA section's, an instruction's).
        mutating func skip(past end: String, what: L10n.Words) throws {
            let e = Array(end.utf8)
            while i + e.count <= b.count {
                if b[i] == e[0], b[i ..< i + e.count].elementsEqual(e) { i += e.count; return }
                i += 1
            }
            throw fail(what)
        }

        func starts(_ s: String) -> Bool {
            let p = Array(s.utf8)
            return i + p.count <= b.count && b[i ..< i + p.count].elementsEqual(p)
        }

        func isSpace(_ c: UInt8) -> Bool { c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D }

        /// Not well-formed, at the line the parser reached.
        func fail(_ why: L10n.Words) -> FileFormatError {
            let line = b[..<min(i, b.count)].reduce(1) { $1 == 0x0A ? $0 + 1 : $0 }
            let brief = L10n.Words(english: TerminalText.excerpt(why.english, limit: 160), said: TerminalText.excerpt(why.said, limit: 160))
            return FileFormatError(L10n.words("not well-formed XML: %1$s (line %2$s)", brief, .init(String(line))))
        }
    }
}
