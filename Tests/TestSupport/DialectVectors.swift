/// Reader-level byte vectors for the three FeliCa dialects, written by hand from the specifications
/// and reader manuals, not from either side's code: the host's transport and the simulator's reader
/// are both checked against them, so a misreading the two share fails a test.
/// Sources: PC/SC 2.02 Part 3, 3.2.2.1 Transparent Exchange (as restated in the ACS ACM1252U-Y3
/// reference manual 5.2.3 and the Identive CLOUD 47x0 F reference manual, generic error status
/// table); ISO/IEC 7816-4 BER-TLV lengths (00–7F, 81 LL, 82 LL LL); NXP PN532 User Manual UM0701-02,
/// 7.1 error codes (status low six bits; 01 time out); ACS ACR1252U direct transmit (63 00 failed).
public enum DialectVectors {
    /// A FeliCa frame of `n` bytes: its own length byte, then a recognisable pattern.
    public static func frame(_ n: Int) -> [UInt8] { [UInt8(n)] + (1 ..< n).map { UInt8(truncatingIfNeeded: $0 &* 7) } }

    /// A pass-through command: the frame and the exact APDU a reader of that dialect expects
    /// (nil where the frame cannot travel in one short APDU).
    public struct Command: Sendable {
        public let dialect: String
        public let frame: [UInt8]
        public let apdu: [UInt8]?
    }

    public static let commands: [Command] = [1, 127, 128, 200, 245, 246, 252, 255].flatMap { n -> [Command] in
        let f = frame(n)
        // Part 3: FF C2 00 01 Lc, the timer object 5F46 (4 bytes of µs, least significant first:
        // 50 C3 00 00 is 50 ms, as the ACR1552U driver sends it), data object 95 with a BER-TLV
        // length, Le 00 (a case 4 command).
        let part3Object: [UInt8] = [0x5F, 0x46, 0x04, 0x50, 0xC3, 0x00, 0x00] + (n < 0x80 ? [0x95, UInt8(n)] : [0x95, 0x81, UInt8(n)])
        let part3Lc = part3Object.count + n
        // PN532 behind an ACR122U: FF 00 00 00 Lc D4 40 01 (InDataExchange, target 1).
        let pn532Lc = 3 + n
        return [
            Command(dialect: "part3", frame: f, apdu: part3Lc <= 255 ? [0xFF, 0xC2, 0x00, 0x01, UInt8(part3Lc)] + part3Object + f + [0x00] : nil),
            Command(dialect: "pn532", frame: f, apdu: pn532Lc <= 255 ? [0xFF, 0x00, 0x00, 0x00, UInt8(pn532Lc), 0xD4, 0x40, 0x01] + f : nil),
            Command(dialect: "acs-direct", frame: f, apdu: [0xFF, 0x00, 0x00, 0x00, UInt8(n)] + f),
        ]
    }

    /// What an answer means: the card's frame, its silence, the reader refusing the pseudo-APDU
    /// (another dialect may work), a reader or radio failure, or bytes that do not parse.
    public enum Meaning: Equatable, Sendable {
        case frame([UInt8]), silent, refused, failure, malformed
    }

    public struct Answer: Sendable {
        public let dialect: String
        public let bytes: [UInt8]
        public let meaning: Meaning
        /// True when a conforming reader produces exactly these bytes for this meaning (the
        /// simulator must then answer the same); false for other forms a reader may use.
        public let canonical: Bool
    }

    private static let ok: [UInt8] = [0x90, 0x00]

    public static let answers: [Answer] = {
        var out = [Answer]()
        for n in [1, 127, 128, 200, 253, 255] {
            let f = frame(n)
            let length: [UInt8] = n < 0x80 ? [UInt8(n)] : [0x81, UInt8(n)]
            out.append(Answer(dialect: "part3", bytes: [0xC0, 0x03, 0x00, 0x90, 0x00, 0x97] + length + f + ok, meaning: .frame(f), canonical: true))
            out.append(Answer(dialect: "pn532", bytes: [0xD5, 0x41, 0x00] + f + ok, meaning: .frame(f), canonical: true))
            out.append(Answer(dialect: "acs-direct", bytes: f + ok, meaning: .frame(f), canonical: true))
        }
        let f = frame(128)
        out += [
            // Part 3, other conforming forms: the three-byte length, response status and bit framing
            // objects before the frame (as readers add them), a two-byte tag (5F46 timer) to skip.
            Answer(dialect: "part3", bytes: [0xC0, 0x03, 0x00, 0x90, 0x00, 0x97, 0x82, 0x00, 0x80] + f + ok, meaning: .frame(f), canonical: false),
            Answer(dialect: "part3", bytes: [0xC0, 0x03, 0x00, 0x90, 0x00, 0x92, 0x01, 0x00, 0x96, 0x02, 0x00, 0x00, 0x97, 0x01, 0x01] + ok,
                   meaning: .frame([0x01]), canonical: false),
            Answer(dialect: "part3", bytes: [0xC0, 0x03, 0x00, 0x90, 0x00, 0x5F, 0x46, 0x04, 0x40, 0x42, 0x0F, 0x00, 0x97, 0x01, 0x01] + ok,
                   meaning: .frame([0x01]), canonical: false),
            // Generic error status XX 64 01: no response from the card, whichever object number XX.
            Answer(dialect: "part3", bytes: [0xC0, 0x03, 0x01, 0x64, 0x01] + ok, meaning: .silent, canonical: true),
            Answer(dialect: "part3", bytes: [0xC0, 0x03, 0x02, 0x64, 0x01] + ok, meaning: .silent, canonical: false),
            // XX 6A 81: the data object is not supported by this reader.
            Answer(dialect: "part3", bytes: [0xC0, 0x03, 0x01, 0x6A, 0x81] + ok, meaning: .refused, canonical: false),
            // XX 64 00: no response from the reader (IFD); XX 6F 00: failed, no precise diagnosis.
            Answer(dialect: "part3", bytes: [0xC0, 0x03, 0x01, 0x64, 0x00] + ok, meaning: .failure, canonical: false),
            Answer(dialect: "part3", bytes: [0xC0, 0x03, 0x01, 0x6F, 0x00] + ok, meaning: .failure, canonical: false),
            // Response status 96 other than 00 00: a reception error.
            Answer(dialect: "part3", bytes: [0xC0, 0x03, 0x00, 0x90, 0x00, 0x96, 0x02, 0x01, 0x00, 0x97, 0x01, 0x01] + ok, meaning: .failure, canonical: false),
            // A length that runs past the answer, a lone tag, no C0, no 97.
            Answer(dialect: "part3", bytes: [0xC0, 0x03, 0x00, 0x90, 0x00, 0x97, 0x81, 0x80, 0x01] + ok, meaning: .malformed, canonical: false),
            Answer(dialect: "part3", bytes: [0xC0, 0x03, 0x00, 0x90, 0x00, 0x97] + ok, meaning: .malformed, canonical: false),
            Answer(dialect: "part3", bytes: [0x97, 0x01, 0x01] + ok, meaning: .malformed, canonical: false),
            Answer(dialect: "part3", bytes: [0xC0, 0x03, 0x00, 0x90, 0x00] + ok, meaning: .malformed, canonical: false),
            // The pseudo-APDU refused as a whole (ISO 7816-4: INS, CLA, function not supported).
            Answer(dialect: "part3", bytes: [0x6D, 0x00], meaning: .refused, canonical: false),
            Answer(dialect: "part3", bytes: [0x6E, 0x00], meaning: .refused, canonical: false),
            Answer(dialect: "part3", bytes: [0x6A, 0x81], meaning: .refused, canonical: true),
            // PN532: status 01 time out (silence); 02 CRC, 03 parity, 05 framing, 0B RF protocol errors;
            // bit 6 (MI) does not change the error code; InCommunicateThru's D5 43 as well.
            Answer(dialect: "pn532", bytes: [0xD5, 0x41, 0x01] + ok, meaning: .silent, canonical: true),
            Answer(dialect: "pn532", bytes: [0xD5, 0x43, 0x01] + ok, meaning: .silent, canonical: false),
            Answer(dialect: "pn532", bytes: [0xD5, 0x41, 0x02] + ok, meaning: .failure, canonical: false),
            Answer(dialect: "pn532", bytes: [0xD5, 0x41, 0x03] + ok, meaning: .failure, canonical: false),
            Answer(dialect: "pn532", bytes: [0xD5, 0x41, 0x05] + ok, meaning: .failure, canonical: false),
            Answer(dialect: "pn532", bytes: [0xD5, 0x41, 0x0B] + ok, meaning: .failure, canonical: false),
            Answer(dialect: "pn532", bytes: [0xD5, 0x41, 0x42] + ok, meaning: .failure, canonical: false),
            // MI (bit 6) with no error: a chained answer, which a FeliCa frame never needs.
            Answer(dialect: "pn532", bytes: [0xD5, 0x41, 0x40, 0x01] + ok, meaning: .failure, canonical: false),
            Answer(dialect: "pn532", bytes: [0xD5, 0x43, 0x00, 0x01] + ok, meaning: .frame([0x01]), canonical: false),
            Answer(dialect: "pn532", bytes: [0x63, 0x00], meaning: .failure, canonical: false),
            Answer(dialect: "pn532", bytes: [0x6A, 0x81], meaning: .refused, canonical: true),
            Answer(dialect: "pn532", bytes: [0xD5, 0x41] + ok, meaning: .malformed, canonical: false),
            Answer(dialect: "pn532", bytes: [0xD5, 0x41, 0x00, 0x05, 0x01] + ok, meaning: .malformed, canonical: false),
            // ACS direct transmit: 63 00 "operation failed" is these readers' answer when the card is silent.
            Answer(dialect: "acs-direct", bytes: [0x63, 0x00], meaning: .silent, canonical: true),
            Answer(dialect: "acs-direct", bytes: [0x6A, 0x81], meaning: .refused, canonical: true),
            Answer(dialect: "acs-direct", bytes: [0x64, 0x00], meaning: .failure, canonical: false),
            Answer(dialect: "acs-direct", bytes: [0x05, 0x01] + ok, meaning: .malformed, canonical: false),
            Answer(dialect: "acs-direct", bytes: [0x00], meaning: .malformed, canonical: false),
        ]
        return out
    }()
}
