/// The project's one hand-written argument parser: `command [--option VALUE | --flag | operand]…`.
struct Arguments {
    let command: String
    private(set) var values = [String: String]()
    /// Every value of an option given more than once (the last one is in `values`).
    private(set) var allValues = [String: [String]]()
    private(set) var flags = Set<String>()
    private(set) var operands = [String]()

    /// Parses `args` (without the program name) for a command accepting `valued` options, `flags`
    /// and `operands` operands (files) at most. `--option=value` works too. Unknown options, a stray
    /// operand and an option given as another option's value (`--reader --json`) are usage errors.
    init(_ args: [String], command: String, valued: Set<String>, flags allowed: Set<String>, operands maxOperands: Int = 0) throws {
        self.command = command
        var i = 0
        while i < args.count {
            let arg = args[i]
            if arg.hasPrefix("--") {
                let parts = arg.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
                let name = String(parts[0].dropFirst(2))
                if valued.contains(name) {
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
                } else if allowed.contains(name), parts.count == 1 {
                    flags.insert(name)
                } else {
                    throw TransitError(.usage, "\(command): unknown option \(arg) (see transit \(command) --help)")
                }
            } else {
                guard operands.count < maxOperands else {
                    let hint = valued.contains("card") ? " (a card file is read with --card FILE)" : ""
                    throw TransitError(.usage, "\(command) takes \(maxOperands == 0 ? "no" : "at most \(maxOperands)") operand\(maxOperands == 1 ? "" : "s"), not \"\(arg)\"\(hint)")
                }
                operands.append(arg)
            }
            i += 1
        }
    }

    func value(_ name: String) -> String? { values[name] }
    func has(_ flag: String) -> Bool { flags.contains(flag) }
}
