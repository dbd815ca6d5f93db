import TransitModel
import TransitTransport

/// The RC-S380s on USB as a `ReaderSource`: each opened to sense a card (a Polling at 212, then
/// 424 kbit/s) and given back at once; on exit, every one still held is given back to its kernel
/// driver (`RCS380Reader.giveBackAll`). None where libusb cannot look (a container), which is no
/// error: the user may have only PC/SC readers.
package final class USBReaderSource: ReaderSource {
    package init() {}

    package var transport: ReaderTransport { .usb }

    package func list(by deadline: Deadline) throws -> [ListedReader] {
        RCS380Reader.connected(matching: []).map { reader in
            defer { reader.close() }
            do throws(TransitError) {
                let card = try reader.sense(by: deadline)
                return ListedReader(name: reader.name, transport: .usb, atr: card.map { _ in RCS380Channel.atr })
            } catch {
                return ListedReader(name: reader.name, transport: .usb, atr: nil, problem: TransitError(error, while: "looking at \(reader.name)").message)
            }
        }
    }

    package func giveBackAll() { RCS380Reader.giveBackAll() }
}
