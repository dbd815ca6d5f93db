import TransitModel

/// transit(1)'s SYNOPSIS, COMMANDS, OPTIONS and EXIT STATUS, written from `CommandTable` and
/// `ExitStatusTable` as the completions are: every command's usage and its `manual` words, each
/// option once with its `manual` words and the commands that take it, each exit code with its kinds.
/// `transit __man-section NAME` (no user command: neither `--help` nor the completions name it)
/// prints one, and `transit __man-section "EXIT STATUS" --markdown` the table of
/// docs/scripting-and-watch.md; scripts/generate-man.sh writes them all, and
/// ManAndCompletionTests checks that the page and the document hold exactly them.
enum ManPage {
    /// The hidden first argument that prints a section.
    static let command = "__man-section"

    enum Section: String, CaseIterable {
        case synopsis = "SYNOPSIS", commands = "COMMANDS", options = "OPTIONS", exitStatus = "EXIT STATUS"
    }

    /// `transit __man-section NAME`: the section, from its `.SH` line to the line before the next;
    /// with `--markdown` after `EXIT STATUS`, the exit codes as docs/scripting-and-watch.md's table.
    static func run(_ args: [String], output: (String) -> Void) throws {
        if args == [Section.exitStatus.rawValue, "--markdown"] { return output(exitTable()) }
        guard args.count == 1, let section = Section(rawValue: args[0]) else {
            throw TransitError(.usage, "\(command) takes \(Section.allCases.map(\.rawValue).joined(separator: " or "))")
        }
        output(text(section))
    }

    static func text(_ section: Section, commands: [CommandSpec] = CommandTable.commands) -> String {
        switch section {
        case .synopsis: return synopsis(commands)
        case .commands: return commandEntries(commands)
        case .options: return options(commands)
        case .exitStatus: return exitStatus(ExitStatusTable.statuses)
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

    // MARK: COMMANDS

    /// What COMMANDS says after the table's commands: the two that are not in it.
    private static let otherCommands = """
        .TP
        .BR \\-\\-help ", " \\-h ", " help
        Print the usage and the exit codes.
        .IB COMMAND " \\-\\-help"
        prints the help of one command.
        .TP
        .B \\-\\-version
        Print the version and the plugin ABI version.
        """

    /// Each command, its operands as the usage line gives them, and its `manual` words.
    private static func commandEntries(_ commands: [CommandSpec]) -> String {
        var lines = [".SH COMMANDS", note(.commands)]
        for command in commands {
            lines += [".TP", RoffText.bold(command.name) + (operands(command.operands).map { " " + $0 } ?? ""),
                      RoffText.markup(command.manual)]
        }
        lines.append(otherCommands)
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

    // MARK: EXIT STATUS

    /// Each code, the kinds `--json` reports with it, its `manual` words; then what holds for all.
    private static func exitStatus(_ statuses: [ExitStatus]) -> String {
        var lines = [".SH EXIT STATUS", note(.exitStatus)]
        for status in statuses {
            lines += [".TP", RoffText.bold("\(status.code)")]
            if !status.kinds.isEmpty { lines.append("(" + status.kinds.map(RoffText.bold).joined(separator: ", ") + ")") }
            lines.append(RoffText.markup(status.manual))
        }
        lines += [".PP", RoffText.markup(ExitStatusTable.manualAfter)]
        return lines.joined(separator: "\n")
    }

    /// docs/scripting-and-watch.md's table: the same words, a row a code (the markup is Markdown's).
    private static func exitTable() -> String {
        let rows = ExitStatusTable.statuses.map { status in
            let kinds = status.kinds.map { "`\($0)`" }.joined(separator: ", ")
            return "| \(status.code) | \(kinds) | " + status.manual.split(separator: "\n").joined(separator: " ") + " |"
        }
        return (["| exit | kinds | meaning |", "| --- | --- | --- |"] + rows).joined(separator: "\n") + "\n\n"
            + ExitStatusTable.manualAfter.split(separator: "\n").joined(separator: " ")
    }
}
