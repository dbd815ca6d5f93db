import Foundation
import TestSupport
import XCTest

/// Issue 44: a Japanese user (LANG=ja_JP.UTF-8, the locale installed) reads transit in Japanese —
/// the words of the research note's vocabulary (残高, 種別, 乗車, チャージ, 物販), dates as ticket
/// machines print them (2026/11/05), columns aligned by display width — and the language is the one
/// gettext chose, by its rules. Machine formats never change with it.
final class JapaneseInterfaceTests: XCTestCase {
    private var archive = ArchiveFixture()
    override func tearDown() { archive.remove() }

    private func japanese(_ extra: [String: String] = [:]) throws -> [String: String] {
        do { return try JapaneseLocale.environment(extra) } catch { throw XCTSkip("\(error)") }
    }

    private func run(_ arguments: [String], _ env: [String: String]) throws -> CommandRun {
        try archive.transit(arguments, env)
    }

    /// Where each of `columns` starts, in terminal columns (a wide character takes two).
    private func starts(_ line: String, _ cells: [String]) -> [Int] {
        var out = [Int](), from = line.startIndex
        for cell in cells {
            guard let r = line.range(of: cell, range: from ..< line.endIndex) else { return [] }
            out.append(line[..<r.lowerBound].reduce(0) { $0 + (($1.unicodeScalars.first.map { $0.value >= 0x1100 && ($0.value < 0xFF61 || $0.value > 0xFFDC) && !"→".unicodeScalars.contains($0) } ?? false) ? 2 : 1) })
            from = r.upperBound
        }
        return out
    }

    func testScanSpeaksJapanese() throws {
        let run = try run(["scan", "--card", BuildProducts.sample("suica.json"), "--no-save"], try japanese())
        XCTAssertEqual(run.status, 0, run.stderr)
        let lines = run.stdout.components(separatedBy: "\n")
        XCTAssertEqual(lines.first, "Suica  IDm 012E4CD8A1B2C3D4 （カードのチップID）")
        XCTAssertTrue(lines.contains("残高: ¥2,010"), run.stdout)
        let header = try XCTUnwrap(lines.first { $0.hasPrefix("日付") }, run.stdout)
        XCTAssertEqual(header.split(separator: " ", omittingEmptySubsequences: true), ["日付", "(UTC+09:00)", "種別", "金額", "残高", "詳細"])
        // The sample's records (samples/suica.json): a ride, a shop purchase at 13:45, a bus ride, a top-up.
        XCTAssertTrue(lines.contains { $0.hasPrefix("2026/11/05 ") && $0.contains(" 乗車 ") && $0.contains("-¥160") }, run.stdout)
        XCTAssertTrue(lines.contains { $0.hasPrefix("2026/11/04 13:45") && $0.contains(" 物販 ") && $0.contains("-¥120") }, run.stdout)
        XCTAssertTrue(lines.contains { $0.hasPrefix("2026/11/02 ") && $0.contains(" チャージ ") && $0.contains("+¥2,000") && $0.hasSuffix("0101 にて") }, run.stdout)
        XCTAssertTrue(lines.contains { $0.contains("バス 系統 0A12、停留所 3456") }, run.stdout)
        XCTAssertFalse(run.stdout.contains("Balance") || run.stdout.contains("top-up") || run.stdout.contains("purchase"), run.stdout)
        // Every row's amount ends where the header's 金額 ends, its balance where 残高 ends (right-aligned,
        // by display width: 種別 and チャージ are twice their character count).
        let rows = lines.filter { $0.hasPrefix("2026/") }
        XCTAssertEqual(rows.count, 5)
        let headerEnds = starts(header, ["金額", "残高"]).enumerated().map { $0.element + 4 }
        for row in rows {
            let cells = row.split(separator: " ").map(String.init)
            guard let amount = cells.first(where: { $0.contains("¥") || $0 == "?" }), let balance = cells.last(where: { $0.hasPrefix("¥") }) else {
                return XCTFail("no amount and balance in \(row)")
            }
            let at = starts(row, [amount, balance])
            XCTAssertEqual([at[0] + amount.count, at[1] + balance.count], headerEnds, "columns of \(row)\nunder \(header)")
        }
    }

    func testHistorySpeaksJapanese() throws {
        let env = try japanese()
        XCTAssertEqual(try run(["scan", "--card", BuildProducts.sample("suica.json")], env).status, 0)
        let run = try run(["history"], env)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stdout.contains("—  5 件の記録、読み取り 1 回、最終読み取り 20"), run.stdout)
        XCTAssertTrue(run.stdout.contains("2026/11/04 13:45  物販"), run.stdout)
    }

    func testHelpSpeaksJapanese() throws {
        let env = try japanese()
        let main = try run(["--help"], env)
        XCTAssertEqual(main.status, 0, main.stderr)
        XCTAssertTrue(main.stdout.hasPrefix("transit — 交通系ICカード・電子マネーの残高と利用履歴を読み取ります。\n\n使用法:\n  transit scan "), main.stdout)
        XCTAssertTrue(main.stdout.contains("終了コード: 0 読み取り成功。"), main.stdout)
        let scan = try run(["scan", "--help"], env)
        XCTAssertTrue(scan.stdout.hasPrefix("transit scan — リーダーのカード（またはカードイメージ）を読み取って表示します。"), scan.stdout)
        XCTAssertTrue(scan.stdout.contains("  --no-save         この読み取りを履歴アーカイブに保存しない\n"), scan.stdout)
        XCTAssertTrue(scan.stdout.contains("  --card FILE       カードリーダーの代わりにカードファイルを読む"), scan.stdout)
    }

    /// Every line of `transit --help` and of each command's help fits 80 terminal columns, in English
    /// and in Japanese, where a kanji or kana takes two: widths by Python's unicodedata (East Asian
    /// Width W and F are two columns), a table independent of transit's own.
    func testEveryHelpLineFitsEightyColumns() throws {
        for env in [try japanese(["LANG": "C.UTF-8"]), try japanese()] {
            let main = try run(["--help"], env)
            XCTAssertEqual(main.status, 0, main.stderr)
            let commands = main.stdout.split(separator: "\n").compactMap { line -> String? in
                let words = line.split(separator: " ")
                return line.hasPrefix("  transit ") && words.count > 1 && words[1].first?.isLowercase == true ? String(words[1]) : nil
            }
            XCTAssertEqual(commands.count, 15, main.stdout)
            var texts = [main.stdout]
            for command in commands {
                let help = try run([command, "--help"], env)
                XCTAssertEqual(help.status, 0, "\(command): \(help.stderr)")
                texts.append(help.stdout)
            }
            let file = archive.directory.appendingPathComponent("help.txt")
            try texts.joined(separator: "\n").write(to: file, atomically: true, encoding: .utf8)
            let script = """
                import sys, unicodedata
                for line in open(sys.argv[1], encoding='utf-8').read().split('\\n'):
                    w = sum(0 if unicodedata.combining(c) else 2 if unicodedata.east_asian_width(c) in 'WF' else 1 for c in line)
                    if w > 80: print(w, line)
                """
            let wide = try CommandRun.run("/usr/bin/python3", ["-c", script, file.path])
            XCTAssertEqual(wide.status, 0, wide.stderr)
            XCTAssertEqual(wide.stdout, "", "help lines wider than 80 columns under LANG=\(env["LANG"] ?? "")")
        }
        // The Japanese help is Japanese: its scan help holds no English sentence of the English one.
        let english = try run(["scan", "--help"], try japanese(["LANG": "C.UTF-8"])).stdout
        let japanese = try run(["scan", "--help"], try japanese()).stdout
        XCTAssertTrue(english.contains("a card file"), english)
        XCTAssertFalse(japanese.contains("a card file") || japanese.contains("history archive"), japanese)
    }

    func testErrorsSpeakJapaneseAndJSONKeepsEnglish() throws {
        let env = try japanese()
        let typo = try run(["scna"], env)
        XCTAssertEqual(typo.status, 2)
        XCTAssertEqual(typo.stderr, "transit: 不明なコマンド scna（もしかして scan ?）（transit --help を参照）\n")
        // A card no plugin reads: tagNotSupported, its lead-in Japanese on stderr, English in the JSON.
        let conf = archive.directory.appendingPathComponent("cepas.conf")
        try "cepas \(BuildProducts.plugin("TransitCEPAS"))\n".write(to: conf, atomically: true, encoding: .utf8)
        let unread = try run(["scan", "--card", BuildProducts.sample("suica.json"), "--config", conf.path, "--no-save", "--json"], env)
        XCTAssertEqual(unread.status, 4, unread.stderr)
        XCTAssertTrue(unread.stderr.hasPrefix("transit: この FeliCa カードに対応するプラグインがありません（"), unread.stderr)
        let english = try run(["scan", "--card", BuildProducts.sample("suica.json"), "--config", conf.path, "--no-save", "--json"], try japanese(["LC_ALL": "C"]))
        XCTAssertEqual(unread.stdout, english.stdout, "the JSON error is the same in every language")
        XCTAssertTrue(english.stderr.hasPrefix("transit: no plugin recognised this FeliCa card ("), english.stderr)
    }

    /// The USB transport's findings in doctor (issue 44): the udev rule's line in Japanese, on
    /// any machine (with the rule installed or not); its JSON keeps the English.
    func testDoctorsUSBFindingsSpeakJapanese() throws {
        let env = try japanese()
        let text = try run(["doctor"], env).stdout
        let rule = try XCTUnwrap(text.split(separator: "\n").first { $0.contains("udev ルール") }, text)
        XCTAssertTrue(rule.contains("60-transit-pasori.rules はインストールされていません（探した場所: /etc/udev/rules.d")
                      || rule.contains("インストール済み: "), String(rule))
        let json = try run(["doctor", "--json"], env).stdout
        XCTAssertTrue(json.contains("not installed (looked in ") || json.contains("\"installed: "), json)
        XCTAssertFalse(json.contains("インストール"), json)
    }

    /// A broken dump of another tool's format (issue 44): what is wrong with it in Japanese on
    /// stderr, in English in the JSON error.
    func testABrokenDumpsErrorSpeaksJapanese() throws {
        let env = try japanese()
        let file = archive.directory.appendingPathComponent("bad.mct.txt")
        // MCT's text: `+Sector: N`, then 32 hex digits a block (Metrodroid's MctCardImporter); "ZZ" is no hex.
        try "+Sector: 0\nZZ0102030405060708090A0B0C0D0E0F\n".write(to: file, atomically: true, encoding: .utf8)
        let ran = try run(["scan", "--card", file.path, "--no-save", "--json"], env)
        XCTAssertEqual(ran.status, 2, ran.stderr)
        XCTAssertEqual(ran.stderr, "transit: \(file.path): MIFARE Classic Tool のダンプ: MCT のダンプ: "
                       + "セクター 0 に16進として読めない行があります: ZZ0102030405060708090A0B0C0D0E0F\n")
        XCTAssertTrue(ran.stdout.contains("MCT dump: bad hex in sector 0: ZZ0102"), ran.stdout)
    }

    /// The month's report in Japanese, as text and as the page to print: the heading's period as
    /// Japanese prose writes dates (2026年11月1日〜2026年11月30日), the rows as scan's, the totals
    /// in Japanese words with their figures in one column (by display width), and a page whose
    /// language is Japanese. The sample's November (samples/suica.json): trips on the 1st (its
    /// amount unknown), 3rd (¥210, a bus) and 5th (¥160), a ¥120 purchase, a ¥2,000 top-up.
    func testReportSpeaksJapanese() throws {
        let env = try japanese()
        XCTAssertEqual(try run(["scan", "--card", BuildProducts.sample("suica.json")], env).status, 0)
        let text = try run(["report", "--month", "2026-11"], env)
        XCTAssertEqual(text.status, 0, text.stderr)
        let lines = text.stdout.components(separatedBy: "\n")
        XCTAssertEqual(lines.first, "Suica  IDm 012E4CD8A1B2C3D4  —  2026年11月1日〜2026年11月30日")
        XCTAssertTrue(lines.contains { $0.hasPrefix("2026/11/04 13:45") && $0.contains(" 物販 ") && $0.contains("-¥120") }, text.stdout)
        let totals = ["乗車回数:": "3", "運賃:": "¥370", "物販:": "¥120", "チャージ:": "¥2,000"]
        for (label, figure) in totals {
            let line = try XCTUnwrap(lines.first { $0.hasPrefix(label) }, "\(label) in \(text.stdout)")
            XCTAssertEqual(line.split(separator: " ").map(String.init), [label, figure])
            // The widest labels, 乗車回数: and チャージ:, take 9 columns; then two spaces.
            XCTAssertEqual(starts(line, [label, figure]).last, 11, "the figure of \(line) in the column of the others")
        }
        XCTAssertFalse(text.stdout.contains("Trips") || text.stdout.contains("Fares") || text.stdout.contains(" to 2026"), text.stdout)

        let page = archive.directory.appendingPathComponent("report.html")
        let html = try run(["report", "#1", "--month", "2026-11", "--format", "html", "--out", page.path], env)
        XCTAssertEqual(html.status, 0, html.stderr)
        XCTAssertTrue(html.stderr.hasPrefix("transit: カード 1 枚のレポート（5 件の記録）を "), html.stderr)
        let body = try String(contentsOf: page, encoding: .utf8)
        XCTAssertTrue(body.contains("<html lang=\"ja\">"), String(body.prefix(200)))
        for fragment in ["期間: 2026年11月1日〜2026年11月30日", "<th>乗車回数</th><td class=\"n\">3</td>", "<th>運賃</th><td class=\"n\">¥370</td>",
                         "<th>物販</th><td class=\"n\">¥120</td>", "<th>チャージ</th><td class=\"n\">¥2,000</td>",
                         "<figcaption>日ごとの運賃</figcaption>", "<th>種別</th>",
                         "<td class=\"date\">2026/11/04 13:45</td><td>物販</td><td class=\"n\">-¥120</td>"] {
            XCTAssertTrue(body.contains(fragment), "\(fragment) in the page")
        }
        // The same page in English: its language is gettext's choice, not a guess from the text.
        let english = try run(["report", "#1", "--month", "2026-11", "--format", "html"], try japanese(["LANG": "C.UTF-8"]))
        XCTAssertTrue(english.stdout.contains("<html lang=\"en\">") && english.stdout.contains("Period: 2026-11-01 to 2026-11-30"), String(english.stdout.prefix(300)))
    }

    /// The cards listing: Japanese column titles, and the columns aligned by display width
    /// (カード is 6 columns, 3 characters), the balance right-aligned under 残高.
    func testCardsListSpeaksJapanese() throws {
        let env = try japanese()
        XCTAssertEqual(try run(["scan", "--card", BuildProducts.sample("suica.json")], env).status, 0)
        let cards = try run(["cards"], env)
        XCTAssertEqual(cards.status, 0, cards.stderr)
        let lines = cards.stdout.components(separatedBy: "\n")
        XCTAssertEqual(lines.first?.split(separator: " ").map(String.init), ["ID", "カード", "番号", "残高", "最終読み取り", "記録数"])
        let header = try XCTUnwrap(lines.first), row = try XCTUnwrap(lines.dropFirst().first)
        XCTAssertTrue(row.hasPrefix("#1  Suica (japan-ic)  IDm 012E4CD8A1B2C3D4"), row)
        // Right-aligned: ¥2,010 ends where 残高 ends; the read's date is written 2026/…
        XCTAssertEqual(starts(row, ["¥2,010"]).first.map { $0 + 6 }, starts(header, ["残高"]).first.map { $0 + 4 }, "\(row)\nunder \(header)")
        XCTAssertTrue(row.contains("  20") && row.contains("/"), row)
    }

    /// gettext's precedence, as for every Debian program: LC_ALL over LANG, LANGUAGE for messages,
    /// LC_MESSAGES alone, and a locale that is not installed is English.
    func testTheLanguageIsWhatGettextChose() throws {
        func balance(_ env: [String: String]) throws -> String? {
            try run(["scan", "--card", BuildProducts.sample("suica.json"), "--no-save"], env).stdout.components(separatedBy: "\n").dropFirst().first
        }
        XCTAssertEqual(try balance(try japanese()), "残高: ¥2,010")
        XCTAssertEqual(try balance(try japanese(["LC_ALL": "C"])), "Balance: ¥2,010", "LC_ALL=C wins over LANG")
        XCTAssertEqual(try balance(try japanese(["LANGUAGE": "en"])), "Balance: ¥2,010", "LANGUAGE=en")
        XCTAssertEqual(try balance(try japanese(["LANGUAGE": "fr:ja"])), "残高: ¥2,010", "LANGUAGE's first language with a catalog")
        XCTAssertEqual(try balance(try japanese(["LANG": "C.UTF-8", "LC_MESSAGES": "ja_JP.UTF-8"])), "残高: ¥2,010", "LC_MESSAGES alone")
        var missing = try japanese()
        missing.removeValue(forKey: "LOCPATH")
        missing["LANG"] = "ja_JP.UTF-8"
        missing["LOCPATH"] = archive.directory.path // a folder without ja_JP.UTF-8: the locale is not installed
        XCTAssertEqual(try balance(missing), "Balance: ¥2,010", "a locale not installed is English, as for ls")
    }

    /// Machine formats never change with the locale: scan and history JSON, decode, the CSV, ledger,
    /// OFX and SFCard exports, byte for byte, with a station table that names each station in two
    /// languages (docs/stations.md's columns; invented names), where the text picks by the locale.
    func testMachineFormatsAreTheSameInEveryLanguage() throws {
        let ja = try japanese(), c = try japanese(["LANG": "C.UTF-8"])
        let table = archive.directory.appendingPathComponent("both-names.csv")
        // samples/suica.json: a ride E33B (region 2) → E621 (region 1), a top-up at 0101 (region 0).
        try """
            area,line,station,operator,line_name,station_name,station_name_en
            2,E3,3B,架空鉄道,本線,架空一丁目,Kaku Itchome
            1,E6,21,架空鉄道,本線,架空港,Kaku Minato
            0,01,01,架空鉄道,支線,架空中央,Kaku Chuo

            """.write(to: table, atomically: true, encoding: .utf8)
        let stations = ["--stations", table.path]
        for sample in ["suica.json", "ezlink.json"] {
            XCTAssertEqual(try run(["scan", "--card", BuildProducts.sample(sample)] + stations, ja).status, 0)
        }
        let commands: [[String]] = [
            ["scan", "--card", BuildProducts.sample("suica.json"), "--json", "--no-save"] + stations,
            ["decode", BuildProducts.sample("suica.json"), BuildProducts.sample("ezlink.json")],
            ["history", "--json"] + stations, ["cards", "--json"],
            ["export", "--format", "csv"] + stations, ["export", "--format", "json"] + stations, ["export", "--format", "ledger"] + stations,
            ["report", "--from", "2026-11-01", "--to", "2026-11-30", "--format", "json"] + stations,
            ["report", "--from", "2026-11-01", "--to", "2026-11-30", "--format", "ofx"] + stations,
            ["report", "#1", "--from", "2026-11-01", "--to", "2026-11-30", "--format", "sfcard"] + stations,
        ]
        var outputs = [String: String]()
        for arguments in commands {
            let japanese = try run(arguments, ja), plain = try run(arguments, c)
            XCTAssertEqual(japanese.status, 0, "\(arguments): \(japanese.stderr)")
            XCTAssertFalse(japanese.stdout.isEmpty, "\(arguments)")
            XCTAssertEqual(japanese.stdout, plain.stdout, "transit \(arguments.joined(separator: " ")) differs between ja_JP.UTF-8 and C.UTF-8")
            outputs[arguments.filter { !stations.contains($0) }.joined(separator: " ")] = plain.stdout
        }
        // The table's names are in them (the comparison is not of two outputs without names): the
        // CSV and report JSON give both, English first; the ledger and OFX English; SFCard its own.
        let csv = try XCTUnwrap(outputs["export --format csv"])
        XCTAssertTrue(csv.contains(",E33B,Kaku Itchome,E621,Kaku Minato,JPY,,架空一丁目,架空港,"), csv)
        let json = try XCTUnwrap(outputs["report --from 2026-11-01 --to 2026-11-30 --format json"])
        XCTAssertTrue(json.contains("\"exitStationName\":\"Kaku Minato\"") && json.contains("\"exitStationNameLocal\":\"架空港\""), json)
        XCTAssertTrue(try XCTUnwrap(outputs["export --format ledger"]).contains("Kaku Itchome → Kaku Minato"))
        XCTAssertTrue(try XCTUnwrap(outputs["report --from 2026-11-01 --to 2026-11-30 --format ofx"]).contains("Kaku Itchome"))
        // The text is Japanese in the same environment, the names too: the comparison above is not of two English runs.
        let text = try run(["history"] + stations, ja).stdout
        XCTAssertTrue(text.contains("物販") && text.contains("架空一丁目"), text)
        XCTAssertTrue(try run(["history"] + stations, c).stdout.contains("Kaku Itchome"))
    }

    /// A plugin's words reach the person in their language (issue 44, item 3): the host looks a
    /// pass's name, an event and a metadata value up in the family's own catalog, `transit-FAMILY`
    /// (po/plugins/FAMILY/ja.po), when it prints text; English prints them as the plugin wrote
    /// them, and JSON keeps the plugin's English in every locale. The samples' passes are those
    /// their descriptions name (samples/*.json).
    func testAPluginsWordsSpeakJapaneseInTheTextOnly() throws {
        let ja = try japanese(), c = try japanese(["LANG": "C.UTF-8"])
        // samples/charliecard.json's made-up keys, by their digests (its description).
        let shipped = try String(contentsOf: BuildProducts.packageRoot.appendingPathComponent("plugins.conf"), encoding: .utf8)
        let conf = archive.directory.appendingPathComponent("plugins.conf")
        try shipped.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            line.hasPrefix("charliecard ") ? line + " key-digests=58de1cd9312430aadce82eb222b534c9,9c502304a43d0a7bd258394288b37286" : String(line)
        }.joined(separator: "\n").write(to: conf, atomically: true, encoding: .utf8)
        // (sample, a line of the Japanese text, the same line's English words)
        let cases: [(String, [String], [String])] = [
            // An eTicket for zones A–B: the name's zones are the pass's, %1$s in the msgid; its validation by metro.
            ("hsl-ul.json", ["  ゾーン AB のeチケット  ·  ", "mode 地下鉄"], ["  eTicket for zones AB  ·  ", "mode metro"]),
            ("hsl.json", ["  HSL 定期券  ·  ", "  最終チャージ"], ["  HSL period pass  ·  ", "  last load"]),
            ("waltti.json", ["  Waltti 定期券  ·  "], ["  Waltti period pass  ·  "]),
            ("troika-ul.json", ["  20回券  ·  "], ["  20 rides  ·  "]),
            ("troika-e3.json", ["fare 90分、mode モスクワ中央環状線"], ["fare 90 minutes, mode Moscow Central Circle"]),
            // 30 Day LinkPass (product 138) and the card type Adult (367), in Japanese: a proper noun kept.
            ("charliecard.json", ["  30日 LinkPass  ·  ", "Card type: 大人"], ["  30 Day LinkPass  ·  ", "Card type: Adult"]),
            // Events: a nanaco transfer record (type 35) and a Navigo special event (samples' descriptions).
            ("nanaco.json", ["  残高移行 （"], ["  transfer (record type 35"]),
            ("navigo.json", ["、特殊イベント、"], [", special, "]),
        ]
        for (sample, japaneseWords, englishWords) in cases {
            let arguments = ["scan", "--card", BuildProducts.sample(sample), "--no-save", "--config", conf.path]
            let text = try run(arguments, ja), english = try run(arguments, c)
            XCTAssertEqual(text.status, 0, "\(sample): \(text.stderr)")
            for words in japaneseWords { XCTAssertTrue(text.stdout.contains(words), "\(sample): \(words)\n\(text.stdout)") }
            for words in englishWords {
                XCTAssertTrue(english.stdout.contains(words), "\(sample) in English: \(words)\n\(english.stdout)")
                XCTAssertFalse(text.stdout.contains(words), "\(sample) in Japanese still says \(words)")
            }
            let json = try run(arguments + ["--json"], ja), plain = try run(arguments + ["--json"], c)
            XCTAssertEqual(json.status, 0, json.stderr)
            XCTAssertEqual(json.stdout, plain.stdout, "\(sample)'s JSON differs between ja_JP.UTF-8 and C.UTF-8")
            XCTAssertFalse(json.stdout.unicodeScalars.contains { $0.value >= 0x3000 && $0.value < 0xA000 }, "\(sample)'s JSON holds Japanese")
        }
        // A ticket type no msgid names (5da1; Metrodroid's list has 5da0, 20 rides): its name holds the
        // pass's tariff, found as "Troika ticket %1$s" and filled back (page 4 bits 4–19 are the type).
        var image = try CardImages.sample("troika-ul.json")
        XCTAssertEqual(image.mifareUltralight?.pages[4], "45DA03AD")
        image.mifareUltralight?.pages[4] = "45DA13AD"
        let unknown = try CardImages.write(image, in: archive.directory)
        XCTAssertTrue(try run(["scan", "--card", unknown, "--no-save"], ja).stdout.contains("  Troika 乗車券 5da1  ·  "))
        XCTAssertTrue(try run(["scan", "--card", unknown, "--no-save"], c).stdout.contains("  Troika ticket 5da1  ·  "))
    }

    /// The catalog is complete and current: msgfmt --check passes (placeholders included), no entry
    /// untranslated or fuzzy, ja.po has every msgid of the .pot, and the .pot is what the sources
    /// give now (scripts/extract-pot.py).
    func testTheCatalogIsCompleteAndCurrent() throws {
        let root = BuildProducts.packageRoot, po = root.appendingPathComponent("po/ja.po").path, pot = root.appendingPathComponent("po/transit.pot").path
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/msgfmt") else { throw XCTSkip("no msgfmt: install gettext (scripts/setup.sh)") }
        let check = try CommandRun.run("/usr/bin/msgfmt", ["--check", "--statistics", "-o", "/dev/null", po])
        XCTAssertEqual(check.status, 0, check.stderr)
        XCTAssertFalse(check.stderr.contains("untranslated") || check.stderr.contains("fuzzy"), check.stderr)
        for filter in ["--untranslated", "--only-fuzzy"] {
            let left = try CommandRun.run("/usr/bin/msgattrib", [filter, "--no-obsolete", po])
            XCTAssertEqual(left.status, 0, left.stderr)
            XCTAssertEqual(left.stdout, "", "\(filter) entries of ja.po")
        }
        let cmp = try CommandRun.run("/usr/bin/msgcmp", [po, pot])
        XCTAssertEqual(cmp.status, 0, "ja.po lacks msgids of transit.pot: \(cmp.stderr)")
        let extracted = try CommandRun.run("/usr/bin/python3", [root.appendingPathComponent("scripts/extract-pot.py").path, "--stdout"])
        XCTAssertEqual(extracted.status, 0, extracted.stderr)
        XCTAssertEqual(extracted.stdout, try String(contentsOfFile: pot, encoding: .utf8), "po/transit.pot is not current: run scripts/extract-pot.py")
    }

    /// Each family's catalog (po/plugins/FAMILY: the words its plugin marks with PluginWords.mark)
    /// is checked as the host's: ja.po complete, neither untranslated nor fuzzy, msgfmt --check
    /// clean, FAMILY.pot what the sources give now; and every family that marks words has one.
    func testEachFamilysCatalogIsCompleteAndCurrent() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/msgfmt") else { throw XCTSkip("no msgfmt: install gettext (scripts/setup.sh)") }
        let root = BuildProducts.packageRoot, script = root.appendingPathComponent("scripts/extract-pot.py").path
        let folder = root.appendingPathComponent("po/plugins")
        let families = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        XCTAssertEqual(families, ["calypso", "charliecard", "hsl", "nanaco", "troika"], "the families whose plugins mark words (HSL's DESFire and Ultralight readers share hsl)")
        for family in families {
            let po = folder.appendingPathComponent("\(family)/ja.po").path, pot = folder.appendingPathComponent("\(family)/\(family).pot").path
            let check = try CommandRun.run("/usr/bin/msgfmt", ["--check", "--statistics", "-o", "/dev/null", po])
            XCTAssertEqual(check.status, 0, "\(family): \(check.stderr)")
            XCTAssertFalse(check.stderr.contains("untranslated") || check.stderr.contains("fuzzy"), "\(family): \(check.stderr)")
            XCTAssertEqual(try CommandRun.run("/usr/bin/msgcmp", [po, pot]).status, 0, "\(family)'s ja.po lacks msgids of its .pot")
            let extracted = try CommandRun.run("/usr/bin/python3", [script, "--family", family])
            XCTAssertEqual(extracted.status, 0, extracted.stderr)
            XCTAssertEqual(extracted.stdout, try String(contentsOfFile: pot, encoding: .utf8), "\(pot) is not current: run scripts/extract-pot.py")
            XCTAssertTrue(extracted.stdout.contains("\"Project-Id-Version: transit-\(family)\\n\""), extracted.stdout)
        }
    }
}
