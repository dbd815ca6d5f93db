import Foundation

/// What the host and its plugin worker tell each other, as JSON inside `WorkerLink` messages.
enum WorkerMessages {
    /// A plugin of the read: its conf entry and the library path the host resolved.
    struct Plugin: Codable, Equatable {
        let name: String
        let library: String
        let options: [String: String]
        let line: Int
        /// The conf file the entry came from (for errors naming file and line).
        let file: String

        init(_ entry: PluginConfig.Entry, path: String) {
            name = entry.name; library = path; options = entry.options; line = entry.line; file = entry.file
        }

        var entry: PluginConfig.Entry { PluginConfig.Entry(name: name, library: library, options: options, line: line, file: file) }
    }

    /// Host → worker: read the card behind the link with these plugins.
    struct Start: Codable {
        let plugins: [Plugin]
        let reader: String
        let atr: [UInt8]
        /// The largest command the reader's driver reported, when it did.
        let maxCommand: Int?
        let forcedDialect: String?
        let firstGuess: String?
        let maxExchanges: Int
        let maxSeconds: Double
    }

    /// An error as it crosses the pipe, with its exact kind.
    struct Failure: Codable {
        let kind: String
        let message: String
        let plugin: String?

        init(_ e: TransitError) { kind = e.kind.rawValue; message = e.message; plugin = e.plugin }

        var error: TransitError {
            TransitError(TransitError.Kind(rawValue: kind) ?? .plugin, message, plugin: plugin)
        }
    }

    /// Worker → host: how the read ended.
    struct Done: Codable {
        let reading: CardReading?
        let failure: Failure?
        let dialect: String
        let refusedDialects: [String]
    }
}

extension WorkerMessages {
    static func decode<T: Decodable>(_ type: T.Type, _ payload: [UInt8]) -> T? {
        try? JSONDecoder().decode(type, from: Data(payload))
    }
}
