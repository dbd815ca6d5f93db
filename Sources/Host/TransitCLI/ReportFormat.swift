import TransitModel

/// What `transit report --format` writes: the rows and totals as text or JSON, the CSV of SFCard
/// Viewer (Japanese expense and household-book tools), OFX (GnuCash, KMyMoney, HomeBank,
/// Moneydance), or a page to print.
enum ReportFormat: String, CaseIterable {
    case text, json, sfcard, ofx, html

    /// The format `--format` names (text without it); a usage error for any other word.
    static func named(_ word: String?) throws -> ReportFormat {
        guard let word else { return .text }
        guard let format = ReportFormat(rawValue: word) else {
            throw TransitError(.usage, L10n.words("--format must be one of %1$s, not \"%2$s\"", .init(allCases.map(\.rawValue).joined(separator: ", ")), .init(word)))
        }
        return format
    }
}
