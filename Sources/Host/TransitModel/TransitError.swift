/// Every way a `transit` command can fail, with the kind scripts read and the exit code they get.
/// The one error of the host: it crosses the worker's pipe and the log bundle as it is (Codable,
/// its exact kind), and only `--json` and the exit code say it the documented way (`reported`).
public struct TransitError: Error, Equatable, Codable, Sendable {
    /// The documented error kinds (README, "Errors").
    public enum Kind: String, Equatable, Codable, Sendable, CaseIterable {
        case tagNotSupported, cardRefused, communication, malformedResponse, sessionLost, cancelled
        case noReader, noCard, config, plugin, usage
        /// `transit replay`: the read asked something other than the log holds.
        case replayDiverged
        /// The card stayed silent while the reader worked; plugins may take it as "not this card".
        /// Reported to users as `communication`.
        case noAnswer
        /// Another PC/SC client reset the card; the read starts again once. Reported as `communication`.
        case cardReset
        /// The reader cannot do what the card needs: pass FeliCa frames, or open MIFARE Classic
        /// sectors (docs/readers.md); the message names the reader.
        case readerUnsupported
        /// An error `transit` has no kind for (a bug, or a system failure it did not foresee): never
        /// passed off as the card's or the reader's.
        case `internal`

        /// The code `transit` exits with (70 is sysexits' EX_SOFTWARE). What each code means is
        /// TransitCLI's `ExitStatusTable`, which lists each code's kinds from here.
        public var exitCode: Int32 {
            switch self {
            case .usage, .config: return 2
            case .noReader, .noCard: return 3
            case .tagNotSupported: return 4
            case .cardRefused, .communication, .noAnswer, .cardReset, .malformedResponse, .plugin, .readerUnsupported: return 5
            case .sessionLost: return 6
            case .replayDiverged: return 7
            case .internal: return 70
            case .cancelled: return 130
            }
        }

        /// Kinds that end the read whatever a plugin makes of them: no further plugin runs.
        package var endsEveryRead: Bool { [.sessionLost, .cancelled, .replayDiverged, .cardReset, .readerUnsupported, .internal].contains(self) }

        /// The kind printed in JSON (usage errors are configuration errors to scripts).
        package var reported: String {
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
    /// The libpcsclite return code the error came from, when it came from one (`0x80100069`).
    public var pcscCode: UInt32?
    /// The message in the person's language (`L10n.words`), when it is not `message`: what stderr
    /// shows. `message` stays English: `--json`, the log bundle and scripts read it.
    public var said: String?

    package init(_ kind: Kind, _ message: String, plugin: String? = nil, pcscCode: UInt32? = nil) {
        self.kind = kind; self.message = message; self.plugin = plugin; self.pcscCode = pcscCode
    }

    package init(_ kind: Kind, _ words: L10n.Words, plugin: String? = nil, pcscCode: UInt32? = nil) {
        self.init(kind, words.english, plugin: plugin, pcscCode: pcscCode)
        said = words.said == words.english ? nil : words.said
    }

    /// What a person reads: `said`, else `message`.
    public var text: String { said ?? message }

    /// The message in English and in the chosen language, to say inside another's `L10n.words`.
    public var words: L10n.Words { L10n.Words(english: message, said: text) }

    /// `error` itself when it is a `TransitError`, the one it stands for when it knows
    /// (`TransitErrorConvertible`: an archive's SQLite failure), else an `internal` one saying what
    /// was being done.
    package init(_ error: Error, while doing: String) {
        if let e = error as? TransitError { self = e; return }
        if let e = error as? TransitErrorConvertible { self = e.transitError; return }
        self.init(.internal, "\(doing): \(error)")
    }

    private enum CodingKeys: String, CodingKey { case kind, message, plugin, pcscCode, said }

    /// A kind this version does not know (a log from a newer one) is `internal`, its name kept in the message.
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let name = try c.decode(String.self, forKey: .kind)
        let message = try c.decode(String.self, forKey: .message)
        let known = Kind(rawValue: name)
        self.init(known ?? .internal, known == nil ? "\(message) (an error of kind \(name))" : message,
                  plugin: try c.decodeIfPresent(String.self, forKey: .plugin), pcscCode: try c.decodeIfPresent(UInt32.self, forKey: .pcscCode))
        said = try c.decodeIfPresent(String.self, forKey: .said)
    }
}

/// An error of a layer below the commands that knows which documented error it is: an archive's
/// SQLite failure is `config` (exit 2) and names its file, never `internal`.
package protocol TransitErrorConvertible: Error {
    var transitError: TransitError { get }
}
