import TransitModel

/// The bash, zsh and fish completions of `transit`, written from `CommandTable`: every command,
/// its options and what each option's value is (`OptionValue`: files, a dialect, a command).
/// `transit completions SHELL` prints one; packaging/completions holds their output
/// (ManAndCompletionTests checks the files equal it).
enum CompletionScript {
    enum Shell: String, CaseIterable {
        case bash, zsh, fish
    }

    static func script(_ shell: Shell, commands: [CommandSpec] = CommandTable.commands) -> String {
        switch shell {
        case .bash: return bash(commands)
        case .zsh: return zsh(commands)
        case .fish: return fish(commands)
        }
    }

    private static let generated = "# Written by `transit completions %@` from transit's command table: do not edit by hand."

    private static func note(_ shell: Shell) -> String { generated.replacingOccurrences(of: "%@", with: shell.rawValue) }

    /// The words an operand offers: files for FILE and LOG, the words of `a|b|c`, else none.
    private enum OperandValues {
        case files, words([String]), none
        init(_ operands: CommandSpec.Operands) {
            switch operands {
            case .none: self = .none
            case .one(let name, _), .many(let name):
                if name == "FILE" || name == "LOG" { self = .files }
                else if name.contains("|") { self = .words(name.split(separator: "|").map(String.init)) }
                else { self = .none }
            }
        }
    }

    // MARK: bash

    private static func bash(_ commands: [CommandSpec]) -> String {
        // Each way of completing a value, with the command:option pairs that complete it so.
        var actions = [(action: String, patterns: [String])]()
        func add(_ action: String, _ pattern: String) {
            if let i = actions.firstIndex(where: { $0.action == action }) { actions[i].patterns.append(pattern) }
            else { actions.append((action, [pattern])) }
        }
        for command in commands {
            for option in command.options where option.value != nil {
                let pattern = "\(command.name):\(option.flag)"
                switch option.type {
                case .file: add("_transit_files \"$2\"", pattern)
                case .command: add("COMPREPLY=($(compgen -c -- \"$2\" | sort -u))", pattern)
                case .choice(let words, _): add("COMPREPLY=($(compgen -W \"\(words.joined(separator: " "))\" -- \"$2\"))", pattern)
                default: add("", pattern)
                }
            }
        }
        let options = commands.map { command in
            "        \(command.name)) echo \"\((command.options.map(\.flag) + ["--help"]).joined(separator: " "))\" ;;"
        }
        let values = actions.map { entry in
            "        \(entry.patterns.joined(separator: " | ")))\n            \(entry.action.isEmpty ? ":" : entry.action) ;;"
        }
        var operands = [String]()
        for command in commands {
            switch OperandValues(command.operands) {
            case .files: operands.append("        \(command.name)) _transit_files \"$cur\" ;;")
            case .words(let words): operands.append("        \(command.name)) COMPREPLY=($(compgen -W \"\(words.joined(separator: " "))\" -- \"$cur\")) ;;")
            case .none: break
            }
        }
        return """
        # bash completion for transit(1)                                    -*- shell-script -*-
        # Installed as share/bash-completion/completions/transit; works without bash-completion too.
        \(note(.bash))

        _transit_commands="\(commands.map(\.name).joined(separator: " "))"

        # The options each command takes (transit COMMAND --help).
        _transit_options() {
            case $1 in
        \(options.joined(separator: "\n"))
            esac
        }

        # Files (and folders to reach them), one a line, for the word $1.
        _transit_files() {
            compopt -o filenames 2>/dev/null
            local IFS=$'\\n'
            COMPREPLY=($(compgen -f -- "$1"))
        }

        # The values of option $1 of the command for the word $2; fails when $1 takes no value.
        # A name, seconds, a date or an amount: nothing to offer.
        _transit_values() {
            case ${COMP_WORDS[1]}:$1 in
        \(values.joined(separator: "\n"))
                *) return 1 ;;
            esac
            return 0
        }

        _transit() {
            local cur prev command prefix=""
            COMPREPLY=()
            cur=${COMP_WORDS[COMP_CWORD]}
            prev=""
            ((COMP_CWORD > 0)) && prev=${COMP_WORDS[COMP_CWORD - 1]}

            # --option=value: bash splits at "=" (COMP_WORDBREAKS), giving "--option" "=" "value".
            if [[ $cur == "=" && $prev == --* ]]; then
                cur=""
            elif [[ $prev == "=" ]] && ((COMP_CWORD > 1)); then
                prev=${COMP_WORDS[COMP_CWORD - 2]}
            elif [[ $cur == --*=* ]]; then
                # "=" not in COMP_WORDBREAKS: complete the value and keep "--option=" in front of it.
                prev=${cur%%=*}
                prefix=$prev=
                cur=${cur#*=}
            fi
            ((COMP_CWORD > 1)) && _transit_values "$prev" "$cur" && { [[ -n $prefix ]] && COMPREPLY=("${COMPREPLY[@]/#/$prefix}"); return 0; }

            if ((COMP_CWORD <= 1)); then
                COMPREPLY=($(compgen -W "$_transit_commands --help --version" -- "$cur"))
                return 0
            fi
            command=${COMP_WORDS[1]}

            local options
            options=$(_transit_options "$command")
            [[ -z $options ]] && return 0
            if [[ $cur == -* ]]; then
                COMPREPLY=($(compgen -W "$options" -- "$cur"))
                return 0
            fi
            # The operands; a card (history, export, report, forget) is a number or nickname: nothing to offer.
            case $command in
        \(operands.joined(separator: "\n"))
            esac
            return 0
        }

        complete -F _transit transit
        """
    }

    // MARK: zsh

    /// `text` in single quotes for a shell (zsh and bash: `'\''` for a quote).
    private static func quoted(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'" }

    /// One `_arguments` spec of `option`: `--name=[summary]:value:action`.
    private static func zshSpec(_ option: OptionSpec) -> String {
        let summary = option.summary.replacingOccurrences(of: "[", with: "(").replacingOccurrences(of: "]", with: ")")
        let head = (option.repeatable ? "*" : "") + option.flag
        guard let value = option.value else { return quoted("\(head)[\(summary)]") }
        var message = value.lowercased()
        if case .choice(_, let what) = option.type { message = what }
        let action: String
        switch option.type {
        case .file: action = "_files"
        case .command: action = "_command_names -e"
        case .choice(let words, _): action = "(\(words.joined(separator: " ")))"
        default: action = " "
        }
        if option.count == 2 {
            let parts = value.split(separator: " ").map { $0.lowercased() }
            return quoted("\(head)[\(summary)]" + parts.map { ":\($0): " }.joined())
        }
        return quoted("\(head)=[\(summary)]:\(message):\(action)")
    }

    private static func zsh(_ commands: [CommandSpec]) -> String {
        let described = commands.map { "    " + quoted("\($0.name):\($0.summary)") }
        let cases = commands.map { command -> String in
            var specs = ["'(- *)--help[show the help of the command]'"] + command.options.map(zshSpec)
            switch (command.operands, OperandValues(command.operands)) {
            case (.many(let name), .files): specs.append(quoted("*:\(name.lowercased()):_files"))
            case (.one(let name, let required), let values):
                let action: String
                switch values {
                case .files: action = "_files"
                case .words(let words): action = "(\(words.joined(separator: " ")))"
                case .none: action = " "
                }
                specs.append(quoted("1\(required ? "" : ":"):\(name.lowercased().replacingOccurrences(of: "|", with: " or ")):\(action)"))
            default: break
            }
            return "        \(command.name))\n          _arguments " + specs.joined(separator: " \\\n            ") + " && ret=0\n          ;;"
        }
        return """
        #compdef transit
        # zsh completion for transit(1). Installed as share/zsh/site-functions/_transit (Debian:
        # share/zsh/vendor-completions/_transit).
        \(note(.zsh))

        _transit() {
          local curcontext=$curcontext state line ret=1
          typeset -A opt_args

          local -a commands=(
        \(described.joined(separator: "\n"))
          )

          _arguments -C \\
            '(- *)--help[show the usage and the exit codes]' \\
            '(- *)--version[show the version]' \\
            '1: :->command' \\
            '*:: :->args' && ret=0

          case $state in
            command)
              _describe -t commands 'transit command' commands && ret=0
              ;;
            args)
              curcontext=${curcontext%:*:*}:transit-$words[1]:
              case $words[1] in
        \(cases.joined(separator: "\n"))
              esac
              ;;
          esac
          return ret
        }

        _transit "$@"
        """
    }

    // MARK: fish

    /// `text` in fish's single quotes (`\'` for a quote, `\\` for a backslash).
    private static func fishQuoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'") + "'"
    }

    /// A description as fish writes them, capitalised (but a file's name: plugins.conf).
    private static func capitalised(_ text: String) -> String {
        text.split(separator: " ").first?.contains(".") == true ? text : text.prefix(1).uppercased() + text.dropFirst()
    }

    private static func fish(_ commands: [CommandSpec]) -> String {
        let offered = commands.map {
            "complete -c transit -n \"not __fish_seen_subcommand_from $commands\" -a \($0.name) -d \(fishQuoted(capitalised($0.summary)))"
        }
        // One line an option as several commands take it (the same name, summary and value).
        var lines = [(option: OptionSpec, commands: [String])]()
        for command in commands {
            for option in command.options {
                if let i = lines.firstIndex(where: { $0.option.name == option.name && $0.option.summary == option.summary && $0.option.type == option.type }) {
                    lines[i].commands.append(command.name)
                } else {
                    lines.append((option, [command.name]))
                }
            }
        }
        let options = lines.map { line -> String in
            let value: String
            switch (line.option.value, line.option.type) {
            case (nil, _): value = ""
            case (_, .file): value = " -r -F"
            case (_, .command): value = " -x -a '(__fish_complete_command)'"
            case (_, .choice(let words, _)): value = " -x -a \(fishQuoted(words.joined(separator: " ")))"
            default: value = " -x"
            }
            return "complete -c transit -n '__transit_command_is \(line.commands.joined(separator: " "))' -l \(line.option.name)\(value)"
                + " -d \(fishQuoted(capitalised(line.option.summary)))"
        }
        var operands = [String]()
        let files = commands.filter { if case .files = OperandValues($0.operands) { return true } else { return false } }.map(\.name)
        if !files.isEmpty { operands.append("complete -c transit -n '__transit_command_is \(files.joined(separator: " "))' -F") }
        for command in commands {
            if case .words(let words) = OperandValues(command.operands) {
                operands.append("complete -c transit -n '__transit_command_is \(command.name)' -a \(fishQuoted(words.joined(separator: " ")))")
            }
        }
        return """
        # fish completion for transit(1). Installed as share/fish/vendor_completions.d/transit.fish.
        \(note(.fish))

        set -l commands \(commands.map(\.name).joined(separator: " "))

        # Does the command line name COMMAND (one of $argv) as transit's command?
        function __transit_command_is
            set -l words (commandline -opc)
            test (count $words) -ge 2; and contains -- $words[2] $argv
        end

        complete -c transit -f

        # The command (first word only) and the global options.
        \(offered.joined(separator: "\n"))
        complete -c transit -n "not __fish_seen_subcommand_from $commands" -l version -d 'Show the version'
        complete -c transit -l help -d 'Show the help'

        # Options, by the commands that take them.
        \(options.joined(separator: "\n"))

        # Operands: files, a shell's name; a card (history, export, report, forget) is a number or
        # nickname (transit cards), nothing to offer.
        \(operands.joined(separator: "\n"))
        """
    }
}

extension TransitCommand {
    /// `transit completions bash|zsh|fish`: the shell's completion script on stdout.
    func completions(_ a: Arguments) throws {
        let word = a.operands.first ?? ""
        guard let shell = CompletionScript.Shell(rawValue: word) else {
            throw TransitError(.usage, L10n.words("completions takes bash, zsh or fish, not \"%1$s\"", .init(word)))
        }
        finalOutput(CompletionScript.script(shell))
    }
}
