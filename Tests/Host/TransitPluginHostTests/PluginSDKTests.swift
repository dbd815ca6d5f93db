import Foundation
import TestSupport
import XCTest

/// A card family built outside this repository: a Swift package that depends on transit's
/// PluginKit product (Tests/Fixtures/external_plugin), built with SwiftPM and loaded by transit.
final class PluginSDKTests: XCTestCase {
    func testASwiftPluginBuiltInAnotherPackageLoadsAndReads() throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let fixture = BuildProducts.packageRoot.appendingPathComponent("Tests/Fixtures/external_plugin")
        let package = dir.appendingPathComponent("my-family")
        try FileManager.default.copyItem(at: fixture, to: package)
        let root = BuildProducts.packageRoot.standardizedFileURL.path
        let manifest = try String(contentsOf: package.appendingPathComponent("Package.swift.in"), encoding: .utf8)
            .replacingOccurrences(of: "@TRANSIT@", with: root)
            .replacingOccurrences(of: "@TRANSIT_NAME@", with: (root as NSString).lastPathComponent)
        try manifest.write(to: package.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
        let build = try CommandRun.run("/usr/bin/env", ["swift", "build", "--package-path", package.path], timeout: 600)
        XCTAssertEqual(build.status, 0, build.stdout + build.stderr)
        let bin = try CommandRun.run("/usr/bin/env", ["swift", "build", "--package-path", package.path, "--show-bin-path"]).stdout
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let conf = dir.appendingPathComponent("plugins.conf")
        try "my-family \(bin)/libTransitMyFamily.so currency=NZD\n".write(to: conf, atomically: true, encoding: .utf8)
        let card = try CardImages.write(CardImages.iso(select: "00A4040008F07472616E73697400", commands: ["805C000004": "000001029000"]), in: dir)
        let run = try CommandRun.transit(["scan", "--config", conf.path, "--card", card, "--json"])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.json?["family"] as? String, "my-family")
        XCTAssertEqual(run.json?["balance"] as? Int, 258)
        XCTAssertEqual(run.json?["currency"] as? String, "NZD")
    }
}
