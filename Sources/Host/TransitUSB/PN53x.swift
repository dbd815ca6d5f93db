import CardProtocol
import Foundation
import TransitModel

/// PN53x commands over a `USBPipe`, as the RC-S956 takes them: the shared command link
/// (`USBCommandLink`: command out, the chip's ACK — a transfer of its own — and its answer in,
/// cancel, garbage and drain) with the PN53x framing (docs/research/rcs956-facts.md §2: nfcpy
/// pn53x.py `Chipset.command`, the RC-S330 trace of nfcpy issue #256). A chip that does not
/// answer by the deadline is sent the ACK that cancels the command under way, as nfcpy does on
/// a USB read timeout.
package typealias PN53x = USBCommandLink<PN53xFrame>

/// The RC-S956's PN53x frame as the shared command link sees it (its ACK, TFI bytes, `encode` and
/// `decodeFirst` are `PN53xFrame`'s own).
extension PN53xFrame: USBChipFraming {
    package typealias Command = PN53xCommand
    package static let frameName = "PN53x"
    // A command other than the card's gets the link's `commandTimeout`: nfcpy gives the chip's
    // own commands 0.1–0.25 s and InListPassiveTarget 1 s (rcs956-facts.md §4); the margin is ours.
    package static let defaultName = "the RC-S956"
    /// One bulk read asks this much, as nfcpy's transport does (rcs956-facts.md §2): the largest
    /// answer, 262 bytes of data, comes in an extended frame of 272.
    package static let readLength = 300
    /// The most TFI, command and data one host frame carries (nfcpy rcs956.py
    /// `host_command_frame_max_size = 265`).
    package static let longestCommand = 265
    /// More received and still not a frame is garbage.
    package static let longestAnswer = 262 + 2 + extendedOverhead
    /// A PN53x answers a command it does not take with its error frame, where the ACK belongs.
    package static let refusesInPlaceOfACK = true
}
