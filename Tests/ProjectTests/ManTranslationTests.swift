import Foundation
import TestSupport
import XCTest

/// The Japanese man pages (docs/man/ja) are translations of the English ones kept in step as
/// Debian's translators keep theirs: po4a extracts every English paragraph into po/man/PAGE.pot,
/// po/man/PAGE.ja.po translates each, and scripts/translate-man.sh writes the page only when
/// nothing is untranslated or fuzzy. An English sentence the PO lacks fails here; the pages render
/// without a warning, keep every option and exit code of the English ones, and are what man shows
/// a Japanese user (the install and package tests check where they are installed).
final class ManTranslationTests: XCTestCase {
    private static let root = BuildProducts.packageRoot
    private static let pages = ["transit.1", "transit-sim.1", "plugins.conf.5"]
    private static func path(_ relative: String) -> String { root.appendingPathComponent(relative).path }
    private static func read(_ path: String) throws -> String { try String(contentsOfFile: path, encoding: .utf8) }

    private var dir: URL!
    override func setUp() { dir = temporaryDirectory() }
    override func tearDown() { try? FileManager.default.removeItem(at: dir) }

    private static func executable(_ name: String) -> String? {
        ["/usr/bin/", "/bin/", "/usr/local/bin/"].map { $0 + name }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// po4a (scripts/test-setup.sh installs it; `make install` needs none: the pages are committed).
    private func requirePo4a() throws {
        let found = Self.executable("po4a") != nil && Self.executable("po4a-updatepo") != nil
        try Prerequisite.require(found, "po4a is missing: scripts/test-setup.sh installs it")
    }

    /// The `--option` words of a roff page as a reader sees them (`\-` is a hyphen, font changes
    /// and `\&` vanish), or of a page groff printed.
    private static func options(in page: String) -> Set<String> {
        var text = page.replacingOccurrences(of: "\\-", with: "-").replacingOccurrences(of: "\\&", with: "")
        for font in ["\\fB", "\\fI", "\\fR", "\\fP"] { text = text.replacingOccurrences(of: font, with: "") }
        let regex = try! NSRegularExpression(pattern: #"(?<![A-Za-z0-9-])--[a-z][a-z0-9-]*[a-z0-9]"#)
        return Set(regex.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap { Range($0.range, in: text).map { String(text[$0]) } })
    }

    /// The lines of a page that start with `.` and one of `macros`, arguments dropped: its structure.
    private static func structure(of page: String, _ macros: Set<String>) -> [String] {
        page.split(separator: "\n").compactMap { line -> String? in
            guard line.hasPrefix(".") else { return nil }
            let name = String(line.dropFirst().prefix { $0 != " " })
            return macros.contains(name) ? name : nil
        }
    }

    // MARK: complete, and in step with the English pages

    /// Every string po4a extracts from each English page now is in its Japanese PO (msgcmp, as a
    /// translator's tools check a PO against a fresh template), translated, none fuzzy (msgfmt
    /// --check --statistics), and the committed pages are what po4a writes (the script's --check).
    func testEveryEnglishStringIsTranslatedAndTheCommittedPagesAreCurrent() throws {
        try requirePo4a()
        for page in Self.pages {
            let pot = dir.appendingPathComponent("\(page).pot").path
            var arguments = ["-f", "man", "-m", Self.path("docs/man/\(page)"), "-M", "UTF-8", "-p", pot]
            if page == "transit.1" { arguments += ["-o", "generated"] } // its SYNOPSIS and OPTIONS are (scripts/generate-man.sh)
            let extract = try CommandRun.run(Self.executable("po4a-updatepo")!, arguments, currentDirectory: dir)
            XCTAssertEqual(extract.status, 0, extract.stderr)
            let po = Self.path("po/man/\(page).ja.po")
            let compare = try CommandRun.run("/usr/bin/msgcmp", [po, pot])
            XCTAssertEqual(compare.status, 0, "po/man/\(page).ja.po lacks strings of docs/man/\(page): \(compare.stderr)")
            let stats = try CommandRun.run("/usr/bin/msgfmt", ["--check", "--statistics", "-o", "/dev/null", po])
            XCTAssertEqual(stats.status, 0, stats.stderr)
            XCTAssertTrue(stats.stderr.hasSuffix("translated messages.\n") && !stats.stderr.contains("untranslated") && !stats.stderr.contains("fuzzy"),
                          "\(page): \(stats.stderr)")
            XCTAssertTrue(FileManager.default.fileExists(atPath: Self.path("docs/man/ja/\(page)")), "docs/man/ja/\(page) is missing")
        }
        let check = try CommandRun.run(Self.path("scripts/translate-man.sh"), ["--check"], timeout: 300)
        XCTAssertEqual(check.status, 0, check.stderr)
        XCTAssertEqual(check.stderr, "", "translate-man.sh --check said something")
    }

    /// A copy of what the script reads, in a folder of its own, with `edit` applied to it.
    private func scratchCopy(_ edit: (URL) throws -> Void) throws -> URL {
        let copy = dir.appendingPathComponent("copy")
        for folder in ["scripts", "docs/man/ja", "po"] {
            try FileManager.default.createDirectory(at: copy.appendingPathComponent(folder), withIntermediateDirectories: true)
        }
        try FileManager.default.copyItem(atPath: Self.path("scripts/translate-man.sh"), toPath: copy.appendingPathComponent("scripts/translate-man.sh").path)
        try FileManager.default.copyItem(atPath: Self.path("po/man"), toPath: copy.appendingPathComponent("po/man").path)
        for page in Self.pages {
            try FileManager.default.copyItem(atPath: Self.path("docs/man/\(page)"), toPath: copy.appendingPathComponent("docs/man/\(page)").path)
            try FileManager.default.copyItem(atPath: Self.path("docs/man/ja/\(page)"), toPath: copy.appendingPathComponent("docs/man/ja/\(page)").path)
        }
        try edit(copy)
        return copy
    }

    private func replace(_ old: String, with new: String, in file: URL) throws {
        let text = try String(contentsOf: file, encoding: .utf8)
        XCTAssertTrue(text.contains(old), "\(file.lastPathComponent) no longer holds \(old)")
        try text.replacingOccurrences(of: old, with: new).write(to: file, atomically: true, encoding: .utf8)
    }

    /// A sentence changed in transit(1) and one added to transit-sim(1) reach the POs as a fuzzy
    /// and an untranslated entry, which the check names, and neither Japanese page is written.
    func testAnEnglishChangeThePOLacksFailsTheCheckAndNamesIt() throws {
        try requirePo4a()
        let copy = try scratchCopy { copy in
            try replace("Keep the card still until the command ends.", with: "Keep the card quite still until the command ends.",
                        in: copy.appendingPathComponent("docs/man/transit.1"))
            try replace(".SH SEE ALSO", with: ".PP\nA sentence no translator has seen.\n.SH SEE ALSO",
                        in: copy.appendingPathComponent("docs/man/transit-sim.1"))
        }
        let check = try CommandRun.run(copy.appendingPathComponent("scripts/translate-man.sh").path, ["--check"], timeout: 300)
        XCTAssertEqual(check.status, 1, check.stderr)
        XCTAssertTrue(check.stderr.contains("po/man/transit.1.ja.po: 1 fuzzy (docs/man/transit.1 changed)"), check.stderr)
        XCTAssertTrue(check.stderr.contains("The card is held in a PC/SC transaction for the whole read"), check.stderr)
        XCTAssertTrue(check.stderr.contains("po/man/transit-sim.1.ja.po: 1 untranslated (docs/man/transit-sim.1 changed)"), check.stderr)
        XCTAssertTrue(check.stderr.contains("    A sentence no translator has seen."), check.stderr)
        XCTAssertTrue(check.stderr.contains("docs/man/ja/transit.1: not written"), check.stderr)
        XCTAssertFalse(check.stderr.contains("po/man/plugins.conf.5.ja.po"), "plugins.conf(5) did not change: \(check.stderr)")
        // The same change, as a translator's tools see it: msgcmp against a fresh template.
        let pot = dir.appendingPathComponent("changed.pot").path
        _ = try CommandRun.run(Self.executable("po4a-updatepo")!, ["-f", "man", "-m", copy.appendingPathComponent("docs/man/transit.1").path,
                                                                  "-M", "UTF-8", "-o", "generated", "-p", pot], currentDirectory: dir)
        let compare = try CommandRun.run("/usr/bin/msgcmp", [Self.path("po/man/transit.1.ja.po"), pot])
        XCTAssertNotEqual(compare.status, 0, "msgcmp accepted a PO that lacks the changed sentence")
    }

    /// A Japanese page edited by hand, or a PO whose translation changed without the page being
    /// written again, is not what po4a writes: the check says which file.
    func testAPageThatIsNotWhatPo4aWritesFailsTheCheck() throws {
        try requirePo4a()
        let copy = try scratchCopy { copy in
            try replace("\n.SH 名前\n", with: "\n.SH 名前\n.\\\" edited by hand\n", in: copy.appendingPathComponent("docs/man/ja/plugins.conf.5"))
        }
        let check = try CommandRun.run(copy.appendingPathComponent("scripts/translate-man.sh").path, ["--check"], timeout: 300)
        XCTAssertEqual(check.status, 1, check.stderr)
        XCTAssertEqual(check.stderr, "translate-man: docs/man/ja/plugins.conf.5 is not what po4a writes from docs/man: run scripts/translate-man.sh and commit the result\n")
    }

    // MARK: the pages as a reader gets them

    /// Each Japanese page keeps the English page's structure (sections, paragraphs, tags) and every
    /// option it names; its NAME line is what whatis(1) indexes.
    func testEachJapanesePageKeepsTheEnglishStructureAndOptions() throws {
        let macros: Set<String> = ["SH", "SS", "TP", "IP", "PP", "RS", "RE", "EX", "EE", "nf", "fi", "br"]
        for page in Self.pages {
            let english = try Self.read(Self.path("docs/man/\(page)")), japanese = try Self.read(Self.path("docs/man/ja/\(page)"))
            XCTAssertEqual(Self.structure(of: japanese, macros), Self.structure(of: english, macros), page)
            XCTAssertEqual(Self.options(in: japanese), Self.options(in: english), page)
            XCTAssertGreaterThan(Self.options(in: english).count, page == "plugins.conf.5" ? 0 : 8, page)
            let title = try XCTUnwrap(english.split(separator: "\n").first { $0.hasPrefix(".TH ") })
            let name = title.split(separator: " ")[1]
            XCTAssertTrue(japanese.contains("\n.TH \(name.replacingOccurrences(of: "-", with: "\\-")) \(title.split(separator: " ")[2]) "), "\(page): \(title)")
            // UTF-8 (Debian Policy 12.1), and the Japanese the page is for.
            XCTAssertNotNil(String(data: try Data(contentsOf: URL(fileURLWithPath: Self.path("docs/man/ja/\(page)"))), encoding: .utf8))
            for word in ["\n.SH 名前\n", "\n.SH 書式\n", "\n.SH 説明\n", "\n.SH 関連項目\n"] {
                XCTAssertTrue(japanese.contains(word), "\(page) lacks \(word)")
            }
            if let lexgrog = Self.executable("lexgrog") {
                let whatis = try CommandRun.run(lexgrog, [Self.path("docs/man/ja/\(page)")])
                let command = page.components(separatedBy: ".").dropLast().joined(separator: ".")
                XCTAssertEqual(whatis.status, 0, whatis.stdout + whatis.stderr)
                XCTAssertTrue(whatis.stdout.contains(": \"\(command) - "), "whatis entry of \(page): \(whatis.stdout)")
            }
        }
        // transit(1)'s exit codes, each a paragraph of EXIT STATUS (終了ステータス) as in English.
        let japanese = try Self.read(Self.path("docs/man/ja/transit.1"))
        let exitStatus = japanese.components(separatedBy: "\n.SH 終了ステータス\n").dropFirst().first?.components(separatedBy: "\n.SH ").first ?? ""
        for code in ["0", "1", "2", "3", "4", "5", "6", "7", "70", "130"] {
            XCTAssertTrue(exitStatus.contains(".TP \n\\fB\(code)\\fP\n") || exitStatus.contains(".TP\n\\fB\(code)\\fP\n"), "終了ステータス lacks \(code)")
        }
    }

    /// groff renders each page without a warning (no line it cannot break or adjust: Japanese has no
    /// spaces to break at without ja.tmac), at the usual 80 columns and at 70, and the text it
    /// prints still holds every option of the page.
    func testTheJapanesePagesRenderWithoutWarnings() throws {
        let groff = try XCTUnwrap(Self.executable("groff"), "groff is missing (groff-base; scripts/test-setup.sh installs it)")
        for page in Self.pages {
            let file = Self.path("docs/man/ja/\(page)")
            for width in ["78n", "70n"] {
                let run = try CommandRun.run(groff, ["-K", "utf8", "-man", "-Tutf8", "-ww", "-rLL=\(width)", "-P-cbou", file])
                XCTAssertEqual(run.status, 0, "\(page): \(run.stderr)")
                XCTAssertEqual(run.stderr, "", "\(page) at \(width) renders with warnings")
                XCTAssertEqual(Self.options(in: run.stdout), Self.options(in: try Self.read(file)), "\(page) at \(width): text lost in rendering")
                let lines = run.stdout.split(separator: "\n")
                XCTAssertTrue(lines.contains { $0.hasPrefix("名前") } && lines.contains { $0.hasPrefix("説明") }, run.stdout)
            }
        }
    }

    /// Under a Japanese locale (compiled into a private LOCPATH), man(1) picks the ja page of a
    /// MANPATH holding both, prints it in Japanese without a warning; under C.UTF-8 the English one.
    func testManShowsAJapaneseUserTheJapanesePage() throws {
        let man = try XCTUnwrap(Self.executable("man"), "man is missing (man-db; scripts/test-setup.sh installs it)")
        let environment: [String: String]
        do { environment = try JapaneseLocale.environment() } catch let reason as JapaneseLocale.SkipReason { throw XCTSkip(reason.description) }
        let manpath = dir.appendingPathComponent("man")
        for page in Self.pages {
            let section = "man" + page.split(separator: ".").last!
            for (from, to) in [("docs/man/\(page)", section), ("docs/man/ja/\(page)", "ja/\(section)")] {
                let folder = manpath.appendingPathComponent(to)
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                try FileManager.default.copyItem(atPath: Self.path(from), toPath: folder.appendingPathComponent(page).path)
            }
        }
        var japanese = environment
        japanese["MANPATH"] = manpath.path
        japanese["MANPAGER"] = "cat"
        japanese["PATH"] = "/usr/bin:/bin"
        japanese["MANWIDTH"] = "80"
        let found = try CommandRun.run(man, ["-w", "transit"], environment: japanese)
        XCTAssertEqual(found.stdout, manpath.appendingPathComponent("ja/man1/transit.1").path + "\n", found.stderr)
        let shown = try CommandRun.run(man, ["--warnings", "5", "plugins.conf"], environment: japanese)
        XCTAssertEqual(shown.status, 0, shown.stderr)
        XCTAssertEqual(shown.stderr, "", "man printed warnings")
        XCTAssertTrue(shown.stdout.contains("PLUGINS.CONF(5)") && shown.stdout.contains("ファイル形式"), shown.stdout)
        XCTAssertTrue(shown.stdout.contains("transit のカードファミリーのプラグインとその試行順"), shown.stdout)
        var english = japanese
        english["LANG"] = "C.UTF-8"
        let englishFound = try CommandRun.run(man, ["-w", "transit"], environment: english)
        XCTAssertEqual(englishFound.stdout, manpath.appendingPathComponent("man1/transit.1").path + "\n", englishFound.stderr)
    }
}
