import PluginKit

/// Calypso transit cards (Navigo, KorriGo, OùRA, TaM, Pass Pass, Tisséo and other Intercode networks;
/// MOBIB): one library, since every network shares the selection, the file map and the EN 1545
/// packing, and only the environment's network ID tells them apart (docs/research/calypso-desfire-china.md).
/// Reads the ticketing files with SELECT and READ RECORD only.
enum CalypsoPlugin: CardFamilyPlugin {
    static let name = "calypso"
    static let technology: CardTechnology = .iso7816

    /// Short file identifiers of the ticketing DF (docs/research/calypso-desfire-china.md §"Calypso files": Metrodroid CalypsoApplication.File,
    /// Proxmark3 calypso/nodes.json).
    enum SFI {
        static let environment: UInt8 = 0x07, eventLog: UInt8 = 0x08, contracts: UInt8 = 0x09
        static let counters: UInt8 = 0x19, specialEvents: UInt8 = 0x1D, contractList: UInt8 = 0x1E
        /// Counter files 0A–0D, one a contract record 1–4.
        static let firstCounter: UInt8 = 0x0A
    }

    /// MOBIB's network ID (Metrodroid MobibTransitData, docs/research/calypso-desfire-china.md §"EN 1545 layout").
    static let mobibNetwork: UInt64 = 0x056001
    /// Intercode's country prefix for France: network IDs 250xxx (Metrodroid IntercodeTransitData).
    static let franceCountry: UInt64 = 0x250

    static func read(_ card: CardLink) throws -> CardResult {
        let files = CalypsoFiles(card)
        let fci = try files.select()
        let serial = CalypsoSerial(fci: fci, uid: card.uid)
        guard let environment = try files.records(SFI.environment, limit: 2), let first = environment.first else {
            throw PluginError.cardRefused("the card has no ticketing environment (SFI 07)")
        }
        // The network ID: 24 bits after the 6-bit version and the 7-bit bitmap in every Intercode
        // environment (bits 13–36); MOBIB keeps it at the same place (docs/research/calypso-desfire-china.md §"EN 1545 layout").
        var bits = BitReader(first)
        _ = try bits.read(13)
        let network = try bits.read(24)
        var result = CardResult(family: name, serialNumber: serial.number, balance: nil, currency: "EUR",
                                metadata: ["calypsoSerial": serial.hex, MetadataKey.network: hexDigits(network, 6)])
        if network >> 12 == franceCountry {
            try Intercode(files: files, network: network).read(environment, into: &result)
        } else if network == mobibNetwork {
            result.cardName = "MOBIB"
            result.metadata["environment"] = first.hex
            if let mobib = MOBIBEnvironment(first) {
                result.serialNumber = mobib.printedNumber
                // Brussels keeps the time of Paris (CET, CEST: EU directive 2000/84/EC).
                result.validUntil = mobib.validityEnd.flatMap { SummerTimeZone.paris.civilTime(en1545Date: $0, minutes: nil) }
            }
        } else {
            // Another network's layout (Lisboa Viva, Opus, Rav-Kav…): the card and its raw environment.
            result.cardName = "Calypso"
            result.metadata["environment"] = first.hex
        }
        return result
    }
}

/// The card number: the FCI's serial (tag C7, 8 bytes), shown as Metrodroid shows Intercode and
/// Rav-Kav cards: the decimal value of its last 4 bytes (IntercodeTransitData reads ICC bytes 16–19,
/// the same bytes; RavKavTransitData C7 bytes 4–7).
struct CalypsoSerial {
    let number: String
    let hex: String

    /// From the FCI's C7; the UID in hex when the FCI has none (or does not parse).
    init(fci: Bytes, uid: [UInt8]) {
        if let c7 = try? TLV.find([0xC7], in: fci), let low = try? c7.be(c7.count - 4, 4) {
            hex = c7.hex
            number = String(low)
        } else {
            hex = Hex.string(uid)
            number = hex
        }
    }
}

/// MOBIB's environment record (Metrodroid `MobibTransitData.ticketEnvFields` and `getSerial`; docs/research/calypso-desfire-china.md
/// §"EN 1545 layout"): version 6 bits, 7 bits, network 24, 5 bits (version ≤ 2: 9), validity end date
/// 14, 10 bits (≤ 2: 6), BCD birth date 32, then from bit 98 the printed card number in BCD: 6 digits
/// " / " 6 + 4 + 2 digits " / " 1 digit, as Metrodroid prints a blank MOBIB: `639653 / 005644645999 / 9`.
struct MOBIBEnvironment {
    let printedNumber: String
    let validityEnd: UInt64?

    /// Nil when the record is too short for the number or a digit is not BCD (the chip serial stays).
    init?(_ record: Bytes) {
        var bits = BitReader(record)
        guard let version = try? bits.read(6), (try? bits.read(7 + 24)) != nil,
              (try? bits.read(version <= 2 ? 9 : 5)) != nil, let end = try? bits.read(EN1545Field.dateBits) else { return nil }
        var digits = BitReader(record)
        guard (try? digits.read(49)) != nil, (try? digits.read(49)) != nil else { return nil } // bit 98 (reads take 64 bits at most)
        var groups = [String]()
        for count in [6, 6, 4, 2, 1] {
            var group = ""
            for _ in 0 ..< count {
                guard let d = try? digits.read(4), d <= 9 else { return nil }
                group.append(Character(Unicode.Scalar(UInt8(48 + d))))
            }
            groups.append(group)
        }
        printedNumber = "\(groups[0]) / \(groups[1])\(groups[2])\(groups[3]) / \(groups[4])"
        validityEnd = end == 0 ? nil : end
    }
}

/// `value` in uppercase hex, zero-padded to `digits`.
func hexDigits(_ value: UInt64, _ digits: Int) -> String {
    let s = String(value, radix: 16, uppercase: true)
    return String(repeating: "0", count: max(0, digits - s.count)) + s
}

/// The plugin's entry point (transit_reader.h).
@_cdecl("transit_plugin_entry_v1")
public func transitPluginEntry(_ hostVersion: UInt32) -> UnsafeRawPointer? { PluginExport.entry(CalypsoPlugin.self, hostVersion) }
