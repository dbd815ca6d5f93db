import Foundation

/// Mutates a dump in the shape of its format, as an attacker who knows it would: XML elements
/// repeated, nested past reason or cut, document types, entities and encodings put in, attributes
/// doubled or swollen; JSON values swapped for other types, huge or empty ones, lists of cards
/// grown, keys dropped or added; a zip's header fields (sizes, CRC, method, flags, name length,
/// offsets, member count) changed, or a zip put in the zip. Byte-level mutations (`FileMutator`)
/// miss most of these: a parser refuses a file whose bytes are broken long before the structure
/// matters. Deterministic for a seed.
public struct StructuredMutator {
    private var random: SplitMix64
    private var bytes: FileMutator

    public init(seed: UInt64) {
        random = SplitMix64(seed: seed)
        bytes = FileMutator(seed: seed ^ 0x5EED)
    }

    /// One to three mutations of `data`, chosen by the format `name` ends in (.xml, .json, .zip);
    /// one in eight is a byte-level mutation instead.
    public mutating func mutate(_ data: Data, name: String) -> Data {
        if random.below(8) == 0 { return bytes.mutate(data) }
        var out = data
        for _ in 0 ... random.below(3) {
            if name.hasSuffix(".xml") { out = xml(out) } else if name.hasSuffix(".zip") { out = zip(out) } else if name.hasSuffix(".json") { out = json(out) } else { out = bytes.mutate(out) }
        }
        return out
    }

    // MARK: XML

    private static let xmlInserts = [
        #"<!DOCTYPE card [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;">]>"#, "&a;", "&#0;", "&#xD800;", "&#x110000;", "&lt;&amp;&#65;",
        "<![CDATA[<card>]]>", "<!-- x -->", "<?pi x?>", #"<?xml version="1.0" encoding="UTF-16"?>"#, "</card>", "<card>", "<cards>",
        #"<system code="-1">"#, #"<service code="99999999999999999999">"#, #"<block address="-129">AAAA</block>"#, "\u{202E}", "\u{FEFF}",
    ]

    private mutating func xml(_ data: Data) -> Data {
        var text = String(decoding: data, as: UTF8.self)
        let tags = Self.tagRanges(text)
        switch random.below(9) {
        case 0 where !tags.isEmpty: // an element's start tag repeated around the rest: deep nesting
            let tag = String(text[tags[random.below(tags.count)]])
            guard !tag.hasPrefix("</"), let name = tag.dropFirst().split(whereSeparator: { " />".contains($0) }).first else { break }
            let depth = 1 + random.below(100)
            let at = text.index(text.startIndex, offsetBy: min(text.count, text.distance(from: text.startIndex, to: tags[0].upperBound)))
            text.insert(contentsOf: String(repeating: "<\(name)>", count: depth) + String(repeating: "</\(name)>", count: depth), at: at)
        case 1 where !tags.isEmpty: // a tag's text repeated many times
            let tag = String(text[tags[random.below(tags.count)]])
            text.insert(contentsOf: String(repeating: tag, count: 1 + random.below(300)), at: tags[random.below(tags.count)].lowerBound)
        case 2 where !tags.isEmpty: // a tag removed
            text.removeSubrange(tags[random.below(tags.count)])
        case 3 where !tags.isEmpty: // an attribute doubled, or many added
            let r = tags[random.below(tags.count)]
            let tag = String(text[r])
            guard tag.hasSuffix(">"), !tag.hasPrefix("</"), !tag.hasPrefix("<?") else { break }
            let extra = random.below(2) == 0 ? #" type="5""# : (0 ..< 1 + random.below(2000)).map { " a\($0)=\"\"" }.joined()
            text.replaceSubrange(r, with: tag.dropLast(tag.hasSuffix("/>") ? 2 : 1) + extra + (tag.hasSuffix("/>") ? "/>" : ">"))
        case 4: // markup put in somewhere
            let insert = Self.xmlInserts[random.below(Self.xmlInserts.count)]
            let positions = [text.startIndex] + tags.map(\.upperBound)
            text.insert(contentsOf: insert, at: positions[random.below(positions.count)])
        case 5: // the declaration's encoding changed
            let encodings = ["UTF-7", "ISO-8859-1", "Shift_JIS", "utf-8", "UTF8", "", "UTF-16LE"]
            let e = encodings[random.below(encodings.count)]
            if let r = text.range(of: "encoding=\"UTF-8\"") {
                text.replaceSubrange(r, with: "encoding = '\(e)'")
            } else {
                text = #"<?xml version="1.0" encoding=""# + e + #""?>"# + text
            }
        case 6 where !tags.isEmpty: // an attribute value swollen or made odd
            let values = ["-1", "99999999999999999999", "", "0x10", String(repeating: "9", count: 5_000), "\u{7F}\u{1B}[2J"]
            if let q = text[tags[random.below(tags.count)]].firstIndex(of: "\"") {
                text.insert(contentsOf: values[random.below(values.count)], at: text.index(after: q))
            }
        case 7: // cut short
            text = String(text.prefix(random.below(text.count + 1)))
        default: // a whole element repeated: many cards, systems, services
            let cards = tags.filter { text[$0].hasPrefix("<card ") || text[$0].hasPrefix("<system ") || text[$0].hasPrefix("<service ") }
            guard let start = cards.randomElement(using: &random), let name = text[start].dropFirst().split(separator: " ").first,
                  let end = text.range(of: "</\(name)>", range: start.upperBound ..< text.endIndex) else { break }
            let element = String(text[start.lowerBound ..< end.upperBound])
            text.insert(contentsOf: String(repeating: element, count: 1 + random.below(150)), at: start.lowerBound)
        }
        var out = Data(text.utf8)
        if random.below(20) == 0 { out.append(contentsOf: [0xC3, 0x28, 0xFF]) } // not UTF-8
        return out
    }

    /// Where each `<…>` stands in `text`.
    private static func tagRanges(_ text: String) -> [Range<String.Index>] {
        var out = [Range<String.Index>]()
        var i = text.startIndex
        while let open = text[i...].firstIndex(of: "<"), let close = text[open...].firstIndex(of: ">"), out.count < 5_000 {
            out.append(open ..< text.index(after: close))
            i = text.index(after: close)
        }
        return out
    }

    // MARK: JSON

    private mutating func json(_ data: Data) -> Data {
        guard let value = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) else { return bytes.mutate(data) }
        let mutated = mutateJSON(value, depth: 0)
        return (try? JSONSerialization.data(withJSONObject: mutated, options: [.fragmentsAllowed])) ?? bytes.mutate(data)
    }

    /// A random node somewhere below `value` replaced (or `value` itself, more likely near the leaves).
    private mutating func mutateJSON(_ value: Any, depth: Int) -> Any {
        let here = random.below(4) == 0
        switch value {
        case var object as [String: Any] where !object.isEmpty && !here:
            let keys = object.keys.sorted()
            let key = keys[random.below(keys.count)]
            switch random.below(6) {
            case 0: object[key] = nil
            case 1: object["unexpected\(random.below(10))"] = replacement(for: object[key] as Any)
            default: object[key] = mutateJSON(object[key] as Any, depth: depth + 1)
            }
            return object
        case var array as [Any] where !array.isEmpty && !here:
            let i = random.below(array.count)
            switch random.below(6) {
            case 0: array.remove(at: i)
            case 1: array.append(contentsOf: Array(repeating: array[i], count: 1 + random.below(150))) // many cards, blocks, services
            default: array[i] = mutateJSON(array[i], depth: depth + 1)
            }
            return array
        default:
            return replacement(for: value)
        }
    }

    private mutating func replacement(for value: Any) -> Any {
        switch random.below(12) {
        case 0: return NSNull()
        case 1: return -1
        case 2: return 1e300
        case 3: return Int64.max
        case 4: return ""
        case 5: return String(repeating: "A", count: 1 + random.below(100_000))
        case 6: return [Any]()
        case 7: return [String: Any]()
        case 8: // nested lists
            var v: Any = value
            for _ in 0 ..< 1 + random.below(200) { v = [v] }
            return v
        case 9: return "\u{202E}\u{1B}[2J\u{7F}"
        case 10: return value is String ? 7 as Any : "7" as Any // the other type
        default: return "ZZ" + String(repeating: "0", count: random.below(40))
        }
    }

    // MARK: zip

    /// One field of a local or central header changed, the end record's counts or offset, the data
    /// cut, or the archive put inside itself as a member.
    private mutating func zip(_ data: Data) -> Data {
        var b = [UInt8](data)
        let locals = Self.offsets(of: [0x50, 0x4B, 0x03, 0x04], in: b)
        let centrals = Self.offsets(of: [0x50, 0x4B, 0x01, 0x02], in: b)
        let ends = Self.offsets(of: [0x50, 0x4B, 0x05, 0x06], in: b)
        // APPNOTE.TXT 4.3.7 (local), 4.3.12 (central), 4.3.16 (end): field offsets and sizes.
        let localFields = [(6, 2), (8, 2), (14, 4), (18, 4), (22, 4), (26, 2), (28, 2)]
        let centralFields = [(8, 2), (10, 2), (16, 4), (20, 4), (24, 4), (28, 2), (30, 2), (42, 4)]
        let endFields = [(8, 2), (10, 2), (12, 4), (16, 4), (20, 2)]
        let values: [UInt32] = [0, 1, 0xFF, 0xFFFF, 0xFFFF_FFFF, 0x7FFF_FFFF, UInt32(b.count), UInt32(random.below(1 << 20))]
        func set(_ at: Int, _ size: Int) {
            let v = values[random.below(values.count)]
            for i in 0 ..< size where at + i < b.count { b[at + i] = UInt8(truncatingIfNeeded: v >> (8 * UInt32(i))) }
        }
        switch random.below(6) {
        case 0 where !locals.isEmpty:
            let (o, s) = localFields[random.below(localFields.count)]
            set(locals[random.below(locals.count)] + o, s)
        case 1 where !centrals.isEmpty:
            let (o, s) = centralFields[random.below(centralFields.count)]
            set(centrals[random.below(centrals.count)] + o, s)
        case 2 where !ends.isEmpty:
            let (o, s) = endFields[random.below(endFields.count)]
            set(ends[random.below(ends.count)] + o, s)
        case 3: b = Array(b.prefix(random.below(b.count + 1)))
        case 4 where !locals.isEmpty: // compressed data overwritten
            let at = min(b.count, locals[0] + 30 + random.below(64))
            for i in at ..< min(b.count, at + 1 + random.below(16)) { b[i] = random.byte() }
        default:
            return bytes.mutate(Data(b))
        }
        return Data(b)
    }

    private static func offsets(of signature: [UInt8], in b: [UInt8]) -> [Int] {
        guard b.count >= 4 else { return [] }
        return (0 ... b.count - 4).filter { b[$0] == signature[0] && b[$0 + 1] == signature[1] && b[$0 + 2] == signature[2] && b[$0 + 3] == signature[3] }
    }
}

extension SplitMix64: RandomNumberGenerator {}
