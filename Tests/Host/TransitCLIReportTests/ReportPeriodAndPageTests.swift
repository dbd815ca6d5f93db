import Foundation
import TestSupport
import XCTest

/// What a household trips on in `transit report`: `--month last` is the previous calendar month in
/// the card's zone, an empty default month names the last month with records, and the printed page
/// names CJK fonts, says its language and has axis labels one can read on paper (≥ 8 pt) with the
/// period's last day among them.
final class ReportPeriodAndPageTests: XCTestCase {
    private var archive = ArchiveFixture()
    override func tearDown() { archive.remove() }

    /// The sample Suica (records of 1–5 November 2026, a purchase at 13:45 +09:00), kept.
    private func keepTheSample() throws {
        XCTAssertEqual(try archive.scan(BuildProducts.sample("suica.json")).status, 0)
    }

    /// `YYYY-MM` of the month `back` months before now, on a clock `zone` seconds east of UTC.
    private func month(back: Int, zone seconds: Int) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: seconds)!
        let then = calendar.date(byAdding: .month, value: -back, to: Date())!
        let parts = calendar.dateComponents([.year, .month], from: then)
        return String(format: "%04d-%02d", parts.year!, parts.month!)
    }

    func testMonthLastIsThePreviousCalendarMonthInTheCardsZone() throws {
        try keepTheSample()
        let run = try archive.transit(["report", "#1", "--month", "last", "--format", "json"])
        XCTAssertEqual(run.status, 0, run.stderr)
        let period = try XCTUnwrap(run.json?["period"] as? [String: String], run.stdout)
        let expected = month(back: 1, zone: 9 * 3600) // Tokyo: the card's records are dated +09:00
        XCTAssertEqual(period["from"], expected + "-01")
        XCTAssertEqual(period["to"]?.prefix(7), Substring(expected))
        XCTAssertTrue(["28", "29", "30", "31"].contains(period["to"]?.suffix(2) ?? ""), "the month's last day: \(period)")
        // A word other than last is still a usage error that names it.
        let wrong = try archive.transit(["report", "--month", "previous"])
        XCTAssertEqual(wrong.status, 2)
        XCTAssertTrue(wrong.stderr.contains("or last"), wrong.stderr)
    }

    func testAnEmptyDefaultMonthNamesTheLastMonthWithRecords() throws {
        try keepTheSample()
        let now = month(back: 0, zone: TimeZone.current.secondsFromGMT())
        try XCTSkipIf(now == "2026-11", "this month holds the sample's records")
        let run = try archive.transit(["report", "#1"])
        XCTAssertEqual(run.status, 0, run.stderr)
        let ask = month(back: 1, zone: 9 * 3600) == "2026-11" ? "transit report --month last" : "transit report --month 2026-11"
        XCTAssertTrue(run.stdout.contains("No records this month yet; the last month with records is 2026-11 (\(ask))."), run.stdout)
        // Other formats keep their output and say it on stderr.
        let json = try archive.transit(["report", "#1", "--format", "json"])
        XCTAssertEqual(json.status, 0)
        XCTAssertTrue(json.stderr.contains("#1 Suica: No records this month yet"), json.stderr)
        // A month asked for by name that is empty says only that.
        let named = try archive.transit(["report", "#1", "--month", "2025-01"])
        XCTAssertTrue(named.stdout.contains("No records in this period."), named.stdout)
    }

    private func page(_ arguments: [String]) throws -> (path: URL, text: String) {
        let html = archive.directory.appendingPathComponent("r.html")
        let run = try archive.transit(["report"] + arguments + ["--format", "html", "--out", html.path])
        XCTAssertEqual(run.status, 0, run.stderr)
        return (html, try String(contentsOf: html, encoding: .utf8))
    }

    func testThePageNamesCJKFontsBeforeTheGenericFamilyAndSaysItsLanguage() throws {
        try keepTheSample()
        XCTAssertEqual(try page(["#1", "--month", "2026-11"]).text.contains("<html lang=\"en\">"), true, "no Japanese text yet")
        XCTAssertEqual(try archive.transit(["cards", "--name", "#1", "通勤"]).status, 0)
        let text = try page(["#1", "--month", "2026-11"]).text
        XCTAssertTrue(text.contains("<html lang=\"ja\">"), "a Japanese nickname makes the page Japanese")
        let family = try XCTUnwrap(text.components(separatedBy: "font-family:").dropFirst().first?.components(separatedBy: ";").first)
        let fonts = family.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "\"")) }
        XCTAssertEqual(fonts.last, "sans-serif", family)
        for font in ["Noto Sans CJK JP", "IPAGothic", "TakaoGothic"] {
            let at = try XCTUnwrap(fonts.firstIndex(of: font), "\(font) in \(family)")
            XCTAssertLessThan(at, fonts.count - 1, "\(font) before the generic family")
        }
    }

    /// Chromium's PDF of the page, and pdftotext's words with their boxes (PDF points).
    private func printed(_ html: URL) throws -> [(word: String, x: Double, y: Double)] {
        let chromium = "/usr/bin/chromium", pdftotext = "/usr/bin/pdftotext"
        let present = FileManager.default.isExecutableFile(atPath: chromium) && FileManager.default.isExecutableFile(atPath: pdftotext)
        try Prerequisite.require(present, "chromium or poppler-utils is missing: scripts/test-setup.sh")
        let pdf = archive.directory.appendingPathComponent("r.pdf").path
        _ = try CommandRun.run(chromium, ["--headless", "--no-sandbox", "--disable-gpu", "--no-pdf-header-footer", "--print-to-pdf=\(pdf)", html.absoluteString],
                               timeout: 120)
        let boxes = try CommandRun.run(pdftotext, ["-bbox", pdf, "-"]).stdout
        let pattern = try NSRegularExpression(pattern: #"<word xMin="([0-9.]+)" yMin="[0-9.]+" xMax="([0-9.]+)" yMax="([0-9.]+)">([^<]*)</word>"#)
        let ns = boxes as NSString
        return pattern.matches(in: boxes, range: NSRange(location: 0, length: ns.length)).compactMap { m in
            guard let x0 = Double(ns.substring(with: m.range(at: 1))), let x1 = Double(ns.substring(with: m.range(at: 2))),
                  let y = Double(ns.substring(with: m.range(at: 3))) else { return nil }
            return (ns.substring(with: m.range(at: 4)), (x0 + x1) / 2, y)
        }
    }

    func testTheChartsAxisLabelsPrintAtEightPointsOrMoreAndNameTheLastDay() throws {
        try keepTheSample()
        let (html, text) = try page(["#1", "--month", "2026-11"])
        // The day labels as the SVG places them (its own units) …
        let pattern = try NSRegularExpression(pattern: #"<text class="label" x="([0-9.]+)" y="[0-9.]+" text-anchor="middle">([0-9]+)</text>"#)
        let ns = text as NSString
        let placed = pattern.matches(in: text, range: NSRange(location: 0, length: ns.length)).map {
            (day: ns.substring(with: $0.range(at: 2)), x: Double(ns.substring(with: $0.range(at: 1))) ?? 0)
        }
        XCTAssertEqual(placed.first?.day, "1")
        XCTAssertEqual(placed.last?.day, "30", "November's last day is labelled: \(placed.map(\.day))")
        let yLabels = text.components(separatedBy: "text-anchor=\"end\">").count - 1
        XCTAssertGreaterThanOrEqual(yLabels, 3, "the y axis says more than its top and 0")
        // … and as Chromium printed them: the scale from SVG units to points, so the label's size on paper.
        let words = try printed(html)
        let baseline = try XCTUnwrap(words.first { $0.word == "30" }?.y, "the last day's label in the PDF")
        let row = words.filter { abs($0.y - baseline) < 0.5 }
        let first = try XCTUnwrap(row.first { $0.word == "1" }), last = try XCTUnwrap(row.first { $0.word == "30" })
        let scale = (last.x - first.x) / ((placed.last?.x ?? 0) - (placed.first?.x ?? 0))
        let size = try XCTUnwrap(text.components(separatedBy: ".label { font-size: ").dropFirst().first?.prefix { $0.isNumber }).flatMap { Double($0) }
        let points = (size ?? 0) * scale
        XCTAssertGreaterThanOrEqual(points, 8, "the axis labels print at \(points) pt")
    }
}
