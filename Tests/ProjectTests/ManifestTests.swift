import Foundation
import Synchronization
import TestSupport
import XCTest

/// Package.swift tells the truth (issue 38): every module a target's files import is declared, every
/// declared module is imported (SwiftPM lets a module through transitively, so the layering rule of
/// docs/ARCHITECTURE.md is enforced here, not by the compiler), and ARCHITECTURE.md's table says
/// what the manifest says. The manifest is read as SwiftPM itself reads it: `swift package
/// dump-package`, with a scratch folder of its own (the suite's build folder is locked).
final class ManifestTests: XCTestCase {
    struct Target { let name: String, type: String, path: String, exclude: [String], dependencies: Set<String> }

    /// `swift package dump-package`'s JSON, run once for the class.
    private static let dumped = Mutex<Data?>(nil)
    private static func dump() throws -> [String: Any] {
        let data: Data
        if let kept = dumped.withLock({ $0 }) {
            data = kept
        } else {
            let scratch = temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: scratch) }
            let run = try CommandRun.run("/usr/bin/env", ["swift", "package", "--package-path", BuildProducts.packageRoot.path,
                                                          "--scratch-path", scratch.path, "dump-package"], timeout: 240)
            guard run.status == 0 else { throw XCTSkip("swift package dump-package did not run: \(run.stderr.prefix(300))") }
            data = Data(run.stdout.utf8)
            dumped.withLock { $0 = data }
        }
        return try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    private static func manifest() throws -> [Target] {
        let json = try dump()
        return (json["targets"] as? [[String: Any]] ?? []).compactMap { t in
            guard let name = t["name"] as? String, let type = t["type"] as? String else { return nil }
            let deps = (t["dependencies"] as? [[String: Any]] ?? []).compactMap { d -> String? in
                for key in ["byName", "target", "product"] { if let v = d[key] as? [Any], let n = v.first as? String { return n } }
                return nil
            }
            let path = t["path"] as? String ?? (type == "test" ? "Tests/\(name)" : "Sources/\(name)")
            return Target(name: name, type: type, path: path, exclude: t["exclude"] as? [String] ?? [], dependencies: Set(deps))
        }
    }

    /// The package's modules each Swift file of `t` imports (`import X`, `@testable import X`…).
    private static func imports(_ t: Target, modules: Set<String>) -> Set<String>? {
        let root = BuildProducts.packageRoot.appendingPathComponent(t.path)
        guard let walk = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) else { return nil }
        let excluded = t.exclude.map { root.appendingPathComponent($0).path }
        let pattern = try? NSRegularExpression(pattern: #"^(?:@testable |@_exported |package |public |internal )*import (\w+)"#, options: .anchorsMatchLines)
        var found = Set<String>(), files = 0
        for case let url as URL in walk where url.pathExtension == "swift" {
            guard !excluded.contains(where: { url.path == $0 || url.path.hasPrefix($0 + "/") }),
                  let text = try? String(contentsOf: url, encoding: .utf8) else { continue }
            files += 1
            for m in pattern?.matches(in: text, range: NSRange(text.startIndex..., in: text)) ?? [] {
                if let r = Range(m.range(at: 1), in: text), modules.contains(String(text[r])), String(text[r]) != t.name { found.insert(String(text[r])) }
            }
        }
        return files == 0 ? nil : found
    }

    func testEveryImportIsDeclaredAndEveryDeclaredModuleImported() throws {
        let targets = try Self.manifest()
        XCTAssertGreaterThan(targets.count, 20)
        let modules = Set(targets.map(\.name))
        var wrong = [String]()
        for t in targets where t.type != "system" {
            guard let used = Self.imports(t, modules: modules) else { continue } // a C target
            let undeclared = used.subtracting(t.dependencies), unused = t.dependencies.subtracting(used)
            if !undeclared.isEmpty { wrong.append("\(t.name) imports \(undeclared.sorted()) without declaring them") }
            if !unused.isEmpty { wrong.append("\(t.name) declares \(unused.sorted()) and imports none of them") }
        }
        XCTAssertEqual(wrong, [], wrong.joined(separator: "\n"))
    }

    func testTheArchitectureTableSaysWhatTheManifestSays() throws {
        let targets = Dictionary(uniqueKeysWithValues: try Self.manifest().map { ($0.name, $0) })
        let doc = try String(contentsOf: BuildProducts.packageRoot.appendingPathComponent("docs/ARCHITECTURE.md"), encoding: .utf8)
        var checked = 0
        for line in doc.split(separator: "\n") where line.hasPrefix("| `") {
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count >= 5 else { continue }
            // Rows of one module: `TransitModel`; "(C)" rows and "one a family" name several.
            let module = cells[2].trimmingCharacters(in: CharacterSet(charactersIn: "`"))
            guard let t = targets[module], !cells[2].contains(" ") else { continue }
            let said = Set(cells[4] == "—" ? [] : cells[4].split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
            XCTAssertEqual(said, t.dependencies, "docs/ARCHITECTURE.md's row of \(module)")
            checked += 1
        }
        XCTAssertGreaterThan(checked, 15, "the table's rows were found")
    }

    /// Folders that are modules (issue 48): `ls Sources/Host` lists the host's module names, each
    /// folder the one target of that name, and every host target lives in the folder of its name.
    func testEveryHostFolderIsTheModuleOfItsName() throws {
        let targets = (try Self.dump()["targets"] as? [[String: Any]]) ?? []
        let paths = Dictionary(uniqueKeysWithValues: targets.compactMap { t in
            (t["name"] as? String).map { ($0, t["path"] as? String ?? "") }
        })
        let host = BuildProducts.packageRoot.appendingPathComponent("Sources/Host").path
        let folders = try FileManager.default.contentsOfDirectory(atPath: host).filter { !$0.hasPrefix(".") }.sorted()
        XCTAssertGreaterThan(folders.count, 15)
        for folder in folders {
            XCTAssertEqual(paths[folder], "Sources/Host/\(folder)", "Sources/Host/\(folder) is not the module \(folder)")
        }
        for (name, path) in paths where path.hasPrefix("Sources/Host/") {
            XCTAssertEqual(path, "Sources/Host/\(name)", "\(name) lives in \(path)")
        }
    }

    /// A family is its folder, a line of Package.swift's plugin table and a line of plugins.conf
    /// (issue 48): the manifest's dynamic libraries are exactly the libraries plugins.conf loads.
    func testEveryPluginLibraryIsInPluginsConfAndNoOther() throws {
        let products = try Self.dump()["products"] as? [[String: Any]] ?? []
        let dynamic = products.filter { (($0["type"] as? [String: Any])?["library"] as? [String])?.first == "dynamic" }
            .compactMap { $0["name"] as? String }.map { "lib\($0).so" }
        XCTAssertGreaterThan(dynamic.count, 10)
        XCTAssertEqual(dynamic.sorted(), ShippedPlugins.lines.map(\.library).sorted())
    }

    /// SwiftPM refuses a target with `unsafeFlags` in a package depended on by version
    /// (`.package(url:from:)`): the PluginKit product's targets carry none (issue 48).
    func testThePluginSDKCarriesNoUnsafeFlags() throws {
        let json = try Self.dump()
        let products = json["products"] as? [[String: Any]] ?? []
        let sdk = try XCTUnwrap(products.first { $0["name"] as? String == "PluginKit" }?["targets"] as? [String])
        XCTAssertEqual(Set(sdk), ["PluginKit", "CardProtocol", "ReaderABI"])
        for target in json["targets"] as? [[String: Any]] ?? [] where sdk.contains(target["name"] as? String ?? "") {
            let settings = try JSONSerialization.data(withJSONObject: target["settings"] ?? [], options: [.sortedKeys])
            XCTAssertFalse(String(decoding: settings, as: UTF8.self).contains("unsafeFlags"), "\(target["name"] ?? "?"): \(String(decoding: settings, as: UTF8.self))")
        }
    }

    /// A test target a reader can take in (issue 48): its Swift sources, as `cat *.swift | wc -l`
    /// counts them, at most 2,500 lines; past that it is split by what its files test.
    func testNoTestTargetPassesTwoThousandFiveHundredLines() throws {
        let tests = try Self.manifest().filter { $0.type == "test" }
        XCTAssertGreaterThan(tests.count, 10)
        var long = [String]()
        for t in tests {
            let root = BuildProducts.packageRoot.appendingPathComponent(t.path)
            guard let walk = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) else { continue }
            var lines = 0
            for case let url as URL in walk where url.pathExtension == "swift" {
                let text = try String(contentsOf: url, encoding: .utf8)
                lines += text.utf8.reduce(0) { $1 == UInt8(ascii: "\n") ? $0 + 1 : $0 }
            }
            if lines > 2500 { long.append("\(t.name) (\(t.path)): \(lines) lines") }
        }
        XCTAssertEqual(long, [], long.joined(separator: "\n"))
    }

    /// Swift 6 language mode everywhere, the compiler's complete data-race checking on (issue 48):
    /// every target with Swift files says so in its own setting.
    func testEverySwiftTargetIsInSwift6LanguageMode() throws {
        let json = try Self.dump()
        let targets = try Self.manifest()
        let modules = Set(targets.map(\.name))
        var wrong = [String](), checked = 0
        for t in json["targets"] as? [[String: Any]] ?? [] {
            guard let name = t["name"] as? String, let target = targets.first(where: { $0.name == name }), target.type != "system",
                  Self.imports(target, modules: modules) != nil else { continue } // a C target
            let modes = (t["settings"] as? [[String: Any]] ?? []).compactMap {
                (($0["kind"] as? [String: Any])?["swiftLanguageMode"] as? [String: Any])?["_0"] as? String
            }
            if modes != ["6"] { wrong.append("\(name): \(modes)") }
            checked += 1
        }
        XCTAssertGreaterThan(checked, 40)
        XCTAssertEqual(wrong, [], wrong.joined(separator: "\n"))
    }

    /// What the compiler is told not to check says why it is safe (issue 48): each `@unchecked
    /// Sendable` and `nonisolated(unsafe)` has a `//` comment on its line or the line above.
    func testEveryUncheckedConcurrencyEscapeSaysWhy() throws {
        let escapes = ["@unchecked" + " Sendable", "nonisolated" + "(unsafe)"]
        var found = 0, silent = [String]()
        for folder in ["Sources", "Tests"] {
            let root = BuildProducts.packageRoot.appendingPathComponent(folder)
            guard let walk = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) else { continue }
            for case let url as URL in walk where url.pathExtension == "swift" {
                let lines = try String(contentsOf: url, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
                for (i, line) in lines.enumerated() where escapes.contains(where: line.contains) {
                    let code = line.trimmingCharacters(in: .whitespaces)
                    guard !code.hasPrefix("//") else { continue }
                    found += 1
                    let above = i > 0 ? lines[i - 1].trimmingCharacters(in: .whitespaces) : ""
                    if !line.contains(" // "), !(above.hasPrefix("// ") && !above.hasPrefix("///")) {
                        silent.append("\(url.path.dropFirst(BuildProducts.packageRoot.path.count + 1)):\(i + 1)")
                    }
                }
            }
        }
        XCTAssertGreaterThan(found, 5)
        XCTAssertEqual(silent, [], silent.joined(separator: "\n"))
    }

    /// ARCHITECTURE.md's "one clock": a deadline or a wait is told on the monotonic clock
    /// (`Deadline`, `MonotonicClock`), never on the wall clock, which a user or NTP may set back
    /// (a `Date()` deadline then never comes). The wall clock stays for times shown or kept; a
    /// kernel wait whose API takes a `Date` (`NSLock.lock(before:)`) is that API's.
    func testNoDeadlineIsToldOnTheWallClock() throws {
        let patterns = ["Date().addingTimeInterval", "Date(timeIntervalSinceNow", "Date() <", "Date() >", "< Date()", "> Date()",
                        "Date().timeIntervalSince("]
        var scanned = 0, wall = [String]()
        let root = BuildProducts.packageRoot.appendingPathComponent("Sources")
        let walk = try XCTUnwrap(FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil))
        for case let url as URL in walk where url.pathExtension == "swift" {
            scanned += 1
            let lines = try String(contentsOf: url, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
            for (i, line) in lines.enumerated() where patterns.contains(where: line.contains) && !line.contains("lock(before:") {
                guard !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") else { continue }
                wall.append("\(url.path.dropFirst(BuildProducts.packageRoot.path.count + 1)):\(i + 1): \(line.trimmingCharacters(in: .whitespaces))")
            }
        }
        XCTAssertGreaterThan(scanned, 100)
        XCTAssertEqual(wall, [], wall.joined(separator: "\n"))
    }

    /// ARCHITECTURE.md's "the ABI's strings are parsed once, in `ResultBuilder`": the names of the
    /// card's, a transaction's and a pass's fields (`TRANSIT_FIELD_*`, `TRANSIT_TX_*`,
    /// `TRANSIT_PASS_*`, not a pass status's values) are named in the host by ResultBuilder alone.
    func testTheABIsFieldsAreReadByTheResultBuilderAlone() throws {
        let field = try NSRegularExpression(pattern: #"\bTRANSIT_(FIELD|TX|PASS)_(?!STATUS_)[A-Z_]+\b"#)
        var builder = 0, elsewhere = [String]()
        let root = BuildProducts.packageRoot.appendingPathComponent("Sources/Host")
        let walk = try XCTUnwrap(FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil))
        for case let url as URL in walk where url.pathExtension == "swift" {
            for (i, line) in try String(contentsOf: url, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let code = String(line.split(separator: "//", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
                guard field.firstMatch(in: code, range: NSRange(code.startIndex..., in: code)) != nil else { continue }
                if url.lastPathComponent == "ResultBuilder.swift" { builder += 1 } else {
                    elsewhere.append("\(url.path.dropFirst(BuildProducts.packageRoot.path.count + 1)):\(i + 1)")
                }
            }
        }
        XCTAssertGreaterThan(builder, 5)
        XCTAssertEqual(elsewhere, [], elsewhere.joined(separator: "\n"))
    }
}
