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

    public init(name: String, value: String?, type: OptionValue = .text, repeatable: Bool = false, required: Bool = false, count: Int = 1) {
        self.name = name
        self.value = value
        self.type = type
        self.repeatable = repeatable
        self.required = required
        self.count = count
    }

    /// `[--name VALUE]`, `[--name VALUE]...`, `--name VALUE`.
    public var usage: String {
        let bare = "--\(name)" + (value.map { " \($0)" } ?? "")
        return (required ? bare : "[\(bare)]") + (repeatable ? "..." : "")
    }
}
