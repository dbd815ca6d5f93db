import ReaderABI

/// The metadata keys and values the host gives a meaning to (transit_reader.h, TRANSIT_META_*):
/// the host reads metadata only through these names, so a typo is a compile error.
public enum MetadataKey {
    public static let idm = TRANSIT_META_IDM
    public static let medium = TRANSIT_META_MEDIUM
    public static let phoneMedium = TRANSIT_MEDIUM_PHONE
    public static let issuerMarkers = TRANSIT_META_ISSUER_MARKERS
    public static let entryRegion = TRANSIT_META_ENTRY_REGION
    public static let exitRegion = TRANSIT_META_EXIT_REGION
    public static let busLineCode = TRANSIT_META_BUS_LINE_CODE
    public static let busStopCode = TRANSIT_META_BUS_STOP_CODE
    public static let network = TRANSIT_META_NETWORK
    public static let event = TRANSIT_META_EVENT
    public static let autoChargeEvent = TRANSIT_EVENT_AUTO_CHARGE
    public static let refundEvent = TRANSIT_EVENT_REFUND
    public static let sequence = TRANSIT_META_SEQUENCE
    public static let userData = TRANSIT_META_USER_DATA
    public static let usageAmount = TRANSIT_META_USAGE_AMOUNT
    public static let chargeAmount = TRANSIT_META_CHARGE_AMOUNT
    /// Keys starting with it are personal data: out of every output unless `--personal`, never archived.
    public static let personalPrefix = TRANSIT_META_PERSONAL_PREFIX

    /// True for a key that holds personal data.
    public static func isPersonal(_ key: String) -> Bool { key.hasPrefix(personalPrefix) }
}
