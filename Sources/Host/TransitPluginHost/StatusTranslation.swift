import ReaderABI
import TransitModel

/// The one place where plugin statuses become host outcomes and host errors become statuses.
package enum StatusTranslation {
    /// What the host does after a plugin's read.
    package enum Outcome {
        case read(CardReading)
        case nextPlugin
        case failed(TransitError)
    }

    package static func outcome(of status: transit_status, _ invocation: PluginInvocation) -> Outcome {
        let name = invocation.plugin.name
        // Session loss and cancellation (and a replay's divergence) always end the read, whatever the
        // plugin made of them.
        if let t = invocation.transportError, t.kind.endsEveryRead {
            var e = t
            e.plugin = name
            return .failed(e)
        }
        if let why = invocation.budgetExceeded {
            return .failed(TransitError(.plugin, L10n.words("plugin %1$s %2$s; its read was ended", .init(name), why), plugin: name))
        }
        // A transport error the plugin passed on explains itself better than the plugin can.
        if let t = invocation.transportError, status == StatusTranslation.status(for: t) {
            return .failed(TransitError(t.kind == .noAnswer ? .communication : t.kind, t.words, plugin: name))
        }
        // "Not this card" comes only from a card's silence or its answers: after a reader or radio
        // failure it would hide a broken reader behind "no plugin recognised this card".
        if let t = invocation.transportError, t.kind != .noAnswer, status == TRANSIT_STATUS_NOT_THIS_CARD {
            return .failed(TransitError(t.kind, t.words, plugin: name))
        }
        // The plugin's last log line, as it wrote it (a plugin's free text).
        let detail = L10n.Words(invocation.logLines.last.map { ": \($0)" } ?? "")
        func fail(_ kind: TransitError.Kind, _ words: L10n.Words) -> Outcome { .failed(TransitError(kind, words, plugin: name)) }
        switch status {
        case TRANSIT_STATUS_OK:
            switch invocation.builder.finish(defaultFamily: invocation.plugin.family) {
            case .success(let reading): return .read(reading)
            case .failure(let why): return fail(.plugin, L10n.words("plugin %1$s reported success but %2$s", .init(name), why.words))
            }
        case TRANSIT_STATUS_NOT_THIS_CARD: return .nextPlugin
        case TRANSIT_STATUS_CARD_REFUSED: return fail(.cardRefused, L10n.words("the card refused %1$s's read", .init(name)) + detail)
        case TRANSIT_STATUS_COMMUNICATION: return fail(.communication, L10n.words("communication with the card failed") + detail)
        case TRANSIT_STATUS_MALFORMED_RESPONSE: return fail(.malformedResponse, L10n.words("the card's answer did not parse") + detail)
        case TRANSIT_STATUS_SESSION_LOST: return fail(.sessionLost, L10n.words("the card was removed during the read"))
        case TRANSIT_STATUS_CANCELLED: return fail(.cancelled, L10n.words("cancelled"))
        case TRANSIT_STATUS_INTERNAL: return fail(.plugin, L10n.words("plugin %1$s failed", .init(name)) + detail)
        case TRANSIT_STATUS_NO_ANSWER: return fail(.communication, L10n.words("the card did not answer") + detail)
        case TRANSIT_STATUS_LOCKED:
            let locked = invocation.session.storage?.lockedSectors ?? []
            let family = L10n.Words(invocation.plugin.family)
            let keys = L10n.words("bring the card's keys with --keys FILE (a key dictionary: one 12-digit hex key a line)")
            // TRANSLATORS: %1$s is the card's family (mifare-classic-x), %2$s the advice to bring keys.
            let said = locked.isEmpty ? L10n.words("%1$s card recognised, but sectors it needs stay locked: no key at hand opens them; %2$s", family, keys)
                : L10n.wordsn("%1$s card recognised, but sector %3$s stays locked: no key at hand opens it; %2$s",
                              "%1$s card recognised, but sectors %3$s stay locked: no key at hand opens them; %2$s",
                              locked.count, family, keys, .init(locked.map(String.init).joined(separator: ", ")))
            return fail(.cardRefused, said + detail)
        default: return fail(.plugin, L10n.words("plugin %1$s returned unknown status %2$s (a plugin fault)", .init(name), .init(String(status))))
        }
    }

    /// The status a plugin sees for a transport error.
    package static func status(for error: TransitError) -> transit_status {
        switch error.kind {
        case .sessionLost: return TRANSIT_STATUS_SESSION_LOST
        case .cancelled: return TRANSIT_STATUS_CANCELLED
        case .malformedResponse: return TRANSIT_STATUS_MALFORMED_RESPONSE
        case .cardRefused: return TRANSIT_STATUS_CARD_REFUSED
        case .noAnswer: return TRANSIT_STATUS_NO_ANSWER
        default: return TRANSIT_STATUS_COMMUNICATION
        }
    }
}
