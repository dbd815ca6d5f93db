/// The keys of InSetProtocol's (key, value) pairs (docs/research/port100.md §"InSetProtocol"; nfcpy rcs380.py,
/// port100.c `PORT100_IN_PROT_*`).
package enum InSetProtocolKey: UInt8, CaseIterable, Sendable {
    case initialGuardTime = 0x00, addCRC = 0x01, checkCRC = 0x02, multiCard = 0x03, addParity = 0x04
    case checkParity = 0x05, bitwiseAnticollision = 0x06, validBitsInLastByte = 0x07, crypto1 = 0x08
    case addSOF = 0x09, checkSOF = 0x0A, addEOF = 0x0B, checkEOF = 0x0C, deafTime = 0x0E
    case continuousReceive = 0x0F, minimumContinuousLength = 0x10, type1TagRRDD = 0x11, rfca = 0x12
    case guardTimeAtInitiator = 0x13

    /// The settings sent once per card session for FeliCa: nfcpy's default set (rcs380.py;
    /// docs/research/port100.md V4, byte for byte), which already says the initial guard time.
    /// nfcpy sends the same set first for type A too, then the type A keys (`TypeA`).
    ///
    /// The initial guard time is 0x18 (24), nfcpy's, not port100.c's 18 (0x12) from its NFC-F
    /// framing table (docs/research/port100.md §"InSetProtocol": which is right is unknown, both are in use). 24 because
    /// it is what the Suica readings people publish with an RC-S380 ran with (nfcpy, docs/research/port100.md
    /// §"Use on Linux"), because it keeps the one vector we have (V4) byte for byte, and because the longer
    /// wait before the first frame is the safer error. nfcpy then sends `00 18` again in a second
    /// InSetProtocol before each Polling; that repeats what this set says and is not sent.
    package static let felicaDefaults: [(key: InSetProtocolKey, value: UInt8)] = [
        (.initialGuardTime, 0x18), (.addCRC, 0x01), (.checkCRC, 0x01), (.multiCard, 0x00), (.addParity, 0x00),
        (.checkParity, 0x00), (.bitwiseAnticollision, 0x00), (.validBitsInLastByte, 0x08), (.crypto1, 0x00),
        (.addSOF, 0x00), (.checkSOF, 0x00), (.addEOF, 0x00), (.checkEOF, 0x00), (.deafTime, 0x04),
        (.continuousReceive, 0x00), (.minimumContinuousLength, 0x00), (.type1TagRRDD, 0x00), (.rfca, 0x00),
        (.guardTimeAtInitiator, 0x06),
    ]

    /// Pairs as InSetProtocol's parameters: key, value, key, value…
    package static func parameters(_ pairs: [(key: InSetProtocolKey, value: UInt8)]) -> [UInt8] {
        pairs.flatMap { [$0.key.rawValue, $0.value] }
    }
}
