/// The project's one argument parser, of `transit` and of `transit-sim`:
/// `[--option VALUE | --flag | operand]…` against the options a command declares, every value
/// checked by its type (`OptionValue`) as it is read.
public struct CommandArguments {
    /// The operands a command takes.
    public enum Operands: Equatable, Sendable {
        case none
        /// At most one, named by the placeholder (`[CARD]`), or exactly one when required (`LOG`).
        case one(String, required: Bool)
        /// One or more (`FILE...`).
        case many(String)

        public var maximum: Int {
            switch self {
            case .none: return 0
            case .one: return 1
            case .many: return .max
            }
        }

        public var usage: String? {
            switch self {
            case .none: return nil
            case .one(let name, let required): return required ? name : "[\(name)]"
            case .many(let name): return "\(name)..."
            }
        }
    }

    /// The command's name in messages (`scan`, `transit-sim`).
    public let command: String
    private var values = [String: String]()
    /// Every value of an option given more than once (the last one is in `values`).
    private var allValues = [String: [String]]()
    private var flags = Set<String>()
    /// The values of an option that takes two (`--name CARD NICKNAME`).
    private var pairs = [String: (String, String)]()
    public private(set) var operands = [String]()
    private let options: [OptionSpec]

    /// Parses `args` (without the program name and command). `--option=value` works too. Unknown
    /// options, a value its type refuses, a stray operand, a missing required one and an option
    /// given as another option's value (`--reader --json`) are usage errors; `helpCommand`
    /// is where they send the user (`transit scan --help`).
    public init(_ args: [String], command: String, options: [OptionSpec], operands spec: Operands, helpCommand: String) throws {
        self.command = command
        self.options = options
        var i = 0, optionsEnded = false
        while i < args.count {
            let arg = args[i]
            if arg == "--", !optionsEnded {
                // Everything after `--` is an operand, even a nickname that begins with `-`.
                optionsEnded = true
            } else if arg.hasPrefix("-"), arg.count > 1, !arg.hasPrefix("--"), !optionsEnded {
                // `-j`: no short options (but -h, taken before parsing).
                throw Self.unknownOption(arg, command: command, options: options, helpCommand: helpCommand)
            } else if arg.hasPrefix("--"), !optionsEnded {
                let parts = arg.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
                let name = String(parts[0].dropFirst(2))
                guard let option = options.first(where: { $0.name == name }), option.value != nil || parts.count == 1 else {
                    throw Self.unknownOption(parts[0], command: command, options: options, helpCommand: helpCommand)
                }
                if option.value == nil {
                    flags.insert(name)
                } else if option.count == 2 {
                    // `--name CARD NICKNAME` (or `--name=CARD NICKNAME`): the next words are its values,
                    // whatever they begin with (a nickname may).
                    var taken = parts.count == 2 ? [parts[1]] : []
                    while taken.count < 2 {
                        guard i + 1 < args.count else { throw TransitError(.usage, L10n.words("--%1$s needs %2$s", .init(name), .init(option.value ?? "CARD NICKNAME"))) }
                        i += 1
                        taken.append(args[i])
                    }
                    pairs[name] = (taken[0], taken[1])
                } else {
                    let value: String
                    if parts.count == 2 {
                        value = parts[1]
                    } else {
                        guard i + 1 < args.count else { throw TransitError(.usage, L10n.words("--%1$s needs a value", .init(name))) }
                        i += 1
                        guard !args[i].hasPrefix("--") else {
                            throw TransitError(.usage, L10n.words("--%1$s needs a value, not the option %2$s (write --%1$s=VALUE for a value that starts with --)",
                                                                  .init(name), .init(args[i])))
                        }
                        value = args[i]
                    }
                    try option.type.parse(value, option: name)
                    values[name] = value
                    allValues[name, default: []].append(value)
                }
            } else {
                let maximum = spec.maximum
                guard operands.count < maximum else {
                    let hint = options.contains { $0.name == "card" } ? L10n.words(" (a card file is read with --card FILE)") : .init("")
                    throw TransitError(.usage, maximum == 0
                        ? L10n.words("%1$s takes no operands, not \"%2$s\"%3$s", .init(command), .init(arg), hint)
                        : L10n.wordsn("%1$s takes at most %2$s operand, not \"%3$s\"%4$s", "%1$s takes at most %2$s operands, not \"%3$s\"%4$s",
                                      maximum, .init(command), .init(String(maximum)), .init(arg), hint))
                }
                operands.append(arg)
            }
            i += 1
        }
        for option in options where option.required && values[option.name] == nil {
            throw TransitError(.usage, L10n.words("%1$s needs --%2$s %3$s", .init(command), .init(option.name), .init(option.value ?? "")))
        }
        switch spec {
        case .one(let name, required: true) where operands.isEmpty:
            throw TransitError(.usage, L10n.words("%1$s takes %2$s (see %3$s)", .init(command), .init(name), .init(helpCommand)))
        case .many(let name) where operands.isEmpty:
            // TRANSLATORS: %2$s is what the command takes, in capitals (FILE): "decode takes one or more FILEs".
            throw TransitError(.usage, L10n.words("%1$s takes one or more %2$ss (see %3$s)", .init(command), .init(name), .init(helpCommand)))
        default: break
        }
    }

    /// An option the command does not take, with the nearest one it does.
    public static func unknownOption(_ typed: String, command: String, options: [OptionSpec], helpCommand: String) -> TransitError {
        let known = Array(Set(options.map { "--\($0.name)" } + ["--help"])).sorted()
        return TransitError(.usage, L10n.words("%1$s: unknown option %2$s%3$s (see %4$s)", .init(command), .init(typed),
                                               Suggestion.words(typed, among: known), .init(helpCommand)))
    }

    /// The option's value (its last, when given more than once).
    public func value(_ option: OptionSpec) -> String? { values[option.name] }
    /// Every value of a repeatable option, in the order given.
    public func all(_ option: OptionSpec) -> [String] { allValues[option.name] ?? [] }
    public func has(_ flag: OptionSpec) -> Bool { flags.contains(flag.name) }
    /// The two values of an option that takes two.
    public func pair(_ option: OptionSpec) -> (String, String)? { pairs[option.name] }

    /// The option's value parsed by its type (checked already as it was read).
    private func typed<T>(_ option: OptionSpec, _: T.Type) throws -> T? {
        guard let text = values[option.name] else { return nil }
        guard let value = try option.type.parse(text, option: option.name) as? T else {
            throw TransitError(.internal, "--\(option.name) is declared \(option.type), not \(T.self)")
        }
        return value
    }

    /// A `.seconds` option's value.
    public func seconds(_ option: OptionSpec) throws -> Double? { try typed(option, Double.self) }
    /// An `.amount` option's value.
    public func amount(_ option: OptionSpec) throws -> Int64? { try typed(option, Int64.self) }
    /// An `.index` or `.count` option's value.
    public func number(_ option: OptionSpec) throws -> Int? { try typed(option, Int.self) }
    /// A `.port` option's value.
    public func port(_ option: OptionSpec) throws -> UInt16? { try typed(option, UInt16.self) }
    /// A `.day` option's value.
    public func day(_ option: OptionSpec) throws -> CalendarDay? { try typed(option, CalendarDay.self) }
    /// A `.month` option's value.
    public func month(_ option: OptionSpec) throws -> OptionValue.Month? { try typed(option, OptionValue.Month.self) }
    /// A `.choice` option's value as `T` (a dialect, a format).
    public func choice<T: RawRepresentable>(_ option: OptionSpec, as _: T.Type) throws -> T? where T.RawValue == String {
        try value(option).map { text in
            try option.type.parse(text, option: option.name)
            guard let value = T(rawValue: text) else { throw TransitError(.internal, "--\(option.name) declares \(text), which \(T.self) lacks") }
            return value
        }
    }
}
