import CardSimulation
import Foundation

/// `scan --log FILE`: everything needed to understand and replay one read. It holds the card's
/// number and history: share it as you would the card.
struct LogBundle: Codable, Equatable {
    /// One APDU to the reader and what came back (or the transport error instead).
    struct Exchange: Codable, Equatable {
        var command: String
        var response: String?
        var error: ErrorBody?
        /// Milliseconds the exchange took.
        var ms: Double
    }

    struct ErrorBody: Codable, Equatable {
        var kind: String
        var message: String
        var plugin: String?
    }

    /// A plugin the read asked, and what it said: read, notThisCard, skipped, or the error kind.
    struct PluginOutcome: Codable, Equatable {
        var name: String
        var outcome: String
    }

    var note = "This log holds the card's number and history."
    var tool: String
    var abiVersion: Int
    var reader: String
    /// The reader's line in the reader table (docs/readers.md); absent in logs of older versions.
    var readerProfile: String?
    /// The largest command the reader's driver reported (SCARD_ATTR_MAXINPUT), when it did.
    var maxCommand: Int?
    /// The dialect FeliCa frames travelled in at the end of the read ("none": the reader passed none).
    var dialect: String
    /// Dialects the reader refused the pass-through in, in the order tried (absent when none).
    var refusedDialects: [String]?
    var atr: String
    /// UID or FeliCa IDm, from the reader's answer to FF CA.
    var uid: String?
    /// The first AID whose SELECT succeeded.
    var initialAID: String?
    var plugins: [PluginOutcome]
    var exchanges: [Exchange]
    /// "read" or the error kind.
    var outcome: String
    var result: CardReading?
    var error: ErrorBody?

    /// The dialect the read began with: the first refused one, else the one it kept.
    var firstDialect: FeliCaDialect? { FeliCaDialect(rawValue: refusedDialects?.first ?? dialect) }

    /// Writes the bundle to `path`, 0600, never through a symlink (`PrivateFile`).
    func write(to path: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        do {
            try PrivateFile.write(try encoder.encode(self), to: path)
        } catch {
            throw TransitError(.config, "cannot write the log \(path): \(error)")
        }
    }

    /// The largest log read back. A read is at most 1,000 exchanges for each of the conf's plugins
    /// (the host's budget; eight plugins ship); one exchange in hex, a short APDU and its answer of
    /// at most 261 and 258 bytes, is about 1.1 KB of JSON: 8,000 of them are about 9 MB. The largest
    /// capture in Tests/Fixtures is 5.7 KB.
    static let fileLimit = 16 << 20

    static func load(_ path: String) throws -> LogBundle {
        let data: Data
        do { data = try BoundedFile.read(path, limit: fileLimit) } catch { throw TransitError(.config, "\(error)") }
        do {
            return try JSONDecoder().decode(LogBundle.self, from: data)
        } catch {
            throw TransitError(.config, "\(path) is not a transit log: \(error)")
        }
    }
}

extension LogBundle.ErrorBody {
    init(_ e: TransitError) { self.init(kind: e.kind.reported, message: e.message, plugin: e.plugin) }
}
