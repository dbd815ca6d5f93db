import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// An XML document as a tree of elements, read with Foundation's XMLParser (libxml2). A document
/// type declaration is refused before parsing: the exports have none, and entities are how an XML
/// file makes a small file large.
struct XMLTree {
    final class Element {
        let name: String
        let attributes: [String: String]
        fileprivate(set) var children = [Element]()
        fileprivate(set) var text = ""

        init(name: String, attributes: [String: String]) { self.name = name; self.attributes = attributes }

        /// Child elements of `name` (case-insensitive, as Metrodroid's reader compares).
        func children(_ name: String) -> [Element] { children.filter { $0.name.caseInsensitiveCompare(name) == .orderedSame } }
        func child(_ name: String) -> Element? { children(name).first }

        /// Every element of `name` below this one, in document order.
        func descendants(_ name: String) -> [Element] {
            children.flatMap { ($0.name.caseInsensitiveCompare(name) == .orderedSame ? [$0] : []) + $0.descendants(name) }
        }

        var trimmedText: String { text.trimmingCharacters(in: .whitespacesAndNewlines) }
    }

    /// The most elements a document may hold (a Suica in XML is a few hundred).
    static let maxElements = 200_000

    static func parse(_ data: Data) throws -> Element {
        if data.range(of: Data("<!DOCTYPE".utf8)) != nil || data.range(of: Data("<!ENTITY".utf8)) != nil {
            throw CardImageError("an XML file with a document type declaration (not an export of Metrodroid or FareBot)")
        }
        // UTF-8 only, as the exports are written: FoundationXML's parser traps on a name that is not
        // valid UTF-8 (a force-unwrap in its SAX glue), so nothing else reaches it.
        let head = String(decoding: data.prefix(200), as: UTF8.self).lowercased()
        if let range = head.range(of: "encoding="), !head[range.upperBound...].dropFirst().hasPrefix("utf-8") {
            throw CardImageError("an XML file in an encoding other than UTF-8")
        }
        guard !data.contains(0), String(data: data, encoding: .utf8) != nil else { throw CardImageError("an XML file that is not UTF-8 text") }
        let builder = Builder()
        let parser = XMLParser(data: data)
        parser.shouldResolveExternalEntities = false
        parser.delegate = builder
        guard parser.parse(), let root = builder.root else {
            throw CardImageError("not well-formed XML: \(builder.failure ?? parser.parserError.map { "\($0)" } ?? "no root element")")
        }
        return root
    }

    private final class Builder: NSObject, XMLParserDelegate {
        var root: Element?
        var stack = [Element]()
        var count = 0
        var failure: String?

        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                    attributes: [String: String] = [:]) {
            count += 1
            guard count <= XMLTree.maxElements else {
                failure = "more than \(XMLTree.maxElements) elements"
                parser.abortParsing()
                return
            }
            let element = Element(name: name, attributes: attributes)
            if let parent = stack.last { parent.children.append(element) } else if root == nil { root = element }
            stack.append(element)
        }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            _ = stack.popLast()
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) { stack.last?.text += string }
    }
}
