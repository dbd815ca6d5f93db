/// Every way a `transit` command can fail, with the kind scripts read and the exit code they get.
public struct TransitError: Error, Equatable {
    /// The documented error kinds (README, "Errors").
    public enum Kind: String, Equatable {
        case tagNotSupported, cardRefused, communication, malformedResponse, sessionLost, cancelled
        case noReader, noCard, config, plugin, usage
        /// `transit replay`: the read asked something other than the log holds.
        case replayDiverged
        /// The card stayed silent while the reader worked; plugins may take it as "not this card".
        /// Reported to users as `communication`.
        case noAnswer
        /// Another PC/SC client reset the card; the read starts again once. Reported as `communication`.
        case cardReset
        /// The card is FeliCa and the reader passes no FeliCa frames (docs/readers.md).
        case readerUnsupported

        /// Exit codes: 2 usage or configuration; 3 no reader, no card or pcscd; 4 no family;
        /// 5 card refused, communication, malformed or a reader that passes no FeliCa; 6 card removed;
        /// 7 replay diverged; 130 cancelled; plugin faults 5.
        public var exitCode: Int32 {
            switch self {
            case .usage, .config: return 2
            case .noReader, .noCard: return 3
            case .tagNotSupported: return 4
            case .cardRefused, .communication, .noAnswer, .cardReset, .malformedResponse, .plugin, .readerUnsupported: return 5
            case .sessionLost: return 6
            case .replayDiverged: return 7
            case .cancelled: return 130
            }
        }

        /// Kinds that end the read whatever a plugin makes of them: no further plugin runs.
        var endsEveryRead: Bool { [.sessionLost, .cancelled, .replayDiverged, .cardReset, .readerUnsupported].contains(self) }

        /// The kind printed in JSON (usage errors are configuration errors to scripts).
        var reported: String {
            switch self {
            case .usage: return Kind.config.rawValue
            case .noAnswer, .cardReset: return Kind.communication.rawValue
            default: return rawValue
            }
        }
    }

    public let kind: Kind
    public let message: String
    /// The plugin that was reading, when one was.
    public var plugin: String?

    init(_ kind: Kind, _ message: String, plugin: String? = nil) {
        self.kind = kind; self.message = message; self.plugin = plugin
    }
}
