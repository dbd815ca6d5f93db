import Foundation
import TransitPluginHost

/// The repository's plugins.conf, the one list of the card families in probe order (issue 48):
/// the tests' default order (`PluginRead.Plugin.defaultOrder`), the benchmark and the checks of
/// the documents that list families read it, so a new family is one line there.
public enum ShippedPlugins {
    /// A line of plugins.conf: the plugin's name, its library as the line names it, its options.
    public struct Line: Equatable, Sendable {
        public let name: String, library: String, options: [String: String]
    }

    public static let path = BuildProducts.packageRoot.appendingPathComponent("plugins.conf").path

    /// The lines, parsed by the host's own parser.
    public static let lines: [Line] = {
        do {
            let text = try String(contentsOfFile: path, encoding: .utf8)
            return try PluginConfig.parse(text, path: path).entries.map { Line(name: $0.name, library: $0.library, options: $0.options) }
        } catch {
            fatalError("the repository's plugins.conf cannot be read: \(error)")
        }
    }()

    /// The plugins' names, in probe order.
    public static var names: [String] { lines.map(\.name) }

    /// The `family` values the shipped plugins' results use: each plugin's name, and the names its
    /// FAMILY.md lists under `## Family names` (desfire's `opal`, `clipper`, `orca`, `hsl`; docs/plugins.md).
    public static let familyNames: [String] = {
        let folder = BuildProducts.packageRoot.appendingPathComponent("Sources/Plugins")
        let facts = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
            .compactMap { try? String(contentsOf: folder.appendingPathComponent("\($0)/FAMILY.md"), encoding: .utf8) }
        let listed = facts.flatMap { text -> [String] in
            guard let section = text.components(separatedBy: "\n## Family names\n").dropFirst().first?.components(separatedBy: "\n## ").first
            else { return [] }
            return section.split(separator: "`", omittingEmptySubsequences: false).enumerated().compactMap { $0.offset % 2 == 1 ? String($0.element) : nil }
        }
        var seen = Set<String>()
        return (names + listed).filter { seen.insert($0).inserted }
    }()
}
