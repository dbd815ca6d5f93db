import CardProtocol
import CardSimulation
import TransitModel
import TransitTransport

/// `transit dump` of a FeliCa card: every system, its services (Search Service Code), and every
/// block of the services readable without a key, as many per Read Without Encryption as the card
/// takes. FeliCa command facts: Search Service Code 0A (index little-endian, answer 0B with a 2-byte
/// service or 4-byte area code, FFFF past the end); a service needs no key when its attribute's
/// lowest bit is 1 (FeliCa Card User's Manual, service attributes).
package struct FeliCaDumper {
    package let session: CardSession
    /// Search Service Code indexes tried per system at most.
    package static let maxServices = 1024

    package init(session: CardSession) { self.session = session }

    /// The card's image; the session has identified the card as FeliCa.
    package func dump() throws -> CardImage {
        let idm = session.uid
        let codes = try session.systemCodes(idm: idm) ?? []
        var blocksPerRead = FeliCaBlocks.perRead(fitting: session.largestFeliCaFrame)
        var systems = [CardImage.FeliCaSystemImage]()
        for (index, code) in codes.enumerated() {
            // The derived IDm first; silent to it (a phone), or past system 15 where none can be
            // derived, the IDm Polling for the system returns.
            let derived = FeliCaIDm.derived(from: idm, system: index)
            var systemIDm = derived ?? idm
            var found: [UInt16]?
            if let derived {
                do { found = try searchServices(derived) } catch let e as TransitError where e.kind == .noAnswer && index > 0 {}
            }
            if found == nil {
                systemIDm = try polledIDm(code)
                found = try searchServices(systemIDm)
            }
            var services = [String: [String]](), locked = [String]()
            for service in found ?? [] {
                let name = HexFormat.string(service)
                guard service & 0x01 == 1 else { locked.append(name); continue }
                services[name] = try readService(systemIDm, service, &blocksPerRead).map { HexFormat.string($0) }
            }
            systems.append(.init(code: HexFormat.string(code), services: services, lockedServices: locked,
                                 idm: systemIDm == derived ? nil : HexFormat.string(systemIDm)))
        }
        return CardImage(description: "transit dump of \(session.channel.readerName)",
                         felica: .init(idm: HexFormat.string(idm), maxBlocksPerRead: blocksPerRead, systems: systems))
    }

    /// Polling for `code`: the IDm the system answers with.
    private func polledIDm(_ code: UInt16) throws -> [UInt8] {
        guard let idm = FeliCaCommand.polledIDm(try session.felica(FeliCaCommand.polling(systemCode: code))) else {
            throw TransitError(.malformedResponse, L10n.Words(english: "Polling answer", said: L10n.tr("the card's Polling answer did not parse")))
        }
        return idm
    }

    private func searchServices(_ idm: [UInt8]) throws -> [UInt16] {
        var out = [UInt16]()
        for i in 0 ..< Self.maxServices {
            let answer = try session.felica(FeliCaCommand.searchServiceCode(idm: idm, index: UInt16(i)))
            guard answer.count >= 12, answer[1] == 0x0B else { throw TransitError(.malformedResponse, L10n.Words(english: "Search Service Code answer", said: L10n.tr("the card's Search Service Code answer did not parse"))) }
            let code = UInt16(answer[10]) | UInt16(answer[11]) << 8
            if code == 0xFFFF { break }
            if answer.count == 12 { out.append(code) } // 14 bytes: an area (code and end code)
        }
        return out
    }

    /// Blocks 0, 1, … until the card refuses one; `blocksPerRead` steps down on "illegal number of blocks".
    private func readService(_ idm: [UInt8], _ service: UInt16, _ blocksPerRead: inout Int) throws -> [[UInt8]] {
        var blocks = [[UInt8]]()
        var count = blocksPerRead
        while blocks.count + count <= 0x10000 { // FeliCa block numbers are 16 bits
            let first = blocks.count
            let elements = (first ..< first + count).compactMap { BlockElement(serviceIndex: 0, block: $0) }
            let answer = try session.felica(FeliCaCommand.readWithoutEncryption(idm: idm, services: [service], blocks: elements))
            guard answer.count >= 12, answer[1] == 0x07 else { throw TransitError(.malformedResponse, L10n.Words(english: "Read Without Encryption answer", said: L10n.tr("the card's Read Without Encryption answer did not parse"))) }
            if answer[10] == 0 {
                guard answer.count == 13 + 16 * count else { throw TransitError(.malformedResponse, L10n.Words(english: "Read Without Encryption length", said: L10n.tr("the card's Read Without Encryption answer has the wrong length"))) }
                for i in 0 ..< count { blocks.append(Array(answer[13 + 16 * i ..< 29 + 16 * i])) }
                continue
            }
            // Refused: too many blocks at once (A2) steps the count down; otherwise read what is left one by one.
            if answer[11] == FeliCaBlocks.illegalCount, count > 1 {
                count = FeliCaBlocks.below(count) ?? 1
                blocksPerRead = min(blocksPerRead, count)
            } else if count > 1 {
                count = 1
            } else {
                break
            }
        }
        return blocks
    }
}
