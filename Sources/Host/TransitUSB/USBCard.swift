import CardProtocol
import TransitModel

/// A FeliCa card that answered a Polling, whatever the chip that polled (the RC-S380's InCommRF,
/// the RC-S956's InListPassiveTarget).
package struct FeliCaTarget: Equatable, Sendable {
    package let idm: [UInt8]
    package let pmm: [UInt8]
    /// The system code, when the Polling asked for it (request code 01).
    package let systemCode: UInt16?
    package let bitRate: FeliCaBitRate

    package init(idm: [UInt8], pmm: [UInt8], systemCode: UInt16?, bitRate: FeliCaBitRate) {
        self.idm = idm; self.pmm = pmm; self.systemCode = systemCode; self.bitRate = bitRate
    }

    /// The card a Polling's answer names; nil for no answer, a damaged one or a frame that is no
    /// Polling's answer.
    package init?(polled reception: FeliCaReception, bitRate: FeliCaBitRate, requestSystemCode: Bool = true) {
        guard case .frame(let answer) = reception else { return nil }
        // LEN 01 IDm PMm [system code]: accepted as nfcpy does, LEN ≥ 18, LEN = the length, code 01
        // (nfcpy rcs380.py `sense_ttf`; docs/research/port100.md §"Sequences").
        guard let idm = FeliCaCommand.polledIDm(answer), answer.count >= 18 else { return nil }
        let code = requestSystemCode && answer.count >= 20 ? UInt16(answer[18]) << 8 | UInt16(answer[19]) : nil
        self.init(idm: idm, pmm: Array(answer[10 ..< 18]), systemCode: code, bitRate: bitRate)
    }
}

/// What one frame to a card brought back, whatever the chip.
package enum FeliCaReception: Equatable, Sendable {
    /// The card's frame, its length byte first.
    case frame([UInt8])
    /// Nothing within the timeout.
    case silence
    /// The chip received something that was not a frame (CRC, parity, collision…).
    case radioError(InCommRFStatus)
}

/// A card a USB reader sensed: FeliCa, or a 106 kbit/s type A card it can say something of
/// (MIFARE Ultralight and the other Type 2 tags, which a driver may read; MIFARE Classic, which none can).
package enum USBCard: Equatable, Sendable {
    case felica(FeliCaTarget)
    case typeA(TypeA.Target)

    /// What tells one card from another: the IDm, the UID.
    package var identity: [UInt8] {
        switch self {
        case .felica(let target): return target.idm
        case .typeA(let target): return target.uid
        }
    }

    /// The ATR the card's channel shows.
    package var atr: [UInt8] {
        switch self {
        case .felica: return USBFeliCaChannel.atr
        case .typeA(let target): return TypeA.atr(kind: target.kind, sak: target.sak) ?? []
        }
    }
}

/// What one look at a USB reader saw: a card, none, or an answer that came back damaged (a card
/// being placed or moved: there is a card, not yet read), which a watch takes as no change.
package enum USBSight: Equatable, Sendable {
    case card(USBCard), none, damaged
}
