import Foundation

/// ANSI colour for the text output, or none: only on a terminal, and never when `NO_COLOR` is set
/// to anything but the empty string (no-color.org). Piped text is plain.
package struct Paint {
    package let on: Bool

    package func bold(_ s: String) -> String { on ? "\u{1B}[1m\(s)\u{1B}[0m" : s }
    package func green(_ s: String) -> String { on ? "\u{1B}[32m\(s)\u{1B}[0m" : s }

    /// Colour for stdout: a terminal and no `NO_COLOR`.
    package static func wanted(environment: [String: String] = ProcessInfo.processInfo.environment) -> Bool {
        isatty(1) != 0 && (environment["NO_COLOR"] ?? "").isEmpty
    }
}
