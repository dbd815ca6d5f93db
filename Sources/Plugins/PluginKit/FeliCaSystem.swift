import CardProtocol

/// Reads from one FeliCa system of the card. Made for one read: it keeps the IDm and the block limit
/// it learns, never across reads.
public final class FeliCaSystem {
    public let card: CardLink
    /// The IDm the commands go to: after a read, the one the card answered.
    public private(set) var idm: [UInt8]
    /// The most blocks a read asks for: what fits the reader's frames, lowered when the card answers
    /// "illegal number of blocks".
    public private(set) var blocksPerRead: Int
    /// The system code to poll when a derived IDm meets silence; nil once the card answered the IDm.
    private var unconfirmedCode: UInt16?
    /// True when the system answers an IDm of its own that Polling gave, not the derived one (as
    /// phones' Mobile FeliCa systems do).
    public private(set) var answeredOwnIDm = false

    public init(card: CardLink, idm: [UInt8]) {
        self.card = card; self.idm = idm
        blocksPerRead = FeliCa.blocksPerRead(fitting: card.largestFeliCaFrame)
    }

    /// Reaches `systemCode` on the card. When the host knows the card's systems, the system's IDm is
    /// first taken as the polled IDm with the system number in the upper four bits of its first byte
    /// (FeliCa Card User's Manual; East Wind EWTJ-680H manual, "IDm of System 1 becomes 0001b"): no
    /// exchange. Phones (Mobile FeliCa) answer other IDms: a command the card is silent to then polls
    /// for the system's IDm (see `send`). Otherwise one Polling for the code, whose silence alone is
    /// `notThisCard` (a reader failure propagates). Throws `notThisCard` when the system is absent.
    public static func open(_ card: CardLink, systemCode: UInt16) throws -> FeliCaSystem {
        if let codes = card.systemCodes {
            guard let index = codes.firstIndex(of: systemCode) else { throw PluginError.notThisCard }
            if let idm = FeliCaIDm.derived(from: card.uid, system: index) {
                let system = FeliCaSystem(card: card, idm: idm)
                system.unconfirmedCode = systemCode
                return system
            }
        }
        let answer: [UInt8]
        do {
            answer = try card.felica(FeliCa.polling(systemCode: systemCode))
        } catch PluginError.noAnswer {
            throw PluginError.notThisCard // no card answered polling for this system
        }
        return FeliCaSystem(card: card, idm: try FeliCa.polledIDm(answer))
    }

    /// Sends the command `build` makes for an IDm and returns the answer's payload (`answerCode`
    /// checked, bytes after the IDm). Every command of the system goes through here. When the card
    /// stays silent to a derived IDm not yet answered, one Polling for the system code asks for its
    /// IDm, and the command goes again to that IDm, used from then on. Silence to that Polling is
    /// `noAnswer`, not `notThisCard`: the card listed the system.
    private func send(answerCode: UInt8, _ build: ([UInt8]) throws -> [UInt8]) throws -> Bytes {
        let answer: [UInt8]
        do {
            answer = try card.felica(build(idm))
        } catch let failure as PluginError {
            guard case .noAnswer = failure, let code = unconfirmedCode else { throw failure }
            let polled: [UInt8]
            do {
                polled = try FeliCa.polledIDm(card.felica(FeliCa.polling(systemCode: code)))
            } catch PluginError.noAnswer {
                throw PluginError.noAnswer("the card lists system \(Hex.string(code)) but answered neither its derived IDm nor Polling for it")
            }
            card.log("system \(Hex.string(code)) answers IDm \(Hex.string(polled)), not the derived \(Hex.string(idm))")
            answeredOwnIDm = polled != idm
            idm = polled
            unconfirmedCode = nil
            return try FeliCa.payload(of: card.felica(build(idm)), code: answerCode, idm: idm)
        }
        let payload = try FeliCa.payload(of: answer, code: answerCode, idm: idm)
        unconfirmedCode = nil
        return payload
    }

    /// Request Service: the key version of each node, nil where the card answers FFFF (no such service).
    public func requestService(_ nodes: [UInt16]) throws -> [UInt16?] {
        let p = try send(answerCode: 0x03) { FeliCa.requestService(idm: $0, nodes: nodes) }
        guard try Int(p.u8(0)) == nodes.count else { throw PluginError.malformedResponse("Request Service answered for another node count") }
        return try nodes.indices.map {
            let v = UInt16(try p.le(1 + 2 * $0, 2))
            return v == 0xFFFF ? nil : v
        }
    }

    /// Reads the given blocks of several services in the fewest commands the card takes, the blocks
    /// shared evenly among them (21 at 12 a command: 11 + 10). Returns each service's blocks in the
    /// order asked; throws `FeliCaStatus` when the card refuses.
    public func read(_ requests: [(service: UInt16, blocks: [Int])]) throws -> [UInt16: [Bytes]] {
        var list = [(service: UInt16, block: Int)]()
        for r in requests { list += r.blocks.map { (r.service, $0) } }
        var out = [UInt16: [Bytes]]()
        var start = 0
        while start < list.count {
            let chunk = Array(list[start ..< start + Self.chunkSize(remaining: list.count - start, limit: blocksPerRead)])
            do {
                let blocks = try readChunk(chunk)
                for (i, item) in chunk.enumerated() { out[item.service, default: []].append(blocks[i]) }
                start += chunk.count
            } catch let status as FeliCaStatus where status.flag2 == FeliCa.illegalBlockCount && chunk.count > 1 {
                guard let lower = FeliCaBlocks.below(chunk.count) else { throw status }
                blocksPerRead = lower
            }
        }
        return out
    }

    /// The next command's share of `remaining` blocks split evenly over the fewest commands of at most
    /// `limit` blocks (the earlier commands take the odd ones).
    static func chunkSize(remaining: Int, limit: Int) -> Int {
        let commands = (remaining + max(1, limit) - 1) / max(1, limit)
        return (remaining + commands - 1) / commands
    }

    /// What a read got of one service: its blocks in order up to the first the card refused.
    public struct ServiceBlocks: Equatable {
        public let blocks: [Bytes]
        /// True when the card refused a block of this service (those after it were not read).
        public let refused: Bool
    }

    /// Like `read`, but a refusal does not end everything: the services are then read one by one,
    /// and a service of several blocks block by block, up to the first refused block. The happy path
    /// costs the same commands as `read`; refusals cost extra commands only when they happen.
    public func readAllowingRefusals(_ requests: [(service: UInt16, blocks: [Int])]) throws -> [UInt16: ServiceBlocks] {
        do {
            let all = try read(requests)
            return all.mapValues { ServiceBlocks(blocks: $0, refused: false) }
        } catch is FeliCaStatus {
            var out = [UInt16: ServiceBlocks]()
            for r in requests {
                do {
                    out[r.service] = ServiceBlocks(blocks: try read([r])[r.service] ?? [], refused: false)
                } catch is FeliCaStatus {
                    var got = [Bytes]()
                    for block in r.blocks where r.blocks.count > 1 {
                        do {
                            guard let b = try read([(r.service, [block])])[r.service]?.first else { break }
                            got.append(b)
                        } catch is FeliCaStatus {
                            break
                        }
                    }
                    out[r.service] = ServiceBlocks(blocks: got, refused: true)
                }
            }
            return out
        }
    }

    private func readChunk(_ chunk: [(service: UInt16, block: Int)]) throws -> [Bytes] {
        var services = [UInt16]()
        for item in chunk where !services.contains(item.service) { services.append(item.service) }
        let elements = chunk.map { item in (service: services.firstIndex(of: item.service) ?? 0, block: item.block) }
        let p = try send(answerCode: 0x07) { try FeliCa.readWithoutEncryption(idm: $0, services: services, blocks: elements) }
        let flag1 = try p.u8(0), flag2 = try p.u8(1)
        guard flag1 == 0 else { throw FeliCaStatus(flag1: flag1, flag2: flag2) }
        guard try Int(p.u8(2)) == chunk.count, p.count == 3 + 16 * chunk.count else {
            throw PluginError.malformedResponse("Read Without Encryption returned \(p.count) bytes for \(chunk.count) blocks")
        }
        return try chunk.indices.map { try p.slice(3 + 16 * $0, 16) }
    }
}
