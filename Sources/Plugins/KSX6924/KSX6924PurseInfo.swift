import PluginKit

/// The purse information in the SELECT answer's tag B0 (47 bytes; Proxmark3 ksx6924core.c layout):
///   0 card type · 1 algorithm · 2 key version · 3 issuer · 4–11 card serial number
///   12–16 auth ID · 17–20 issue date and 21–24 expiry date, BCD YYYYMMDD · 25 ticket type · …
struct KSX6924PurseInfo {
    let serialNumber: String
    let issued: CivilTime?
    let expires: CivilTime?

    init(_ b: Bytes) throws {
        guard b.count >= 25 else { throw PluginError.malformedResponse("purse information of \(b.count) bytes") }
        serialNumber = try b.slice(4, 8).hex
        issued = BCD.civilTime(try b.slice(17, 4), utcOffset: Zone.korea)
        expires = BCD.civilTime(try b.slice(21, 4), utcOffset: Zone.korea)
    }
}
