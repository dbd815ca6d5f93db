/// The project's one hand-written argument parser: `command [--option VALUE | --flag | operand]…`.
struct Arguments {
    let command: String
    private(set) var values = [String: String]()
    /// Every value of an option given more than once (the last one is in `values`).
    private(set) var allValues = [String: [String]]()
    private(set) var flags = Set<String>()
    private(set) var operands = [String]()

    /// Parses `args` (without the program name) for a command accepting `valued` options and `flags`.
    /// `--option=value` works too. Unknown options are usage errors.
    init(_ args: [String], command: String, valued: Set<String>, flags allowed: Set<String>) throws {
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
                        values[name] = args[i]
                    }
                    allValues[name, default: []].append(values[name] ?? "")
                } else if allowed.contains(name), parts.count == 1 {
                    flags.insert(name)
                } else {
                    throw TransitError(.usage, "\(command): unknown option \(arg) (see transit \(command) --help)")
                }
            } else {
                operands.append(arg)
            }
            i += 1
        }
    }

    func value(_ name: String) -> String? { values[name] }
    func has(_ flag: String) -> Bool { flags.contains(flag) }
}
