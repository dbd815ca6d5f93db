import TransitTransport

/// One option of a command: `--name VALUE`, or a flag `--name`.
struct OptionSpec: Equatable {
    let name: String
    /// The value's placeholder in the usage line; nil for a flag.
    let value: String?
    /// Given more than once, every value counts (`--stations`, watch's `--reader`).
    var repeatable = false
    /// The command cannot run without it (`dump --out`).
    var required = false
    /// How many values follow it: 1, or 2 for `cards --name CARD NICKNAME`.
    var count = 1

    /// `[--name VALUE]`, `[--name VALUE]...`, `--name VALUE`.
    var usage: String {
        let bare = "--\(name)" + (value.map { " \($0)" } ?? "")
        return (required ? bare : "[\(bare)]") + (repeatable ? "..." : "")
    }

    static let reader = OptionSpec(name: "reader", value: "NAME")
    static let dialect = OptionSpec(name: "dialect", value: FeliCaDialect.allCases.map(\.rawValue).joined(separator: "|"))
    static let config = OptionSpec(name: "config", value: "FILE")
    static let wait = OptionSpec(name: "wait", value: "SECONDS")
    static let json = OptionSpec(name: "json", value: nil)
    static let verbose = OptionSpec(name: "verbose", value: nil)
    static let card = OptionSpec(name: "card", value: "FILE")
    static let index = OptionSpec(name: "index", value: "N")
    static let log = OptionSpec(name: "log", value: "FILE")
    static let noSave = OptionSpec(name: "no-save", value: nil)
    static let save = OptionSpec(name: "save", value: nil)
    static let exchangeTimeout = OptionSpec(name: "exchange-timeout", value: "SECONDS")
    static let readTimeout = OptionSpec(name: "read-timeout", value: "SECONDS")
    static let stations = OptionSpec(name: "stations", value: "FILE", repeatable: true)
    static let since = OptionSpec(name: "since", value: "YYYY-MM-DD")
    static let out = OptionSpec(name: "out", value: "FILE")
    static let requiredOut = OptionSpec(name: "out", value: "FILE", required: true)
    static let reference = OptionSpec(name: "reference", value: "FILE", required: true)
    /// watch's `--reader`, given once for each reader watched.
    static let readers = OptionSpec(name: "reader", value: "NAME", repeatable: true)
    static let exec = OptionSpec(name: "exec", value: "CMD")
    static let execTimeout = OptionSpec(name: "exec-timeout", value: "SECONDS")
    static let format = OptionSpec(name: "format", value: "csv|json|ledger")
    static let yes = OptionSpec(name: "yes", value: nil)
    /// `scan` and `watch`: flag a balance under AMOUNT (the card's minor units).
    static let below = OptionSpec(name: "below", value: "AMOUNT")
    /// `scan`: show the holder's personal data (a Calypso card's name and birth date) too.
    static let personal = OptionSpec(name: "personal", value: nil)
    static let month = OptionSpec(name: "month", value: "YYYY-MM|last")
    static let from = OptionSpec(name: "from", value: "YYYY-MM-DD")
    static let to = OptionSpec(name: "to", value: "YYYY-MM-DD")
    static let reportFormat = OptionSpec(name: "format", value: ReportFormat.allCases.map(\.rawValue).joined(separator: "|"))
    /// `cards --name CARD NICKNAME`.
    static let name = OptionSpec(name: "name", value: "CARD NICKNAME", count: 2)
}

/// One command: what it takes, its `--help`, and what runs it.
struct CommandSpec {
    enum Operands: Equatable {
        case none
        /// At most one, named by the placeholder (`[CARD]`), or exactly one when required (`LOG`).
        case one(String, required: Bool)
        /// One or more (`FILE...`).
        case many(String)

        var maximum: Int {
            switch self {
            case .none: return 0
            case .one: return 1
            case .many: return .max
            }
        }

        var usage: String? {
            switch self {
            case .none: return nil
            case .one(let name, let required): return required ? name : "[\(name)]"
            case .many(let name): return "\(name)..."
            }
        }
    }

    let name: String
    let operands: Operands
    let options: [OptionSpec]
    /// Reads cards through plugins: the plugin worker is forked as the process starts.
    var reads = false
    /// `transit NAME --help`.
    let help: String
    let run: (TransitCommand, Arguments) throws -> Void

    /// The usage line of `transit --help` (and the man page's SYNOPSIS), wrapped below `width`
    /// columns with continuation lines under the first option.
    func usage(width: Int = 100) -> String {
        let head = "transit \(name)" + (operands.usage.map { " \($0)" } ?? "")
        let required = options.filter(\.required), optional = options.filter { !$0.required }
        var lines = [head + required.map { " \($0.usage)" }.joined()]
        let indent = String(repeating: " ", count: "transit \(name) ".count)
        for option in optional {
            if lines[lines.count - 1].count + 1 + option.usage.count > width { lines.append(indent + option.usage) }
            else { lines[lines.count - 1] += " " + option.usage }
        }
        return lines.joined(separator: "\n")
    }
}

/// The command line, declared once. The parser takes a command's entry (`Arguments`), the usage
/// lines of `transit --help` are written from it, and ManAndCompletionTests checks each command's
/// `--help`, the man page's SYNOPSIS and the shell completions against those lines. A command
/// accepts only the options that mean something for it (no reader options without a reader).
enum CommandTable {
    static let commands: [CommandSpec] = [
        CommandSpec(name: "scan", operands: .none,
                    options: [.reader, .dialect, .config, .wait, .json, .verbose, .card, .index, .log, .noSave,
                              .exchangeTimeout, .readTimeout, .stations, .below, .personal],
                    reads: true, help: HelpText.scan) { try $0.scan($1) },
        CommandSpec(name: "decode", operands: .many("FILE"), options: [.config, .readTimeout, .stations, .save],
                    reads: true, help: HelpText.decode) { try $0.decode($1) },
        CommandSpec(name: "replay", operands: .one("LOG", required: true), options: [.config, .json, .verbose, .readTimeout, .stations, .save],
                    reads: true, help: HelpText.replay) { try $0.replay($1) },
        CommandSpec(name: "dump", operands: .none,
                    options: [.requiredOut, .reader, .dialect, .wait, .config, .card, .index,
                              .verbose, .exchangeTimeout, .readTimeout],
                    reads: true, help: HelpText.dump) { try $0.dump($1) },
        CommandSpec(name: "verify", operands: .none,
                    options: [.reference, .reader, .dialect, .wait, .config, .card,
                              .index, .log, .json, .verbose, .noSave, .exchangeTimeout, .readTimeout, .stations],
                    reads: true, help: HelpText.verify) { try $0.verify($1) },
        CommandSpec(name: "watch", operands: .none,
                    options: [.readers, .dialect, .config, .json, .verbose,
                              .exec, .execTimeout, .noSave,
                              .exchangeTimeout, .readTimeout, .stations, .below],
                    reads: true, help: HelpText.watch) { try $0.watch($1) },
        CommandSpec(name: "cards", operands: .none, options: [.json, .name], help: HelpText.cards) { try $0.cards($1) },
        CommandSpec(name: "history", operands: .one("CARD", required: false), options: [.since, .json, .stations],
                    help: HelpText.history) { try $0.history($1) },
        CommandSpec(name: "export", operands: .one("CARD", required: false),
                    options: [.format, .out, .since, .stations],
                    help: HelpText.export) { try $0.export($1) },
        CommandSpec(name: "report", operands: .one("CARD", required: false),
                    options: [.month, .from, .to, .reportFormat, .out, .stations],
                    help: HelpText.report) { try $0.report($1) },
        CommandSpec(name: "forget", operands: .one("CARD", required: true), options: [.yes],
                    help: HelpText.forget) { try $0.forget($1) },
        CommandSpec(name: "readers", operands: .none, options: [.json], help: HelpText.readers) { try $0.readers($1) },
        CommandSpec(name: "doctor", operands: .none, options: [.config, .json], help: HelpText.doctor) { try $0.doctor($1) },
        CommandSpec(name: "plugins", operands: .none, options: [.config, .json], help: HelpText.plugins) { try $0.plugins($1) },
    ]

    static func command(_ name: String) -> CommandSpec? { commands.first { $0.name == name } }

    /// The commands whose plugin worker is forked at start-up.
    static var readingCommands: Set<String> { Set(commands.filter(\.reads).map(\.name)) }

    /// The usage block of `transit --help`.
    static var usage: String {
        (commands.map { $0.usage() } + ["transit --help | --version        (and `transit COMMAND --help`, `transit help COMMAND`)"])
            .map { $0.split(separator: "\n").map { "  " + $0 }.joined(separator: "\n") }.joined(separator: "\n")
    }
}
