/// A reader with a MIFARE Classic or Ultralight card on it, answering the storage-card
/// pseudo-APDUs of PC/SC 2.02 Part 3 (3.2.2.1: Load Keys `FF 82`, General Authenticate `FF 86`,
/// Read Binary `FF B0`) in its model's dialect, each written from the reader's manual or a public
/// trace (cited at each status word; "GUESS" where no public source says). Nothing is ever
/// written: every other pseudo-APDU (Update Binary `FF D6`, the value operations `FF D7`, the
/// pass-throughs) answers 6A 81 and is kept in `refusedCommands`.
struct SimulatedStorageReader {
    /// The card on the reader.
    enum Card {
        case classic(ClassicEmulator)
        case ultralight(UltralightEmulator)
    }

    /// How a reader family takes Load Keys and names the key in General Authenticate.
    enum Dialect {
        /// ACS (ACR122U API v2.04 5.2; ACM1252U-Y3 reference 5.2.4): `FF 82 00 <00|01> 06 key`
        /// into one of two volatile slots, authenticate with that slot; `FF 88` too; every failure
        /// answers 63 00, "the operation failed".
        case acs
        /// The ACR128 family (ACM1281U-C7 reference 5.1.3.1; ACR1283L reference p.21-22): `FF 82 00
        /// 20 06 key` into the one volatile "Session Key" 20, or `FF 82 20 <00-1F> 06 key` into a
        /// non-volatile slot; authenticate with that number; failures answer 63 00.
        case acsSessionKey
        /// HID OMNIKEY (hidglobal/mifare-sample MifareTest.cpp): `FF 82 20 <key number> 06 key`,
        /// P1 20 "in non volatile reader memory, P2 key number"; authenticate with that number.
        case omnikey
        /// Identiv / SCM (uTrust 3720F reference 6.2.3–6.2.4, SCL3711 reference 6.2.3, SCL010
        /// reference 6.2.4): `FF 82 00 <60|61> 06 key`, P2 the key type; authenticate with key
        /// number 01.
        case identiv
        /// A reader no public fact shows authenticating a Classic card (the RC-S300): Load Keys
        /// and General Authenticate refused; Ultralight pages read with Read Binary.
        case readOnly
    }

    /// A reader that does not know a pseudo-APDU: "function not supported" (ISO 7816-4; the ACS
    /// manuals' response codes, e.g. the ACR122L user's manual, Get Data: "6A 81 Function not supported").
    static let unsupported: [UInt8] = [0x6A, 0x81]
    private static let ok: [UInt8] = [0x90, 0x00]
    /// ACR122U API v2.04 (and every ACS manual): "63 00 The operation is failed". Also the
    /// failure this simulator answers where a reader's manual gives none (GUESS, marked there).
    private static let failed: [UInt8] = [0x63, 0x00]

    private(set) var card: Card
    let model: ReaderModel
    let dialect: Dialect
    /// Keys loaded into the reader, by the slot General Authenticate names (ACS, OMNIKEY: the key
    /// number; Identiv: the key type 60 or 61).
    private var keys: [UInt8: [UInt8]] = [:]
    /// Every command the reader refused as one it does not carry, in order (a Load Keys without
    /// its key).
    private(set) var refusedCommands: [[UInt8]] = []

    init(card: Card, model: ReaderModel) {
        self.card = card
        self.model = model
        dialect = Self.dialect(of: model)
    }

    static func dialect(of model: ReaderModel) -> Dialect {
        switch model {
        // The TWN4's storage-card forms are unpublished: the ACS ones (GUESS).
        case .pcsc, .acr122u, .acr122u424, .acr1252u, .twn4, .phone: return .acs
        case .acr1281u: return .acsSessionKey
        case .omnikey5022: return .omnikey
        case .utrust3700f: return .identiv
        case .rcs300: return .readOnly
        }
    }

    /// The PC/SC Part 3 storage-card ATR (3.1.3.2.3): `3B 8F 80 01 80 4F 0C`, RID `A0 00 00 03 06`,
    /// standard 03 (ISO 14443 A part 3), the card name, four RFU zero bytes, TCK the XOR of T0 …
    /// the last historical byte.
    var atr: [UInt8] {
        let name: [UInt8]
        switch card {
        case .classic(let c): name = c.layout.cardName
        case .ultralight: name = [0x00, 0x03]
        }
        let body: [UInt8] = [0x3B, 0x8F, 0x80, 0x01, 0x80, 0x4F, 0x0C, 0xA0, 0x00, 0x00, 0x03, 0x06, 0x03] + name + [0x00, 0x00, 0x00, 0x00]
        return body + [body.dropFirst().reduce(0, ^)]
    }

    var uid: [UInt8] {
        switch card {
        case .classic(let c): return c.uid
        case .ultralight(let u): return u.uid
        }
    }

    /// The card leaves its authenticated state (reset, power cycle); the reader keeps its keys.
    mutating func resetCard() {
        if case .classic(var c) = card { c.reset(); card = .classic(c) }
    }

    /// The reader's answer to one APDU (`FF CA` is answered before, by `VirtualReader`).
    mutating func answer(_ apdu: [UInt8]) -> [UInt8] {
        guard apdu.count >= 4, apdu[0] == 0xFF else { return refuse(apdu) }
        switch apdu[1] {
        case 0x82: return loadKeys(apdu)
        case 0x86: return generalAuthenticate(apdu)
        case 0x88: return obsoleteAuthenticate(apdu)
        case 0xB0: return readBinary(apdu)
        default: return refuse(apdu)
        }
    }

    private mutating func refuse(_ apdu: [UInt8], with status: [UInt8] = Self.unsupported) -> [UInt8] {
        // A refused Load Keys is kept without its key: keys are secrets, even in memory lists.
        refusedCommands.append(apdu.count > 5 && apdu[1] == 0x82 ? Array(apdu.prefix(5)) : apdu)
        return status
    }

    // MARK: Load Keys

    private mutating func loadKeys(_ apdu: [UInt8]) -> [UInt8] {
        let p1 = apdu[2], p2 = apdu[3]
        // Case 3: the key, Lc 06, nothing after it.
        let key: [UInt8]? = apdu.count == 11 && apdu[4] == 0x06 ? Array(apdu[5...]) : nil
        switch dialect {
        case .acs:
            // Key structure 00 (volatile; "Other = Reserved"), key number 00–01 (ACM1252U-Y3 5.2.4.1).
            guard p1 == 0x00, p2 <= 0x01, let key else { return Self.failed }
            keys[p2] = key
            return Self.ok
        case .acsSessionKey:
            // Key structure 00 with the session key 20, or 20 (non-volatile) with a key number
            // 00-1F; "Other = Reserved" (ACM1281U-C7 5.1.3.1): the operation failed.
            guard p1 == 0x00 && p2 == 0x20 || p1 == 0x20 && p2 <= 0x1F, let key else { return Self.failed }
            keys[p2] = key
            return Self.ok
        case .omnikey:
            // An OMNIKEY 5321 answered 69 86 to a Load Keys with P1 00 (stackoverflow q/18830280).
            guard p1 == 0x20 else { return [0x69, 0x86] }
            // Key numbers 00–1F for MIFARE keys; the rest of HID's key numbering is other cards' (GUESS).
            guard p2 <= 0x1F, let key else { return Self.failed } // GUESS: no source gives this status
            keys[p2] = key
            return Self.ok
        case .identiv:
            // Status words of SCL3711 reference 6.2.3.4: 69 87 "Non volatile memory not available"
            // (P1 asks for a structure other than 00), 69 88 "Key number not valid" (P2 not a key
            // type), 69 89 "Key length not correct".
            guard p1 == 0x00 else { return [0x69, 0x87] }
            guard p2 == 0x60 || p2 == 0x61 else { return [0x69, 0x88] }
            guard let key else { return [0x69, 0x89] }
            keys[p2] = key
            return Self.ok
        case .readOnly:
            return refuse(apdu)
        }
    }

    // MARK: Authentication

    /// `FF 86 00 00 05 01 00 <block> <60|61> <key number>` (PC/SC Part 3, 3.2.2.1.6).
    private mutating func generalAuthenticate(_ apdu: [UInt8]) -> [UInt8] {
        if dialect == .readOnly { return refuse(apdu) }
        guard apdu.count == 10, apdu[2] == 0x00, apdu[3] == 0x00, apdu[4] == 0x05, apdu[5] == 0x01, apdu[6] == 0x00 else {
            return Self.failed // GUESS for OMNIKEY and Identiv; ACS: 63 00
        }
        return authenticate(block: apdu[7], keyType: apdu[8], keyNumber: apdu[9])
    }

    /// `FF 88 00 <block> <60|61> <key number>`, the obsolete PC/SC 2.01 form the ACS manuals keep
    /// (ACR122U API v2.04 5.2; ACM1252U-Y3 5.2.4.2 "[Obsolete]").
    private mutating func obsoleteAuthenticate(_ apdu: [UInt8]) -> [UInt8] {
        switch dialect {
        case .acs, .acsSessionKey:
            guard apdu.count == 6, apdu[2] == 0x00 else { return Self.failed }
            return authenticate(block: apdu[3], keyType: apdu[4], keyNumber: apdu[5])
        case .omnikey:
            // An OMNIKEY 5127 CK answered 67 00 to FF 88 (techqa.club q 27277214).
            return refuse(apdu, with: [0x67, 0x00])
        case .identiv, .readOnly:
            // Identiv's manuals list FF 86 only.
            return refuse(apdu)
        }
    }

    private mutating func authenticate(block: UInt8, keyType: UInt8, keyNumber: UInt8) -> [UInt8] {
        guard let type = ClassicEmulator.KeyType(rawValue: keyType) else {
            // SCL010 reference 6.2.4.4: 69 86 "Key type not known"; ACS 63 00; OMNIKEY GUESS.
            return dialect == .identiv ? [0x69, 0x86] : Self.failed
        }
        let key: [UInt8]?
        switch dialect {
        case .identiv:
            // The key of that type, named by key number 01 (uTrust 3720F reference 6.2.4); any
            // other number, or no key of that type loaded: 69 84 "Referenced key not usable"
            // (SCL010 reference 6.2.4.4; which status each case gets is a GUESS).
            guard keyNumber == 0x01, let k = keys[keyType] else { return [0x69, 0x84] }
            key = k
        default:
            key = keys[keyNumber]
        }
        // No key in that slot: the reader fails without the card (ACS 63 00; OMNIKEY GUESS).
        guard let key else { return Self.failed }
        switch card {
        case .classic(var c):
            let opened = c.authenticate(block: Int(block), keyType: type, key: key)
            card = .classic(c)
            // Wrong key: ACS 63 00; Identiv's table has 63 00 "WARNING no further info" and 69 82
            // "Security status not satisfied" (SCL010 6.2.4.4): 63 00 chosen (GUESS); OMNIKEY GUESS.
            return opened ? Self.ok : Self.failed
        case .ultralight:
            // An Ultralight "does not need to do any authentication" (ACM1252U-Y3 5.2.4.2) and does
            // not answer one: the reader's failure (GUESS for non-ACS readers).
            return Self.failed
        }
    }

    // MARK: Read Binary

    /// `FF B0 00 <block or page> <Le>` (PC/SC Part 3, 3.2.2.1.8).
    private mutating func readBinary(_ apdu: [UInt8]) -> [UInt8] {
        guard apdu.count == 5, apdu[2] == 0x00 else { return Self.failed } // GUESS for non-ACS readers
        let start = Int(apdu[3])
        // Le 00: one block (HID's sample reads a block with Le 00; elsewhere GUESS).
        let wanted = apdu[4] == 0x00 ? 16 : Int(apdu[4])
        switch card {
        case .classic(var c):
            guard wanted % 16 == 0, wanted <= maxClassicBytes(from: start, of: c) else { return Self.failed } // ACS 63 00; others GUESS
            let data = c.read(block: start, count: wanted / 16)
            card = .classic(c)
            guard let data else { return readFailure }
            return data + Self.ok
        case .ultralight(var u):
            // ACR122T API p.16: Le 10 answers pages p…p+3, Le 04 page p; at most 16 bytes.
            guard wanted <= 16 else { return Self.failed }
            let data = u.read(page: start)
            card = .ultralight(u)
            guard let data else { return readFailure }
            return Array(data.prefix(wanted)) + Self.ok
        }
    }

    /// What a read the card refuses (outside the open sector, an unread block, past the end) answers.
    private var readFailure: [UInt8] {
        switch dialect {
        // SCM3712 reference 8.2.1.4 (Identiv's storage-card Read Binary): 69 82 "Security status not satisfied".
        case .identiv: return [0x69, 0x82]
        // ACS: 63 00. OMNIKEY and RC-S300: GUESS.
        default: return Self.failed
        }
    }

    /// The most bytes one Read Binary may ask of a Classic card from `block`. ACS readers after
    /// the ACR122U read "multiples of 16" over several data blocks of one sector, a trailer only
    /// in single block mode (ACM1252U-Y3 reference 5.2.4.3: 48 bytes in a sector of 4 blocks,
    /// 240 in a 4K sector of 16). The ACR122U reads "Maximum 16 bytes" (ACR122U API v2.04
    /// 5.3; ACR122T API p.16); OMNIKEY, Identiv and the others one block (GUESS).
    private func maxClassicBytes(from block: Int, of card: ClassicEmulator) -> Int {
        switch model {
        case .pcsc, .acr1252u:
            guard let sector = card.sector(ofBlock: block), !card.isTrailer(block) else { return 16 }
            let trailer = card.blocks(ofSector: sector).upperBound - 1
            return (trailer - block) * 16
        default:
            return 16
        }
    }
}
