import Foundation
import TestSupport
import XCTest

/// packaging/udev/60-transit-pasori.rules, matched as udev(7) says udev matches: `SUBSYSTEM`,
/// `ENV{…}` and `ATTR{…}` test the event's device itself; `ATTRS{…}` searches the device and its
/// parents upwards, every ATTRS key of a rule on the same one. (No `udevadm test` here: it needs
/// the device in /sys, which a container has not.)
final class UdevRuleTests: XCTestCase {
    /// A device of sysfs as udev sees it on an event.
    private final class Device {
        let subsystem: String, env: [String: String], attributes: [String: String], parent: Device?
        init(_ subsystem: String, env: [String: String] = [:], attributes: [String: String] = [:], parent: Device? = nil) {
            self.subsystem = subsystem; self.env = env; self.attributes = attributes; self.parent = parent
        }
    }

    private struct Key { let name: String, argument: String?, op: String, value: String }

    private static let rules: [[Key]] = {
        let path = BuildProducts.packageRoot.appendingPathComponent("packaging/udev/60-transit-pasori.rules").path
        let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        let key = try! NSRegularExpression(pattern: #"([A-Z]+)(?:\{([^}]*)\})?\s*(==|!=|\+=|:=|=)\s*"([^"]*)""#)
        return text.split(separator: "\n").filter { !$0.hasPrefix("#") && !$0.trimmingCharacters(in: .whitespaces).isEmpty }.map { line in
            let s = String(line)
            return key.matches(in: s, range: NSRange(s.startIndex..., in: s)).map { m in
                func group(_ i: Int) -> String? { Range(m.range(at: i), in: s).map { String(s[$0]) } }
                return Key(name: group(1) ?? "", argument: group(2), op: group(3) ?? "", value: group(4) ?? "")
            }
        }
    }()

    /// The assignments of every rule that matches `device` (MODE, GROUP, TAG).
    private func assignments(for device: Device) -> [String] {
        Self.rules.flatMap { rule -> [String] in
            var ok = true
            var attrs = [Key]()
            for k in rule where k.op == "==" || k.op == "!=" {
                let actual: String? = switch k.name {
                case "SUBSYSTEM": device.subsystem
                case "ENV": device.env[k.argument ?? ""]
                case "ATTR": device.attributes[k.argument ?? ""]
                case "ATTRS": { attrs.append(k); return nil }()
                default: { XCTFail("a key this test does not model: \(k.name)"); return nil }()
                }
                if k.name != "ATTRS" { ok = ok && ((actual == k.value) == (k.op == "==")) }
            }
            if !attrs.isEmpty {
                var d: Device? = device, found = false
                while let current = d, !found {
                    found = attrs.allSatisfy { current.attributes[$0.argument ?? ""] == $0.value }
                    d = current.parent
                }
                ok = ok && found
            }
            return ok ? rule.filter { $0.op == "=" || $0.op == "+=" }.map { "\($0.name)=\($0.value)" } : []
        }
    }

    private func usbDevice(_ vendor: String, _ product: String, parent: Device?) -> Device {
        Device("usb", env: ["DEVTYPE": "usb_device"], attributes: ["idVendor": vendor, "idProduct": product], parent: parent)
    }

    /// One file for Sony's PaSoRi readers, named for them all (issue 46): 60-transit-rcs380.rules,
    /// its name while it covered the RC-S380 alone, is shipped no more.
    func testOneRuleFileNamedForThePaSoRiReaders() throws {
        let folder = BuildProducts.packageRoot.appendingPathComponent("packaging/udev").path
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder), ["60-transit-pasori.rules"])
    }

    func testTheRuleMatchesTheReaderItselfAndNoDeviceBehindOneWithItsIds() {
        XCTAssertEqual(Self.rules.count, 3, "one rule a product: 06c1, 06c3 and 02e1 (issue 46)")
        let root = usbDevice("1d6b", "0002", parent: nil)
        for product in ["06c1", "06c3", "02e1"] {
            let reader = usbDevice("054c", product, parent: root)
            XCTAssertEqual(assignments(for: reader), ["MODE=0660", "GROUP=transit", "TAG=uaccess"], "the reader \(product) itself")
            // Its interface is no device node of its own.
            let interface = Device("usb", env: ["DEVTYPE": "usb_interface"], attributes: ["bInterfaceClass": "ff"], parent: reader)
            XCTAssertEqual(assignments(for: interface), [], "the reader's interface")
            // A hub (or a gadget) that reports the reader's ids: what is plugged in behind it is not the reader.
            let keyboard = usbDevice("046d", "c31c", parent: reader)
            XCTAssertEqual(assignments(for: keyboard), [], "a keyboard behind a device with the reader's ids gets no access")
        }
        XCTAssertEqual(assignments(for: usbDevice("054c", "01bb", parent: root)), [], "another Sony device (the RC-S320, which no driver reads)")
    }
}
