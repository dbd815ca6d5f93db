import TransitModel
/// A MIFARE Ultralight or NTAG card answered from a card image: its READ command answers four
/// pages (16 bytes) from the page it names (NXP MF0ICU1 datasheet, READ). The image's pages are
/// the whole card: a page past them is past the card's end, and a page with a byte the image does
/// not know (`??`) cannot be answered; either fails the READ. No authentication, nothing written.
public struct UltralightEmulator {
    /// Pages the READ command answers.
    public static let pagesPerRead = 4

    /// The UID (7 bytes).
    public let uid: [UInt8]
    /// The chip as the image names it.
    public let chip: String?
    /// Each page's 4 bytes, nil standing for a byte the image does not know.
    private let pages: [[UInt8?]]
    /// READ commands that reached the card.
    public private(set) var reads = 0

    public init(_ image: CardImage.UltralightImage) throws {
        uid = try HexText.bytes(image.uid)
        guard uid.count == 7 else { throw CardImageError(L10n.words("a MIFARE Ultralight UID is 7 bytes, not %1$s", .init(String(uid.count)))) }
        guard !image.pages.isEmpty else { throw CardImageError(L10n.words("a MIFARE Ultralight image holds no page")) }
        chip = image.type
        pages = try image.pages.enumerated().map { index, text in
            guard let bytes = MaskedHex.bytes(text), bytes.count == 4 else {
                throw CardImageError(L10n.words("MIFARE Ultralight page %1$s %2$s is not 8 hex digits (?? for an unread byte)", .init(String(index)), .init(CardImageError.quote(text))))
            }
            return bytes
        }
    }

    /// Pages on the card.
    public var pageCount: Int { pages.count }

    /// READ of four pages from `page` (16 bytes), or nil when any of them is past the card's end
    /// or holds an unknown byte.
    public mutating func read(page: Int) -> [UInt8]? {
        reads += 1
        guard page >= 0, page < pages.count, page + Self.pagesPerRead <= pages.count else { return nil }
        var out = [UInt8]()
        for p in page ..< page + Self.pagesPerRead {
            guard pages[p].allSatisfy({ $0 != nil }) else { return nil }
            out += pages[p].map { $0 ?? 0 }
        }
        return out
    }
}
