import Foundation
import TransitModel
import TransitTransport
import TransitEngine

/// What a long wait says while it lasts — on a terminal only (stderr), so piped output stays
/// silent: one line, rewritten in place, with what it waits for and the seconds left
/// ("transit: waiting up to 10 s for a card on ACS ACR122U 00 00… 7 s left; Ctrl-C stops").
package final class WaitSpeaker {
    private let seconds: Double
    private let deadline: Deadline
    private let speaks: Bool
    private var shown = ""

    package init(seconds: Double, deadline: Deadline, terminal: Bool = isatty(2) != 0) {
        self.seconds = seconds; self.deadline = deadline
        speaks = terminal && seconds > 0
    }

    /// Says what the wait is for now (`what`: in the chosen language, "for a card on …"); rewritten
    /// only when the words or the whole seconds change.
    package func say(_ what: String) {
        guard speaks else { return }
        let left = Int(deadline.secondsLeft.rounded(.up))
        // TRANSLATORS: %1$s is how long ("10 s"), %2$s what for ("for a card on ACS ACR122U 00 00"), %3$s the seconds left.
        let line = "transit: " + L10n.tr("waiting up to %1$s %2$s… %3$s s left; Ctrl-C stops", ReadLimits.secondsWords(seconds).said, TerminalText.escape(what), String(left))
        guard line != shown else { return }
        shown = line
        Termination.shared.write("\r" + line + "\u{1B}[K", to: StandardStream.error)
    }

    /// Clears the line once the wait is over.
    package func done() {
        guard !shown.isEmpty else { return }
        shown = ""
        Termination.shared.write("\r\u{1B}[K", to: StandardStream.error)
    }
}
