import TransitModel
import TransitPCSC
import TransitTransport
import TransitUSB

/// Every kind of reader transit reaches, in the order commands list them: pcscd's, then USB's. The
/// composition root: the one file of TransitWatch that names TransitPCSC and TransitUSB
/// (WatchLayerTests); the rest of TransitWatch, and the CLI, reach readers through these sources.
package enum ReaderSources {
    package static let pcsc: ReaderSource = PCSCReaderSource()
    package static let usb: ReaderSource = USBReaderSource()
    package static let all = [pcsc, usb]

    /// Adds the reader-table lines of the readers transit drives itself (`USBReaderTable`'s) to
    /// `ReaderTable`: called once as the process starts, before any lookup by a reader's name
    /// and before the plugin worker forks (it looks the reader up too).
    package static func addDriverLines() { ReaderTable.add(USBReaderTable.profiles()) }

    /// Every reader any source holds, given back as the process ends (`Termination.onEnd`).
    package static func giveBackAll() { all.forEach { $0.giveBackAll() } }

    /// The Sony readers on the bus transit does not drive yet (`NoReaderFound`), by name.
    package static var unsupported: [String] { USBReaders.unsupported.map(\.readerName) }
    /// The models of the USB reader table, each once, as its lines name them together ("RC-S380").
    package static var usbModels: [String] { USBReaderTable.families() }
    /// How to start pcscd, in words (`NoReaderFound`'s `advice`).
    package static var startPcscd: L10n.Words { PCSCStatus.startPcscdWords }
}
