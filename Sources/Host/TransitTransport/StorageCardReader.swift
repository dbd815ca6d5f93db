import CardProtocol
import Foundation
import Synchronization
import TransitModel

/// A MIFARE Classic or Ultralight card through a PC/SC reader's storage-card commands (PC/SC Part 3
/// §3.2.2.1: Load Keys, General Authenticate, Read Binary), in the reader's own form, so plugins
/// ask for sectors and pages and never see a key or a dialect. Each sector is opened and read once a
/// card, whichever plugin asks; the key that opened the last sector is tried first, then the next
/// keys in the ring's order (a key file lists a card's keys sector by sector), then the rest. A
/// read authenticates at most 3 × the sectors asked for + the keys at hand times (issue 42's
/// budget: the keys brought, a dump's and the 4 generic ones), however many sectors stay locked.
package final class StorageCardReader {
    /// How a sector came out: its data blocks and the key that opened it, or locked.
    private enum SectorState {
        case open(data: [UInt8], key: Int, typeB: Bool)
        case locked
    }

    private let send: ([UInt8]) throws -> [UInt8]
    private let readerName: String
    private let profile: ReaderProfile
    /// The user's keys, then a dump's, then the generic ones.
    private let candidates: [ClassicKeyRing.Key]
    private let userKeys: Int
    /// The card's sectors (Classic), 0 for an Ultralight.
    package let sectorCount: Int
    private var sectors = [Int: SectorState]()
    /// Ultralight pages read so far (4 bytes each), by page number: each is read once a card.
    private var readPages = [Int: [UInt8]]()
    /// The key loaded in the reader now (its index in `candidates`, and for Identiv its type).
    private var loaded: (key: Int, typeB: Bool)?
    /// The key that opened the last sector: tried first on the next.
    private var lastOpening = 0
    /// The Load Keys form: the one this process found for the reader, else the profile's, else probed.
    private var form: LoadKeysForm?
    /// True once a key loaded in `form`: from then on a refusal is the reader's, never the form's.
    private var formConfirmed = false
    /// Log lines (never a key's bytes).
    package var log: (String) -> Void = { _ in }
    /// General Authenticate commands sent, and Read Binary commands: the benchmark reports both.
    package private(set) var authentications = 0
    package private(set) var reads = 0
    /// Each key digest check's answer, for the log bundle; a replay answers from `replayed` instead.
    package private(set) var record: ClassicKeyRecord
    private var replayed: [ClassicKeyRecord.Match]?

    /// `replay`: a replayed read's record; its keys' stand-ins replace `keys`, and its digest
    /// answers are given back in order.
    package init(send: @escaping ([UInt8]) throws -> [UInt8], readerName: String, sectorCount: Int, keys: ClassicKeyRing,
                 replay: ClassicKeyRecord? = nil) {
        self.send = send; self.readerName = readerName; self.sectorCount = sectorCount
        profile = .matching(readerName)
        let ring = replay?.standIns ?? keys
        userKeys = ring.count
        candidates = ring.adding(.generic).keys
        record = ClassicKeyRecord(keyCount: ring.count)
        replayed = replay?.matches
        form = Self.learned.form(for: readerName) ?? profile.loadKeys
    }

    /// The sectors a plugin asked for that no key opened, in order.
    package var lockedSectors: [Int] { sectors.keys.sorted().filter { if case .locked = sectors[$0] { return true }; return false } }
    /// The sectors that opened, in order.
    package var openSectors: [Int] { sectors.keys.sorted().filter { if case .open = sectors[$0] { return true }; return false } }
    /// True when every sector that opened did so with a generic key and holds only zeros (sector 0's
    /// manufacturer block aside): a blank card.
    package var looksBlank: Bool {
        let opened = sectors.compactMap { n, state -> (Int, [UInt8], Int)? in
            if case .open(let data, let key, _) = state { return (n, data, key) }
            return nil
        }
        guard !opened.isEmpty, lockedSectors.isEmpty else { return false }
        return opened.allSatisfy { n, data, key in
            key >= candidates.count - ClassicKeyRing.generic.count && data.dropFirst(n == 0 ? 16 : 0).allSatisfy { $0 == 0 }
        }
    }

    /// The first block of `sector`, and its data-block count: 4 blocks a sector below 32, 16 above
    /// (MIFARE Classic 4K, NXP MF1S70 §8.6).
    private static func layout(_ sector: Int) -> (first: Int, dataBlocks: Int) {
        sector < 32 ? (sector * 4, 3) : (128 + (sector - 32) * 16, 15)
    }

    /// The sector's data blocks (trailer left out: its keys are never handed on), nil when no key opens it.
    package func sector(_ n: Int) throws -> [UInt8]? {
        guard n >= 0, n < sectorCount else {
            throw TransitError(.cardRefused, L10n.words("sector %1$s is past the card's %2$s sectors", .init(String(n)), .init(String(sectorCount))))
        }
        if let state = sectors[n] {
            if case .open(let data, _, _) = state { return data }
            return nil
        }
        let state = try open(n)
        sectors[n] = state
        if case .open(let data, _, _) = state { return data }
        return nil
    }

    /// Whether the key that opened `n` hashes with `salt` to one of `digests` (Metrodroid's rule,
    /// `ClassicKeyDigest`); nil when the sector is locked.
    package func keyMatches(sector n: Int, salt: String, digests: [String]) throws -> Bool? {
        let opened = try sector(n) != nil
        if var replayed {
            guard let next = replayed.first, next.sector == n, next.salt == salt else {
                throw TransitError(.replayDiverged, replayed.first.map { L10n.words("the read checks the key of sector %1$s, the log sector %2$s's", .init(String(n)), .init(String($0.sector))) }
                                   ?? L10n.words("the read checks the key of sector %1$s, the log no more keys", .init(String(n))))
            }
            replayed.removeFirst()
            self.replayed = replayed
            return next.matched
        }
        var matched: Bool?
        if opened, case .open(_, let key, _)? = sectors[n] {
            let digest = ClassicKeyDigest.hex(key: candidates[key].bytes, salt: salt)
            matched = digests.contains { $0.lowercased() == digest }
        }
        record.matches.append(.init(sector: n, salt: salt, matched: matched))
        return matched
    }

    /// The key that opened sector `n` (after `sector(n)`) and whether as key B: for `transit dump`
    /// alone, which writes it into its image's trailer as Flipper, MCT and Proxmark3 dumps do.
    package func openingKey(_ n: Int) -> (bytes: [UInt8], typeB: Bool)? {
        guard case .open(_, let key, let typeB)? = sectors[n] else { return nil }
        return (candidates[key].bytes, typeB)
    }

    /// Tries the keys on sector `n`, type A through the ring, then type B, starting from the key
    /// that opened the last sector; reads its data blocks with the first that opens it.
    private func open(_ n: Int) throws -> SectorState {
        let (first, dataBlocks) = Self.layout(n)
        let order = (0 ..< candidates.count).map { (lastOpening + $0) % candidates.count }
        // This sector counts as asked for: the budget grows by 3 with it.
        let budget = 3 * (sectors.count + 1) + candidates.count
        for typeB in [false, true] {
            for key in order {
                guard authentications < budget else {
                    log("storage: sector \(n) left locked: the read has spent its \(budget) authentications (3 × \(sectors.count + 1) sectors + \(candidates.count) keys)")
                    return .locked
                }
                guard try authenticate(block: first, key: key, typeB: typeB) else { continue }
                lastOpening = key
                log("storage: sector \(n) opened with key \(typeB ? "B" : "A") from \(candidates[key].source)")
                guard let data = try readBlocks(first, count: dataBlocks) else {
                    log("storage: sector \(n) opened but its blocks did not read")
                    return .locked
                }
                return .open(data: data, key: key, typeB: typeB)
            }
        }
        log("storage: sector \(n) stays locked: none of \(userKeys) key\(userKeys == 1 ? "" : "s") brought nor the \(ClassicKeyRing.generic.count) generic keys opens it")
        return .locked
    }

    /// Loads `key` (unless loaded already) and authenticates `block` with it; false when the card
    /// refuses it. A reader that refuses every Load Keys form is `readerUnsupported`.
    private func authenticate(block: Int, key: Int, typeB: Bool) throws -> Bool {
        let form = try loadKey(key, typeB: typeB)
        authentications += 1
        let answer = try send(form.authenticate(block: block, typeB: typeB))
        return Self.succeeded(answer)
    }

    private func loadKey(_ key: Int, typeB: Bool) throws -> LoadKeysForm {
        if let form, formConfirmed {
            if let loaded, loaded.key == key, !form.loadsByType || loaded.typeB == typeB { return form }
            let answer = try send(form.loadKeys(candidates[key].bytes, typeB: typeB))
            guard Self.succeeded(answer) else {
                throw TransitError(.readerUnsupported, L10n.words("the reader %1$s refused to load a MIFARE Classic key (%2$s)", .init(readerName), Self.statusWords(answer)))
            }
            loaded = (key, typeB)
            return form
        }
        // The first key of the read: the form the table or this process knows first, then each other
        // form once; the first that loads the key is kept, and remembered when it is not the table's.
        let order = (form.map { [$0] } ?? []) + LoadKeysForm.allCases.filter { $0 != form }
        for candidate in order {
            let answer = try send(candidate.loadKeys(candidates[key].bytes, typeB: typeB))
            guard Self.succeeded(answer) else {
                if candidate == form { log("storage: \(readerName) refused the \(candidate.rawValue) Load Keys form (\(Self.status(answer))): the others are probed") }
                continue
            }
            if candidate != profile.loadKeys {
                log("storage: \(readerName) loads keys in the \(candidate.rawValue) form")
                Self.learned.learn(candidate, for: readerName)
            }
            form = candidate
            formConfirmed = true
            loaded = (key, typeB)
            return candidate
        }
        throw TransitError(.readerUnsupported, L10n.words("""
            the reader %1$s takes no MIFARE Classic key in any known form (ACS, ACS session key, HID OMNIKEY, Identiv): it cannot open this card's sectors
            """, .init(readerName)))
    }

    /// `count` blocks from `first`, as many a Read Binary as the reader allows; nil when one fails.
    private func readBlocks(_ first: Int, count: Int) throws -> [UInt8]? {
        var data = [UInt8]()
        var block = first
        while block < first + count {
            let n = min(max(1, profile.blocksPerRead), first + count - block)
            reads += 1
            let answer = try send([0xFF, 0xB0, 0x00, UInt8(truncatingIfNeeded: block), UInt8(16 * n)])
            guard Self.succeeded(answer) else { return nil }
            guard answer.count == 16 * n + 2 else {
                throw TransitError(.malformedResponse, L10n.words("block %1$s read as %2$s bytes, not %3$s", .init(String(block)), .init(String(answer.count - 2)), .init(String(16 * n))))
            }
            data += answer.dropLast(2)
            block += n
        }
        return data
    }

    /// Ultralight: `count` pages of 4 bytes from `first`, four a Read Binary (`FF B0 00 <page> 10`,
    /// ACR122T API v2.02 §5.4, examples 2-3), each page read once a card whichever plugin asks. A
    /// refusal (past the card's end) is `cardRefused`.
    package func pages(_ first: Int, count: Int) throws -> [UInt8] {
        guard first >= 0, count > 0, first + count <= 256 else {
            throw TransitError(.cardRefused, L10n.words("pages %1$s+%2$s lie outside an Ultralight's 256 pages", .init(String(first)), .init(String(count))))
        }
        var data = [UInt8]()
        var page = first
        while page < first + count {
            if let known = readPages[page] {
                data += known
                page += 1
                continue
            }
            reads += 1
            let answer = try send([0xFF, 0xB0, 0x00, UInt8(page), 0x10])
            guard Self.succeeded(answer) else {
                throw TransitError(.cardRefused, L10n.words("the card refused to read page %1$s (%2$s)", .init(String(page)), Self.statusWords(answer)))
            }
            guard answer.count == 18 else { throw TransitError(.malformedResponse, L10n.words("pages from %1$s read as %2$s bytes, not 16", .init(String(page)), .init(String(answer.count - 2)))) }
            // Only the pages asked for are kept: past the card's last page a READ rolls over to page 0
            // (MF0ICU1 §9.3), so what follows them may not be the pages it names.
            for n in 0 ..< 4 where page + n < first + count { readPages[page + n] = Array(answer[4 * n ..< 4 * n + 4]) }
            data += answer.prefix(16)
            page += 4
        }
        return Array(data.prefix(4 * count))
    }

    /// Whether an Ultralight's user memory (pages 4-15, MF0ICU1 §8.5) holds only zeros: false at
    /// once when a page a plugin read holds data, else the pages not read yet are read.
    package var ultralightLooksBlank: Bool {
        if readPages.contains(where: { $0.key >= 4 && $0.key < 16 && $0.value.contains { $0 != 0 } }) { return false }
        guard let user = try? pages(4, count: 12) else { return false }
        return user.allSatisfy { $0 == 0 }
    }

    private static func succeeded(_ answer: [UInt8]) -> Bool { answer.count >= 2 && answer.suffix(2) == [0x90, 0x00] }

    private static func status(_ answer: [UInt8]) -> String { statusWords(answer).english }

    private static func statusWords(_ answer: [UInt8]) -> L10n.Words {
        answer.count >= 2 ? L10n.words("status %1$s", .init(HexFormat.string(Array(answer.suffix(2))))) : L10n.words("an answer of %1$s bytes", .init(String(answer.count)))
    }

    /// The form each reader turned out to take where its table line names none, or one it refused:
    /// for the rest of the process (a watch probes a reader once).
    private static let learned = LearnedForms()

    private final class LearnedForms: Sendable {
        private let forms = Mutex([String: LoadKeysForm]())
        func form(for reader: String) -> LoadKeysForm? { forms.withLock { $0[reader] } }
        func learn(_ form: LoadKeysForm, for reader: String) { forms.withLock { $0[reader] = form } }
    }
}
