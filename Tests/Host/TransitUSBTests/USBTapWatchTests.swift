import Foundation
import TransitModel
import TransitUSB
import XCTest

/// A failing RC-S380 in `watch` is said once for each kind of failure, however its garbage varies.
final class USBTapWatchTests: XCTestCase {
    func testFailuresThatDifferOnlyInTheGarbageQuotedAreOneKind() {
        let name = "SONY RC-S380/S (USB 1:13)"
        let garbage = (0 ..< 44).map { n in
            USBTapWatch.failureKind(TransitError(.communication, "\(name) answered a command with bytes that are not a Port-100 frame "
                                                   + "(no 00 00 FF FF FF start: \(String(format: "%02X %02X", n, 255 - n)))"))
        }
        XCTAssertEqual(Set(garbage).count, 1, "44 looks with other garbage: one line \(Set(garbage))")
        let counts = [1030, 1100].map { USBTapWatch.failureKind(TransitError(.communication, "\(name) answered a command with \($0) bytes that do not end a frame")) }
        XCTAssertEqual(counts[0], counts[1])
        let others = [TransitError(.communication, "\(name) stopped answering: no ACK to SetCommandType by its deadline"),
                      TransitError(.communication, "cannot open \(name): no write access to /dev/bus/usb/001/013"),
                      TransitError(.noReader, "\(name) is no longer connected")].map(USBTapWatch.failureKind)
        XCTAssertEqual(Set(others + [garbage[0], counts[0]]).count, 5, "another kind of failure is said again")
    }
}
