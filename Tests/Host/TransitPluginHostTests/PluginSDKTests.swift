import Foundation
import TestSupport
import TransitModel
import XCTest

/// A card family built outside this repository: a Swift package that depends on transit's
/// PluginKit product by version (Tests/Fixtures/external_plugin: `.package(url:from:)`, as
/// docs/plugins.md shows), built with SwiftPM and loaded by transit. The version is a tag of a
/// local git repository holding this checkout as it is (a `file://` URL: no network), so SwiftPM
/// applies its rules for a versioned dependency, which refuse a target with `unsafeFlags`.
final class PluginSDKTests: XCTestCase {
    func testASwiftPluginBuiltInAnotherPackageAgainstATaggedTransitLoadsAndReads() throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        // SwiftPM names a URL's package by its last component: "transit", as PluginKit's users write.
        let transit = dir.appendingPathComponent("transit")
        try Self.tag(BuildProducts.packageRoot, as: Version.number, in: transit)
        let fixture = BuildProducts.packageRoot.appendingPathComponent("Tests/Fixtures/external_plugin")
        let package = dir.appendingPathComponent("my-family")
        try FileManager.default.copyItem(at: fixture, to: package)
        let manifest = try String(contentsOf: package.appendingPathComponent("Package.swift.in"), encoding: .utf8)
            .replacingOccurrences(of: "@TRANSIT_URL@", with: transit.standardizedFileURL.absoluteString)
            .replacingOccurrences(of: "@TRANSIT_VERSION@", with: Version.number)
        XCTAssertTrue(manifest.contains(".package(url: \"file://"), manifest)
        // docs/plugins.md shows this manifest, with a released transit's URL.
        let template = try String(contentsOf: fixture.appendingPathComponent("Package.swift.in"), encoding: .utf8)
            .replacingOccurrences(of: "@TRANSIT_URL@", with: "https://…/transit.git").replacingOccurrences(of: "@TRANSIT_VERSION@", with: Version.number)
        let guide = try String(contentsOf: BuildProducts.packageRoot.appendingPathComponent("docs/plugins.md"), encoding: .utf8)
        XCTAssertTrue(guide.contains("```swift\n" + template + "```\n"), "docs/plugins.md does not show \(template)")
        try manifest.write(to: package.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
        // No shared cache: each run's repository has a URL of its own.
        let options = ["--package-path", package.path, "--disable-dependency-cache"]
        let build = try CommandRun.run("/usr/bin/env", ["swift", "build"] + options, timeout: 600)
        XCTAssertEqual(build.status, 0, build.stdout + build.stderr)
        let resolved = try String(contentsOf: package.appendingPathComponent("Package.resolved"), encoding: .utf8)
        XCTAssertTrue(resolved.contains("\"version\" : \"\(Version.number)\""), resolved)
        let bin = try CommandRun.run("/usr/bin/env", ["swift", "build", "--show-bin-path"] + options).stdout
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

    /// A git repository at `destination` with the files of the checkout at `root` as they are
    /// (uncommitted changes included, ignored files left out), committed and tagged `version`.
    /// Nothing is written into the checkout's own repository.
    static func tag(_ root: URL, as version: String, in destination: URL) throws {
        try FileManager.default.createDirectory(at: destination, withIntermediateDirectories: true)
        let script = #"""
            set -euo pipefail
            cd "$1"
            git ls-files -z --cached --others --exclude-standard |
                while IFS= read -r -d '' f; do if [ -e "$f" ]; then printf '%s\0' "$f"; fi; done |
                tar --null -T - -cf - | tar -xf - -C "$2"
            cd "$2"
            git -c init.defaultBranch=main init -q
            git add -A
            git -c user.name="transit tests" -c user.email=tests@example.org -c commit.gpgsign=false commit -q -m "transit $3"
            git -c tag.gpgsign=false tag "$3"
            """#
        let run = try CommandRun.run("/bin/bash", ["-c", script, "tag", root.path, destination.path, version], timeout: 120)
        guard run.status == 0 else {
            throw XCTSkip("no tagged copy of the checkout (a git checkout and git are needed): \(run.stderr.prefix(300))")
        }
    }
}
