/// The nearest word transit knows to a mistyped one (`scna` → `scan`, `--verison` → `--version`),
/// by the edit distance that counts a swap of two neighbours as one edit (optimal string alignment).
package enum Suggestion {
    /// The known word nearest to `typed`, when it is near enough to be what was meant: at most two
    /// edits, and fewer than half the typed word's letters. A single-letter `-j` is taken as the
    /// start of a long option (`--json`) when exactly one begins with that letter.
    package static func nearest(_ typed: String, among known: [String]) -> String? {
        let bare = typed.drop { $0 == "-" }
        if typed.hasPrefix("-"), !typed.hasPrefix("--"), bare.count == 1 {
            let starting = known.filter { $0.drop { $0 == "-" }.hasPrefix(bare) }
            return starting.count == 1 ? starting.first : nil
        }
        let scored = known.map { ($0, distance(Array(bare), Array($0.drop { $0 == "-" }))) }
        guard let best = scored.min(by: { $0.1 < $1.1 }), best.1 <= 2, best.1 * 2 < bare.count else { return nil }
        return best.0
    }

    /// `: did you mean X?` in English and in the chosen language, for an error's `L10n.words`, or
    /// nothing when no known word is near.
    package static func words(_ typed: String, among known: [String]) -> L10n.Words {
        // TRANSLATORS: after an unknown command or option: the nearest one transit knows.
        nearest(typed, among: known).map { L10n.words(": did you mean %1$s?", .init($0)) } ?? .init("")
    }

    /// Insertions, deletions, substitutions and swaps of neighbours that make `a` into `b`.
    package static func distance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0 ... a.count { table[i][0] = i }
        for j in 0 ... b.count { table[0][j] = j }
        for i in 1 ... a.count {
            for j in 1 ... b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var best = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { best = min(best, table[i - 2][j - 2] + 1) }
                table[i][j] = best
            }
        }
        return table[a.count][b.count]
    }
}
