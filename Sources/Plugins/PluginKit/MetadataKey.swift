import CardProtocol

/// The metadata keys the host interprets (transit_reader.h, TRANSIT_META_*), as CardProtocol names
/// them for both sides: `MetadataKey.idm`, `MetadataKey.personal("birthDate")`.
public typealias MetadataKey = CardProtocol.MetadataKey
