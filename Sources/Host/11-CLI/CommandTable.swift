import TransitModel
import TransitTransport

/// The options of `transit`'s commands, each with the type of its value.
extension OptionSpec {
    static let reader = OptionSpec(name: "reader", value: "NAME")
    static let dialect = OptionSpec(name: "dialect", value: FeliCaDialect.allCases.map(\.rawValue).joined(separator: "|"),
                                    type: .choice(FeliCaDialect.allCases.map(\.rawValue), what: "dialect"))
    static let config = OptionSpec(name: "config", value: "FILE")
    static let wait = OptionSpec(name: "wait", value: "SECONDS", type: .seconds(positive: false))
    static let json = OptionSpec(name: "json", value: nil)
    static let verbose = OptionSpec(name: "verbose", value: nil)
    static let card = OptionSpec(name: "card", value: "FILE")
    static let index = OptionSpec(name: "index", value: "N", type: .index)
    static let log = OptionSpec(name: "log", value: "FILE")
    static let noSave = OptionSpec(name: "no-save", value: nil)
    static let save = OptionSpec(name: "save", value: nil)
    static let exchangeTimeout = OptionSpec(name: "exchange-timeout", value: "SECONDS", type: .seconds(positive: true))
    static let readTimeout = OptionSpec(name: "read-timeout", value: "SECONDS", type: .seconds(positive: true))
    static let stations = OptionSpec(name: "stations", value: "FILE", repeatable: true)
    static let since = OptionSpec(name: "since", value: "YYYY-MM-DD", type: .day)
    static let out = OptionSpec(name: "out", value: "FILE")
    static let requiredOut = OptionSpec(name: "out", value: "FILE", required: true)
    static let reference = OptionSpec(name: "reference", value: "FILE", required: true)
    /// watch's `--reader`, given once for each reader watched.
    static let readers = OptionSpec(name: "reader", value: "NAME", repeatable: true)
    static let exec = OptionSpec(name: "exec", value: "CMD")
    static let execTimeout = OptionSpec(name: "exec-timeout", value: "SECONDS", type: .seconds(positive: true))
    static let format = OptionSpec(name: "format", value: "csv|json|ledger", type: .choice(["csv", "json", "ledger"], what: "export format"))
    static let yes = OptionSpec(name: "yes", value: nil)
    /// `scan` and `watch`: flag a balance under AMOUNT (the card's minor units).
    static let below = OptionSpec(name: "below", value: "AMOUNT", type: .amount)
    /// `scan`: show the holder's personal data (a Calypso card's name and birth date) too.
    static let personal = OptionSpec(name: "personal", value: nil)
    static let month = OptionSpec(name: "month", value: "YYYY-MM|last", type: .month)
    static let from = OptionSpec(name: "from", value: "YYYY-MM-DD", type: .day)
    static let to = OptionSpec(name: "to", value: "YYYY-MM-DD", type: .day)
    static let reportFormat = OptionSpec(name: "format", value: ReportFormat.allCases.map(\.rawValue).joined(separator: "|"),
                                         type: .choice(ReportFormat.allCases.map(\.rawValue), what: "report format"))
    /// `cards --name CARD NICKNAME`.
    static let name = OptionSpec(name: "name", value: "CARD NICKNAME", count: 2)
}

/// One command: what it takes, its `--help`, and what runs it.
struct CommandSpec {
    typealias Operands = CommandArguments.Operands

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
