/// The worker's side of the card: every APDU goes to the host over the link, which sends it to the
/// reader (or card image, or log) and answers with the reader's answer or the transport error.
final class RemoteChannel: ReaderChannel {
    private let link: WorkerLink
    let readerName: String
    let atr: [UInt8]
    let maxCommand: Int?

    init(link: WorkerLink, readerName: String, atr: [UInt8], maxCommand: Int?) {
        self.link = link; self.readerName = readerName; self.atr = atr; self.maxCommand = maxCommand
    }

    func transmit(_ apdu: [UInt8]) throws -> [UInt8] {
        if link.send(.transmit, apdu), case .message(let kind, let payload) = link.receive() {
            if kind == .answer { return payload }
            if kind == .failure, let failure = WorkerMessages.decode(WorkerMessages.Failure.self, payload) { throw failure.error }
        }
        throw TransitError(.communication, "the host stopped answering its plugin worker")
    }
}
