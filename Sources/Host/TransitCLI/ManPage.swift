import TransitModel

/// transit(1)'s SYNOPSIS and OPTIONS, written from `CommandTable` as the completions are: every
/// command's usage, and each option once with its `manual` words and the commands that take it.
/// `transit __man-section SYNOPSIS|OPTIONS` (no user command: neither `--help` nor the
/// completions name it) prints one; scripts/generate-man.sh writes both into docs/man/transit.1,
/// and ManAndCompletionTests checks that the page holds exactly them.
enum ManPage {
    /// The hidden first argument that prints a section.
    static let command = "__man-section"

    enum Section: String, CaseIterable {
        case synopsis = "SYNOPSIS", options = "OPTIONS"
    }

    /// `transit __man-section NAME`: the section, from its `.SH` line to the line before the next.
    static func run(_ args: [String], output: (String) -> Void) throws {
        guard args.count == 1, let section = Section(rawValue: args[0]) else {
            throw TransitError(.usage, "\(command) takes \(Section.allCases.map(\.rawValue).joined(separator: " or "))")
        }
        output(text(section))
    }

    static func text(_ section: Section, commands: [CommandSpec] = CommandTable.commands) -> String {
        switch section {
        case .synopsis: return synopsis(commands)
        case .options: return options(commands)
        }
    }

    /// A written-from-the-table note, a comment roff does not print.
    private static func note(_ section: Section) -> String {
        ".\\\" \(section.rawValue): written by scripts/generate-man.sh from transit's command table; do not edit by hand."
    }

    // MARK: SYNOPSIS

    /// A value's words in roff: a placeholder (`FILE`, `CARD NICKNAME`, `YYYY-MM`) italic, a word
    /// to type as it is (`pn532`, `last`) bold, the `|` between them roman.
    static func value(_ value: String) -> String {
        value.split(separator: "|").map { part in
            let word = String(part)
            return word.contains(where: \.isLowercase) ? RoffText.bold(word) : RoffText.italic(word)
        }.joined(separator: "|")
    }

    /// `--name VALUE` in roff, one unbreakable word (`\ `).
    static func label(_ option: OptionSpec) -> String {
        RoffText.bold(option.flag) + (option.value.map { "\\ " + value($0) } ?? "")
    }

    /// The option as the usage line gives it: `[--name VALUE]`, `[--name VALUE]...`, `--name VALUE`.
    private static func usage(_ option: OptionSpec) -> String {
        (option.required ? label(option) : "[" + label(option) + "]") + (option.repeatable ? "...\\&" : "")
    }

    private static func operands(_ operands: CommandSpec.Operands) -> String? {
        switch operands {
        case .none: return nil
        case .one(let name, let required): return required ? value(name) : "[" + value(name) + "]"
        case .many(let name): return value(name) + "...\\&"
        }
    }

    /// Each command's usage (the command, its operands, its required options, then the others, a
    /// line each), a `.br` after it; then `--help`, `--version` and `help`.
    private static func synopsis(_ commands: [CommandSpec]) -> String {
        var lines = [".SH SYNOPSIS", note(.synopsis), ".nh", ".ad l"]
        for command in commands {
            lines.append(RoffText.bold("transit \(command.name)") + (operands(command.operands).map { " " + $0 } ?? ""))
            lines += command.options.filter(\.required).map(usage) + command.options.filter { !$0.required }.map(usage)
            lines.append(".br")
        }
        lines += [
            RoffText.bold("transit") + " " + RoffText.bold("--help") + " | " + RoffText.bold("--version"),
            ".br",
            RoffText.bold("transit") + " " + RoffText.italic("COMMAND") + " " + RoffText.bold("--help"),
            ".br",
            RoffText.bold("transit help") + " " + RoffText.italic("COMMAND"),
            ".ad",
            ".hy",
        ]
        return lines.joined(separator: "\n")
    }

    // MARK: OPTIONS

    /// One entry of OPTIONS: an option of one name and value, and every command that takes it.
    private struct Entry {
        var options: [OptionSpec]
        var commands: [String]
    }

    /// The entries in the order the table first names them; `--format` twice, export's and
    /// report's values differing.
    private static func entries(_ commands: [CommandSpec]) -> [Entry] {
        var entries = [Entry]()
        for command in commands {
            for option in command.options {
                if let i = entries.firstIndex(where: { $0.options[0].name == option.name && $0.options[0].value == option.value }) {
                    entries[i].options.append(option)
                    if entries[i].commands.last != command.name { entries[i].commands.append(command.name) }
                } else {
                    entries.append(Entry(options: [option], commands: [command.name]))
                }
            }
        }
        return entries
    }

    private static let optionsIntro = """
        An option that takes a value is written
        .B \\-\\-option
        .I VALUE
        or
        .BI \\-\\-option= VALUE
        (the second form for a value that starts with
        .BR \\-\\- ).
        An unknown option, a stray operand, or an option where a value was expected is a usage error
        (exit 2).
        """

    /// The intro, then for each entry its label, its manual words (each distinct text of its
    /// options once; the help text where there is none) and the commands that take it.
    private static func options(_ commands: [CommandSpec]) -> String {
        var lines = [".SH OPTIONS", note(.options), optionsIntro]
        for entry in entries(commands) {
            var texts = [String]()
            for option in entry.options {
                let text = option.manual.isEmpty ? RoffText.plain(option.help) : RoffText.markup(option.manual)
                if !texts.contains(text) { texts.append(text) }
            }
            lines += [".TP", label(entry.options[0])] + texts
            lines.append("(" + entry.commands.map(RoffText.bold).joined(separator: ", ") + ")")
        }
        return lines.joined(separator: "\n")
    }
}
