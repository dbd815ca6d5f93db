/// One reader as `transit readers` and `doctor` show it.
struct ReaderRow: Encodable {
    let name: String
    let card: Bool
    let atr: String?
    /// What the ATR says: felica, iso14443, storage (a memory card) or unknown.
    let technology: String?
    let samInterface: Bool
    let profile: Profile

    /// The reader's line of the reader table.
    struct Profile: Encodable {
        let name: String
        let dialects: [String]
        let neverSent: [String]
        let transparentSession: Bool
        let maxCommand: Int?
        let note: String
        let source: String
        let confidence: String
        /// The line in words: the model, the dialects in order, the confidence.
        let summary: String

        init(_ p: ReaderProfile) {
            name = p.name; dialects = p.dialects.map(\.rawValue); neverSent = p.unsafe.keys.map(\.rawValue).sorted()
            transparentSession = p.transparentSession; maxCommand = p.maxCommand; note = p.note; source = p.source
            confidence = p.confidence.rawValue; summary = p.summary
        }
    }

    init(_ state: ReaderState) {
        name = state.reader
        card = state.present
        atr = state.present ? HexFormat.string(state.atr) : nil
        technology = state.present ? ATRVerdict(atr: state.atr).word : nil
        samInterface = ReaderProfile.isSAMSlot(state.reader)
        profile = Profile(.matching(state.reader))
    }
}
