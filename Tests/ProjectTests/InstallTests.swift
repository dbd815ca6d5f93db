import Foundation
import TestSupport
import XCTest

/// `make install` and `make uninstall` as a new user meets them (the .deb: DebianPackageTests): the installed transit
/// works from any folder, as any user, with the toolchain out of reach; a C plugin built with
/// pkg-config loads from a drop-in; `transit doctor` says what is wrong. Needs the release build
/// (scripts/test.sh makes it first); the suite cannot start a build of its own package.
final class InstallTests: XCTestCase {
    var dir: URL!
    let prefix = "/usr/local"
    override func setUp() { dir = temporaryDirectory() }
    override func tearDown() { try? FileManager.default.removeItem(at: dir) }

    /// The release build folder beside the debug one the tests run from.
    private var releaseBin: String { BuildProducts.directory.deletingLastPathComponent().appendingPathComponent("release").path }

    private func requireRelease() throws {
        let built = FileManager.default.fileExists(atPath: releaseBin + "/transit")
        try Prerequisite.require(built, "no release build: scripts/test.sh makes it first")
    }

    private func make(_ target: String, _ vars: [String: String] = [:]) throws -> CommandRun {
        try CommandRun.run("/usr/bin/make", ["-s", target] + vars.map { "\($0.key)=\($0.value)" }.sorted(),
                           currentDirectory: BuildProducts.packageRoot,
                           environment: ProcessInfo.processInfo.environment.merging(["BIN": releaseBin]) { $1 })
    }

    private func install() throws -> URL {
        let stage = dir.appendingPathComponent("stage")
        let run = try make("install-files", ["DESTDIR": stage.path, "PREFIX": prefix])
        XCTAssertEqual(run.status, 0, run.stdout + run.stderr)
        return stage.appendingPathComponent(String(prefix.dropFirst()))
    }

    private func elfFiles(under root: URL) -> [String] {
        let all = FileManager.default.enumerator(atPath: root.path)?.compactMap { $0 as? String } ?? []
        return all.map { root.appendingPathComponent($0).path }.filter { path in
            guard let h = FileHandle(forReadingAtPath: path), let magic = try? h.read(upToCount: 4) else { return false }
            return magic == Data([0x7F, 0x45, 0x4C, 0x46])
        }
    }

    func testTheInstalledTransitReadsFromAnyFolderAsAnyUserWithoutTheToolchain() throws {
        try requireRelease()
        let root = try install()
        let transit = root.appendingPathComponent("bin/transit").path
        // No RUNPATH names the toolchain or the build folder: each is relative to the file itself.
        for file in elfFiles(under: root) {
            let dynamic = try CommandRun.run("/usr/bin/readelf", ["-d", file]).stdout
            for line in dynamic.split(separator: "\n") where line.contains("RUNPATH") || line.contains("RPATH") {
                let paths = line.split(separator: "[").last?.split(separator: "]").first.map(String.init) ?? ""
                XCTAssertTrue(paths.split(separator: ":").allSatisfy { $0.hasPrefix("$ORIGIN") }, "\(file): \(line)")
            }
        }
        // Every library resolves inside the prefix or to a file of Debian's own packages.
        let runtime = try CommandRun.run("/usr/bin/ldd", [releaseBin + "/transit"]).stdout
            .split(separator: "\n").first { $0.contains("libswiftCore.so") }.flatMap { $0.split(separator: " ").dropFirst(2).first }
        let toolchainLibs = try XCTUnwrap(runtime.map { (String($0) as NSString).deletingLastPathComponent })
        for file in elfFiles(under: root) {
            let ldd = try CommandRun.run("/usr/bin/ldd", [file]).stdout
            XCTAssertFalse(ldd.contains("not found"), "\(file): \(ldd)")
            XCTAssertFalse(ldd.contains(toolchainLibs), "\(file) reaches into the toolchain: \(ldd)")
        }
        // Run it from / as nobody, with the toolchain's runtime hidden by a mount namespace where the
        // machine allows one.
        let sample = dir.appendingPathComponent("suica.json")
        try FileManager.default.copyItem(atPath: BuildProducts.sample("suica.json"), toPath: sample.path)
        chmod(sample.path, 0o644)
        let script = "mount -t tmpfs none '\(toolchainLibs)' && cd / && exec setpriv --reuid=65534 --regid=65534 --clear-groups "
            + "'\(transit)' scan --card '\(sample.path)' --json"
        var run = try CommandRun.run("/usr/bin/unshare", ["-m", "/bin/sh", "-c", script])
        if run.status != 0, run.stderr.contains("unshare") || run.stderr.contains("mount") {
            run = try CommandRun.run("/bin/sh", ["-c", "cd / && exec '\(transit)' scan --card '\(sample.path)' --json"],
                                     environment: ["PATH": "/usr/bin:/bin"])
        }
        XCTAssertEqual(run.status, 0, run.stdout + run.stderr)
        XCTAssertEqual(run.json?["balance"] as? Int, 2010, run.stdout)
        let plugins = try CommandRun.run(transit, ["plugins", "--json"], currentDirectory: URL(fileURLWithPath: "/"))
        XCTAssertEqual(plugins.status, 0, plugins.stdout + plugins.stderr)
        XCTAssertTrue(plugins.stdout.contains("\(root.path)/lib/transit/plugins/libTransitJapanIC.so"), plugins.stdout)
        // Each family's words install beside the host's catalog (docs/ABI.md), where the installed
        // transit finds them: an HSL ticket's name in Japanese (po/plugins/hsl/ja.po).
        for family in ["hsl", "troika", "charliecard"] {
            XCTAssertTrue(FileManager.default.fileExists(atPath: root.appendingPathComponent("share/locale/ja/LC_MESSAGES/transit-\(family).mo").path), family)
        }
        if var japanese = try? JapaneseLocale.environment() {
            japanese["PATH"] = "/usr/bin:/bin"
            let ticket = try CommandRun.run(transit, ["scan", "--card", BuildProducts.sample("hsl-ul.json"), "--no-save"], environment: japanese)
            XCTAssertEqual(ticket.status, 0, ticket.stderr)
            XCTAssertTrue(ticket.stdout.contains("ゾーン AB のeチケット"), ticket.stdout)
        }
    }

    func testACPluginBuiltWithPkgConfigLoadsFromADropIn() throws {
        try requireRelease()
        let root = try install()
        let flags = try CommandRun.run("/usr/bin/env", ["pkg-config", "--define-variable=prefix=\(root.path)", "--cflags", "transit-plugin"],
                                       environment: ["PKG_CONFIG_PATH": root.appendingPathComponent("share/pkgconfig").path, "PATH": "/usr/bin:/bin"])
        XCTAssertEqual(flags.status, 0, flags.stderr)
        XCTAssertEqual(flags.stdout.trimmingCharacters(in: .whitespacesAndNewlines), "-I\(root.path)/include/transit")
        let lib = dir.appendingPathComponent("libdemo.so").path
        let cc = try CommandRun.run("/usr/bin/env", ["cc", "-std=c99", "-shared", "-fPIC"]
                                    + flags.stdout.split(whereSeparator: { $0 == " " || $0 == "\n" }).map(String.init)
                                    + [BuildProducts.packageRoot.appendingPathComponent("Tests/Fixtures/demo_plugin.c").path, "-o", lib])
        XCTAssertEqual(cc.status, 0, cc.stderr)
        let dropIn = root.appendingPathComponent("etc/transit/plugins.conf.d/50-demo.conf")
        try "demo \(lib) currency=NZD\n".write(to: dropIn, atomically: true, encoding: .utf8)
        chmod(dropIn.path, 0o644)
        let card = try CardImages.write(CardImages.iso(select: "00A4040008F07472616E73697400", commands: ["805C000004": "000001029000"]), in: dir)
        let run = try CommandRun.run(root.appendingPathComponent("bin/transit").path, ["scan", "--card", card, "--json"])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.json?["family"] as? String, "demo")
        XCTAssertEqual(run.json?["currency"] as? String, "NZD")
    }

    func testUninstallRemovesExactlyWhatWasInstalled() throws {
        try requireRelease()
        let stage = dir.appendingPathComponent("stage")
        let root = try install()
        let manifest = try String(contentsOf: root.appendingPathComponent("lib/transit/install-manifest"), encoding: .utf8)
            .split(separator: "\n").map(String.init)
        let installed = (FileManager.default.enumerator(atPath: stage.path)?.compactMap { $0 as? String } ?? [])
            .filter { !(((try? FileManager.default.attributesOfItem(atPath: stage.appendingPathComponent($0).path))?[.type] as? FileAttributeType) == .typeDirectory) }
            .map { "/" + $0 }
        XCTAssertEqual(Set(installed), Set(manifest))
        // The man pages, English and Japanese (docs/man/ja), where man-db looks for them.
        for page in ["man1/transit.1", "man1/transit-sim.1", "man5/plugins.conf.5", "ja/man1/transit.1", "ja/man1/transit-sim.1", "ja/man5/plugins.conf.5"] {
            XCTAssertTrue(manifest.contains("\(prefix)/share/man/\(page)"), "\(page) is not installed")
        }
        // The udev rule of Sony's readers, where udev reads it (udev reads no rules under /usr/local).
        let rule = try String(contentsOf: stage.appendingPathComponent("etc/udev/rules.d/60-transit-pasori.rules"), encoding: .utf8)
        for words in [#"ATTR{idVendor}=="054c", ATTR{idProduct}=="06c1""#, #"ATTR{idProduct}=="06c3""#, #"TAG+="uaccess""#, #"GROUP="transit""#] {
            XCTAssertTrue(rule.contains(words), "the rule lacks \(words)")
        }
        // What an administrator added stays.
        let mine = root.appendingPathComponent("etc/transit/plugins.conf.d/90-mine.conf")
        try "# mine\n".write(to: mine, atomically: true, encoding: .utf8)
        let run = try make("uninstall", ["DESTDIR": stage.path, "PREFIX": prefix])
        XCTAssertEqual(run.status, 0, run.stdout + run.stderr)
        let left = (FileManager.default.enumerator(atPath: stage.path)?.compactMap { $0 as? String } ?? []).sorted()
        let files = left.filter { !(((try? FileManager.default.attributesOfItem(atPath: stage.appendingPathComponent($0).path))?[.type]
                                       as? FileAttributeType) == .typeDirectory) }
        XCTAssertEqual(files, ["usr/local/etc/transit/plugins.conf.d/90-mine.conf"], "only what the administrator added")
        for own in ["usr/local/lib/transit", "usr/local/include/transit", "usr/local/share/doc/transit", "usr/local/share/man/ja"] {
            XCTAssertFalse(left.contains(own), "\(own) is removed")
        }
    }

    /// The rule was 60-transit-rcs380.rules until it covered the RC-S330/360/370 too (issue 46): an
    /// install over an earlier one leaves the one rule, and an uninstall by an earlier manifest,
    /// which names the former file, removes it.
    func testAnInstallOverOneWithTheFormerRuleNameLeavesOneRule() throws {
        try requireRelease()
        let stage = dir.appendingPathComponent("stage")
        let rules = stage.appendingPathComponent("etc/udev/rules.d")
        let former = rules.appendingPathComponent("60-transit-rcs380.rules")
        try FileManager.default.createDirectory(at: rules, withIntermediateDirectories: true)
        try "SUBSYSTEM==\"usb\", ATTR{idVendor}==\"054c\", ATTR{idProduct}==\"06c1\", GROUP=\"transit\"\n".write(to: former, atomically: true, encoding: .utf8)
        let run = try make("install-files", ["DESTDIR": stage.path, "PREFIX": prefix])
        XCTAssertEqual(run.status, 0, run.stdout + run.stderr)
        let left = try FileManager.default.contentsOfDirectory(atPath: rules.path).sorted()
        XCTAssertEqual(left, ["60-transit-pasori.rules"], "one rule, not both")
        XCTAssertTrue(run.stdout.contains("60-transit-pasori.rules replaces it"), run.stdout)
        // An earlier install's manifest names the former file: uninstall removes it.
        let root = stage.appendingPathComponent(String(prefix.dropFirst()))
        try "x\n".write(to: former, atomically: true, encoding: .utf8)
        let manifest = root.appendingPathComponent("lib/transit/install-manifest")
        try ((try String(contentsOf: manifest, encoding: .utf8)) + "/etc/udev/rules.d/60-transit-rcs380.rules\n").write(to: manifest, atomically: true, encoding: .utf8)
        let gone = try make("uninstall", ["DESTDIR": stage.path, "PREFIX": prefix])
        XCTAssertEqual(gone.status, 0, gone.stdout + gone.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: rules.path), [], "both names removed: \(gone.stderr)")
    }

    /// The installed Japanese page is the committed one, and man(1) shows it to a Japanese user (a
    /// ja_JP.UTF-8 compiled into a private LOCPATH) from the installed MANPATH, English otherwise.
    func testTheInstalledJapaneseManPageIsWhatManShowsAJapaneseUser() throws {
        try requireRelease()
        let root = try install()
        let installed = root.appendingPathComponent("share/man/ja/man1/transit.1")
        XCTAssertEqual(try Data(contentsOf: installed),
                       try Data(contentsOf: BuildProducts.packageRoot.appendingPathComponent("docs/man/ja/transit.1")))
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: installed.path)[.posixPermissions] as? Int, 0o644)
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: "/usr/bin/man"), "man is missing (man-db; scripts/test-setup.sh)")
        var environment: [String: String]
        do { environment = try JapaneseLocale.environment() } catch let reason as JapaneseLocale.SkipReason { throw XCTSkip(reason.description) }
        environment.merge(["MANPATH": root.appendingPathComponent("share/man").path, "MANPAGER": "cat", "PATH": "/usr/bin:/bin", "MANWIDTH": "80"]) { $1 }
        let found = try CommandRun.run("/usr/bin/man", ["-w", "transit"], environment: environment)
        XCTAssertEqual(found.stdout, installed.path + "\n", found.stderr)
        let shown = try CommandRun.run("/usr/bin/man", ["--warnings", "transit"], environment: environment)
        XCTAssertEqual(shown.status, 0, shown.stderr)
        XCTAssertEqual(shown.stderr, "", "man printed warnings")
        for words in ["名前", "transit - 非接触の交通系ICカードと電子マネーの残高と利用履歴を読む", "終了ステータス", "--exchange-timeout"] {
            XCTAssertTrue(shown.stdout.contains(words), "man transit lacks \(words)")
        }
        environment["LANG"] = "C.UTF-8"
        let english = try CommandRun.run("/usr/bin/man", ["-w", "transit"], environment: environment)
        XCTAssertEqual(english.stdout, root.appendingPathComponent("share/man/man1/transit.1").path + "\n", english.stderr)
    }

    /// `make install` never builds (as root it would leave root-owned files in the checkout):
    /// without a release build it stops and says to run make first.
    func testMakeInstallRefusesABuildWhoseSwiftRuntimeItCannotFind() throws {
        // The build under test, copied, with transit's RUNPATH cut to its own folder: as a build
        // whose toolchain moved or is not on the loader's path. Nothing may be installed.
        let bin = dir.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        let built = try FileManager.default.contentsOfDirectory(atPath: BuildProducts.directory.path)
            .filter { $0 == "transit" || $0 == "transit-sim" || ($0.hasPrefix("libTransit") && $0.hasSuffix(".so")) }
        for name in built { try FileManager.default.copyItem(at: BuildProducts.directory.appendingPathComponent(name), to: bin.appendingPathComponent(name)) }
        let cut = try CommandRun.run("/usr/bin/env", ["patchelf", "--set-rpath", "$ORIGIN", bin.appendingPathComponent("transit").path])
        try XCTSkipUnless(cut.status == 0, "patchelf is not installed (scripts/setup.sh)")
        var env = ProcessInfo.processInfo.environment
        env["LD_LIBRARY_PATH"] = nil
        env["BIN"] = bin.path
        let stage = dir.appendingPathComponent("stage")
        let run = try CommandRun.run("/usr/bin/make", ["-s", "install-files", "DESTDIR=\(stage.path)", "PREFIX=\(prefix)", "BIN=\(bin.path)"],
                                     currentDirectory: BuildProducts.packageRoot, environment: env)
        XCTAssertNotEqual(run.status, 0, run.stdout + run.stderr)
        XCTAssertTrue(run.stderr.contains("libswiftCore.so") && run.stderr.contains("nothing installed"), run.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: stage.appendingPathComponent("usr/local/bin/transit").path), "no binary was installed")
    }

    func testMakeInstallWithoutAReleaseBuildStopsAndSaysToRunMake() throws {
        let checkout = dir.appendingPathComponent("checkout")
        try FileManager.default.createDirectory(at: checkout, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: BuildProducts.packageRoot.appendingPathComponent("Makefile"), to: checkout.appendingPathComponent("Makefile"))
        let run = try CommandRun.run("/usr/bin/make", ["-s", "install", "DESTDIR=\(dir.appendingPathComponent("stage").path)"], currentDirectory: checkout)
        XCTAssertEqual(run.status, 2, run.stdout + run.stderr)
        XCTAssertTrue(run.stderr.contains("no release build here; run make first (as yourself, not root)"), run.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: checkout.appendingPathComponent(".build").path), "nothing was built")
    }

    /// The manifest names what to remove, but only under PREFIX (and its etc) is anything removed.
    func testUninstallRemovesNothingOutsideThePrefix() throws {
        try requireRelease()
        let root = try install()
        let outside = dir.appendingPathComponent("precious")
        try "keep".write(to: outside, atomically: true, encoding: .utf8)
        let manifest = root.appendingPathComponent("lib/transit/install-manifest")
        try (try String(contentsOf: manifest, encoding: .utf8) + outside.path + "\n\(prefix)/../../\(outside.path)\n").write(to: manifest, atomically: true, encoding: .utf8)
        // DESTDIR empty and PREFIX the staged tree: the outside file is an absolute path not under it.
        let run = try make("uninstall", ["PREFIX": root.path])
        XCTAssertEqual(run.status, 0, run.stdout + run.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: outside.path), "a path outside PREFIX is never removed")
        XCTAssertTrue(run.stderr.contains("\(outside.path): not removed (not under \(root.path)"), run.stderr)
    }

    func testDoctorSaysWhatIsWrong() throws {
        let noPcscd = try CommandRun.transit(["doctor", "--json"], environment: ["PCSCLITE_CSOCK_NAME": dir.appendingPathComponent("none").path])
        XCTAssertEqual(noPcscd.status, 1, noPcscd.stdout)
        let checks = (try? JSONSerialization.jsonObject(with: Data(noPcscd.stdout.utf8))) as? [[String: Any]] ?? []
        let pcscd = checks.first { $0["check"] as? String == "pcscd" }
        XCTAssertEqual(pcscd?["ok"] as? Bool, false, "\(checks)")
        XCTAssertNotNil(pcscd?["fix"] as? String)
        let conf = dir.appendingPathComponent("plugins.conf")
        try "japan-ic /nonexistent/libTransitJapanIC.so\ncepas \(BuildProducts.plugin("TransitCEPAS"))\n".write(to: conf, atomically: true, encoding: .utf8)
        let refused = try CommandRun.transit(["doctor", "--config", conf.path])
        XCTAssertEqual(refused.status, 1)
        XCTAssertTrue(refused.stdout.contains("problem plugin japan-ic: refused"), refused.stdout)
        XCTAssertTrue(refused.stdout.contains("ok      plugin cepas"), refused.stdout)
        XCTAssertTrue(refused.stdout.contains("fix: fix or remove its line (\(conf.path):1)"), refused.stdout)
    }
}
