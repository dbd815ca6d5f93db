import TransitModel

/// The project's one hand-written argument parser: `command [--option VALUE | --flag | operand]…`,
/// against the command's entry in `CommandTable`.
struct Arguments {
    let command: String
    private var values = [String: String]()
    /// Every value of an option given more than once (the last one is in `values`).
    private var allValues = [String: [String]]()
    private var flags = Set<String>()
    /// The values of an option that takes two (`--name CARD NICKNAME`).
    private var pairs = [String: (String, String)]()
    private(set) var operands = [String]()

    /// Parses `args` (without the program name and command). `--option=value` works too. Unknown
    /// options, a stray operand, a missing required one and an option given as another option's
    /// value (`--reader --json`) are usage errors.
    init(_ args: [String], _ spec: CommandSpec) throws {
        command = spec.name
        var i = 0, optionsEnded = false
        while i < args.count {
            let arg = args[i]
            if arg == "--", !optionsEnded {
                // Everything after `--` is an operand, even a nickname that begins with `-`.
                optionsEnded = true
            } else if arg.hasPrefix("-"), arg.count > 1, !arg.hasPrefix("--"), !optionsEnded {
                // `-j`: transit has no short options (but -h, taken before parsing).
                throw Self.unknownOption(arg, spec)
            } else if arg.hasPrefix("--"), !optionsEnded {
                let parts = arg.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
                let name = String(parts[0].dropFirst(2))
                guard let option = spec.options.first(where: { $0.name == name }), option.value != nil || parts.count == 1 else {
                    throw Self.unknownOption(parts[0], spec)
                }
                if option.value == nil {
                    flags.insert(name)
                } else if option.count == 2 {
                    // `--name CARD NICKNAME` (or `--name=CARD NICKNAME`): the next words are its values,
                    // whatever they begin with (a nickname may).
                    var taken = parts.count == 2 ? [parts[1]] : []
                    while taken.count < 2 {
                        guard i + 1 < args.count else { throw TransitError(.usage, "--\(name) needs \(option.value ?? "two values")") }
                        i += 1
                        taken.append(args[i])
                    }
                    pairs[name] = (taken[0], taken[1])
                } else {
                    if parts.count == 2 {
                        values[name] = parts[1]
                    } else {
                        guard i + 1 < args.count else { throw TransitError(.usage, "--\(name) needs a value") }
                        i += 1
                        guard !args[i].hasPrefix("--") else {
                            throw TransitError(.usage, "--\(name) needs a value, not the option \(args[i]) (write --\(name)=VALUE for a value that starts with --)")
                        }
                        values[name] = args[i]
                    }
                    allValues[name, default: []].append(values[name] ?? "")
                }
            } else {
                let maximum = spec.operands.maximum
                guard operands.count < maximum else {
                    let hint = spec.options.contains { $0.name == "card" } ? " (a card file is read with --card FILE)" : ""
                    throw TransitError(.usage, "\(command) takes \(maximum == 0 ? "no" : "at most \(maximum)") operand\(maximum == 1 ? "" : "s"), not \"\(arg)\"\(hint)")
                }
                operands.append(arg)
            }
            i += 1
        }
        for option in spec.options where option.required && values[option.name] == nil {
            throw TransitError(.usage, "\(command) needs --\(option.name) \(option.value ?? "")")
        }
        switch spec.operands {
        case .one(let name, required: true) where operands.isEmpty: throw TransitError(.usage, "\(command) takes \(name) (see transit \(command) --help)")
        case .many(let name) where operands.isEmpty: throw TransitError(.usage, "\(command) takes one or more \(name)s (see transit \(command) --help)")
        default: break
        }
    }

    /// An option the command does not take, with the nearest one it does.
    static func unknownOption(_ typed: String, _ spec: CommandSpec) -> TransitError {
        let known = Array(Set(spec.options.map { "--\($0.name)" } + ["--help"])).sorted()
        return TransitError(.usage, "\(spec.name): unknown option \(typed)\(Suggestion.phrase(typed, among: known)) (see transit \(spec.name) --help)")
    }

    /// The option's value (its last, when given more than once).
    func value(_ option: OptionSpec) -> String? { values[option.name] }
    /// Every value of a repeatable option, in the order given.
    func all(_ option: OptionSpec) -> [String] { allValues[option.name] ?? [] }
    func has(_ flag: OptionSpec) -> Bool { flags.contains(flag.name) }
    /// The two values of an option that takes two.
    func pair(_ option: OptionSpec) -> (String, String)? { pairs[option.name] }
}
