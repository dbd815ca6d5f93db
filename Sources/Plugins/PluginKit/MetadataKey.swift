import ReaderABI

/// The metadata keys and values the host gives a meaning to (transit_reader.h, TRANSIT_META_*):
/// a plugin names them through these, so a typo is a compile error. Other keys are the family's own.
public enum MetadataKey {
    /// Card: the FeliCa IDm in hex.
    public static let idm = TRANSIT_META_IDM
    /// Card: `phoneMedium` for a phone's card.
    public static let medium = TRANSIT_META_MEDIUM
    public static let phoneMedium = TRANSIT_MEDIUM_PHONE
    /// Card: what named the issuer (shown with --verbose).
    public static let issuerMarkers = TRANSIT_META_ISSUER_MARKERS
    /// Record: the region ("0"–"3") of the entry / exit station.
    public static let entryRegion = TRANSIT_META_ENTRY_REGION
    public static let exitRegion = TRANSIT_META_EXIT_REGION
    /// Record: a bus record's line and stop codes.
    public static let busLineCode = TRANSIT_META_BUS_LINE_CODE
    public static let busStopCode = TRANSIT_META_BUS_STOP_CODE
    /// Record: the network whose location codes the stations are (the user's tables key on it).
    public static let network = TRANSIT_META_NETWORK
    /// Record: what happened beyond the type; `autoChargeEvent` and `refundEvent` mean something to the host.
    public static let event = TRANSIT_META_EVENT
    public static let autoChargeEvent = TRANSIT_EVENT_AUTO_CHARGE
    public static let refundEvent = TRANSIT_EVENT_REFUND
    /// Record: the card's record counter.
    public static let sequence = TRANSIT_META_SEQUENCE
    /// Record: free text stored with it.
    public static let userData = TRANSIT_META_USER_DATA
    /// Record: both raw amounts of a record that stores two.
    public static let usageAmount = TRANSIT_META_USAGE_AMOUNT
    public static let chargeAmount = TRANSIT_META_CHARGE_AMOUNT
    /// A key starting with it is personal data (a holder's name or birth date): the host shows it
    /// only with `--personal` and never archives it. `personal("birthDate")` is such a key.
    public static let personalPrefix = TRANSIT_META_PERSONAL_PREFIX
    public static func personal(_ name: String) -> String { personalPrefix + name }
}
