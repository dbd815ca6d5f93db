import CardProtocol
import CardSimulation
import TransitTransport

/// `transit dump` of an ISO 14443-4 card: the plugins read it as usual, and every exchange becomes
/// part of a card image that answers the same commands the same way. The host needs no AID: it
/// keeps what the plugins that know the applications asked.
package enum ISODumpRecorder {
    package static func image(from bundle: LogBundle) -> CardImage {
        var applications = [CardImage.ApplicationImage]()
        var global = [String: String]()
        var current: Int?
        for e in collapsed(bundle.exchanges) {
            guard let response = e.response, !e.command.hasPrefix("FFCA") else { continue }
            if e.command.hasPrefix("00A4") {
                if let i = applications.firstIndex(where: { $0.select == e.command }) {
                    current = response.hasSuffix("9000") ? i : current
                } else {
                    applications.append(.init(select: e.command, answer: response))
                    if response.hasSuffix("9000") { current = applications.count - 1 }
                }
            } else if let current {
                applications[current].commands[e.command] = response
            } else {
                global[e.command] = response
            }
        }
        return CardImage(description: "transit dump of \(bundle.reader): the commands the plugins asked",
                         iso7816: .init(uid: bundle.uid ?? "", historicalBytes: HexFormat.bytes(bundle.atr).flatMap(ATR.historicalBytes).map(HexFormat.string),
                                        applications: applications, commands: global))
    }

    /// The exchanges with each `61xx` + GET RESPONSE chain folded into its command's final answer, as
    /// the plugins saw it: the image then answers the command directly.
    package static func collapsed(_ exchanges: [LogBundle.Exchange]) -> [LogBundle.Exchange] {
        var out = [LogBundle.Exchange]()
        for e in exchanges {
            // SW1 61 is the answer's second-to-last byte: the hex before its last two digits ends in "61".
            if e.command.hasPrefix("00C00000"), let last = out.last, let previous = last.response, previous.count >= 4,
               previous.dropLast(2).hasSuffix("61") {
                var merged = last
                merged.response = String(previous.dropLast(4)) + (e.response ?? "")
                out[out.count - 1] = merged
            } else {
                out.append(e)
            }
        }
        return out
    }
}
