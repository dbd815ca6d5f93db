import CardSimulation
import Dispatch
import Foundation

/// `transit`: dispatches a command line and turns every failure into one line, a kind and an exit code.
struct TransitCommand {
    var standardOutput: (String) -> Void = { Termination.shared.write($0 + "\n", to: stdout) }
    /// One line on stderr. Messages carry plugin strings, log lines, file and reader names: control
    /// characters in them are escaped (`TerminalText`), so the line stays one line.
    var standardError: (String) -> Void = { Termination.shared.write(TerminalText.escape($0) + "\n", to: stderr) }
    /// The command's last output: a signal after it begins no longer prints a cancellation.
    var finalOutput: (String) -> Void = { Termination.shared.write($0 + "\n", to: stdout, final: true) }

    /// Runs `args` (without the program name) and returns the exit code.
    func run(_ args: [String]) -> Int32 {
        if args.first == WorkerProcess.command { return WorkerProcess.run() }
        // decode always speaks JSON lines, so its errors are JSON too.
        let json = args.contains("--json") || args.first == "decode"
        // Ctrl-C or SIGTERM in any phase: the cancellation, at once (watch ends quietly instead).
        Termination.shared.arm(exitCode: TransitError.Kind.cancelled.exitCode) {
            self.report(TransitError(.cancelled, "cancelled"), json: json)
        }
        do {
            guard let command = args.first else {
                HelpText.main.split(separator: "\n", omittingEmptySubsequences: false).forEach { standardError(String($0)) }
                return TransitError.Kind.usage.exitCode
            }
            let rest = Array(args.dropFirst())
            if rest.contains("--help") || rest.contains("-h") {
                standardOutput(help(for: command))
                return 0
            }
            switch command {
            case "--help", "-h", "help": standardOutput(HelpText.main)
            case "--version": standardOutput(HelpText.version)
            case "scan": try scan(rest)
            case "readers": try readers(rest)
            case "plugins": try plugins(rest)
            case "decode": try decode(rest)
            case "replay": try replay(rest)
            case "dump": try dump(rest)
            case "verify": try verify(rest)
            case "watch": try watch(rest)
            case "doctor": try doctor(rest)
            case "cards": try cards(rest)
            case "history": try history(rest)
            case "export": try export(rest)
            case "forget": try forget(rest)
            default: throw TransitError(.usage, "unknown command \(command) (see transit --help)")
            }
            return 0
        } catch let quiet as QuietExit {
            return quiet.code
        } catch let error as TransitError {
            report(error, json: json)
            return error.kind.exitCode
        } catch {
            report(TransitError(.communication, "\(error)"), json: json)
            return TransitError.Kind.communication.exitCode
        }
    }

    private func help(for command: String) -> String {
        switch command {
        case "scan": return HelpText.scan
        case "readers": return HelpText.readers
        case "plugins": return HelpText.plugins
        case "decode": return HelpText.decode
        case "replay": return HelpText.replay
        case "dump": return HelpText.dump
        case "verify": return HelpText.verify
        case "watch": return HelpText.watch
        case "doctor": return HelpText.doctor
        case "cards": return HelpText.cards
        case "history": return HelpText.history
        case "export": return HelpText.export
        case "forget": return HelpText.forget
        default: return HelpText.main
        }
    }

    func report(_ error: TransitError, json: Bool) {
        Termination.shared.disarm()
        // stderr first: the error is said even when stdout cannot take the JSON.
        standardError("transit: " + (error.plugin.map { "\($0): " } ?? "") + error.message)
        if json { finalOutput(JSONOutput.error(error)) }
    }
}
