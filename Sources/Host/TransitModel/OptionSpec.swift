/// One option of a command line: `--name VALUE`, or a flag `--name`. `transit`'s command table
/// and `transit-sim` declare theirs with it; `CommandArguments` parses against them.
public struct OptionSpec: Equatable, Sendable {
    public let name: String
    /// The value's placeholder in the usage line; nil for a flag.
    public let value: String?
    /// What the value is, checked as it is parsed (`OptionValue.parse`).
    public var type: OptionValue
    /// Given more than once, every value counts (`--stations`, watch's `--reader`).
    public var repeatable = false
    /// The command cannot run without it (`dump --out`).
    public var required = false
    /// How many values follow it: 1, or 2 for `cards --name CARD NICKNAME`.
    public var count = 1
    /// What it does, as `--help` says it, beside its label: one paragraph (`L10n.mark`ed), wrapped
    /// where it is shown.
    public var help: String
    /// What it does in a few words (the shell completions' descriptions).
    public var summary: String
    /// What it does as a manual page's OPTIONS says it, for every command that takes it: sentences
    /// a line, `` `bold` `` (commands, options, literal words) and `_italic_` (placeholders, files)
    /// the only markup. Empty: the page says `help`.
    public var manual: String

    public init(name: String, value: String?, type: OptionValue = .text, repeatable: Bool = false, required: Bool = false, count: Int = 1,
                summary: String, help: String, manual: String = "") {
        self.name = name
        self.value = value
        self.type = type
        self.repeatable = repeatable
        self.required = required
        self.count = count
        self.summary = summary
        self.help = help
        self.manual = manual
    }

    /// The same option in a command's own words (`decode --read-timeout`: one file's read); the
    /// manual's words, which speak of every command, stay.
    public func described(_ help: String, summary: String? = nil) -> OptionSpec {
        var option = self
        option.help = help
        option.summary = summary ?? self.summary
        return option
    }

    /// `--name`.
    public var flag: String { "--\(name)" }

    /// `--name VALUE`, as `--help` lists it.
    public var label: String { "--\(name)" + (value.map { " \($0)" } ?? "") }

    /// The option's lines in `--help`: its label, its description at column 20 (below the label
    /// when the label is wider), each line indented `indent` columns, none wider than `width`
    /// columns in any language (`LineWrap`).
    public func helpLines(indent: Int = 2, width: Int = 80) -> String {
        let margin = String(repeating: " ", count: indent), column = 18, gutter = String(repeating: " ", count: column)
        // The help in the chosen language (marked where the option is declared: `L10n.mark`).
        let lines = LineWrap.lines(L10n.translated(help), width: width - indent - column)
        let first = DisplayWidth.of(label) < column ? [DisplayWidth.padded(label, to: column) + (lines.first ?? "")]
            : [label] + lines.prefix(1).map { gutter + $0 }
        let rest = lines.dropFirst().map { gutter + $0 }
        return (first + rest).map { margin + $0 }.joined(separator: "\n")
    }

    /// `[--name VALUE]`, `[--name VALUE]...`, `--name VALUE`.
    public var usage: String {
        let bare = "--\(name)" + (value.map { " \($0)" } ?? "")
        return (required ? bare : "[\(bare)]") + (repeatable ? "..." : "")
    }
}
