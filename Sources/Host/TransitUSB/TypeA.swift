import CardProtocol

/// ISO/IEC 14443-3 type A at 106 kbit/s as the RC-S380 senses and reads it: the frames of a card's
/// activation and of a Type 2 tag's READ, the settings the Port-100 chip is given for each, and
/// CRC_A. The sequence is nfcpy's documented one (rcs380.py `Device.sense_tta` and
/// `send_cmd_recv_rsp`, byte for byte in its tests/test_clf_rcs380.py `test_sense_tta_*` and
/// `test_send_cmd_recv_rsp_with_tt2_target`); docs/research/port100.md §"Type A" states it in our words.
package enum TypeA {
    /// A 106 kbit/s type A card a sense selected (ISO/IEC 14443-3): its SENS_RES (ATQA) as it came,
    /// its whole UID (4, 7 or 10 bytes, cascade tags left out) and its last SEL_RES (SAK).
    package struct Target: Equatable, Sendable {
        package let sensRes: [UInt8]
        package let uid: [UInt8]
        package let sak: UInt8

        package init(sensRes: [UInt8], uid: [UInt8], sak: UInt8) { self.sensRes = sensRes; self.uid = uid; self.sak = sak }

        package var kind: Kind { TypeA.Kind(sak: sak) }
    }

    /// InSetRF for 106 kbit/s type A: send setting 02, send type 03, receive setting 0F, type 03
    /// (docs/research/port100.md §"Commands", nfcpy rcs380.py `in_set_rf` "106A").
    package static let inSetRF: [UInt8] = [0x02, 0x03, 0x0F, 0x03]

    /// Sent after nfcpy's default set before SENS_REQ: no CRC added or checked, parity checked,
    /// initial guard time 6, 7 valid bits in the last byte (a short frame). Pairs in nfcpy's order
    /// (`02 01000200050100060707`, test_sense_tta_with_no_target_found).
    package static let senseSettings: [(key: InSetProtocolKey, value: UInt8)] = [
        (.addCRC, 0x00), (.checkCRC, 0x00), (.checkParity, 0x01), (.initialGuardTime, 0x06), (.validBitsInLastByte, 0x07),
    ]
    /// After SENS_RES, before the anticollision: parity added, whole last bytes (`02 04010708`).
    package static let standardFrames: [(key: InSetProtocolKey, value: UInt8)] = [(.addParity, 0x01), (.validBitsInLastByte, 0x08)]
    /// Before each SDD_REQ (`93 20`…): its answer, UID CLn and BCC, carries no CRC (`02 01000200`).
    package static let crcOff: [(key: InSetProtocolKey, value: UInt8)] = [(.addCRC, 0x00), (.checkCRC, 0x00)]
    /// Before each SEL_REQ: CRC added and checked (`02 01010201`).
    package static let crcOn: [(key: InSetProtocolKey, value: UInt8)] = [(.addCRC, 0x01), (.checkCRC, 0x01)]
    /// A Type 2 tag's exchange, after nfcpy's default set: parity added and checked, the CRC not
    /// checked by the chip, because it reports a tag's 4-bit ACK or NAK as a CRC error; the host
    /// checks CRC_A itself (`02 040102000501`; rcs380.py `_tt2_send_cmd_recv_rsp`).
    package static let type2Exchange: [(key: InSetProtocolKey, value: UInt8)] = [(.addParity, 0x01), (.checkCRC, 0x00), (.checkParity, 0x01)]

    /// InCommRF's timeout for every activation frame: nfcpy's 30 ms (`36 01` on the wire).
    package static let activationTimeout = 0.030

    /// SENS_REQ (REQA), a short frame of 7 bits (ISO/IEC 14443-3 6.3.1; nfcpy's default `26`).
    package static let sensReq: [UInt8] = [0x26]
    /// The SEL codes of cascade levels 1, 2 and 3 (ISO/IEC 14443-3 6.5.3.1).
    package static let cascadeLevels: [UInt8] = [0x93, 0x95, 0x97]
    /// NVB 20: no UID bits sent, the card answers its whole UID CLn (an SDD_REQ); NVB 70: all 40
    /// bits sent, which selects it (a SEL_REQ) (ISO/IEC 14443-3 6.5.3.2).
    package static let nvbAnticollision: UInt8 = 0x20
    package static let nvbSelect: UInt8 = 0x70
    /// The cascade tag that begins UID CLn when the UID goes on to the next level (ISO/IEC 14443-3 6.5.4).
    package static let cascadeTag: UInt8 = 0x88
    /// SEL_RES (SAK) bit 3 (0x04): the UID is not complete, the next cascade level follows (ISO/IEC 14443-3 6.5.3.4).
    package static let sakCascade: UInt8 = 0x04

    /// A Type 2 tag's READ: `30 <page>`, answered with 16 bytes (four pages) and CRC_A (NXP MF0ICU1
    /// §9.3; NFC Forum Type 2 Tag READ; nfcpy tt2.py).
    package static func read(page: UInt8) -> [UInt8] { [0x30, page] }
    /// HLTA, `50 00`: the card goes to HALT and answers nothing; a later SENS_REQ does not wake it
    /// (only a WUPA or the field going off does), so a card left on the reader is not sensed again
    /// (ISO/IEC 14443-3 6.3.3 and 6.4.3).
    package static let halt: [UInt8] = [0x50, 0x00]

    /// What the card is by its SAK (NXP AN10833 "MIFARE type identification procedure" §3.2;
    /// ISO/IEC 14443-3 6.5.3.4; nfcpy `sel_res & 0x60 == 0` for a Type 2 tag).
    package enum Kind: Equatable, Sendable {
        /// SAK bit 0x08: MIFARE Classic or a chip answering as one (08 1K, 18 4K, 09 Mini, 28 and
        /// 38 SmartMX with Classic emulation, 88 Infineon's 1K).
        case classic
        /// Bits 0x08, 0x20 and 0x40 clear: a Type 2 tag (MIFARE Ultralight, its C and EV1, NTAG).
        case type2
        /// Any other: an ISO 14443-4 (0x20) or NFC-DEP (0x40) card, which transit does not read on
        /// the RC-S380.
        case other

        package init(sak: UInt8) {
            if sak & 0x08 != 0 { self = .classic } else if sak & 0x60 == 0 { self = .type2 } else { self = .other }
        }
    }

    /// The PC/SC Part 3 storage-card ATR a PC/SC reader builds for this card: `3B 8F 80 01 80 4F 0C
    /// A0 00 00 03 06`, SS 03 (ISO 14443-3 type A), the card name, four RFU bytes, TCK (PC/SC Part 3
    /// 3.1.3.2.3.2; card names from its supplement as pcsc-tools' smartcard_list lists them: 00 01
    /// Classic 1K, 00 02 Classic 4K, 00 26 Mini, 00 03 Ultralight). `kind` other has none.
    package static func atr(kind: Kind, sak: UInt8) -> [UInt8]? {
        let name: [UInt8]
        switch kind {
        case .type2: name = [0x00, 0x03]
        case .classic where sak & 0x10 != 0: name = [0x00, 0x02] // 18, 38: 4K (AN10833)
        case .classic where sak == 0x09: name = [0x00, 0x26]
        case .classic: name = [0x00, 0x01]
        case .other: return nil
        }
        let body: [UInt8] = [0x3B, 0x8F, 0x80, 0x01, 0x80, 0x4F, 0x0C, 0xA0, 0x00, 0x00, 0x03, 0x06, 0x03] + name + [0x00, 0x00, 0x00, 0x00]
        return body + [body.dropFirst().reduce(0, ^)]
    }

    /// BCC, the XOR of UID CLn's four bytes, which ends an SDD_RES (ISO/IEC 14443-3 6.5.3.2).
    package static func bcc(_ bytes: ArraySlice<UInt8>) -> UInt8 { bytes.reduce(0, ^) }

    /// CRC_A of ISO/IEC 14443-3 Annex B: CRC-16/CCITT reflected (x^16 + x^12 + x^5 + 1), preset
    /// 6363, no final XOR, sent least significant byte first. Annex B's examples: `00 00` gives
    /// `A0 1E`, `12 34` gives `26 CF`.
    package static func crc(_ bytes: [UInt8]) -> [UInt8] {
        var crc: UInt16 = 0x6363
        for byte in bytes {
            var b = byte ^ UInt8(truncatingIfNeeded: crc)
            b ^= b << 4
            crc = (crc >> 8) ^ (UInt16(b) << 8) ^ (UInt16(b) << 3) ^ (UInt16(b) >> 4)
        }
        return [UInt8(truncatingIfNeeded: crc), UInt8(truncatingIfNeeded: crc >> 8)]
    }

    /// True when `frame` ends with the CRC_A of the bytes before it.
    package static func crcHolds(_ frame: [UInt8]) -> Bool {
        guard frame.count > 2 else { return false }
        return crc(Array(frame.dropLast(2))) == Array(frame.suffix(2))
    }
}
