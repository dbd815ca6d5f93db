import Foundation
import TransitEngine
import TransitModel
import TransitTransport
import TransitPCSC
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

    /// How often the bus is looked at again while a command waits: an RC-S380 plugged in then is read.
    package static let busInterval = 1.0

    /// The card's channel, and what gives its reader back once the read is done (an RC-S380's
    /// field off and its kernel driver re-attached; nothing for pcscd's readers). Whatever ends
    /// the look, every RC-S380 it opened is given back.
    package func find(deadline: Date, speaker: WaitSpeaker) throws -> (channel: ReaderChannel, done: () -> Void) {
        var usb = [RCS380Reader]()
        do {
            return try look(deadline: deadline, speaker: speaker, usb: &usb)
        } catch {
            usb.forEach { $0.close() }
            throw error
        }
    }

    private func look(deadline: Date, speaker: WaitSpeaker, usb: inout [RCS380Reader]) throws -> (channel: ReaderChannel, done: () -> Void) {
        var busLooked = Date.distantPast
        var context: PCSCContext?
        var pcscd: TransitError?
        var seen = (all: [String](), candidates: [String]())
        while true {
            if Date().timeIntervalSince(busLooked) >= Self.busInterval {
                busLooked = Date()
                let known = Set(usb.map(\.name))
                for reader in RCS380Reader.connected(matching: filter.map { [$0] } ?? []) where !known.contains(reader.name) {
                    reader.log = log
                    usb.append(reader)
                }
            }
            if context == nil {
                do {
                    context = try PCSCContext()
                } catch let e as TransitError where e.pcscCode == PCSCStatus.noService.code {
                    pcscd = e
                }
            }
            if let pcsc = context {
                do {
                    let look = try pcsc.look(readerFilter: filter)
                    seen = (look.all, look.candidates)
                    if let ready = look.ready {
                        usb.forEach { $0.close() }
                        return (try pcsc.connect(ready, exchangeTimeout: exchangeTimeout), {})
                    }
                } catch let e as TransitError where !usb.isEmpty && e.kind != .cancelled {
                    // pcscd went away (or restarts) while an RC-S380 is watched too: look again later.
                    context = nil
                    pcscd = e
                    seen = ([], [])
                }
            }
            // What kept an RC-S380 from being looked at this time round (no access, busy, gone).
            var usbProblem: TransitError?
            for reader in usb {
                do {
                    guard let card = try reader.sense(by: Deadline(secondsFromNow: exchangeTimeout)) else { continue }
                    for other in usb where other !== reader { other.close() }
                    let channel = try reader.channel(card, exchangeTimeout: exchangeTimeout)
                    return (channel, { reader.close() })
                } catch {
                    usbProblem = error
                }
            }
            if Date() >= deadline {
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
            let pause = usb.isEmpty ? 0.2 : Self.usbPollInterval
            if let pcsc = context, !seen.candidates.isEmpty {
                pcsc.waitForChange(seen.candidates, timeoutMs: UInt(pause * 1000))
            } else {
                Thread.sleep(forTimeInterval: min(pause, max(0.01, deadline.timeIntervalSinceNow)))
            }
        }
    }

    /// Why no card was found, most useful first: an RC-S380 that could not be used (no access, busy:
    /// `communication`, said whatever other reader there is), no reader on either transport
    /// (`NoReaderFound`), none that matches, no card.
    private func failure(pcscd: TransitError?, seen: (all: [String], candidates: [String]), usb: [String],
                         usbProblem: TransitError?) -> TransitError {
        if let usbProblem, usbProblem.kind == .communication || seen.candidates.isEmpty { return usbProblem }
        let all = seen.all + usb
        let candidates = seen.candidates + usb
        if all.isEmpty { return NoReaderFound(pcscdRunning: pcscd == nil).error }
        if candidates.isEmpty, let filter {
            return TransitError(.noReader, "no reader matches \"\(filter)\" (readers: \(all.joined(separator: ", ")))")
        }
        if candidates.isEmpty {
            return TransitError(.noReader, "only SAM interfaces are connected (\(all.joined(separator: ", "))); name one with --reader")
        }
        var feliCaOnly = usb.isEmpty ? "" : " (\(usb.count == 1 ? "the RC-S380 reads" : "RC-S380s read") FeliCa cards only: Suica, ICOCA, Edy, WAON, nanaco, Octopus…)"
        // A PC/SC reader whose line says it reads no type B card: a Calypso card on it is never seen.
        let noTypeB = seen.candidates.filter { ReaderProfile.matching($0).readsTypeB == false }
        if !noTypeB.isEmpty {
            feliCaOnly += " (\(noTypeB.joined(separator: ", ")) \(noTypeB.count == 1 ? "reads" : "read") no ISO 14443 type B card: Navigo, MOBIB and most Calypso cards are not seen there)"
        }
        return TransitError(.noCard, "no card on \(candidates.count == 1 ? candidates[0] : "any reader")" + feliCaOnly
                            + (wait > 0 ? " after \(Int(wait)) s" : "; hold a card on the reader or use --wait SECONDS"))
    }
}
