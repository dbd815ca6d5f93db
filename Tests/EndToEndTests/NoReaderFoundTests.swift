import TestSupport
import TransitWatch
import XCTest

/// What `readers`, `scan` and `doctor` say of USB with no reader found names the models of the USB
/// reader table as a list (issue 48, item 6): a new table line changes the sentence, with no new
/// sentence to translate. (The words as the commands print them: RCS380EndToEndTests.)
final class NoReaderFoundTests: XCTestCase {
    func testTheUSBSentenceListsTheTablesModels() {
        XCTAssertEqual(ReaderSources.usbModels, ["RC-S380", "RC-S330/360/370"])
        XCTAssertEqual(NoReaderFound(pcscdRunning: true, unsupported: []).usb.english, "no RC-S380 or RC-S330/360/370 on USB")
        let sentence = { (models: [String]) in NoReaderFound(pcscdRunning: true, unsupported: [], usbModels: models).usb.english }
        XCTAssertEqual(sentence(["RC-S380"]), "no RC-S380 on USB")
        XCTAssertEqual(sentence(["RC-S380", "RC-S330/360/370", "SK-3"]), "no RC-S380, RC-S330/360/370 or SK-3 on USB")
        XCTAssertEqual(sentence(["A", "B", "C", "D"]), "no A, B, C or D on USB")
    }

    func testTheAdviceNamesTheTablesModelsToo() {
        let advice = NoReaderFound(pcscdRunning: false, unsupported: [], usbModels: ["RC-S380", "SK-3"]).advice.english
        XCTAssertTrue(advice.contains("a USB reader (RC-S380 or SK-3) needs only to be plugged in"), advice)
    }
}
