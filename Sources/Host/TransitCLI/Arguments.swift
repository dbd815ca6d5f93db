import TransitModel

/// A command's arguments, parsed by the project's one parser (`CommandArguments`) against the
/// command's entry in `CommandTable`.
typealias Arguments = CommandArguments

extension CommandArguments {
    /// Parses `args` (without the program name and command) against `spec`.
    init(_ args: [String], _ spec: CommandSpec) throws {
        try self.init(args, command: spec.name, options: spec.options, operands: spec.operands, helpCommand: "transit \(spec.name) --help")
    }
}
