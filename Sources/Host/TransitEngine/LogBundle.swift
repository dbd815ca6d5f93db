import Foundation
import TransitFiles
import TransitModel
import TransitTransport

/// `scan --log FILE`: everything needed to understand and replay one read. It holds the card's
/// number and history: share it as you would the card.
package struct LogBundle: Codable, Equatable {
    /// One APDU to the reader and what came back (the transport records them).
    package typealias Exchange = RecordedExchange

    package var note = "This log holds the card's number and history."
    package var tool: String
    package var abiVersion: Int
    package var reader: String
    /// The reader's line in the reader table (docs/readers.md); absent in logs of older versions.
    package var readerProfile: String?
    /// The largest command the reader's driver reported (SCARD_ATTR_MAXINPUT), when it did.
    package var maxCommand: Int?
    /// The dialect FeliCa frames travelled in at the end of the read ("none": the reader passed none).
    package var dialect: String
    /// Dialects the reader refused the pass-through in, in the order tried (absent when none).
    package var refusedDialects: [String]?
    package var atr: String
    /// UID or FeliCa IDm, from the reader's answer to FF CA.
    package var uid: String?
    /// The first AID whose SELECT succeeded.
    package var initialAID: String?
    package var plugins: [PluginOutcome]
    package var exchanges: [Exchange]
    /// Card commands sent again after a damaged answer (a USB reader's; absent for a PC/SC reader,
    /// whose driver retries unseen). `exchanges` holds each command once, as the plugin saw it.
    package var retries: Int?
    /// "read" or the error kind.
    package var outcome: String
    package var result: CardReading?
    /// The error that ended the read, with its exact kind (`outcome` has the reported one).
    package var error: TransitError?
    /// A MIFARE Classic read: how many keys it held and each key digest check's answer — never a
    /// key (its Load Keys are recorded as `FF82…XXXXXXXXXXXX`); `replay` answers from it.
    package var classicKeys: ClassicKeyRecord?

    package init(tool: String, abiVersion: Int, reader: String, readerProfile: String? = nil, maxCommand: Int? = nil, dialect: String,
                 refusedDialects: [String]? = nil, atr: String, uid: String?, initialAID: String?, plugins: [PluginOutcome],
                 exchanges: [Exchange], outcome: String, result: CardReading? = nil, error: TransitError? = nil) {
        self.tool = tool; self.abiVersion = abiVersion; self.reader = reader; self.readerProfile = readerProfile
        self.maxCommand = maxCommand; self.dialect = dialect; self.refusedDialects = refusedDialects; self.atr = atr; self.uid = uid
        self.initialAID = initialAID; self.plugins = plugins; self.exchanges = exchanges; self.outcome = outcome
        self.result = result; self.error = error
    }

    /// The dialect the read began with: the first refused one, else the one it kept.
    package var firstDialect: FeliCaDialect? { FeliCaDialect(rawValue: refusedDialects?.first ?? dialect) }

    /// A channel that answers the read's exchanges again (`transit replay`).
    package func replayChannel() throws -> ReplayChannel {
        try ReplayChannel(reader: reader, atr: atr, maxCommand: maxCommand, exchanges: exchanges)
    }

    /// Writes the bundle to `path`, 0600, never through a symlink (`PrivateFile`).
    package func write(to path: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        do {
            try PrivateFile.write(try encoder.encode(self), to: path)
        } catch {
            throw TransitError(.config, L10n.words("cannot write the log %1$s: %2$s", .init(path), L10n.Words(error: error)))
        }
    }

    /// The largest log read back. A read is at most 1,000 exchanges for each of the conf's plugins
    /// (the host's budget; eight plugins ship); one exchange in hex, a short APDU and its answer of
    /// at most 261 and 258 bytes, is about 1.1 KB of JSON: 8,000 of them are about 9 MB. The largest
    /// capture in Tests/Fixtures is 5.7 KB.
    package static let fileLimit = 16 << 20

    package static func load(_ path: String) throws -> LogBundle {
        let data: Data
        do { data = try BoundedFile.read(path, limit: fileLimit) } catch { throw TransitError(.config, L10n.Words(error: error)) }
        do {
            return try JSONDecoder().decode(LogBundle.self, from: data)
        } catch {
            // A card file given for a log (`transit replay samples/suica.json`): said as such.
            if let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
               (object["format"] as? String)?.hasPrefix("transit-card-image") == true || object["felica"] != nil || object["iso7816"] != nil {
                throw TransitError(.config, L10n.words("%1$s is a card image, not a log bundle (scan --log writes one): read it with transit scan --card %1$s",
                                                       .init(path)))
            }
            throw TransitError(.config, L10n.words("%1$s is not a transit log (scan --log writes one; README, \"Command line\"): %2$s",
                                                   .init(path), JSONShape().problem(error, in: data)))
        }
    }
}
