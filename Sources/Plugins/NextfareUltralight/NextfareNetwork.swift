import PluginKit

/// The network a Nextfare Ultralight ticket belongs to, told from pages 4–6 (Metrodroid
/// transit/yvr_compass/CompassUltralightTransitData.kt and transit/ventra/VentraUltralightTransitData.kt,
/// `check`): page 4 bytes 0–2 are 0A 04 00 or 0A 08 00, page 5 byte 1 is 01 and byte 3 is 00,
/// page 6 bytes 0–2 are zero; page 5 byte 2 bit 7 set is Compass, clear is Ventra.
enum NextfareNetwork {
    case compass, ventra

    /// The network of the ticket whose pages 4–7 are `header`, or nil for another card.
    init?(header: Bytes) throws {
        let head = try header.be(0, 3)
        guard head == 0x0A_0400 || head == 0x0A_0800 else { return nil }
        guard try header.u8(5) == 0x01, try header.u8(7) == 0x00, try header.be(8, 3) == 0 else { return nil }
        self = try header.u8(6) & 0x80 != 0 ? .compass : .ventra
    }

    var family: String { self == .compass ? "compass" : "ventra" }
    var cardName: String { self == .compass ? "Compass Ticket" : "Ventra Ticket" }
    var currency: String { self == .compass ? "CAD" : "USD" }
    /// Vancouver's and Chicago's local time, which the tickets keep.
    var zone: SummerTimeZone { self == .compass ? .vancouver : .chicago }

    /// Compass product names by the code in page 5 byte 2, bits 0–6 (Metrodroid
    /// CompassUltralightTransitData.productCodes and its English strings compass_sub_*); Ventra's are unknown.
    var productNames: [Int: String] {
        guard self == .compass else { return [:] }
        return [0x01: "DayPass", 0x02: "One Zone", 0x03: "Two Zone", 0x04: "Three Zone",
                0x0F: "Four Zone WCE (one way)", 0x11: "Sea Island free ticket", 0x16: "Exit",
                0x1E: "One Zone with YVR", 0x1F: "Two Zone with YVR", 0x20: "Three Zone with YVR",
                0x21: "DayPass with YVR", 0x22: "Bulk DayPass", 0x23: "Bulk One Zone", 0x24: "Bulk Two Zone",
                0x25: "Bulk Three Zone", 0x26: "Bulk One Zone", 0x27: "Bulk Two Zone", 0x28: "Bulk Three Zone",
                0x29: "GradPass"]
    }

    /// What a record's route byte says of the mode (Metrodroid CompassUltralightTransaction /
    /// VentraUltralightTransaction `mode`): 0 is a ticket machine; on Compass 5 and 7 are buses,
    /// 3, 9 and 0A trains.
    func mode(route: Int) -> String {
        if route == 0 { return "ticket machine" }
        guard self == .compass else { return "other" }
        switch route {
        case 5, 7: return "bus"
        case 3, 9, 0x0A: return "train"
        default: return "other"
        }
    }

    /// Whether a record of this route was made on a bus (Compass routes 5 and 7; Ventra: never known).
    func isBus(route: Int) -> Bool { self == .compass && (route == 5 || route == 7) }
}
