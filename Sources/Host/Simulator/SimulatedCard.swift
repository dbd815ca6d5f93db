import CardProtocol
import CardSimulation
import Foundation

/// Answers vpcd's messages for one card image until vpcd goes away or the card is pulled.
struct SimulatedCard {
    let image: CardImage
    let dialect: SimulatedDialect?
    let model: ReaderModel
    let latency: Double
    let removeAfter: Int?
    /// After this many answers the card never answers again, staying on the reader (a stuck reader).
    let hangAfter: Int?
    let log: ExchangeLog?

    /// A command as the log writes it: a Load Keys (`FF 82`) without its key, which stays secret
    /// even in the simulator's log.
    static func loggable(_ apdu: [UInt8]) -> String {
        guard apdu.count > 5, apdu[0] == 0xFF, apdu[1] == 0x82 else { return HexFormat.string(apdu) }
        return HexFormat.string(Array(apdu.prefix(5))) + " (key withheld)"
    }

    func serve(_ link: VPCDLink) throws {
        var reader = try VirtualReader(image: image, dialect: dialect, model: model)
        var answered = 0
        while let message = try link.receive() {
            if message.count == 1 {
                switch message[0] {
                case 4: try link.send(reader.atr)
                case 0, 2:
                    // Power off / reset: fresh card state. A reader keeps the MIFARE keys loaded
                    // into it across a card's reset, so a storage card is reset in place.
                    if reader.holdsStorageCard { reader.resetStorageCard() } else { reader = try VirtualReader(image: image, dialect: dialect, model: model) }
                default: break
                }
                continue
            }
            if let removeAfter, answered >= removeAfter {
                link.pullCard()
                return
            }
            if let hangAfter, answered >= hangAfter {
                while try link.receive() != nil {} // hold the link open, answer nothing, until vpcd goes
                return
            }
            if latency > 0 { Thread.sleep(forTimeInterval: latency) }
            let answer = reader.transmit(message)
            try link.send(answer)
            answered += 1
            try log?.append("\(Self.loggable(message)) -> \(HexFormat.string(answer))")
        }
    }
}
