import Foundation

extension TransitCommand {
    /// `transit watch`: waits for cards on every reader (or the named ones), reads each tap once and
    /// prints one line (or one JSON line) per card, until Ctrl-C. Readers come and go; a pcscd
    /// restart is waited out.
    func watch(_ args: [String]) throws {
        let a = try Arguments(args, command: "watch", valued: ["reader", "dialect", "config"], flags: ["json", "verbose"])
        let dialect = try Self.dialect(a.value("dialect"))
        let reader = RecordedRead(plugins: try loadPlugins(a.value("config")), log: verboseLog(a))
        let filters = a.allValues["reader"] ?? []
        let cancellation = Cancellation()
        var watcher = ReaderWatcher(filters: filters)
        let signals = SignalWatch { cancellation.cancel() }
        defer { signals.stop() }
        while !cancellation.isCancelled {
            for tap in watcher.nextTaps(cancellation: cancellation, onProblem: { standardError("transit: \($0)") }) {
                let result: Result<CardReading, TransitError>
                do {
                    let card = try tap.context.connect(tap.reader)
                    result = reader.perform(on: card, dialect: dialect, cancellation: cancellation).result
                } catch let e as TransitError {
                    result = .failure(e)
                } catch {
                    result = .failure(TransitError(.communication, "\(error)"))
                }
                if case .failure(let e) = result, e.kind == .cancelled { return }
                standardOutput(Self.watchLine(tap.reader, result, json: a.has("json")))
                fflush(stdout)
            }
        }
    }

    static func watchLine(_ reader: String, _ result: Result<CardReading, TransitError>, json: Bool) -> String {
        struct Line: Encodable { let reader: String; let card: CardReading?; let error: LogBundle.ErrorBody? }
        switch result {
        case .success(let r):
            if json { return JSONOutput.encode(Line(reader: reader, card: r, error: nil)) }
            return "\(reader): \(r.cardName.map { "\($0) " } ?? "")(\(r.family)) \(r.serialNumber) \(Money.format(r.balance, r.currency))"
        case .failure(let e):
            if json { return JSONOutput.encode(Line(reader: reader, card: nil, error: .init(e))) }
            return "\(reader): \(e.kind.reported): \(e.message)"
        }
    }
}
