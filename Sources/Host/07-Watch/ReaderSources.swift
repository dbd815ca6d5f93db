import TransitPCSC
import TransitTransport
import TransitUSB

/// Every kind of reader transit reaches, in the order commands list them: pcscd's, then USB's.
package enum ReaderSources {
    package static let pcsc: ReaderSource = PCSCReaderSource()
    package static let usb: ReaderSource = USBReaderSource()
    package static let all = [pcsc, usb]

    /// Every reader any source holds, given back as the process ends (`Termination.onEnd`).
    package static func giveBackAll() { all.forEach { $0.giveBackAll() } }
}
