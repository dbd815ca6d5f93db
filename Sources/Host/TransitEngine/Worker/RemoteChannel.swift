import TransitModel
import TransitTransport
/// The worker's side of the card: every APDU goes to the host over the link, which sends it to the
/// reader (or card image, or log) and answers with the reader's answer or the transport error.
package final class RemoteChannel: ReaderChannel {
    private let link: WorkerLink
    package let readerName: String
    package let atr: [UInt8]
    package let maxCommand: Int?

    package init(link: WorkerLink, readerName: String, atr: [UInt8], maxCommand: Int?) {
        self.link = link; self.readerName = readerName; self.atr = atr; self.maxCommand = maxCommand
    }

    /// The host holds the read's deadline (the same `Deadline`, sent with the request) and ends
    /// the exchange by it.
    package func transmit(_ apdu: [UInt8], by deadline: Deadline) throws(TransitError) -> [UInt8] {
        if link.send(.transmit, apdu), case .message(let kind, let payload) = link.receive() {
            if kind == .answer { return payload }
            if kind == .failure, let error = WorkerMessages.decode(TransitError.self, payload) { throw error }
        }
        throw TransitError(.communication, L10n.words("the host stopped answering its plugin worker"))
    }
}
