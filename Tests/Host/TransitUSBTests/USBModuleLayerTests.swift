import Foundation
import TestSupport
import XCTest

/// The USB transport stands beside PC/SC, not on it (issue 35): built without libpcsclite.
final class USBModuleLayerTests: XCTestCase {
    /// Each target of Package.swift and the targets it names in `dependencies: [...]`.
    private func targets() throws -> [String: [String]] {
        let manifest = try String(contentsOf: BuildProducts.packageRoot.appendingPathComponent("Package.swift"), encoding: .utf8)
        let pattern = try NSRegularExpression(pattern: #"name: "(\w+)",\s*dependencies:\s*\[([^\]]*)\]"#)
        var graph = [String: [String]]()
        for match in pattern.matches(in: manifest, range: NSRange(manifest.startIndex..., in: manifest)) {
            guard let name = Range(match.range(at: 1), in: manifest), let list = Range(match.range(at: 2), in: manifest) else { continue }
            graph[String(manifest[name])] = manifest[list].split(separator: ",").map { $0.trimmingCharacters(in: .whitespacesAndNewlines).trimmingCharacters(in: CharacterSet(charactersIn: "\"")) }
                .filter { !$0.isEmpty }
        }
        return graph
    }

    private func closure(_ target: String, _ graph: [String: [String]]) -> Set<String> {
        var seen = Set<String>(), next = [target]
        while let t = next.popLast() { for d in graph[t] ?? [] where seen.insert(d).inserted { next.append(d) } }
        return seen
    }

    func testTheUSBModuleDependsOnNoPCSCLibraryEvenTransitively() throws {
        let graph = try targets()
        XCTAssertNotNil(graph["TransitUSB"], "Package.swift names TransitUSB's dependencies")
        let usb = closure("TransitUSB", graph)
        XCTAssertTrue(usb.contains("TransitTransport"), "the transport's core: \(usb.sorted())")
        XCTAssertFalse(usb.contains("CPCSCLite"), "TransitUSB reaches libpcsclite: \(usb.sorted())")
        XCTAssertFalse(usb.contains("TransitPCSC"), "\(usb.sorted())")
        XCTAssertTrue(closure("TransitPCSC", graph).contains("CPCSCLite"), "PC/SC is where libpcsclite is linked")
    }
}
