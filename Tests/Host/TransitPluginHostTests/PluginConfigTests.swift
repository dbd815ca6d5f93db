import TestSupport
import XCTest
import CardProtocol
import TransitModel
import TransitFiles
import TransitPluginHost
import TransitStations
import TransitArchive
import TransitOutput

final class PluginConfigTests: XCTestCase {
    func testParsesNamesLibrariesOptionsAndComments() throws {
        let c = try PluginConfig.parse("""
        # order matters
        japan-ic  libTransitJapanIC.so
        octopus   /opt/transit/libTransitOctopus.so  balance-offset=500   # a deployment's offset

        cepas plugins/libTransitCEPAS.so
        """, path: "/etc/transit/plugins.conf")
        XCTAssertEqual(c.entries.map(\.name), ["japan-ic", "octopus", "cepas"])
        XCTAssertEqual(c.entries[1].options, ["balance-offset": "500"])
        XCTAssertEqual(c.entries[2].line, 5)
        XCTAssertEqual(c.resolve(c.entries[1]), "/opt/transit/libTransitOctopus.so")
        XCTAssertEqual(c.resolve(c.entries[2]), "/etc/transit/plugins/libTransitCEPAS.so")
        XCTAssertEqual(c.resolve(c.entries[0], executableDirectory: "/usr/lib/transit"), "/usr/lib/transit/libTransitJapanIC.so")
    }

    /// A bare library name found nowhere: the refusal names every place searched, in order.
    func testAMissingPluginNamesEveryPlaceSearched() throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let conf = dir.appendingPathComponent("plugins.conf").path
        let c = try PluginConfig.parse("nope libNope.so\n", path: conf)
        let places = c.places(c.entries[0], executableDirectory: "/opt/x/bin")
        XCTAssertEqual(places, [dir.appendingPathComponent("libNope.so").path, "/opt/x/lib/transit/plugins/libNope.so", "/opt/x/bin/libNope.so"])
        let loaded = PluginLoader.load(c.entries[0], path: c.resolve(c.entries[0], executableDirectory: "/opt/x/bin"), searched: places)
        let refusal = try XCTUnwrap(loaded.refusal).english
        XCTAssertTrue(refusal.contains("libNope.so is in none of the places searched: " + places.joined(separator: ", ")), refusal)
    }

    func testBadLinesNameFileAndLine() {
        for (text, line, phrase) in [("japan-ic\n", 1, "expected"), ("a lib.so\nb lib.so offset\n", 2, "key=value"),
                                     ("a lib.so\na other.so\n", 2, "twice"), ("\n\nbad/name lib.so", 3, "letters")] {
            XCTAssertThrowsError(try PluginConfig.parse(text, path: "my.conf")) { error in
                let e = error as? TransitError
                XCTAssertEqual(e?.kind, .config)
                XCTAssertTrue(e?.message.hasPrefix("my.conf:\(line):") == true, e?.message ?? "")
                XCTAssertTrue(e?.message.contains(phrase) == true, e?.message ?? "")
            }
        }
    }

    func testLookupOrderExplicitThenXDGThenBesideBinaryNeverTheWorkingDirectory() throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let xdg = dir.appendingPathComponent("xdg/transit"), bin = dir.appendingPathComponent("bin"), cwd = dir.appendingPathComponent("cwd")
        for d in [xdg, bin, cwd] { try FileManager.default.createDirectory(at: d, withIntermediateDirectories: true) }
        try "xdg x.so".write(to: xdg.appendingPathComponent("plugins.conf"), atomically: true, encoding: .utf8)
        try "bin x.so".write(to: bin.appendingPathComponent("plugins.conf"), atomically: true, encoding: .utf8)
        let env = ["XDG_CONFIG_HOME": dir.appendingPathComponent("xdg").path]
        let previous = FileManager.default.currentDirectoryPath
        _ = FileManager.default.changeCurrentDirectoryPath(cwd.path)
        defer { _ = FileManager.default.changeCurrentDirectoryPath(previous) }

        XCTAssertEqual(try PluginConfig.load(explicit: nil, environment: env, executableDirectory: bin.path).entries.first?.name, "xdg")
        XCTAssertEqual(try PluginConfig.load(explicit: nil, environment: [:], executableDirectory: bin.path).entries.first?.name, "bin")
        // A plugins.conf in the current folder (beside a downloaded dump, say) is never looked at.
        try "cwd x.so".write(to: cwd.appendingPathComponent("plugins.conf"), atomically: true, encoding: .utf8)
        XCTAssertEqual(try PluginConfig.load(explicit: nil, environment: env, executableDirectory: bin.path).entries.first?.name, "xdg")
        XCTAssertEqual(try PluginConfig.load(explicit: nil, environment: [:], executableDirectory: bin.path).entries.first?.name, "bin")
        XCTAssertEqual(try PluginConfig.load(explicit: bin.appendingPathComponent("plugins.conf").path, environment: env,
                                             executableDirectory: bin.path).entries.first?.name, "bin")
        XCTAssertThrowsError(try PluginConfig.load(explicit: "/nonexistent/plugins.conf")) {
            XCTAssertEqual(($0 as? TransitError)?.kind, .config)
        }
    }

    func testABuildTreeBinaryFindsItsPackagesConf() throws {
        // `.build/release/transit scan`, as the README says it, from a checkout with nothing installed.
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let bin = dir.appendingPathComponent(".build/x86_64-unknown-linux-gnu/release")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        try "// swift-tools-version:6.0".write(to: dir.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
        try "package x.so".write(to: dir.appendingPathComponent("plugins.conf"), atomically: true, encoding: .utf8)
        let env = ["XDG_CONFIG_HOME": dir.appendingPathComponent("none").path]
        XCTAssertEqual(PluginConfig.searchPath(environment: env, executableDirectory: bin.path).last, dir.path + "/plugins.conf")
        XCTAssertEqual(PluginConfig.buildTreePackage(of: dir.appendingPathComponent(".build/debug").path), dir.path)
        if !FileManager.default.fileExists(atPath: "/etc/transit/plugins.conf") {
            XCTAssertEqual(try PluginConfig.load(explicit: nil, environment: env, executableDirectory: bin.path).entries.first?.name, "package")
        }
        // Any other folder (an installed binary's) has no such candidate.
        XCTAssertNil(PluginConfig.buildTreePackage(of: "/usr/bin"))
        XCTAssertNil(PluginConfig.buildTreePackage(of: dir.appendingPathComponent("bin").path))
    }

    func testCRLFLinesAreLines() throws {
        let conf = try PluginConfig.parse("# Windows line ends\r\njapan-ic libA.so\r\noctopus libB.so balance-offset=500\r\n", path: "c.conf")
        XCTAssertEqual(conf.entries.map(\.name), ["japan-ic", "octopus"])
        XCTAssertEqual(conf.entries.last?.options, ["balance-offset": "500"])
        XCTAssertEqual(conf.entries.last?.line, 3)
    }
}

final class ResultValueTests: XCTestCase {
    func testDatesTimesAndCurrenciesMustBeReal() {
        XCTAssertNotNil(CalendarDay("2024-02-29"))
        XCTAssertNotNil(CalendarDay("2000-02-29"), "divisible by 400: a leap year")
        XCTAssertNil(CalendarDay("1900-02-29"), "divisible by 100 only: not a leap year")
        XCTAssertNil(CalendarDay("2026-02-29"), "not a leap year")
        XCTAssertNil(CalendarDay("2026-04-31"))
        XCTAssertNil(CalendarDay("2026-13-01"))
        XCTAssertNil(CalendarDay("2026-00-10"))
        XCTAssertNil(CalendarDay("0000-01-01"), "ISO 8601 years begin at 0001 without an agreement")
        XCTAssertNil(CalendarDay("2026-1-05"))
        XCTAssertEqual(CardDate("2026-11-05T07:30:00+09:00")?.clock?.utcOffsetMinutes, 540)
        XCTAssertEqual(CardDate("2026-11-05T07:30:00-03:30")?.clock?.offsetText, "-03:30")
        XCTAssertEqual(CardDate("2026-11-05T07:30:00+09:00")?.description, "2026-11-05T07:30:00+09:00", "the ABI's text round-trips")
        XCTAssertNil(CardDate("2026-11-05T24:00:00+09:00"))
        XCTAssertNil(CardDate("2026-11-05T07:60:00+09:00"))
        XCTAssertNil(CardDate("2026-11-05T07:30:00+15:00"))
        XCTAssertNil(CardDate("2026-11-05T07:30:00Z"))
        let builder = ResultBuilder()
        XCTAssertTrue(builder.setField("currency", "JPY"))
        XCTAssertFalse(builder.setField("currency", "XYZ"))
        XCTAssertFalse(builder.setField("currency", "jpy"))
        XCTAssertFalse(builder.setField("validUntil", "2026-02-30"))
    }

    func testTheRecordBalanceFieldTakesSignedDecimalMinorUnitsOnly() throws {
        let builder = ResultBuilder()
        XCTAssertFalse(builder.setTransactionField("balance", "10"), "no transaction begun")
        builder.beginTransaction()
        for bad in ["", "-", "+5", " 5", "5 ", "1.5", "0x10", "١٢", "99999999999999999999", "--1"] {
            XCTAssertFalse(builder.setTransactionField("balance", bad), bad)
        }
        XCTAssertTrue(builder.setTransactionField("balance", "-120"))
        XCTAssertTrue(builder.setField("serialNumber", "1"))
        XCTAssertTrue(builder.setField("currency", "JPY"))
        builder.setBalance(0)
        let reading = try builder.finish(defaultFamily: "x").get()
        XCTAssertEqual(reading.transactions.first?.balance, -120)
        XCTAssertTrue(builder.setTransactionField("balance", "9223372036854775807"))
    }
}

final class XDGFoldersTests: XCTestCase {
    func testAHomeOfAnotherUserIsNeverUsedAndRelativeXDGValuesAreIgnored() throws {
        try XCTSkipUnless(getuid() == 0, "needs root to make a folder another user owns")
        let other = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: other) }
        XCTAssertEqual(chown(other.path, 65534, 65534), 0)
        // As under sudo with the invoking user's HOME kept: root's own home is used instead.
        let rootHome = String(cString: getpwuid(0).pointee.pw_dir)
        XCTAssertEqual(XDGFolders.home(["HOME": other.path]), rootHome)
        XCTAssertEqual(XDGFolders.dataHome(["HOME": other.path]), rootHome + "/.local/share")
        // A relative XDG value would put the current folder on the path: ignored.
        XCTAssertEqual(XDGFolders.configHome(["HOME": rootHome, "XDG_CONFIG_HOME": "conf"]), rootHome + "/.config")
        XCTAssertEqual(XDGFolders.configHome(["HOME": rootHome, "XDG_CONFIG_HOME": "/etc/xdg-test"]), "/etc/xdg-test")
    }
}
