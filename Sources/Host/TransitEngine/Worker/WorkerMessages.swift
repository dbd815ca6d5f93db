import Foundation
import TransitModel
import TransitPluginHost

/// What the host and its plugin worker tell each other, as JSON inside `WorkerLink` messages.
package enum WorkerMessages {
    /// A plugin of the read: its conf entry and the library path the host resolved.
    package struct Plugin: Codable, Equatable {
        package let name: String
        package let library: String
        package let options: [String: String]
        package let line: Int
        /// The conf file the entry came from (for errors naming file and line).
        package let file: String
        /// Every place the library was looked for (PluginConfig.places), for the error when it is in none.
        package let searched: [String]?

        package init(_ entry: PluginConfig.Entry, path: String, searched: [String]? = nil) {
            name = entry.name; library = path; options = entry.options; line = entry.line; file = entry.file
            self.searched = searched
        }

        package var entry: PluginConfig.Entry { PluginConfig.Entry(name: name, library: library, options: options, line: line, file: file) }
    }

    /// Host → worker: read the card behind the link with these plugins.
    package struct Start: Codable {
        package let plugins: [Plugin]
        package let reader: String
        package let atr: [UInt8]
        /// The largest command the reader's driver reported, when it did.
        package let maxCommand: Int?
        package let request: ProbeRequest
    }
}

extension WorkerMessages {
    package static func decode<T: Decodable>(_ type: T.Type, _ payload: [UInt8]) -> T? {
        try? JSONDecoder().decode(type, from: Data(payload))
    }
}
