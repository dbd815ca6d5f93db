import PluginKit

/// Which issuer a system-0003 card is, from one Request Service (command 02, up to 32 nodes, key
/// version FFFF for a node the card lacks; locked nodes answer too: FeliCa Card User's Manual,
/// Request Service; nfcpy tt3_sony.request_service). Each issuer keeps its own services in its own
/// area, so one marker node a issuer tells the ten apart. Markers checked against the complete
/// service lists of kormax/felica-tool's filesystems.json (26 system-0003 cards, card and phone)
/// and Metrodroid's SuicaTest sets, facts only (docs/research/felica-iso.md §"Request Service", §"Issuer markers").
enum JapanICIssuer {
    /// One node a issuer, each an authenticated random service of that issuer's own area.
    static let markers: [(node: UInt16, name: String)] = [
        (0x1808, "Suica"), (0x1CC8, "PASMO"), (0x1A48, "ICOCA"), (0x2088, "Kitaca"), (0x1E08, "TOICA"),
        (0x9888, "manaca"), (0x1B88, "PiTaPa"), // PiTaPa: Metrodroid's list only, no public dump
        (0x21C8, "SUGOCA"), (0x1F48, "nimoca"), (0x2448, "Hayakaken"),
    ]
    /// JR East's regional co-branded Suica (kormax #4); the card is still a Suica.
    static let regionalSuica: UInt16 = 0x2588
    /// icsca (Sendai), an issuer of none of the ten markers' areas (kormax #6, #7).
    static let icsca: UInt16 = 0xBD48
    /// The area only phones carry (kormax nodes.json: Mobile Suica and PASMO, MOBILE only).
    static let mobileArea: UInt16 = 0x1F08

    static var nodes: [UInt16] { markers.map(\.node) + [regionalSuica, icsca, mobileArea] }

    struct Identity: Equatable {
        /// The issuer, when exactly one marker is present; nil leaves "Japan IC".
        var name: String?
        /// Every marker node present, for reports.
        var present: [UInt16]
        var onPhone: Bool
    }

    /// The card's issuer, or nil when the card does not answer Request Service (it still reads).
    /// A wrong name is worse than a plain one: no marker, or more than one, names nothing. The
    /// exchange is best-effort: a card that refuses it or stays silent names nothing, unsaid; a
    /// reader that failed on it is said in the host's log (`--verbose`, the log bundle), since the
    /// card then reads unnamed for a reason that is not the card's.
    static func identify(_ system: FeliCaSystem) -> Identity? {
        let versions: [UInt16?]
        do {
            versions = try system.requestService(nodes)
        } catch let error as PluginError {
            switch error {
            case .communication, .sessionLost, .cancelled, .internal:
                system.card.log("issuer not named: Request Service failed in the reader (\(error.message)); the card reads on without it")
            case .notThisCard, .cardRefused, .noAnswer, .malformedResponse, .locked:
                break // the card's own answer: it names no issuer
            }
            return nil
        } catch {
            system.card.log("issuer not named: Request Service failed (\(error)); the card reads on without it")
            return nil
        }
        guard versions.count == nodes.count else { return nil }
        let present = zip(nodes, versions).compactMap { $1 == nil ? nil : $0 }
        let issuers = markers.filter { present.contains($0.node) }
        var name = issuers.count == 1 ? issuers.first?.name : nil
        if issuers.isEmpty, present.contains(icsca) { name = "icsca" }
        // A phone carries the mobile area, and answers its systems' own IDms, not the derived ones.
        return Identity(name: name, present: present, onPhone: present.contains(mobileArea) || system.answeredOwnIDm)
    }
}
