import TestSupport
import XCTest
import TransitUSB

/// `doctor`'s fix for a Sony reader this user may not open: the one step that applies.
final class USBAccessTests: XCTestCase {
    func testTheFixIsTheOneThatApplies() {
        let rule = "/etc/udev/rules.d/60-transit-pasori.rules"
        XCTAssertTrue(USBAccess(rulePath: nil, group: nil, groupExists: false, inGroup: false, user: "ann").fix.hasPrefix("install transit's udev rule"))
        let noGroup = USBAccess(rulePath: rule, group: "transit", groupExists: false, inGroup: false, user: "ann")
        XCTAssertTrue(noGroup.fix.contains("sudo groupadd --system transit"), noGroup.fix)
        let notIn = USBAccess(rulePath: rule, group: "transit", groupExists: true, inGroup: false, user: "ann")
        XCTAssertTrue(notIn.fix.contains("sudo usermod -aG transit ann"), notIn.fix)
        XCTAssertTrue(notIn.fix.contains("seat"), "or at the seat: \(notIn.fix)")
        let added = USBAccess(rulePath: rule, group: "transit", groupExists: true, inGroup: false, addedNotLoggedIn: true, user: "ann")
        XCTAssertTrue(added.fix.contains("log out and in again"), added.fix)
        let member = USBAccess(rulePath: rule, group: "transit", groupExists: true, inGroup: true, user: "ann")
        XCTAssertTrue(member.fix.contains("replug"), member.fix)
        for access in [noGroup, notIn, added, member] { XCTAssertFalse(access.fix.hasPrefix("install"), "the rule is installed: \(access.fix)") }
        XCTAssertTrue(member.ruleDetail.contains(rule))
        XCTAssertEqual(member.groupDetail, "group transit exists; ann is in it")
    }

    /// A machine not upgraded yet has the rule under its former name, which gives the same access:
    /// installed, and never "install transit's udev rule".
    func testTheRuleUnderItsFormerNameIsInstalled() {
        XCTAssertEqual(USBAccess.formerRuleName, "60-transit-rcs380.rules")
        let former = USBAccess(rulePath: "/etc/udev/rules.d/60-transit-rcs380.rules", group: "transit", groupExists: true, inGroup: true, user: "ann")
        XCTAssertTrue(former.ruleDetail.hasPrefix("installed: /etc/udev/rules.d/60-transit-rcs380.rules"), former.ruleDetail)
        XCTAssertFalse(former.fix.hasPrefix("install"), former.fix)
    }

    func testTheGroupIsReadFromTheShippedRule() throws {
        let shipped = try String(contentsOf: BuildProducts.packageRoot.appendingPathComponent("packaging/udev/60-transit-pasori.rules"), encoding: .utf8)
        XCTAssertEqual(USBAccess.group(inRule: shipped), "transit")
        XCTAssertEqual(USBAccess.group(inRule: "# GROUP=\"x\"\nSUBSYSTEM==\"usb\", MODE=\"0660\", GROUP=\"plugdev\"\n"), "plugdev")
        XCTAssertNil(USBAccess.group(inRule: "SUBSYSTEM==\"usb\", TAG+=\"uaccess\"\n"))
    }
}
