import Foundation
import TransitEngine
import TransitModel
import TransitTransport
import TransitUSB

/// Where a read finds its card: the first reader with one, among pcscd's readers and the Sony
/// RC-S380s on USB (read through libusb, with no pcscd), looked at again until `--wait` runs out.
/// A user with only an RC-S380 needs no pcscd; one with only PC/SC readers sees no difference.
package struct CardFinder {
    /// A part of the reader's name (`--reader`), case-insensitive.
    package let filter: String?
    /// `--wait`: seconds to wait for a reader and a card, 0 to look once.
    package let wait: Double
    package let exchangeTimeout: Double
    /// `--verbose` lines.
    package let log: (String) -> Void

    /// How often an RC-S380 is polled while a command waits: a Polling at each bit rate, about
    /// four times a second.
    package static let usbPollInterval = 0.25

    package init(filter: String?, wait: Double, exchangeTimeout: Double, log: @escaping (String) -> Void) {
        self.filter = filter; self.wait = wait; self.exchangeTimeout = exchangeTimeout; self.log = log
    }

    /// The card's channel, and what gives its reader back once the read is done (an RC-S380's
    /// field off and its kernel driver re-attached; nothing for pcscd's readers).
    package func find(deadline: Date, speaker: WaitSpeaker) throws -> (channel: ReaderChannel, done: () -> Void) {
        let usb = RCS380Reader.connected(matching: filter.map { [$0] } ?? [])
        usb.forEach { $0.log = log }
        // Ctrl-C while an RC-S380 is held gives it back (its kernel driver re-attached) before the end.
        let release = usb.isEmpty ? nil : Termination.shared.onEnd { usb.forEach { $0.giveBackBeforeExit() } }
        func letGo() { release.map(Termination.shared.removeOnEnd) }
        var context: PCSCContext?
        var pcscd: TransitError?
        var usbProblem: TransitError?
        var seen = (all: [String](), candidates: [String]())
        while true {
            if context == nil {
                do {
                    context = try PCSCContext()
                } catch let e as TransitError where e.pcscCode == PCSCStatus.noService.code {
                    pcscd = e
                }
            }
            if let pcsc = context {
                let look = try pcsc.look(readerFilter: filter)
                seen = (look.all, look.candidates)
                if let ready = look.ready {
                    letGo()
                    usb.forEach { $0.close() }
                    return (try pcsc.connect(ready, exchangeTimeout: exchangeTimeout), {})
                }
            }
            for reader in usb {
                do {
                    guard let card = try reader.sense(by: Deadline(secondsFromNow: exchangeTimeout)) else { continue }
                    for other in usb where other !== reader { other.close() }
                    let channel = try reader.channel(card, exchangeTimeout: exchangeTimeout)
                    return (channel, { reader.close(); letGo() })
                } catch {
                    usbProblem = error
                }
            }
            if Date() >= deadline {
                letGo()
                usb.forEach { $0.close() }
                throw failure(pcscd: context == nil ? pcscd : nil, seen: seen, usb: usb.map(\.name), usbProblem: usbProblem)
            }
            let waitingOn = seen.candidates + usb.map(\.name)
            if context == nil && usb.isEmpty {
                speaker.say("for pcscd to start")
            } else {
                speaker.say(waitingOn.isEmpty ? "for a reader" : "for a card on " + (waitingOn.count == 1 ? waitingOn[0] : "\(waitingOn.count) readers"))
            }
            // pcscd's readers wake the wait at once when a card comes; an RC-S380 is polled.
            if let pcsc = context, !seen.candidates.isEmpty {
                pcsc.waitForChange(seen.candidates, timeoutMs: usb.isEmpty ? 200 : 250) // 250: usbPollInterval
            } else {
                Thread.sleep(forTimeInterval: min(usb.isEmpty ? 0.2 : Self.usbPollInterval, max(0.01, deadline.timeIntervalSinceNow)))
            }
        }
    }

    /// Why no card was found, most useful first: a reader that could not be used, pcscd not
    /// running with no other reader, no reader, none that matches, no card.
    private func failure(pcscd: TransitError?, seen: (all: [String], candidates: [String]), usb: [String],
                         usbProblem: TransitError?) -> TransitError {
        if let usbProblem, seen.candidates.isEmpty { return usbProblem }
        if let pcscd, usb.isEmpty { return pcscd }
        let all = seen.all + usb
        let candidates = seen.candidates + usb
        if all.isEmpty { return TransitError(.noReader, "no reader is connected") }
        if candidates.isEmpty, let filter {
            return TransitError(.noReader, "no reader matches \"\(filter)\" (readers: \(all.joined(separator: ", ")))")
        }
        if candidates.isEmpty {
            return TransitError(.noReader, "only SAM interfaces are connected (\(all.joined(separator: ", "))); name one with --reader")
        }
        let feliCaOnly = usb.isEmpty ? "" : " (\(usb.count == 1 ? "the RC-S380 reads" : "RC-S380s read") FeliCa cards only: Suica, ICOCA, Edy, WAON, nanaco, Octopus…)"
        return TransitError(.noCard, "no card on \(candidates.count == 1 ? candidates[0] : "any reader")" + feliCaOnly
                            + (wait > 0 ? " after \(Int(wait)) s" : "; hold a card on the reader or use --wait SECONDS"))
    }
}
