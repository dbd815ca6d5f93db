/// A prepaid purse in a FeliCa system (the common area FE00 holds Edy, WAON and nanaco), found by
/// its balance service and read in one Request Service and, on the happy path, one read.
///
/// Detection fallback (docs/specification.md §"Detection fallback"): a card without the balance service (Request Service answers FFFF) is
/// not this purse. Once it exists, a refused balance read ends the read; other refused blocks are
/// left out (each service keeps the blocks read before its first refusal).
public struct FeliCaPurse {
    public let system: FeliCaSystem
    public let balanceBlock: Bytes
    private let services: [UInt16: FeliCaSystem.ServiceBlocks]

    /// Opens `systemCode`, checks the services in one Request Service, reads the balance block and
    /// the `others` that exist.
    public init(_ card: CardLink, systemCode: UInt16, balanceService: UInt16,
                others: [(service: UInt16, blocks: [Int])]) throws {
        system = try FeliCaSystem.open(card, systemCode: systemCode)
        let present = try system.requestService([balanceService] + others.map(\.service))
        guard present.first.flatMap({ $0 }) != nil else { throw PluginError.notThisCard }
        let wanted = [(service: balanceService, blocks: [0])] + others.enumerated().compactMap { i, o in
            present.indices.contains(i + 1) && present[i + 1] != nil ? o : nil
        }
        services = try system.readAllowingRefusals(wanted)
        guard let balance = services[balanceService]?.blocks.first else {
            throw PluginError.cardRefused("the card refused the balance block of service \(Hex.string(balanceService))")
        }
        balanceBlock = balance
    }

    /// The blocks read of a service, in order (empty when absent or refused at its first block).
    public func blocks(_ service: UInt16) -> [Bytes] { services[service]?.blocks ?? [] }

    /// The first block of a service, when it could be read.
    public func block(_ service: UInt16) -> Bytes? { blocks(service).first }

    /// The IDm of the purse's system, as uppercase hex (metadata "idm").
    public var idm: String { Hex.string(system.idm) }
}
