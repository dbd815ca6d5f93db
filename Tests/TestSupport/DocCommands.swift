import Foundation

/// The commands the README and the guides (docs/*.md) tell a person to type: every line of their
/// `sh` blocks, as written, with its comment taken off.
public enum DocCommands {
    /// One command line and where it is written.
    public struct Command: CustomStringConvertible {
        public let file: String
        public let line: Int
        public let text: String
        public var description: String { "\(file):\(line): \(text)" }
        public init(file: String, line: Int, text: String) { (self.file, self.line, self.text) = (file, line, text) }
    }

    /// The README and every guide, package-relative.
    public static var documents: [String] {
        let docs = (try? FileManager.default.contentsOfDirectory(atPath: BuildProducts.packageRoot.appendingPathComponent("docs").path)) ?? []
        return ["README.md"] + docs.filter { $0.hasSuffix(".md") }.sorted().map { "docs/" + $0 }
    }

    /// A document's text ("" when it cannot be read).
    public static func text(_ document: String) -> String {
        (try? String(contentsOf: BuildProducts.packageRoot.appendingPathComponent(document), encoding: .utf8)) ?? ""
    }

    /// Every command line of the documents' `sh` blocks.
    public static func all() -> [Command] {
        documents.flatMap { document -> [Command] in
            var inShell = false, inFence = false, commands = [Command]()
            for (index, line) in text(document).components(separatedBy: "\n").enumerated() {
                if line.hasPrefix("```") {
                    inShell = !inFence && line.dropFirst(3).trimmingCharacters(in: .whitespaces) == "sh"
                    inFence.toggle()
                    continue
                }
                let command = withoutComment(line).trimmingCharacters(in: .whitespaces)
                if inShell, !command.isEmpty { commands.append(Command(file: document, line: index + 1, text: command)) }
            }
            return commands
        }
    }

    /// The line up to a `#` that starts a shell comment (outside quotes, after a blank).
    public static func withoutComment(_ line: String) -> String {
        var single = false, double = false, previous: Character = " "
        for (offset, ch) in line.enumerated() {
            if ch == "'", !double { single.toggle() }
            if ch == "\"", !single { double.toggle() }
            if ch == "#", !single, !double, previous == " " { return String(line.prefix(offset)) }
            previous = ch
        }
        return line
    }
}
