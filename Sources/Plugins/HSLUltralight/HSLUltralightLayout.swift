import PluginKit

/// The EN 1545 layouts of an HSL Ultralight eTicket (Metrodroid transit/hsl/HSLArvo.kt, FIELDS_V1_UL
/// and FIELDS_V2_UL; HSLTransaction.kt, EMBED_FIELDS_V1 and _V2): the eTicket starts at byte 7 of
/// pages 4–15 and its last validation at bit 264 of the eTicket. Dates are days since 1997-01-01,
/// times minutes after midnight, Helsinki local time.
enum HSLUltralightLayout {
    /// Application version 2.
    static let eTicketV2: [EN1545Field] = [
        .integer("product", bits: 10), .integer("child", bits: 1), .integer("language", bits: 2),
        .integer("periodUnits", bits: 2), .integer("period", bits: 8),
        .integer("areaType", bits: 2), .integer("area", bits: 6),
        .date("saleDate"), .integer("saleHour", bits: 5), .integer("saleDeviceType", bits: 3), .integer("saleDevice", bits: 14),
        .integer("price", bits: 15), .integer("passengers", bits: 6), .integer("seal1", bits: 48),
        .date("startDate"), .time("startTime"), .date("endDate"), .time("endTime"),
        // then 14 reserved bits and a 64-bit seal
    ]

    /// Application version 1.
    static let eTicketV1: [EN1545Field] = [
        .integer("product", bits: 14), .integer("child", bits: 1), .integer("language", bits: 2),
        .integer("periodUnits", bits: 2), .integer("period", bits: 8),
        .integer("areaType", bits: 1), .integer("area", bits: 4),
        .date("saleDate"), .integer("saleHour", bits: 5), .integer("saleDeviceType", bits: 3), .integer("saleDevice", bits: 14),
        .integer("price", bits: 14), .integer("passengers", bits: 5), .integer("saleStatus", bits: 1), .integer("seal1", bits: 48),
        .date("startDate"), .time("startTime"), .date("endDate"), .time("endTime"),
        .integer("reserved", bits: 5), .integer("validityStatus", bits: 1),
    ]

    /// The byte of the eTicket where its last validation starts (bit 264).
    static let validationByte = 33

    /// The last validation, version 2.
    static let validationV2: [EN1545Field] = [
        .date("date"), .time("time"), .integer("vehicle", bits: 14),
        .integer("locationType", bits: 2), .integer("location", bits: 14), .integer("direction", bits: 1),
        .integer("areaType", bits: 2), .integer("area", bits: 6),
    ]

    /// The last validation, version 1 (no area type: read as 0).
    static let validationV1: [EN1545Field] = [
        .date("date"), .time("time"), .integer("vehicle", bits: 14),
        .integer("locationType", bits: 2), .integer("location", bits: 14), .integer("direction", bits: 1),
        .integer("area", bits: 4), .integer("reserved", bits: 4),
    ]
}
