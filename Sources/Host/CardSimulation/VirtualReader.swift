import TransitModel
/// The reader dialects the virtual reader speaks, each written from its reader manual or
/// specification, independently of the host's transport.
public enum SimulatedDialect: String, CaseIterable, Sendable {
    /// ACR122U: `FF 00 00 00 Lc D4 40 01 <frame>` (PN532 InDataExchange, target 1) → `D5 41 <status> <frame> 90 00`.
    case pn532
    /// ACR1252U direct transmit: `FF 00 00 00 Lc <frame>` → `<frame> 90 00`, or `63 00` when the card is silent.
    case acsDirect = "acs-direct"
    /// PC/SC 2.02 Part 3 Transparent Exchange: `FF C2 00 01 Lc <95 transceive object> [Le]` →
    /// `C0 03 00 90 00 97 <length> <frame> 90 00`, lengths in BER-TLV (81 LL from 128 bytes).
    case part3
    /// ACR122U: the FeliCa frame as the whole APDU → `<frame> 90 00` (ACR122U API v2.04, 7.3).
    case bareFrame = "bare-frame"
}

/// A contactless reader with one card on it, emulated from a card image: answers the reader-level
/// pseudo-APDUs (UID, FeliCa pass-through in each dialect, the storage-card commands of a MIFARE
/// Classic or Ultralight) and hands the rest to the card.
/// Both `transit-sim` (behind vpcd) and `transit scan --card` (in process) use it.
public final class VirtualReader {
    private var felica: FeliCaEmulator?
    private var iso: ISO7816Emulator?
    private var desfire: DESFireEmulator?
    private var storage: SimulatedStorageReader?
    /// The reader answered as.
    public let model: ReaderModel
    /// The one dialect accepted (of those the model takes), or nil for all the model takes.
    public let dialect: SimulatedDialect?
    /// APDUs answered since the card was put on the reader.
    public private(set) var exchanges = 0
    /// A transparent session is open (PC/SC Part 3 Manage Session).
    private var sessionOpen = false

    public init(image: CardImage, dialect: SimulatedDialect? = nil, model: ReaderModel = .pcsc) throws {
        if let f = image.felica { felica = try FeliCaEmulator(f) }
        if let i = image.iso7816 { iso = try ISO7816Emulator(i) }
        if let d = image.iso7816?.desfire { desfire = try DESFireEmulator(d) }
        if let c = image.mifareClassic { storage = SimulatedStorageReader(card: .classic(try ClassicEmulator(c)), model: model) }
        if let u = image.mifareUltralight { storage = SimulatedStorageReader(card: .ultralight(try UltralightEmulator(u)), model: model) }
        let cards = [felica != nil, iso != nil, image.mifareClassic != nil, image.mifareUltralight != nil].filter { $0 }.count
        guard cards > 0 else { throw CardImageError(L10n.words("card image holds no card")) }
        guard cards == 1 else { throw CardImageError(L10n.words("a card image holds exactly one of felica, iso7816, mifareClassic and mifareUltralight")) }
        if model == .phone, felica != nil {
            throw CardImageError(L10n.words("a phone as reader (vsmartcard's remote reader) reads ISO 14443-4 cards only, not FeliCa"))
        }
        if model == .phone, storage != nil {
            throw CardImageError(L10n.words("a phone as reader (vsmartcard's remote reader) reads ISO 14443-4 cards only, not MIFARE Classic or Ultralight"))
        }
        self.model = model
        self.dialect = dialect
        historical = try image.iso7816?.historicalBytes.map(HexText.bytes) ?? [0x80, 0x73, 0xC8, 0x21, 0x10]
        guard historical.count <= 15 else { throw CardImageError(L10n.words("an ATR holds at most 15 historical bytes")) }
        uid = try felica?.idm ?? storage?.uid ?? HexText.bytes(image.iso7816?.uid ?? "")
    }

    private let historical: [UInt8]
    private let uid: [UInt8]

    /// The ATR the reader builds for the card: FeliCa in the model's form (PC/SC Part 3, section
    /// 3.1.3.2.3, by default); an ISO 14443-4 card with its historical bytes, `3B 8n 80 01 … TCK`
    /// (a type B card's ATQB, as ACS readers put it, comes from the image's historical bytes).
    public var atr: [UInt8] {
        if felica != nil { return model.felicaATR(idm: uid) }
        if let storage { return storage.atr }
        let body = [0x3B, 0x80 | UInt8(historical.count & 0x0F), 0x80, 0x01] + historical.prefix(15)
        return body + [body.dropFirst().reduce(0, ^)] // TCK: XOR of T0 … last historical byte
    }

    /// Answers one APDU from the host.
    public func transmit(_ apdu: [UInt8]) -> [UInt8] {
        exchanges += 1
        if model.answersGetData, apdu.starts(with: [0xFF, 0xCA, 0x00, 0x00]) { return uid + [0x90, 0x00] }
        if storage != nil { return storage?.answer(apdu) ?? [0x6F, 0x00] }
        if let felica { return felicaPassThrough(felica, apdu) }
        if let answer = desfire?.answer(apdu) { return answer }
        return iso?.answer(apdu) ?? [0x6F, 0x00]
    }

    /// The card is a MIFARE Classic or Ultralight, answered through the storage-card commands.
    public var holdsStorageCard: Bool { storage != nil }

    /// The MIFARE Classic card on the reader, as it stands now (open sector, counters).
    public var classicCard: ClassicEmulator? {
        if case .classic(let c) = storage?.card { return c }
        return nil
    }

    /// The MIFARE Ultralight card on the reader, as it stands now (its read counter).
    public var ultralightCard: UltralightEmulator? {
        if case .ultralight(let u) = storage?.card { return u }
        return nil
    }

    /// Authentications (General Authenticate or the obsolete form) that reached the card.
    public var authentications: Int { classicCard?.authentications ?? 0 }

    /// Reads (Read Binary) that reached a Classic or Ultralight card.
    public var storageReads: Int { classicCard?.reads ?? ultralightCard?.reads ?? 0 }

    /// Every command the reader refused as one it does not carry (for a storage card: any write,
    /// value operation or pass-through), in order: a test proves with it that none was sent.
    public var refusedCommands: [[UInt8]] { storage?.refusedCommands ?? [] }

    /// The card is reset (vpcd's power off or reset): a Classic card leaves its authenticated
    /// state; the reader keeps the keys loaded into it, as a real reader's volatile slots do until
    /// it is unplugged.
    public func resetStorageCard() { storage?.resetCard() }

    private func felicaPassThrough(_ card: FeliCaEmulator, _ apdu: [UInt8]) -> [UInt8] {
        // A reader that does not know a pseudo-APDU answers "function not supported" (ISO 7816-4).
        let unsupported: [UInt8] = [0x6A, 0x81]
        if let session = Self.manageSession(apdu) {
            guard model.dialects.contains(.part3) else { return unsupported }
            sessionOpen = session
            return [0xC0, 0x03, 0x00, 0x90, 0x00, 0x90, 0x00]
        }
        guard let (form, frame) = Self.felicaFrame(in: apdu) else { return unsupported }
        guard model.dialects.contains(form), dialect.map({ $0 == form }) ?? true else { return model.refusal(of: form) }
        // A Transparent Exchange outside a session: "conditions of use not satisfied" (ISO 7816-4;
        // what the RC-S300 answers is unpublished).
        if form == .part3, model.needsSession, !sessionOpen { return [0x69, 0x85] }
        let answer = Self.passThroughAnswer(card.answer(frame), form)
        if let limit = model.maxMessage, apdu.count > limit || answer.count > limit {
            return [0x67, 0x00] // wrong length: the message does not fit the reader's CCID messages
        }
        return answer
    }

    /// True (start) or false (end) for a Part 3 Manage Session with data object 81 00 or 82 00
    /// (PC/SC Part 3, 3.2.2.1.1); nil for any other APDU.
    static func manageSession(_ apdu: [UInt8]) -> Bool? {
        guard apdu.count >= 7, apdu.starts(with: [0xFF, 0xC2, 0x00, 0x00, 0x02]) else { return nil }
        switch (apdu[5], apdu[6]) {
        case (0x81, 0x00): return true
        case (0x82, 0x00): return false
        default: return nil
        }
    }

    /// The reader's answer carrying the card's frame, or saying the card stayed silent (nil).
    static func passThroughAnswer(_ answer: [UInt8]?, _ form: SimulatedDialect) -> [UInt8] {
        switch form {
        case .pn532:
            // Status 01: "time out, the target has not answered" (PN532 User Manual, 7.1).
            return answer.map { [0xD5, 0x41, 0x00] + $0 + [0x90, 0x00] } ?? [0xD5, 0x41, 0x01, 0x90, 0x00]
        case .acsDirect, .bareFrame:
            return answer.map { $0 + [0x90, 0x00] } ?? [0x63, 0x00]
        case .part3:
            // Generic error status C0 03 <object number> SW1 SW2: 00 90 00 success; 01 64 01 the card
            // did not answer (PC/SC Part 3, generic error status).
            guard let answer else { return [0xC0, 0x03, 0x01, 0x64, 0x01, 0x90, 0x00] }
            return [0xC0, 0x03, 0x00, 0x90, 0x00, 0x97] + Self.berLength(answer.count) + answer + [0x90, 0x00]
        }
    }

    /// The dialect and FeliCa frame of a pass-through APDU, or nil when it is none.
    static func felicaFrame(in apdu: [UInt8]) -> (SimulatedDialect, [UInt8])? {
        // The bare frame: its first byte, its length, stands as CLA.
        if apdu.count >= 4, apdu[0] != 0xFF, Int(apdu[0]) == apdu.count { return (.bareFrame, apdu) }
        guard apdu.count >= 6, apdu[0] == 0xFF else { return nil }
        let lc = Int(apdu[4])
        // Case 3 (no Le) or case 4 (one Le byte after the data).
        guard apdu.count == 5 + lc || apdu.count == 6 + lc else { return nil }
        let data = Array(apdu[5 ..< 5 + lc])
        switch (apdu[1], apdu[2], apdu[3]) {
        case (0x00, 0x00, 0x00) where data.starts(with: [0xD4, 0x40, 0x01]): return (.pn532, Array(data.dropFirst(3)))
        case (0x00, 0x00, 0x00) where data.first.map(Int.init) == data.count: return (.acsDirect, data)
        case (0xC2, 0x00, 0x01): return transceiveObject(data).map { (.part3, $0) }
        default: return nil
        }
    }

    /// The value of the 95 (transceive) object of a Transparent Exchange's data field, after any
    /// other objects (the 5F46 timer, flags). Tags of one byte, or two when the first's low five bits
    /// are all set; lengths of one byte, 81 LL or 82 LL LL (ISO/IEC 7816-4, annex D).
    private static func transceiveObject(_ data: [UInt8]) -> [UInt8]? {
        var rest = data[...]
        func take(_ n: Int) -> ArraySlice<UInt8>? {
            guard n >= 0, rest.count >= n else { return nil }
            defer { rest = rest.dropFirst(n) }
            return rest.prefix(n)
        }
        var frame: [UInt8]?
        while !rest.isEmpty {
            guard var tag = take(1).flatMap(\.first).map(Int.init) else { return nil }
            if tag & 0x1F == 0x1F { guard let second = take(1)?.first else { return nil }; tag = tag << 8 | Int(second) }
            guard let l0 = take(1)?.first else { return nil }
            var length = Int(l0)
            if l0 == 0x81 { guard let l = take(1) else { return nil }; length = Int(l[l.startIndex]) }
            else if l0 == 0x82 { guard let l = take(2) else { return nil }; length = Int(l[l.startIndex]) << 8 | Int(l[l.startIndex + 1]) }
            else if l0 > 0x7F { return nil }
            guard let value = take(length) else { return nil }
            if tag == 0x95 { frame = Array(value) }
        }
        return frame
    }

    /// A BER-TLV length: one byte up to 127, then 81 LL, then 82 LL LL (ISO/IEC 8825-1, 8.1.3).
    static func berLength(_ n: Int) -> [UInt8] {
        if n < 128 { return [UInt8(n)] }
        if n < 256 { return [0x81, UInt8(n)] }
        return [0x82, UInt8(n / 256), UInt8(n % 256)]
    }
}
