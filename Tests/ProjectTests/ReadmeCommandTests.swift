import Foundation
import TestSupport
import XCTest

/// The commands of the README and the guides (docs/*.md) as a newcomer types them: every line of
/// their `sh` blocks is run here as written (`.build/release/` naming the build under test, the
/// installers and the compiler stubbed), or is one a test elsewhere runs, named below with what it
/// holds; a command no rule knows fails. The sample scans keep nothing in the user's history, and
/// the README says what the test run skips and why.
final class ReadmeCommandTests: XCTestCase {
    private var archive = ArchiveFixture()
    override func tearDown() { archive.remove() }

    private static let readme = DocCommands.text("README.md")

    /// How a documented command is run by the tests.
    private enum Coverage {
        /// Run here, as written, through /bin/sh in the package root; its exit status one of `statuses`.
        case here(statuses: Set<Int32>)
        /// Run by another test or script: `file` (package-relative) holds `holding`.
        case elsewhere(file: String, holding: String)
    }

    /// The rules, first match wins: a command's text against a regular expression.
    private static let rules: [(pattern: String, coverage: Coverage)] = [
        (#"^scripts/(demo|setup)\.sh$"#, .here(statuses: [0])),
        (#"^scripts/test\.sh$"#, .elsewhere(file: ".ci/run", holding: "\nscripts/test.sh\n")),
        (#"^swift build -c release$"#, .elsewhere(file: "scripts/test.sh", holding: "swift build -c release")),
        (#"^(sudo )?make( install)?$"#, .elsewhere(file: "Tests/ProjectTests/InstallTests.swift", holding: "install-files")),
        (#"make deb$|^apt install \./build/transit_"#, .elsewhere(file: "Tests/ProjectTests/DebianPackageTests.swift", holding: "deb-files")),
        (#"^man transit$"#, .elsewhere(file: "Tests/ProjectTests/ManAndCompletionTests.swift", holding: "executable(\"man\")")),
        (#"^(\.build/release/)?transit (doctor)$"#, .here(statuses: [0, 1])),
        (#"^(\.build/release/)?transit (cards|forget '#1'|plugins)$"#, .here(statuses: [0])),
        (#"^transit export --format ledger \| hledger -f - (check|balance)$"#, .here(statuses: [0])),
        (#"^(\.build/release/)?transit (readers|scan --wait 10|scan --no-save)$"#,
         .elsewhere(file: "Tests/EndToEndTests/ReaderEndToEndTests.swift", holding: "\"scan\"")),
        (#"^(\.build/release/)?transit scan --keys my\.keys$"#,
         .elsewhere(file: "Tests/EndToEndTests/StorageCardEndToEndTests.swift", holding: "\"--keys\", keyPath")),
        (#"^transit scan --reader rc-s380 --wait 10$"#, .elsewhere(file: "Tests/EndToEndTests/RCS380EndToEndTests.swift", holding: "--wait")),
        (#"^cp \"\$\(pkg-config --variable=examplesdir transit-plugin\)\"/myfamily|^cc -std=c99 .*myfamily\.c|^sudo install -m 0644 libmyfamily\.so |^echo \"myfamily |myfamily\.json --no-save$"#,
         .elsewhere(file: "Tests/Host/TransitPluginHostTests/PluginExampleTests.swift", holding: "guideLines")),
        (#"^pgrep -x pcscd >/dev/null \|\| pcscd --foreground &$|transit-sim --card samples/ezlink\.json &$|transit scan --reader \"Virtual PCD 00 00\""#,
         .elsewhere(file: "Tests/TestSupport/VirtualReaderHarness.swift", holding: "pcscd")),
    ]

    /// Stand-ins for what a test must not run for real: apt-get, sudo, the Swift build (the build
    /// under test is already there). Each logs its arguments to `calls`.
    private func stubs() throws -> (path: String, calls: URL) {
        let bin = archive.directory.appendingPathComponent("stubs"), calls = archive.directory.appendingPathComponent("calls")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        for name in ["apt-get", "swift"] {
            let stub = bin.appendingPathComponent(name)
            try "#!/bin/sh\necho \"\(name) $*\" >> '\(calls.path)'\n".write(to: stub, atomically: true, encoding: .utf8)
            chmod(stub.path, 0o755)
        }
        let sudo = bin.appendingPathComponent("sudo")
        try "#!/bin/sh\nexec \"$@\"\n".write(to: sudo, atomically: true, encoding: .utf8)
        chmod(sudo.path, 0o755)
        return (bin.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"), calls)
    }

    /// Runs `command` as written in `session`'s archive.
    private func runHere(_ command: DocCommands.Command, statuses: Set<Int32>, in session: ArchiveFixture) throws {
        let (path, _) = try stubs()
        let built = BuildProducts.directory.path + "/"
        let line = command.text.replacingOccurrences(of: ".build/release/", with: built)
        var env = session.environment
        env["PATH"] = built + ":" + path
        let run = try CommandRun.run("/bin/sh", ["-c", line], currentDirectory: BuildProducts.packageRoot, environment: env, timeout: 120)
        XCTAssertTrue(statuses.contains(run.status), "\(command) exited \(run.status): \(run.stderr)")
    }

    func testEveryDocumentedCommandRunsAsWritten() throws {
        let commands = DocCommands.all()
        XCTAssertGreaterThan(commands.count, 20, "the README's and guides' sh blocks")
        // Each document is a newcomer's session of its own: an archive holding the card the first
        // read kept (a copy of the sample, read as a real card would be).
        for document in DocCommands.documents {
            let session = ArchiveFixture()
            defer { session.remove() }
            XCTAssertEqual(try session.scan(BuildProducts.sample("suica.json")).status, 0)
            for command in commands where command.file == document {
                for part in command.text.components(separatedBy: "; ").map({ $0.trimmingCharacters(in: .whitespaces) }) {
                    let one = DocCommands.Command(file: command.file, line: command.line, text: part)
                    guard let rule = Self.rules.first(where: { part.range(of: $0.pattern, options: .regularExpression) != nil }) else {
                        XCTFail("no test runs \(one): run it here or name the test that does (ReadmeCommandTests.rules)")
                        continue
                    }
                    switch rule.coverage {
                    case .here(let statuses):
                        try runHere(one, statuses: statuses, in: session)
                    case .elsewhere(let file, let holding):
                        XCTAssertTrue(DocCommands.text(file).contains(holding), "\(one): \(file) does not hold \(holding)")
                    }
                }
            }
            if commands.contains(where: { $0.file == document && $0.text.contains("forget '#1'") }) {
                let run = try session.transit(["cards", "--json"])
                XCTAssertEqual(run.stdout.trimmingCharacters(in: .whitespacesAndNewlines), "[]", "\(document)'s forget '#1' forgot the card")
            }
        }
    }

    private func cards() throws -> [[String: Any]] {
        let run = try archive.transit(["cards", "--json"])
        return (try? JSONSerialization.jsonObject(with: Data(run.stdout.utf8))) as? [[String: Any]] ?? []
    }

    /// The README's text from the heading `title` to the next heading of its level or above.
    private static func section(_ title: String, of text: String = readme) -> String {
        let lines = text.components(separatedBy: "\n")
        guard let start = lines.firstIndex(where: { $0.hasPrefix("#") && $0.hasSuffix(" " + title) }) else { return "" }
        let level = lines[start].prefix { $0 == "#" }.count
        let end = lines[(start + 1)...].firstIndex { $0.hasPrefix("#") && $0.prefix { $0 == "#" }.count <= level } ?? lines.count
        return lines[start ..< end].joined(separator: "\n")
    }

    /// A command line's words as sh reads them here: single and double quotes, a `#` comment.
    private static func words(_ line: String) -> [String] {
        var words = [String](), current = "", quote: Character?, inWord = false
        for ch in DocCommands.withoutComment(line) {
            if let q = quote { if ch == q { quote = nil } else { current.append(ch) }; continue }
            if ch == "'" || ch == "\"" { quote = ch; inWord = true; continue }
            if ch == " " { if inWord { words.append(current); current = ""; inWord = false }; continue }
            current.append(ch)
            inWord = true
        }
        if inWord { words.append(current) }
        return words
    }

    /// The CLI declared once (issue 48): the usage blocks of the README and docs/command-line.md are
    /// what `transit --help` prints under "Usage:" (in English), line for line.
    func testTheDocsUsageBlocksAreTheHelps() throws {
        var environment = ProcessInfo.processInfo.environment
        environment["LANG"] = "C.UTF-8"; environment["LC_ALL"] = nil; environment["LANGUAGE"] = nil; environment["LC_MESSAGES"] = nil
        let help = try CommandRun.transit(["--help"], environment: environment)
        XCTAssertEqual(help.status, 0, help.stderr)
        let lines = (help.stdout + help.stderr).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let start = try XCTUnwrap(lines.firstIndex(of: "Usage:"), help.stdout) + 1
        let usage = lines[start...].prefix { !$0.isEmpty }.map { String($0.dropFirst(2)) }
        XCTAssertGreaterThan(usage.count, 15)
        for doc in ["README.md", "docs/command-line.md"] {
            let text = try String(contentsOf: BuildProducts.packageRoot.appendingPathComponent(doc), encoding: .utf8)
            let docLines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            let first = try XCTUnwrap(docLines.firstIndex { $0.hasPrefix("transit scan [") }, "\(doc) has no usage block")
            let block = docLines[first...].prefix { $0 != "```" }
            XCTAssertEqual(Array(block), usage, "\(doc)'s usage block is not `transit --help`'s")
        }
    }

    func testTheREADMEIsReadInFiveMinutes() throws {
        let lines = Self.readme.components(separatedBy: "\n").count
        XCTAssertLessThanOrEqual(lines, 300, "README.md: \(lines) lines")
        // The first read with each kind of reader, and the guides, are in it.
        for heading in ["## Card families", "## Readers", "## Fresh machine: two commands", "## Install", "## Scanning a real card",
                        "### With a PC/SC reader", "### With Sony's RC-S380", "## Guides"] {
            XCTAssertTrue(Self.readme.components(separatedBy: "\n").contains(heading), heading)
        }
        // Every guide it links exists, and every guide in docs/ is linked.
        let guides = Self.section("Guides")
        for document in DocCommands.documents where document != "README.md" {
            XCTAssertTrue(guides.contains("(\(document))"), "the Guides list does not name \(document)")
        }
        let pattern = try NSRegularExpression(pattern: #"\]\((docs/[^)#]+)\)"#)
        let ns = Self.readme as NSString
        for match in pattern.matches(in: Self.readme, range: NSRange(location: 0, length: ns.length)) {
            let target = ns.substring(with: match.range(at: 1))
            XCTAssertTrue(FileManager.default.fileExists(atPath: BuildProducts.packageRoot.appendingPathComponent(target).path), target)
        }
    }

    func testTheREADMEsSampleScansKeepNothingInTheHistory() throws {
        let pattern = try NSRegularExpression(pattern: #"transit scan [^`\n#]*--card samples/[^`\n#]*"#)
        let all = DocCommands.documents.map(DocCommands.text).joined(separator: "\n")
        let text = all as NSString
        let commands = pattern.matches(in: all, range: NSRange(location: 0, length: text.length)).map { text.substring(with: $0.range) }
        XCTAssertGreaterThanOrEqual(commands.count, 2, "the README's JSON and text examples")
        for command in commands {
            let run = try archive.transit(Array(Self.words(command).dropFirst()))
            XCTAssertEqual(run.status, 0, "\(command): \(run.stderr)")
            XCTAssertEqual(try cards().count, 0, "\(command) kept the sample card in the history")
        }
    }

    func testTheSimulatorSectionCopesWithARunningPcscdAndSaysToRestartIt() throws {
        let section = Self.section("Writing a plugin", of: DocCommands.text("docs/plugins.md"))
        let pcscd = section.components(separatedBy: "\n").filter { $0.contains("pcscd --foreground &") }
        XCTAssertFalse(pcscd.isEmpty, section)
        // Run as written where a pcscd already runs, a bare `pcscd --foreground &` is refused.
        for line in pcscd { XCTAssertTrue(line.hasPrefix("pgrep -x pcscd >/dev/null || "), line) }
        XCTAssertTrue(section.contains("restart pcscd after installing vsmartcard-vpcd"), section)
    }

    func testTheREADMEExplainsTheTestsItSkips() throws {
        let fresh = Self.section("Fresh machine: two commands")
        // The skip message of the tests that read real card dumps, word for word, and the variable.
        for cause in [BuildProducts.cardDumpsMissing, "\(BuildProducts.cardDumpsVariable)=", "zsh", "fish"] {
            XCTAssertTrue(fresh.contains(cause), "\(cause) is not explained: \(fresh)")
        }
        XCTAssertTrue(fresh.contains("skipped"), fresh)
        XCTAssertTrue(fresh.contains("expected"), fresh)
        // The README points to no folder outside the repository.
        XCTAssertFalse(fresh.contains("../"), fresh)
    }

    func testTheREADMEsTimeOfTheReproducibilityCheckIsTheScripts() throws {
        let script = try String(contentsOf: BuildProducts.packageRoot.appendingPathComponent("scripts/check-reproducible.sh"), encoding: .utf8)
        let pattern = try NSRegularExpression(pattern: #"(\d+ min \d+ s)"#)
        func times(_ text: String) -> [String] {
            let ns = text as NSString
            return pattern.matches(in: text, range: NSRange(location: 0, length: ns.length)).map { ns.substring(with: $0.range) }
        }
        let scriptHead = script.components(separatedBy: "\nset -").first ?? ""
        let install = DocCommands.text("docs/install.md")
        let around = install.components(separatedBy: "check-reproducible.sh").dropFirst().first ?? ""
        XCTAssertEqual(times(scriptHead).first, "6 min 44 s", "the measured time in the script's header")
        XCTAssertEqual(times(String(around.prefix(200))).first, times(scriptHead).first, "docs/install.md gives the script's time")
    }
}
