import Foundation

/// A pseudo-language for the tests (issue 44): a catalog whose every translation is its msgid with
/// each word wrapped in markers, `⟦no⟧ ⟦card⟧ ⟦on⟧ %1$s`, compiled from po/transit.pot (what the
/// sources give now) with gettext's own tools — msgen, then msgfilter running a small Python filter
/// on each message, then msgfmt — into a private folder that `TRANSIT_LOCALEDIR` points at, as
/// language `qps`. Every word transit takes from its catalog is then marked, a word at a time, so a
/// line wrapped anywhere (`--help`) still carries a marker; a line without one escaped the catalog.
/// Placeholders stay as they are: the values put in them are data, never marked.
public enum PseudoLocale {
    public static let language = "qps"
    public static let open = "⟦", close = "⟧"

    /// The folder holding `qps/LC_MESSAGES/transit.mo`, or why there is none (the tests skip with it).
    public static let catalogs: Result<String, JapaneseLocale.SkipReason> = {
        let tools = ["msgen", "msgfilter", "msgfmt"].map { "/usr/bin/" + $0 }
        guard tools.allSatisfy(FileManager.default.isExecutableFile(atPath:)) else {
            return .failure(.init("no msgen, msgfilter or msgfmt: install gettext (scripts/setup.sh)"))
        }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("transit-pseudo-\(getpid())")
        atexit { try? FileManager.default.removeItem(at: FileManager.default.temporaryDirectory.appendingPathComponent("transit-pseudo-\(getpid())")) }
        let messages = dir.appendingPathComponent("locale/\(language)/LC_MESSAGES")
        try? FileManager.default.createDirectory(at: messages, withIntermediateDirectories: true)
        let pot = BuildProducts.packageRoot.appendingPathComponent("po/transit.pot").path
        let english = dir.appendingPathComponent("en.po").path, marked = dir.appendingPathComponent("qps.po").path
        // Each run of non-blank characters outside a placeholder wrapped in the markers.
        let filter = #"""
            import re, sys
            text = sys.stdin.read()
            parts = re.split(r'(%[0-9]+\$s)', text)
            out = ''.join(p if re.fullmatch(r'%[0-9]+\$s', p) else re.sub(r'[^\s]+', lambda m: '\u27e6' + m.group(0) + '\u27e7', p) for p in parts)
            sys.stdout.write(out)
            """#
        do {
            let en = try CommandRun.run(tools[0], ["-o", english, pot])
            guard en.status == 0 else { return .failure(.init("msgen: \(en.stderr)")) }
            // The template's header has no plural rule: English's, and the pseudo-language's name.
            var text = try String(contentsOfFile: english, encoding: .utf8)
            text = text.replacingOccurrences(of: "\"Plural-Forms: nplurals=INTEGER; plural=EXPRESSION;\\n\"",
                                             with: "\"Plural-Forms: nplurals=2; plural=(n != 1);\\n\"\n\"Language: \(language)\\n\"")
            try text.write(toFile: english, atomically: true, encoding: .utf8)
            let filtered = try CommandRun.run(tools[1], ["--keep-header", "-i", english, "-o", marked, "/usr/bin/python3", "-c", filter])
            guard filtered.status == 0 else { return .failure(.init("msgfilter: \(filtered.stderr)")) }
            let compiled = try CommandRun.run(tools[2], ["--check", "-o", messages.appendingPathComponent("transit.mo").path, marked])
            guard compiled.status == 0 else { return .failure(.init("msgfmt: \(compiled.stderr)")) }
        } catch {
            return .failure(.init("\(error)"))
        }
        return .success(dir.appendingPathComponent("locale").path)
    }()

    /// A person reading transit in the pseudo-language: LANGUAGE=qps over an installed ja_JP.UTF-8
    /// (gettext ignores LANGUAGE in the C locale), the catalog found through TRANSIT_LOCALEDIR.
    public static func environment(_ extra: [String: String] = [:]) throws -> [String: String] {
        var env = try JapaneseLocale.environment(["LANGUAGE": language, "TRANSIT_LOCALEDIR": try catalogs.get()])
        for (k, v) in extra { env[k] = v }
        return env
    }
}
