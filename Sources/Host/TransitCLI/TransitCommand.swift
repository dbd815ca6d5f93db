import CardSimulation
import Dispatch
import Foundation
import TransitFiles
import TransitModel
import TransitOutput
import TransitEngine

/// `transit`: dispatches a command line and turns every failure into one line, a kind and an exit code.
struct TransitCommand {
    var standardOutput: @Sendable (String) -> Void = { Termination.shared.write($0 + "\n", to: StandardStream.output) }
    /// One line on stderr. Messages carry plugin strings, log lines, file and reader names: control
    /// characters in them are escaped (`TerminalText`), so the line stays one line.
    var standardError: @Sendable (String) -> Void = { Termination.shared.write(TerminalText.escape($0) + "\n", to: StandardStream.error) }
    /// The command's last output: a signal after it begins no longer prints a cancellation.
    var finalOutput: @Sendable (String) -> Void = { Termination.shared.write($0, to: StandardStream.output, final: true, line: true) }

    /// Runs `args` (without the program name) and returns the exit code.
    func run(_ args: [String]) -> Int32 {
        if args.first == WorkerProcess.command { return WorkerProcess.run() }
        // decode always speaks JSON lines, so its errors are JSON too.
        let json = args.contains("--json") || args.first == "decode"
        // Ctrl-C or SIGTERM in any phase: the cancellation, at once (watch ends quietly instead).
        Notices.say = { [standardError] in standardError("transit: \($0)") }
        Termination.shared.arm(exitCode: TransitError.Kind.cancelled.exitCode) {
            self.report(TransitError(.cancelled, L10n.words("cancelled")), json: json)
        }
        do {
            guard let command = args.first else {
                HelpText.main.split(separator: "\n", omittingEmptySubsequences: false).forEach { standardError(String($0)) }
                return TransitError.Kind.usage.exitCode
            }
            let rest = Array(args.dropFirst())
            switch command {
            case ManPage.command:
                // Not a user command: scripts/generate-man.sh writes transit(1)'s table sections with it.
                try ManPage.run(rest, output: standardOutput)
            case "help" where rest.count == 1:
                // `transit help scan` is `transit scan --help`, as git's and apt's help are.
                guard let spec = CommandTable.command(rest[0]) else { throw Self.unknownCommand(rest[0]) }
                standardOutput(spec.help)
            case "--help", "-h", "help": standardOutput(HelpText.main)
            case "--version": standardOutput(HelpText.version)
            default:
                guard let spec = CommandTable.command(command) else { throw Self.unknownCommand(command) }
                if rest.contains("--help") || rest.contains("-h") {
                    standardOutput(spec.help)
                    return 0
                }
                try spec.run(self, try Arguments(rest, spec))
            }
            return 0
        } catch let quiet as QuietExit {
            return quiet.code
        } catch let error as TransitError {
            report(error, json: json)
            return error.kind.exitCode
        } catch {
            let e = TransitError(error, while: "transit \(args.first ?? "")")
            report(e, json: json)
            return e.kind.exitCode
        }
    }

    /// `transit scna` or `transit --verison`: a command or an option transit does not know, with
    /// the nearest it does.
    static func unknownCommand(_ typed: String) -> TransitError {
        if typed.hasPrefix("-") {
            return TransitError(.usage, L10n.words("unknown option %1$s%2$s (see transit --help)", .init(typed),
                                                   Suggestion.words(typed, among: ["--help", "--version"])))
        }
        // TRANSLATORS: %2$s is empty or the nearest command (": did you mean scan?").
        return TransitError(.usage, L10n.words("unknown command %1$s%2$s (see transit --help)", .init(typed),
                                               Suggestion.words(typed, among: CommandTable.commands.map(\.name) + ["help"])))
    }

    func report(_ error: TransitError, json: Bool) {
        Termination.shared.disarm()
        // stderr first: the error is said even when stdout cannot take the JSON.
        standardError("transit: " + (error.plugin.map { "\($0): " } ?? "") + error.text)
        if json { finalOutput(JSONOutput.error(error)) }
    }
}
