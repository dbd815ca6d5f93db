import Foundation
import Synchronization
import TestSupport
import XCTest

/// The .deb as Debian's own tools judge it: lintian at its default profile, systemd-analyze's
/// exposure score for the watch unit, and the maintainer scripts run for real by dpkg in a
/// throwaway root (an overlay of / in a private mount namespace, so this machine's dpkg database
/// and users are untouched). Needs the release build (scripts/test.sh makes it first).
final class DebianPackageTests: XCTestCase {
    var dir: URL!
    override func setUp() { dir = temporaryDirectory() }
    override func tearDown() { try? FileManager.default.removeItem(at: dir) }

    private var releaseBin: String { BuildProducts.directory.deletingLastPathComponent().appendingPathComponent("release").path }
    private var unitPath: String { BuildProducts.packageRoot.appendingPathComponent("packaging/transit-watch.service").path }

    /// The package, built once for the class (stripping the runtime takes most of half a minute).
    private static let builtDeb = Mutex<String?>(nil)
    private static let debFolder = temporaryDirectory()
    override class func tearDown() { try? FileManager.default.removeItem(at: debFolder) }

    /// Builds the package (once) and returns its path.
    private func buildDeb() throws -> String {
        let built = FileManager.default.fileExists(atPath: releaseBin + "/transit")
        try Prerequisite.require(built, "no release build: scripts/test.sh makes it first")
        if let deb = Self.builtDeb.withLock({ $0 }) { return deb }
        var environment = ProcessInfo.processInfo.environment
        environment.merge(["BIN": releaseBin, "DEBFULLNAME": "Test Maintainer", "DEBEMAIL": "maintainer@example.org",
                           "SOURCE_DATE_EPOCH": "1796083200"]) { $1 }
        let run = try CommandRun.run("/usr/bin/make", ["-s", "deb-files", "OUT=\(Self.debFolder.path)"], currentDirectory: BuildProducts.packageRoot,
                                     environment: environment, timeout: 300)
        XCTAssertEqual(run.status, 0, run.stdout + run.stderr)
        let deb = try XCTUnwrap(run.stdout.split(separator: "\n").last.map(String.init), run.stdout)
        Self.builtDeb.withLock { $0 = deb }
        return deb
    }

    private func requireTool(_ path: String, _ package: String) throws {
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: path), "\(path) is missing (Debian package \(package); .ci/run installs it)")
    }

    func testLintianFindsNoErrorAndNoWarning() throws {
        try requireTool("/usr/bin/lintian", "lintian")
        let deb = try buildDeb()
        let run = try CommandRun.run("/usr/bin/lintian", ["--no-cfg", deb], timeout: 300)
        let findings = run.stdout.split(separator: "\n").filter { $0.hasPrefix("E:") || $0.hasPrefix("W:") }
        XCTAssertEqual(findings, [], run.stdout + run.stderr)
        XCTAssertEqual(run.status, 0, run.stdout + run.stderr)
    }

    func testTheDebCarriesTheFilesFieldsAndConffilesDebianExpects() throws {
        let deb = try buildDeb()
        let arch = try CommandRun.run("/usr/bin/dpkg", ["--print-architecture"]).stdout.trimmingCharacters(in: .newlines)
        XCTAssertTrue(deb.hasSuffix("_0.1.0-1_\(arch).deb"), deb)
        func field(_ name: String) throws -> String {
            try CommandRun.run("/usr/bin/dpkg-deb", ["-f", deb, name]).stdout.trimmingCharacters(in: .newlines)
        }
        XCTAssertEqual(try field("Package"), "transit")
        XCTAssertEqual(try field("Maintainer"), "Test Maintainer <maintainer@example.org>")
        XCTAssertEqual(try field("Recommends"), "pcscd")
        XCTAssertEqual(try field("Suggests"), "fonts-noto-cjk", "the report page's Japanese names need a CJK font")
        // docs/ABI.md's folders from the package's pkg-config file: the drop-ins /etc/transit reads.
        let pc = try CommandRun.run("/bin/sh", ["-c", "dpkg-deb --fsys-tarfile '\(deb)' | tar -xO ./usr/share/pkgconfig/transit-plugin.pc"]).stdout
        for line in ["sysconfdir=/etc", "pluginsdir=${prefix}/lib/transit/plugins", "dropindir=${sysconfdir}/transit/plugins.conf.d",
                     "examplesdir=${prefix}/share/doc/transit/examples", "prefix=/usr"] {
            XCTAssertTrue(pc.split(separator: "\n").contains(Substring(line)), "\(line) in\n\(pc)")
        }
        let depends = try field("Depends")
        for package in ["libpcsclite1", "libc6", "libsqlite3-0"] { XCTAssertTrue(depends.contains(package), depends) }
        XCTAssertFalse(depends.contains("pcscd"), "decode needs no pcscd: \(depends)")
        let description = try field("Description")
        XCTAssertTrue(description.contains("Purging the package\n removes that folder"), description)
        XCTAssertTrue(description.split(separator: "\n").allSatisfy { $0.count <= 80 }, description)
        let files = try CommandRun.run("/usr/bin/dpkg-deb", ["-c", deb]).stdout
        for f in ["./usr/bin/transit", "./usr/bin/transit-sim", "./usr/lib/transit/plugins/libTransitJapanIC.so",
                  "./usr/lib/transit/libswiftCore.so", "./etc/transit/plugins.conf", "./lib/systemd/system/transit-watch.service",
                  "./usr/share/man/man1/transit.1.gz", "./usr/share/man/man1/transit-sim.1.gz", "./usr/share/man/man5/plugins.conf.5.gz",
                  "./usr/share/man/ja/man1/transit.1.gz", "./usr/share/man/ja/man1/transit-sim.1.gz", "./usr/share/man/ja/man5/plugins.conf.5.gz",
                  "./usr/include/transit/transit_reader.h", "./usr/share/pkgconfig/transit-plugin.pc",
                  "./usr/share/doc/transit/copyright", "./usr/share/doc/transit/changelog.Debian.gz",
                  "./usr/share/doc/transit/examples/suica.json", "./usr/lib/sysusers.d/transit.conf",
                  "./usr/share/polkit-1/rules.d/transit.rules", "./usr/lib/udev/rules.d/60-transit-pasori.rules",
                  "./usr/share/locale/ja/LC_MESSAGES/transit.mo", "./usr/share/locale/ja/LC_MESSAGES/transit-hsl.mo",
                  "./usr/share/locale/ja/LC_MESSAGES/transit-troika.mo", "./usr/share/locale/ja/LC_MESSAGES/transit-charliecard.mo",
                  "./usr/share/locale/ja/LC_MESSAGES/transit-calypso.mo", "./usr/share/locale/ja/LC_MESSAGES/transit-nanaco.mo"] {
            XCTAssertTrue(files.contains(f), "\(f) missing")
        }
        // The Japanese pages are the committed ones, gzip'd as Debian wants (UTF-8: Policy 12.1).
        for page in ["man1/transit.1", "man1/transit-sim.1", "man5/plugins.conf.5"] {
            let name = (page as NSString).lastPathComponent
            let packed = try CommandRun.run("/bin/sh", ["-c", "dpkg-deb --fsys-tarfile '\(deb)' | tar -xO ./usr/share/man/ja/\(page).gz | gzip -d"])
            XCTAssertEqual(packed.status, 0, packed.stderr)
            XCTAssertEqual(packed.stdout, try String(contentsOf: BuildProducts.packageRoot.appendingPathComponent("docs/man/ja/\(name)"), encoding: .utf8), page)
        }
        let control = dir.appendingPathComponent("control")
        XCTAssertEqual(try CommandRun.run("/usr/bin/dpkg-deb", ["-e", deb, control.path]).status, 0)
        XCTAssertEqual(try String(contentsOf: control.appendingPathComponent("conffiles"), encoding: .utf8)
                        .split(separator: "\n").sorted(), ["/etc/transit/plugins.conf", "/etc/transit/plugins.conf.d/README"])
        for script in ["postinst", "prerm", "postrm"] {
            XCTAssertTrue(FileManager.default.isExecutableFile(atPath: control.appendingPathComponent(script).path), "\(script) missing")
        }
        // The changelog's date is SOURCE_DATE_EPOCH's (2026-12-01 00:00 UTC), as is every file's.
        let changelog = try CommandRun.run("/bin/sh", ["-c", "dpkg-deb --fsys-tarfile '\(deb)' | tar -xO ./usr/share/doc/transit/changelog.Debian.gz | gzip -d"])
        XCTAssertTrue(changelog.stdout.contains(" -- Test Maintainer <maintainer@example.org>  Tue, 01 Dec 2026 00:00:00 +0000"), changelog.stdout)
        let times = try CommandRun.run("/bin/sh", ["-c", "dpkg-deb --fsys-tarfile '\(deb)' | tar -tv --full-time | awk '{ print $4, $5 }' | sort -u"])
        XCTAssertEqual(times.stdout.trimmingCharacters(in: .newlines), "2026-12-01 00:00:00", times.stdout)
        // No packaged file names the build folder.
        let contents = try CommandRun.run("/bin/sh", ["-c", "dpkg-deb --fsys-tarfile '\(deb)' | tar -xO | grep -a -c -F '\(BuildProducts.packageRoot.path)' || true"])
        XCTAssertEqual(contents.stdout.trimmingCharacters(in: .whitespacesAndNewlines), "0", "the build folder is named in the package")
    }

    func testWithoutAMaintainerMakeDebSaysWhoToSet() throws {
        let built = FileManager.default.fileExists(atPath: releaseBin + "/transit")
        try XCTSkipUnless(built, "no release build (swift build -c release)")
        let home = dir.appendingPathComponent("home")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        let run = try CommandRun.run("/usr/bin/make", ["-s", "deb-files", "OUT=\(dir.path)"], currentDirectory: BuildProducts.packageRoot,
                                     environment: ["PATH": "/usr/bin:/bin:/usr/sbin:/sbin", "BIN": releaseBin, "HOME": home.path,
                                                   "GIT_CONFIG_NOSYSTEM": "1"])
        XCTAssertNotEqual(run.status, 0)
        XCTAssertTrue(run.stderr.contains("Set DEBFULLNAME and DEBEMAIL"), run.stderr)
    }

    func testTheWatchUnitRunsAsTransitConfinedToAnExposureOfAtMostTwo() throws {
        try requireTool("/usr/bin/systemd-analyze", "systemd")
        let unit = try String(contentsOfFile: unitPath, encoding: .utf8)
        for line in ["User=transit", "StateDirectory=transit", "StateDirectoryMode=0700", "UMask=0077", "NoNewPrivileges=yes",
                     "CapabilityBoundingSet=", "ProtectSystem=strict", "PrivateNetwork=yes",
                     // AF_NETLINK: libusb (the RC-S380) starts a udev monitor; USB device nodes only.
                     "RestrictAddressFamilies=AF_UNIX AF_NETLINK", "DeviceAllow=char-usb_device rw", "DevicePolicy=closed",
                     "MemoryDenyWriteExecute=yes", "ExecStart=/usr/bin/transit watch"] {
            XCTAssertTrue(unit.split(separator: "\n").contains(Substring(line)), "\(line) missing")
        }
        XCTAssertFalse(unit.split(separator: "\n").contains { $0.hasPrefix("DynamicUser") }, "a DynamicUser's state folder is a symlink transit refuses")
        let copy = dir.appendingPathComponent("transit-watch.service")
        try FileManager.default.copyItem(atPath: unitPath, toPath: copy.path)
        let run = try CommandRun.run("/usr/bin/systemd-analyze", ["security", "--offline=true", "--no-pager", copy.path])
        XCTAssertEqual(run.status, 0, run.stdout + run.stderr)
        let marker = "Overall exposure level for transit-watch.service: "
        let line = try XCTUnwrap(run.stdout.split(separator: "\n").first { $0.contains(marker) }, run.stdout)
        let score = try XCTUnwrap(Double(line.components(separatedBy: marker).last?.split(separator: " ").first ?? ""), String(line))
        XCTAssertLessThanOrEqual(score, 2.0, run.stdout)
        XCTAssertFalse(run.stderr.contains("Unknown"), "systemd does not know a line of the unit: \(run.stderr)")
    }

    /// `steps` run as root in a throwaway root: an overlay of / in a private mount namespace, with
    /// `files` copied into its /tmp. Its `== NAME VALUE` lines, by name; nil where there is no
    /// mount namespace or overlay here.
    private func inThrowawayRoot(_ steps: String, files: [String: String]) throws -> (said: [String: String], output: String)? {
        let script = dir.appendingPathComponent("steps-\(UUID().uuidString).sh")
        try steps.write(to: script, atomically: true, encoding: .utf8)
        let root = dir.appendingPathComponent("root-\(UUID().uuidString)").path
        let copies = (files.map { "cp '\($0.value)' '\(root)/merged/tmp/\($0.key)'" } + ["cp '\(script.path)' '\(root)/merged/tmp/steps.sh'"])
            .joined(separator: "\n")
        let shell = """
        set -e
        mount -t tmpfs none '\(root)'
        mkdir '\(root)/upper' '\(root)/work' '\(root)/merged'
        mount -t overlay overlay -o 'lowerdir=/,upperdir=\(root)/upper,workdir=\(root)/work' '\(root)/merged'
        mount -t proc proc '\(root)/merged/proc'
        mount -t tmpfs none '\(root)/merged/tmp'
        mount -t tmpfs none '\(root)/merged/run'
        \(copies)
        exec chroot '\(root)/merged' /bin/sh /tmp/steps.sh
        """
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        let run = try CommandRun.run("/usr/bin/unshare", ["-m", "--propagation", "private", "/bin/sh", "-c", shell], timeout: 300)
        if run.status != 0 && run.stdout.isEmpty && (run.stderr.contains("unshare") || run.stderr.contains("mount")) { return nil }
        let said = Dictionary(run.stdout.split(separator: "\n").filter { $0.hasPrefix("== ") }.map { line -> (String, String) in
            let words = line.dropFirst(3).split(separator: " ", maxSplits: 1).map(String.init)
            return (words[0], words.count > 1 ? words[1] : "")
        }, uniquingKeysWith: { $1 })
        return (said, run.stdout + run.stderr)
    }

    /// The udev rule was 60-transit-rcs380.rules until it covered the RC-S330/360/370 too (issue
    /// 46): upgrading from a package that shipped it so leaves the one rule (dpkg removes the file
    /// the new package no longer has). The former package is this one with the rule under its
    /// former name and an earlier version.
    func testAnUpgradeFromThePackageWithTheFormerRuleNameLeavesOneRule() throws {
        let deb = try buildDeb()
        let old = dir.appendingPathComponent("old"), oldDeb = dir.appendingPathComponent("transit_0.0.9-1.deb").path
        XCTAssertEqual(try CommandRun.run("/usr/bin/dpkg-deb", ["-R", deb, old.path]).status, 0)
        let rules = old.appendingPathComponent("usr/lib/udev/rules.d")
        try FileManager.default.moveItem(at: rules.appendingPathComponent("60-transit-pasori.rules"), to: rules.appendingPathComponent("60-transit-rcs380.rules"))
        let control = old.appendingPathComponent("DEBIAN/control")
        let fields = try String(contentsOf: control, encoding: .utf8)
        try fields.replacingOccurrences(of: "\nVersion: 0.1.0-1\n", with: "\nVersion: 0.0.9-1\n").write(to: control, atomically: true, encoding: .utf8)
        let built = try CommandRun.run("/usr/bin/dpkg-deb", ["--root-owner-group", "--build", old.path, oldDeb])
        XCTAssertEqual(built.status, 0, built.stderr)
        let steps = """
        set -u
        say() { echo "== $*"; }
        rm -f /var/lib/man-db/auto-update
        dpkg -i /tmp/old.deb >/dev/null 2>&1 || { echo "dpkg -i old failed"; exit 1; }
        say before $(ls /usr/lib/udev/rules.d | grep transit | tr '\n' ' ')
        dpkg -i /tmp/new.deb >/dev/null 2>&1 || { echo "dpkg -i new failed"; dpkg -i /tmp/new.deb; exit 1; }
        say after $(ls /usr/lib/udev/rules.d | grep transit | tr '\n' ' ')
        say version $(dpkg-query -W -f '${Version}' transit)
        """
        let result = try inThrowawayRoot(steps, files: ["old.deb": oldDeb, "new.deb": deb])
        try XCTSkipIf(result == nil, "no mount namespace or overlay here")
        guard let (said, output) = result else { return }
        XCTAssertEqual(said["before"]?.trimmingCharacters(in: .whitespaces), "60-transit-rcs380.rules", output)
        XCTAssertEqual(said["after"]?.trimmingCharacters(in: .whitespaces), "60-transit-pasori.rules", "one rule, not both: \(output)")
        XCTAssertEqual(said["version"], "0.1.0-1", output)
    }

    /// dpkg -i, -r and --purge of the built package in an overlay of this machine's root.
    func testInstallRemoveAndPurgeInAThrowawayRoot() throws {
        let deb = try buildDeb()
        let steps = """
        set -u
        say() { echo "== $*"; }
        rm -f /var/lib/man-db/auto-update # man-db's trigger would rebuild every index (half a minute)
        dpkg -i /tmp/transit.deb >/dev/null 2>&1 || { echo "dpkg -i failed"; dpkg -i /tmp/transit.deb; exit 1; }
        say user $(getent passwd transit | cut -d: -f3,6,7)
        # deb-systemd-helper's state file: what purge removes; no wants link: disabled.
        state=/var/lib/systemd/deb-systemd-helper-enabled/transit-watch.service.dsh-also
        say registered $([ -f $state ] && echo yes || echo no)
        say enabled $([ -e /etc/systemd/system/multi-user.target.wants/transit-watch.service ] && echo yes || echo no)
        # The service's view: user transit, its 0700 state folder, XDG_DATA_HOME=/var/lib.
        install -d -m 0700 -o transit -g transit /var/lib/transit
        cd / && setpriv --reuid=transit --regid=transit --clear-groups --no-new-privs \\
            env -i PATH=/usr/bin:/bin XDG_DATA_HOME=/var/lib HOME=/var/lib/transit \\
            transit scan --card /usr/share/doc/transit/examples/suica.json --json > /tmp/scan.json 2>/tmp/scan.err
        say scan $? $(python3 -c 'import json; print(json.load(open("/tmp/scan.json"))["balance"])' 2>/dev/null)
        say archive $(stat -c '%U %a' /var/lib/transit/history.db 2>/dev/null)
        cat /tmp/scan.err
        dpkg -r transit >/dev/null 2>&1
        say removed $([ -e /usr/bin/transit ] && echo no || echo yes) unit $([ -e /lib/systemd/system/transit-watch.service ] && echo kept || echo gone)
        say masked $([ -L /etc/systemd/system/transit-watch.service ] && echo yes || echo no)
        say history-after-remove $([ -e /var/lib/transit/history.db ] && echo kept || echo gone)
        dpkg --purge transit >/dev/null 2>/tmp/purge.err
        say purge-said $(grep -c 'removes the card history in /var/lib/transit' /tmp/purge.err)
        say history-after-purge $([ -e /var/lib/transit ] && echo kept || echo gone)
        say conffiles-after-purge $([ -e /etc/transit/plugins.conf ] && echo kept || echo gone)
        say masked-after-purge $([ -L /etc/systemd/system/transit-watch.service ] && echo yes || echo no)
        say registered-after-purge $([ -f $state ] && echo yes || echo no)
        say user-after-purge $(getent passwd transit >/dev/null && echo kept || echo gone)
        """
        let result = try inThrowawayRoot(steps, files: ["transit.deb": deb])
        try XCTSkipIf(result == nil, "no mount namespace or overlay here")
        guard let (said, context) = result else { return }
        let user = (said["user"] ?? "").split(separator: ":").map(String.init)
        XCTAssertEqual(user.count, 3, context)
        XCTAssertLessThan(Int(user.first ?? "") ?? 1000, 1000, "a system user: \(context)")
        XCTAssertEqual(user.dropFirst().first, "/var/lib/transit", context)
        XCTAssertEqual(said["registered"], "yes", context)
        XCTAssertEqual(said["enabled"], "no", "installed disabled: \(context)")
        XCTAssertEqual(said["scan"], "0 2010", "user transit reads a card into /var/lib/transit: \(context)")
        XCTAssertEqual(said["archive"], "transit 600", context)
        XCTAssertEqual(said["removed"], "yes unit gone", context)
        XCTAssertEqual(said["masked"], "yes", "remove masks the unit as debhelper does: \(context)")
        XCTAssertEqual(said["history-after-remove"], "kept", context)
        XCTAssertEqual(said["purge-said"], "1", context)
        XCTAssertEqual(said["history-after-purge"], "gone", context)
        XCTAssertEqual(said["conffiles-after-purge"], "gone", context)
        XCTAssertEqual(said["masked-after-purge"], "no", context)
        XCTAssertEqual(said["registered-after-purge"], "no", context)
        XCTAssertEqual(said["user-after-purge"], "kept", "Debian leaves system users: \(context)")
    }
}
