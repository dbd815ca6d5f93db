import Foundation
import TestSupport
import XCTest

/// The man pages and the shell completions follow the `--help` texts: every command and option
/// `transit --help` and `transit COMMAND --help` name is in transit(1) and in each completion, every
/// exit code is in EXIT STATUS, the pages render without warnings, and the completions work.
final class ManAndCompletionTests: XCTestCase {
    private static let root = BuildProducts.packageRoot
    private static func path(_ relative: String) -> String { root.appendingPathComponent(relative).path }
    private static let manPage = path("docs/man/transit.1")
    private static let confPage = path("docs/man/plugins.conf.5")
    private static let simPage = path("docs/man/transit-sim.1")
    private static let bash = path("packaging/completions/transit.bash")
    private static let zsh = path("packaging/completions/_transit")
    private static let fish = path("packaging/completions/transit.fish")

    /// What the built binary's help says: the main text, each command's usage line(s), each
    /// command's own help text. Run once for the whole class.
    private struct Help {
        var main = ""
        /// command → its usage line(s) in `transit --help`, continuation lines included.
        var usage = [String: String]()
        /// command → `transit COMMAND --help`.
        var commandHelp = [String: String]()
        var commands: [String] { usage.keys.sorted() }
        /// Every `--option` in every help text.
        var options: Set<String> {
            ([main] + Array(commandHelp.values)).reduce(into: Set<String>()) { $0.formUnion(ManAndCompletionTests.options(in: $1)) }
        }
    }

    private static let help: Result<Help, Error> = Result {
        var help = Help()
        let main = try CommandRun.transit(["--help"])
        guard main.status == 0 else { throw HelpError("transit --help exited \(main.status): \(main.stderr)") }
        help.main = main.stdout
        var current: String?
        var inUsage = false
        for line in main.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if line.hasPrefix("Usage:") { inUsage = true; continue }
            guard inUsage else { continue }
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty { break }
            let words = trimmed.split(separator: " ").map(String.init)
            if words.first == "transit", words.count > 1 {
                let command = words[1]
                current = command.hasPrefix("-") ? nil : command
                if let current { help.usage[current, default: ""] += trimmed + "\n" }
            } else if let current {
                help.usage[current, default: ""] += trimmed + "\n"
            }
        }
        guard help.usage.count >= 8 else { throw HelpError("found only \(help.commands) in transit --help's usage") }
        for command in help.commands {
            let run = try CommandRun.transit([command, "--help"])
            guard run.status == 0 else { throw HelpError("transit \(command) --help exited \(run.status)") }
            help.commandHelp[command] = run.stdout
        }
        return help
    }

    private struct HelpError: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    private static func options(in text: String) -> Set<String> {
        Set(matches(#"(?<![A-Za-z0-9-])--[a-z][a-z0-9-]*[a-z0-9]"#, in: text).map { $0[0] })
    }

    private static func matches(_ pattern: String, in text: String) -> [[String]] {
        let regex = try! NSRegularExpression(pattern: pattern, options: [.anchorsMatchLines])
        let ns = text as NSString
        return regex.matches(in: text, range: NSRange(location: 0, length: ns.length)).map { m in
            (0 ..< m.numberOfRanges).map { m.range(at: $0).location == NSNotFound ? "" : ns.substring(with: m.range(at: $0)) }
        }
    }

    /// `word` appears in `text` as a whole word (not inside a longer option or name).
    private static func contains(_ text: String, word: String) -> Bool {
        !matches("(?<![A-Za-z0-9_-])" + NSRegularExpression.escapedPattern(for: word) + "(?![A-Za-z0-9_-])", in: text).isEmpty
    }

    private static func read(_ path: String) throws -> String { try String(contentsOfFile: path, encoding: .utf8) }

    /// roff source as a reader sees the words: `\-` is a hyphen, font changes and `\&` vanish.
    private static func normalisedRoff(_ text: String) -> String {
        var t = text.replacingOccurrences(of: "\\-", with: "-").replacingOccurrences(of: "\\&", with: "")
        for font in ["\\fB", "\\fI", "\\fR", "\\fP"] { t = t.replacingOccurrences(of: font, with: "") }
        return t
    }

    /// The lines of one `.SH` section of a page.
    private static func section(_ name: String, of page: String) -> [String] {
        var lines = [String](), inside = false
        for line in page.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if line.hasPrefix(".SH ") {
                inside = line.dropFirst(4).trimmingCharacters(in: CharacterSet(charactersIn: "\" ")) == name
                continue
            }
            if inside { lines.append(line) }
        }
        return lines
    }

    /// The first word of each `.TP` paragraph's tag line in `lines` (`.B scan` → `scan`).
    private static func tags(_ lines: [String]) -> [String] {
        zip(lines, lines.dropFirst()).compactMap { tp, tag in
            guard tp.hasPrefix(".TP") else { return nil }
            // `.B scan` (a macro's first word) or `\fBscan\fR \fIFILE\fR` (the first word).
            let words = normalisedRoff(tag).split(separator: " ")
            return (tag.hasPrefix(".") ? words.dropFirst().first : words.first).map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "\"")) }
        }
    }

    private static func executable(_ name: String) -> String? {
        let dirs = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").map(String.init)
        return (dirs + ["/usr/bin", "/bin", "/usr/local/bin"]).map { $0 + "/" + name }
            .first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    // MARK: (a) every command and option of the help texts is documented and completed

    func testEveryCommandAndOptionIsInTheManPage() throws {
        let help = try Self.help.get()
        let page = try Self.read(Self.manPage)
        let words = Self.normalisedRoff(page)
        let synopsis = Self.normalisedRoff(Self.section("SYNOPSIS", of: page).joined(separator: "\n"))
        let commandsSection = Self.tags(Self.section("COMMANDS", of: Self.normalisedRoff(page)))
        for command in help.commands {
            XCTAssertTrue(synopsis.contains("transit " + command), "SYNOPSIS lacks transit \(command)")
            XCTAssertTrue(commandsSection.contains(command), "COMMANDS lacks \(command) (has \(commandsSection))")
        }
        let optionsSection = Self.section("OPTIONS", of: Self.normalisedRoff(page)).joined(separator: "\n")
        for option in help.options.sorted() {
            XCTAssertTrue(Self.contains(words, word: option), "transit.1 lacks \(option)")
            if option != "--help" && option != "--version" {
                XCTAssertTrue(Self.contains(optionsSection, word: option), "transit.1's OPTIONS lacks \(option)")
            }
        }
    }

    /// The usage lines come from the command table (`CommandTable`), from which the parser works
    /// too: each command's own help, the man page's SYNOPSIS and the bash completion name exactly
    /// those options, and every other option is refused.
    func testEachCommandsHelpNamesExactlyTheOptionsOfItsUsageLine() throws {
        let help = try Self.help.get()
        for command in help.commands {
            let usage = Self.options(in: help.usage[command] ?? "")
            // The options the help lists: each line that begins with options at column 3 (a
            // description's lines, wrapped, start at column 21), up to its description.
            let listed = (help.commandHelp[command] ?? "").split(separator: "\n").filter { $0.hasPrefix("  --") }
                .map { $0.trimmingCharacters(in: .whitespaces) }.map { $0.components(separatedBy: "  ").first ?? "" }
            let own = Self.options(in: listed.joined(separator: "\n"))
            XCTAssertEqual(own, usage, "transit \(command) --help against its usage line")
        }
    }

    func testTheREADMEShowsTheUsageLinesOfTheHelp() throws {
        let help = try Self.help.get()
        let usage = help.main.components(separatedBy: "Usage:\n").dropFirst().first?.components(separatedBy: "\n\n").first ?? ""
        let readme = try Self.read(Self.path("README.md"))
        let block = readme.components(separatedBy: "## Command line\n\n```\n").dropFirst().first?.components(separatedBy: "```").first ?? ""
        XCTAssertEqual(block.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) },
                       usage.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) })
    }

    func testTheManSynopsisNamesExactlyTheOptionsOfEachUsageLine() throws {
        let help = try Self.help.get()
        let synopsis = Self.normalisedRoff(Self.section("SYNOPSIS", of: try Self.read(Self.manPage)).joined(separator: "\n"))
        var blocks = [String: String]()
        for block in synopsis.components(separatedBy: ".br\n") {
            let words = block.split(whereSeparator: { $0 == " " || $0 == "\n" }).map(String.init)
            guard let i = words.firstIndex(of: "transit"), i + 1 < words.count else { continue }
            blocks[words[i + 1], default: ""] += block
        }
        for command in help.commands {
            XCTAssertEqual(Self.options(in: blocks[command] ?? ""), Self.options(in: help.usage[command] ?? ""), "SYNOPSIS of \(command)")
        }
    }

    func testEachCommandRefusesEveryOptionItsUsageLineLacks() throws {
        let help = try Self.help.get()
        let all = help.commands.reduce(into: Set<String>()) { $0.formUnion(Self.options(in: help.usage[$1] ?? "")) }
        for command in help.commands {
            for option in all.subtracting(Self.options(in: help.usage[command] ?? "")).sorted() {
                let run = try CommandRun.transit([command, option, "x"])
                XCTAssertEqual(run.status, 2, "transit \(command) \(option): \(run.stderr)")
                XCTAssertTrue(run.stderr.contains("unknown option \(option)"), "transit \(command) \(option): \(run.stderr)")
            }
        }
    }

    func testEveryCommandAndOptionIsInEachCompletion() throws {
        let help = try Self.help.get()
        for file in [Self.bash, Self.zsh, Self.fish] {
            let text = try Self.read(file)
            let isFish = file.hasSuffix(".fish")
            for command in help.commands {
                XCTAssertTrue(Self.contains(text, word: command), "\(file) lacks the command \(command)")
            }
            for option in help.options.sorted() {
                // fish names long options `-l name`.
                let found = Self.contains(text, word: option)
                    || (isFish && !Self.matches(#"(-l|--long-option)\s+"# + NSRegularExpression.escapedPattern(for: String(option.dropFirst(2))) + #"(?![A-Za-z0-9_-])"#, in: text).isEmpty)
                XCTAssertTrue(found, "\(file) lacks \(option)")
            }
            for dialect in ["pn532", "acs-direct", "part3", "bare-frame"] {
                XCTAssertTrue(Self.contains(text, word: dialect), "\(file) lacks the dialect \(dialect)")
            }
        }
    }

    /// The shipped completions are what `transit completions SHELL` prints, which is written from
    /// the command table: regenerate them with `transit completions SHELL > FILE` after changing it.
    func testTheShippedCompletionsAreWhatTransitCompletionsPrints() throws {
        for (shell, file) in [("bash", Self.bash), ("zsh", Self.zsh), ("fish", Self.fish)] {
            let run = try CommandRun.transit(["completions", shell])
            XCTAssertEqual(run.status, 0, run.stderr)
            XCTAssertEqual(run.stdout, try Self.read(file), "\(file) is not the output of transit completions \(shell)")
        }
        let unknown = try CommandRun.transit(["completions", "tcsh"])
        XCTAssertEqual(unknown.status, 2)
        XCTAssertTrue(unknown.stderr.contains("completions takes bash, zsh or fish"), unknown.stderr)
    }

    /// The lines of one `.SH` section as the page holds them, its `.SH` line first, up to the next.
    private static func rawSection(_ name: String, of page: String) -> String? {
        let lines = page.components(separatedBy: "\n")
        guard let start = lines.firstIndex(of: ".SH \(name)") else { return nil }
        let end = lines[(start + 1)...].firstIndex { $0.hasPrefix(".SH ") } ?? lines.count
        return lines[start ..< end].joined(separator: "\n") + "\n"
    }

    /// transit(1)'s SYNOPSIS, COMMANDS, OPTIONS and EXIT STATUS, and docs/scripting-and-watch.md's
    /// exit codes, are what transit writes from its command and exit-status tables, as the
    /// completions are: regenerate them with scripts/generate-man.sh after changing a table.
    func testTheManPagesSectionsAreWrittenFromTheTables() throws {
        let page = try Self.read(Self.manPage)
        for section in ["SYNOPSIS", "COMMANDS", "OPTIONS", "EXIT STATUS"] {
            let run = try CommandRun.transit(["__man-section", section])
            XCTAssertEqual(run.status, 0, run.stderr)
            XCTAssertTrue(run.stdout.hasPrefix(".SH \(section)\n"), run.stdout)
            XCTAssertEqual(Self.rawSection(section, of: page), run.stdout,
                           "transit.1's \(section) is not what `transit __man-section \(section)` writes: run scripts/generate-man.sh")
        }
        // Every option the help texts name has a paragraph of its own in OPTIONS.
        let options = Self.normalisedRoff(Self.rawSection("OPTIONS", of: page) ?? "")
        for option in try Self.help.get().options.subtracting(["--help", "--version"]) {
            XCTAssertTrue(options.contains("\n.TP\n\(option)\\ ") || options.contains("\n.TP\n\(option)\n"), "OPTIONS has no entry for \(option)")
        }
        // Not a user command: no help text or completion names it, and it takes only a section's name.
        let help = try Self.help.get()
        for text in [help.main] + Array(help.commandHelp.values) + (try [Self.bash, Self.zsh, Self.fish].map(Self.read)) {
            XCTAssertFalse(text.contains("__man-section"))
        }
        let unknown = try CommandRun.transit(["__man-section", "EXAMPLES"])
        XCTAssertEqual(unknown.status, 2, unknown.stderr)
        // Every command of the help has its entry in COMMANDS.
        let commands = Self.normalisedRoff(Self.rawSection("COMMANDS", of: page) ?? "")
        for command in help.commands {
            XCTAssertTrue(commands.contains("\n.TP\n\(command)\n") || commands.contains("\n.TP\n\(command) "), "COMMANDS has no entry for \(command)")
        }
        // The document's table, between its markers.
        let doc = try Self.read(Self.path("docs/scripting-and-watch.md"))
        let table = try CommandRun.transit(["__man-section", "EXIT STATUS", "--markdown"])
        XCTAssertEqual(table.status, 0, table.stderr)
        let between = doc.components(separatedBy: "<!-- exit codes: written by scripts/generate-man.sh from transit's exit-status table -->\n")
            .dropFirst().first?.components(separatedBy: "<!-- end of the exit codes -->").first
        XCTAssertEqual(between, table.stdout, "docs/scripting-and-watch.md's exit codes are not what transit writes: run scripts/generate-man.sh")
    }

    /// Each kind EXIT STATUS gives a code is the kind a failing command reports, with that code:
    /// a usage error (`config` in JSON, exit 2) and a card no family reads (exit 4), run for real.
    func testTheExitStatusKindsAreWhatCommandsReport() throws {
        var kinds = [String: String]()   // kind → code, from transit(1)
        let lines = Self.section("EXIT STATUS", of: Self.normalisedRoff(try Self.read(Self.manPage)))
        for (i, line) in lines.enumerated() where line == ".TP" && i + 2 < lines.count && lines[i + 2].hasPrefix("(") {
            for kind in lines[i + 2].dropFirst().prefix(while: { $0 != ")" }).split(separator: ",") {
                kinds[kind.trimmingCharacters(in: .whitespaces)] = lines[i + 1]
            }
        }
        XCTAssertEqual(kinds["config"], "2", "\(kinds)")
        XCTAssertEqual(kinds["tagNotSupported"], "4", "\(kinds)")
        XCTAssertEqual(kinds["sessionLost"], "6", "\(kinds)")
        XCTAssertEqual(kinds["cancelled"], "130", "\(kinds)")
        let usage = try CommandRun.transit(["scan", "--json", "--wait", "soon"])
        XCTAssertEqual(usage.status, 2, usage.stderr)
        XCTAssertTrue(usage.stdout.contains(#""kind":"config""#) || usage.stdout.contains(#""kind": "config""#), usage.stdout)
        let blank = FileManager.default.temporaryDirectory.appendingPathComponent("exit-status-\(getpid()).mfd")
        defer { try? FileManager.default.removeItem(at: blank) }
        // A MIFARE Classic 1K image (1,024 bytes, by its extension and size) of a blank card: no family reads it.
        var image = [UInt8](repeating: 0, count: 1024)
        image[0 ..< 4] = [0x01, 0x02, 0x03, 0x04]; image[4] = 0x01 ^ 0x02 ^ 0x03 ^ 0x04; image[5] = 0x08
        for sector in 0 ..< 16 {
            let trailer = sector * 64 + 48
            image[trailer ..< trailer + 16] = [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x07, 0x80, 0x69, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]
        }
        try Data(image).write(to: blank)
        let unknown = try CommandRun.transit(["scan", "--json", "--no-save", "--card", blank.path])
        XCTAssertEqual(unknown.status, 4, unknown.stdout + unknown.stderr)
        XCTAssertTrue(unknown.stdout.contains("tagNotSupported"), unknown.stdout)
    }

    // MARK: (b) exit codes

    func testEveryExitCodeOfTheHelpIsInExitStatus() throws {
        let help = try Self.help.get()
        let paragraph = help.main.components(separatedBy: "\n\n").first { $0.contains("Exit codes:") } ?? ""
        let afterLabel = paragraph.components(separatedBy: "Exit codes:").dropFirst().joined()
        let codes = Set(Self.matches(#"(?:^|[:;])\s*(\d+)\s"#, in: ":" + afterLabel).map { $0[1] })
        XCTAssertTrue(codes.isSuperset(of: ["0", "1", "2", "3", "4", "5", "6", "7", "130"]), "parsed \(codes.sorted()) from: \(paragraph)")
        let documented = Set(Self.tags(Self.section("EXIT STATUS", of: try Self.read(Self.manPage))))
        for code in codes.sorted() {
            XCTAssertTrue(documented.contains(code), "EXIT STATUS lacks \(code) (has \(documented.sorted()))")
        }
    }

    // MARK: (c) the pages render cleanly

    func testManPagesRenderWithoutWarnings() throws {
        for page in [Self.manPage, Self.confPage, Self.simPage] {
            XCTAssertTrue(try Self.read(page).contains("\n.TH "), "\(page) has no .TH")
            let run: CommandRun
            if let groff = Self.executable("groff") {
                run = try CommandRun.run(groff, ["-man", "-Tutf8", "-ww", "-z", page])
            } else if let mandoc = Self.executable("mandoc") {
                run = try CommandRun.run(mandoc, ["-T", "lint", "-W", "warning", page])
            } else if let man = Self.executable("man") {
                run = try CommandRun.run(man, ["--warnings", "-l", page], environment: ["MANPAGER": "cat", "PAGER": "cat", "PATH": "/usr/bin:/bin"])
            } else {
                throw XCTSkip("no groff, mandoc or man on this machine")
            }
            XCTAssertEqual(run.status, 0, "\(page): \(run.stderr)")
            XCTAssertEqual(run.stderr.trimmingCharacters(in: .whitespacesAndNewlines), "", "\(page) renders with warnings")
        }
        let conf = Self.normalisedRoff(try Self.read(Self.confPage))
        for fact in ["plugins.conf.d", "balance-offset=500", "/etc/transit/plugins.conf", "XDG_CONFIG_HOME",
                     "lib/transit/plugins", "etc/transit/plugins.conf", "StrictModes"] {
            XCTAssertTrue(conf.contains(fact), "plugins.conf.5 lacks \(fact)")
        }
    }

    /// transit-sim(1) names exactly the options of `transit-sim --help`, and each reader model.
    func testTheSimulatorsManPageFollowsItsHelp() throws {
        let help = try CommandRun.run(BuildProducts.simulator, ["--help"])
        XCTAssertEqual(help.status, 0, help.stderr)
        let page = Self.normalisedRoff(try Self.read(Self.simPage))
        let synopsis = page.components(separatedBy: ".SH DESCRIPTION").first ?? ""
        XCTAssertEqual(Self.options(in: synopsis), Self.options(in: help.stdout), synopsis)
        let models = help.stdout.components(separatedBy: "answer as this reader does: ").last?
            .split(separator: "\n").first?.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } ?? []
        XCTAssertGreaterThan(models.count, 3, help.stdout)
        for model in models { XCTAssertTrue(page.contains(model), "transit-sim.1 lacks reader model \(model)") }
    }

    // MARK: (d) bash completion works

    /// COMPREPLY of `_transit` for `words` (the last one is the word being completed).
    private func bashComplete(_ words: [String]) throws -> [String] {
        let script = #"source "$0" || exit 9; COMP_WORDS=("$@"); COMP_CWORD=$(( $# - 1 )); _transit; printf '%s\n' "${COMPREPLY[@]}""#
        let run = try CommandRun.run("/bin/bash", ["--norc", "--noprofile", "-c", script, Self.bash] + words,
                                     currentDirectory: Self.root, timeout: 20)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.stderr, "", "bash completion wrote to stderr")
        return run.stdout.split(separator: "\n").map(String.init)
    }

    func testBashCompletion() throws {
        XCTAssertEqual(try bashComplete(["transit", "sc"]), ["scan"])
        XCTAssertEqual(try bashComplete(["transit", "scan", "--dia"]), ["--dialect"])
        // Every dialect --dialect takes (its help text lists them), nothing else.
        let dialects: Set<String> = ["pn532", "acs-direct", "part3", "bare-frame"]
        XCTAssertEqual(Set(try bashComplete(["transit", "scan", "--dialect", ""])), dialects)
        XCTAssertEqual(Set(try bashComplete(["transit", "scan", "--dialect", "=", ""])), dialects)
        XCTAssertEqual(try bashComplete(["transit", "decode", "Package.sw"]), ["Package.swift"])
        for option in ["--config", "--card", "--log"] {
            XCTAssertEqual(try bashComplete(["transit", "scan", option, "Package.sw"]), ["Package.swift"], option)
        }
        XCTAssertEqual(try bashComplete(["transit", "dump", "--out", "Package.sw"]), ["Package.swift"])
        XCTAssertEqual(try bashComplete(["transit", "verify", "--reference", "Package.sw"]), ["Package.swift"])
        XCTAssertEqual(try bashComplete(["transit", "replay", "Package.sw"]), ["Package.swift"])

        // Each command is offered, and offers every option its usage line in `transit --help` names.
        let help = try Self.help.get()
        XCTAssertTrue(Set(try bashComplete(["transit", ""])).isSuperset(of: help.commands))
        for command in help.commands {
            let offered = Set(try bashComplete(["transit", command, "--"]))
            let expected = Self.options(in: help.usage[command] ?? "").union(["--help"])
            XCTAssertEqual(offered, expected, "transit \(command) --")
        }
    }

    // MARK: (e) zsh and fish, where installed

    func testZshAndFishCompletionsParse() throws {
        var checked = false
        if let fish = Self.executable("fish") {
            checked = true
            let syntax = try CommandRun.run(fish, ["-n", Self.fish], timeout: 20)
            XCTAssertEqual(syntax.status, 0, syntax.stderr)
            // Each command offers the options of its usage line; --dialect offers the dialects.
            let help = try Self.help.get()
            var script = "source \(Self.fish)\n"
            for command in help.commands { script += "echo '@\(command)'; complete -C 'transit \(command) --'\n" }
            script += "echo '@dialect'; complete -C 'transit scan --dialect '\n"
            let run = try CommandRun.run(fish, ["--no-config", "-c", script], timeout: 20)
            XCTAssertEqual(run.status, 0, run.stderr)
            var offered = [String: Set<String>](), current = ""
            for line in run.stdout.split(separator: "\n").map(String.init) {
                if line.hasPrefix("@") { current = String(line.dropFirst()); continue }
                offered[current, default: []].insert(String(line.split(separator: "\t").first ?? ""))
            }
            for command in help.commands {
                let expected = Self.options(in: help.usage[command] ?? "")
                XCTAssertTrue((offered[command] ?? []).isSuperset(of: expected),
                              "fish: transit \(command) --: missing \(expected.subtracting(offered[command] ?? []).sorted())")
            }
            XCTAssertEqual(offered["dialect"], ["pn532", "acs-direct", "part3", "bare-frame"])
        }
        if let zsh = Self.executable("zsh") {
            checked = true
            let run = try CommandRun.run(zsh, ["-n", Self.zsh], timeout: 20)
            XCTAssertEqual(run.status, 0, run.stderr)
        }
        if !checked { throw XCTSkip("neither zsh nor fish is installed") }
    }
}
