import Foundation

/// The card under the reader as plugins need it: FeliCa frames in the reader's dialect, APDUs
/// with 61xx / 6Cxx handled, and the facts learned once per card (technology, UID, systems).
final class CardSession {
    let channel: ReaderChannel
    let technology: CardTechnology
    /// The dialect FeliCa frames travel in now: the first guess until the reader refuses it.
    private(set) var dialect: FeliCaDialect
    /// Dialects the reader refused the pass-through in, in the order tried.
    private(set) var refusedDialects = [FeliCaDialect]()
    /// True once the reader carried a frame (or the card's silence) in `dialect`; it is then kept.
    private(set) var dialectConfirmed = false
    private let dialectForced: Bool
    /// Exchanges with the reader so far.
    private(set) var exchanges = 0
    /// Receives the session's own log lines (a dialect refused and the next one tried).
    var log: (String) -> Void = { _ in }

    /// `dialect` forces one dialect; otherwise `firstGuess` (a dialect this reader used before, or one
    /// told by its name) is tried first and the others follow when the reader refuses it.
    init(channel: ReaderChannel, dialect forced: FeliCaDialect?, firstGuess: FeliCaDialect? = nil) {
        self.channel = channel
        technology = CardTechnology(atr: channel.atr)
        dialect = forced ?? firstGuess ?? FeliCaDialect.guess(forReader: channel.readerName)
        dialectForced = forced != nil
    }

    private func send(_ apdu: [UInt8]) throws -> [UInt8] {
        exchanges += 1
        return try channel.transmit(apdu)
    }

    /// `FF CA 00 00 00`: the UID, or the IDm of a FeliCa card (PC/SC Part 3, Get Data).
    func readUID() throws -> [UInt8] {
        let answer = try send([0xFF, 0xCA, 0x00, 0x00, 0x00])
        guard answer.count >= 2, answer.suffix(2) == [0x90, 0x00] else {
            throw TransitError(.communication, "the reader gave no UID (answer \(HexFormat.string(answer)))")
        }
        return Array(answer.dropLast(2))
    }

    /// The UID of an ISO card, or nil when the reader answers `FF CA` with an error status (the
    /// command is optional for it); transport failures, removal and cancellation are thrown.
    func readUIDIfGiven() throws -> [UInt8]? {
        let answer = try send([0xFF, 0xCA, 0x00, 0x00, 0x00])
        guard answer.count >= 2, answer.suffix(2) == [0x90, 0x00] else { return nil }
        return Array(answer.dropLast(2))
    }

    /// The polled FeliCa IDm (`FF CA`), which must be 8 bytes.
    func readFeliCaIDm() throws -> [UInt8] {
        let idm = try readUID()
        guard idm.count == 8 else { throw TransitError(.malformedResponse, "the reader gave a FeliCa IDm of \(idm.count) bytes") }
        return idm
    }

    /// One FeliCa frame through the reader's dialect. A silent card is `noAnswer`; a reader that
    /// refuses every dialect, or fails, is `communication`.
    func felica(_ frame: [UInt8]) throws -> [UInt8] {
        guard let answer = try passThrough(frame) else {
            throw TransitError(.noAnswer, "the card did not answer FeliCa command \(HexFormat.string(frame.prefix(2).suffix(1)))")
        }
        return answer
    }

    /// The card's frame, or nil when it stayed silent. Until a dialect has worked, a refusal of the
    /// pass-through tries the next dialect on the same frame, one exchange each.
    private func passThrough(_ frame: [UInt8]) throws -> [UInt8]? {
        while true {
            guard let apdu = FeliCaFraming.wrap(frame, dialect) else {
                throw TransitError(.communication, "a FeliCa frame of \(frame.count) bytes does not fit one \(dialect.rawValue) command")
            }
            switch try FeliCaFraming.unwrap(send(apdu), dialect) {
            case .frame(let answer):
                dialectConfirmed = true
                return answer
            case .silent:
                dialectConfirmed = true
                return nil
            case .refused(let why):
                refusedDialects.append(dialect)
                let next = FeliCaDialect.allCases.first { !refusedDialects.contains($0) }
                guard !dialectForced, !dialectConfirmed, let next else {
                    throw TransitError(.communication, "the reader refused the FeliCa pass-through in \(refusedDialects.map(\.rawValue).joined(separator: ", ")) (\(why))"
                                       + (dialectForced ? "; try another --dialect" : ""))
                }
                log("reader: refused the \(dialect.rawValue) pass-through (\(why)); trying \(next.rawValue)")
                dialect = next
            }
        }
    }

    /// Request System Code (command 0C) for the polled IDm: the card's systems in card order,
    /// or nil when the card does not say. A reader that refuses the pass-through ends the read here,
    /// before any plugin could mistake it for "not this card".
    func systemCodes(idm: [UInt8]) throws -> [UInt16]? {
        guard let answer = try passThrough([UInt8(10), 0x0C] + idm) else { return nil }
        guard answer.count >= 11, answer[1] == 0x0D, Array(answer[2 ..< 10]) == idm else { return nil }
        let n = Int(answer[10])
        guard answer.count == 11 + 2 * n else { return nil }
        return (0 ..< n).map { UInt16(answer[11 + 2 * $0]) << 8 | UInt16(answer[12 + 2 * $0]) }
    }

    /// One APDU; 61xx is followed by GET RESPONSE and 6Cxx re-sent with Le = xx (ISO 7816-4, 5.3.3),
    /// so plugins see only the final data and status word.
    func apdu(_ command: [UInt8]) throws -> [UInt8] {
        var answer = try send(command)
        var data = [UInt8]()
        var rounds = 0
        while answer.count >= 2, rounds < 32 {
            let sw1 = answer[answer.count - 2], sw2 = answer[answer.count - 1]
            if sw1 == 0x61 {
                data += answer.dropLast(2)
                answer = try send([0x00, 0xC0, 0x00, 0x00, sw2])
            } else if sw1 == 0x6C, command.count >= 4 {
                answer = try send(Self.withLe(command, sw2))
            } else {
                break
            }
            rounds += 1
        }
        return data + answer
    }

    /// The command with its Le set: replaced in cases 2 and 4, appended in cases 1 and 3.
    static func withLe(_ command: [UInt8], _ le: UInt8) -> [UInt8] {
        let hasLe = command.count == 5 || (command.count > 5 && command.count == 6 + Int(command[4]))
        return (hasLe ? Array(command.dropLast()) : command) + [le]
    }
}
