import CardProtocol
import Foundation
import TransitModel

/// The card under the reader as plugins need it: FeliCa frames through the reader's pass-through,
/// APDUs with 61xx / 6Cxx handled, and the facts learned once per card (technology, UID, systems).
package final class CardSession {
    package let channel: ReaderChannel
    /// The read's deadline, passed with every exchange: none outlasts it.
    package let deadline: Deadline
    /// The reader's line in `ReaderTable` (or `ReaderProfile.unknown`).
    package var profile: ReaderProfile { passThrough.profile }
    /// What the ATR says of the card.
    package let verdict: ATRVerdict
    /// The card's technology and UID (FeliCa: the IDm of system 0), once `identify` has run.
    package private(set) var technology: CardTechnology?
    package private(set) var uid = [UInt8]()
    private let passThrough: FeliCaPassThrough
    /// MIFARE Classic and Ultralight: the sectors and pages, once `identify` found such a card.
    package private(set) var storage: StorageCardReader?
    /// The Classic keys this read may try (the user's and a dump's; the generic ones are added).
    private let keys: ClassicKeyRing
    /// `transit replay`: the replayed read's key record (stand-ins and digest answers).
    private let keyRecord: ClassicKeyRecord?
    /// Receives the session's own log lines (a dialect refused and the next one tried).
    package var log: (String) -> Void = { _ in } {
        didSet { passThrough.log = log; storage?.log = log }
    }

    /// `dialect` forces one dialect; otherwise `firstGuess` (a dialect this reader used before) is
    /// tried first and the reader's profile gives the rest. Every exchange ends by `deadline`.
    package init(channel: ReaderChannel, dialect forced: FeliCaDialect?, firstGuess: FeliCaDialect? = nil, deadline: Deadline,
                 keys: ClassicKeyRing = ClassicKeyRing(), replayedKeys: ClassicKeyRecord? = nil) {
        self.channel = channel
        self.deadline = deadline
        self.keys = keys
        keyRecord = replayedKeys
        verdict = ATRVerdict(atr: channel.atr)
        passThrough = FeliCaPassThrough(profile: .matching(channel.readerName), readerName: channel.readerName,
                                        forced: forced, firstGuess: firstGuess)
    }

    /// The dialect FeliCa frames travel in now (nil: the reader passes none).
    package var dialect: FeliCaDialect? { passThrough.dialect }
    /// Dialects that did not work on this reader, in the order tried.
    package var refusedDialects: [FeliCaDialect] { passThrough.refused.map(\.dialect) }

    /// The longest FeliCa frame, length byte included, that fits the reader's commands and answers
    /// in the current dialect: from the smaller of what the driver reports (SCARD_ATTR_MAXINPUT)
    /// and the profile's limit; nil when neither says.
    package var largestFeliCaFrame: Int? {
        guard let dialect, let limit = [channel.maxCommand, profile.maxCommand].compactMap({ $0 }).min() else { return nil }
        return FeliCaFraming.largestFrame(dialect, maxCommand: limit)
    }

    private func send(_ apdu: [UInt8]) throws -> [UInt8] {
        return try channel.transmit(apdu, by: deadline)
    }

    /// The technology the ATR alone tells; nil when only `identify` can (a memory card, an ATR of
    /// no known form).
    package var technologyFromATR: CardTechnology? {
        switch verdict {
        case .felica: return .felica
        case .iso14443: return .iso7816
        case .storage(let name): return Self.storageTechnology(name)?.technology
        case .unknown: return nil
        }
    }

    /// The card's technology and UID: from the ATR and one `FF CA`. A memory card no family reads
    /// ends here (`tagNotSupported`, no exchange); an ATR of no known form costs one Polling: an
    /// 8-byte UID that a FeliCa Polling answers is FeliCa, anything else ISO 14443-4.
    @discardableResult
    package func identify() throws -> CardTechnology {
        if let technology { return technology }
        log("reader: \(channel.readerName), line \(profile.summary)")
        let technology: CardTechnology
        switch verdict {
        case .storage(let name):
            guard let (kind, sectors) = Self.storageTechnology(name) else {
                throw TransitError(.tagNotSupported, L10n.words("no transit family reads this card: %1$s, a memory card (ATR %2$s)", .init(name), .init(HexFormat.string(channel.atr))))
            }
            if let refusal = kind == .mifareClassic ? profile.classicRefusal : profile.ultralightRefusal {
                throw TransitError(.readerUnsupported, ReaderProfile.words(refusal))
            }
            uid = try readUIDIfGiven() ?? []
            let reader = StorageCardReader(send: { [unowned self] in try self.send($0) }, readerName: channel.readerName,
                                           sectorCount: sectors, keys: keys, replay: keyRecord)
            reader.log = log
            storage = reader
            log("card: \(name) by its ATR (PC/SC Part 3 card name)\(kind == .mifareClassic ? ", \(sectors) sectors, \(keys.count) key\(keys.count == 1 ? "" : "s") brought" : "")")
            technology = kind
        case .felica(let how, let atrIDm):
            uid = try readUIDIfGiven() ?? []
            if uid.count != 8, let atrIDm {
                log("card: the reader gave no IDm to FF CA; taking the one its ATR carries")
                uid = atrIDm
            }
            guard uid.count == 8 else {
                throw TransitError(uid.isEmpty ? .communication : .malformedResponse,
                                   uid.isEmpty ? L10n.words("the reader gave no FeliCa IDm (FF CA)") : L10n.words("the reader gave a FeliCa IDm of %1$s bytes", .init(String(uid.count))))
            }
            log("card: FeliCa by its ATR, \(how)")
            technology = .felica
        case .iso14443:
            // The UID too, as for FeliCa cards, so the log bundle carries it; a reader that will not
            // give it (a non-9000 answer: a phone hands FF CA to the card) does not cost the read.
            uid = try readUIDIfGiven() ?? []
            technology = .iso7816
        case .unknown:
            uid = try readUIDIfGiven() ?? []
            technology = try uid.count == 8 && answersFeliCaPolling() ? .felica : .iso7816
            log("card: ATR \(HexFormat.string(channel.atr)) of no known form; \(technology == .felica ? "a FeliCa Polling answered" : "taken as ISO 14443-4")")
        }
        self.technology = technology
        return technology
    }

    /// The technology and sector count of a memory card by its PC/SC Part 3 card name: MIFARE Classic
    /// 1K (16 sectors), 4K (40), Mini (5), MIFARE Plus in security level 1 (2K: 32, 4K: 40), which
    /// answers as a Classic does; MIFARE Ultralight, Ultralight C and EV1 (sectors 0). Nil for any
    /// other memory card (ICODE, my-d, Topaz…): no family reads them.
    package static func storageTechnology(_ name: String) -> (technology: CardTechnology, sectors: Int)? {
        switch name {
        case "MIFARE Classic 1K": return (.mifareClassic, 16)
        case "MIFARE Classic 4K", "MIFARE Plus SL1 4K": return (.mifareClassic, 40)
        case "MIFARE Mini": return (.mifareClassic, 5)
        case "MIFARE Plus SL1 2K": return (.mifareClassic, 32)
        case "MIFARE Ultralight", "MIFARE Ultralight C", "MIFARE Ultralight EV1": return (.mifareUltralight, 0)
        default: return nil
        }
    }

    /// Polling for any system (FFFF), one slot: true when a FeliCa card answers it. A reader that
    /// carries no FeliCa frame, or a silent card, is false.
    private func answersFeliCaPolling() throws -> Bool {
        do {
            guard let answer = try passThrough.exchange(FeliCaCommand.polling(systemCode: 0xFFFF), send) else { return false }
            return FeliCaCommand.polledIDm(answer) != nil
        } catch let e as TransitError where e.kind == .readerUnsupported || e.kind == .communication || e.kind == .malformedResponse {
            return false
        }
    }

    /// `FF CA 00 00 00`: the UID, or the IDm of a FeliCa card (PC/SC Part 3, Get Data); nil when the
    /// reader answers with an error status (the command is optional for it). Transport failures,
    /// removal and cancellation are thrown.
    package func readUIDIfGiven() throws -> [UInt8]? {
        let answer = try send([0xFF, 0xCA, 0x00, 0x00, 0x00])
        guard answer.count >= 2, answer.suffix(2) == [0x90, 0x00] else { return nil }
        return Array(answer.dropLast(2))
    }

    /// One FeliCa frame through the reader's pass-through. A silent card is `noAnswer`; a reader that
    /// passes no dialect is `readerUnsupported`; one that fails, `communication`.
    package func felica(_ frame: [UInt8]) throws -> [UInt8] {
        guard let answer = try passThrough.exchange(frame, send) else {
            throw TransitError(.noAnswer, L10n.words("the card did not answer FeliCa command %1$s", .init(HexFormat.string(frame.prefix(2).suffix(1)))))
        }
        return answer
    }

    /// Request System Code (command 0C) for the polled IDm: the card's systems in card order,
    /// or nil when the card does not say. A reader that passes no FeliCa frames ends the read here,
    /// before any plugin could mistake it for "not this card".
    package func systemCodes(idm: [UInt8]) throws -> [UInt16]? {
        guard let answer = try passThrough.exchange(FeliCaCommand.requestSystemCode(idm: idm), send) else { return nil }
        return FeliCaCommand.systemCodes(answer, idm: idm)
    }

    /// Ends what the read opened on the reader (a Part 3 transparent session). Nothing is sent after
    /// the card left or the read was cancelled.
    package func finish(after error: TransitError?) {
        if let error, [.sessionLost, .cancelled].contains(error.kind) { return }
        passThrough.finish(send)
    }

    /// GET RESPONSEs one command may take: 32 × 256 bytes is more than any transit card's record
    /// or file holds; a card that asks for more is malformed (issue 45), not waited out.
    package static let maxGetResponses = 32

    /// One APDU; 61xx is followed by GET RESPONSE and 6Cxx re-sent with Le = xx (ISO 7816-4, 5.3.3),
    /// so plugins see only the final data and status word. Both chains are bounded: at most
    /// `maxGetResponses` GET RESPONSEs, and one re-send, since the card named the Le it wants; a
    /// card that goes on is `malformedResponse`, which ends the read at once.
    package func apdu(_ command: [UInt8]) throws -> [UInt8] {
        var answer = try send(command)
        var data = [UInt8]()
        var getResponses = 0, resent = false
        while answer.count >= 2 {
            let sw1 = answer[answer.count - 2], sw2 = answer[answer.count - 1]
            if sw1 == 0x61 {
                guard getResponses < Self.maxGetResponses else {
                    throw TransitError(.malformedResponse, L10n.words("the card answered 61 xx (more data) to %1$s GET RESPONSEs in a row: a chain that does not end",
                                                                      .init(String(Self.maxGetResponses))))
                }
                getResponses += 1
                data += answer.dropLast(2)
                answer = try send([0x00, 0xC0, 0x00, 0x00, sw2])
            } else if sw1 == 0x6C, command.count >= 4 {
                guard !resent else {
                    throw TransitError(.malformedResponse, L10n.words("the card answered 6C xx (wrong length) again to the command re-sent with the Le it named"))
                }
                resent = true
                answer = try send(Self.withLe(command, sw2))
            } else {
                break
            }
        }
        return data + answer
    }

    /// The command with its Le set: replaced in cases 2 and 4, appended in cases 1 and 3.
    package static func withLe(_ command: [UInt8], _ le: UInt8) -> [UInt8] {
        let hasLe = command.count == 5 || (command.count > 5 && command.count == 6 + Int(command[4]))
        return (hasLe ? Array(command.dropLast()) : command) + [le]
    }
}
