import Foundation
import ReaderABI
import TransitModel
import TransitTransport

/// One call of a plugin's read function: the host table it gets, the exchanges it makes, what it
/// logs and builds. The C callbacks below find this object through the table's context pointer.
package final class PluginInvocation {
    package let plugin: LoadedPlugin
    package let session: CardSession
    package let builder = ResultBuilder()
    /// A transport error the plugin saw as a status; session loss and cancellation win over
    /// whatever the plugin then returns.
    package private(set) var transportError: TransitError?
    package private(set) var logLines = [String]()
    private let logSink: (String) -> Void

    /// Limits of one plugin's read; past them every transceive fails and the read ends as a plugin fault.
    package let limits: ReadLimits
    /// The read's deadline: past it every transceive fails.
    package let deadline: Deadline
    private var exchanges = 0
    /// Set when the plugin went past its budget.
    package private(set) var budgetExceeded: L10n.Words?

    package init(plugin: LoadedPlugin, session: CardSession, limits: ReadLimits, deadline: Deadline, log: @escaping (String) -> Void) {
        self.plugin = plugin; self.session = session; self.limits = limits; self.deadline = deadline; logSink = log
    }

    /// Calls the plugin's read with a fresh table. `uid` and `systemCodes` are what the host learned.
    /// The table's context is a token valid only during this call and on this thread; afterwards the
    /// table (never freed, so a pointer a plugin kept stays readable) holds no card data, and every
    /// call through it is refused.
    package func run(uid: [UInt8], systemCodes: [UInt16]?) -> transit_status {
        guard let read = plugin.descriptor?.pointee.read else { return TRANSIT_STATUS_INTERNAL }
        let technology = LoadedPlugin.bit(session.technology ?? .iso7816)
        let largestFrame = session.technology == .felica ? session.largestFeliCaFrame ?? 0 : 0
        let codes = systemCodes ?? []
        let atr = session.channel.atr
        let historical = ATR.historicalBytes(atr) ?? []
        let token = InvocationRegistry.register(self)
        let table = UnsafeMutablePointer<transit_host_api>.allocate(capacity: 1)
        defer {
            InvocationRegistry.retire(token)
            table.pointee.uid = nil
            table.pointee.uid_length = 0
            table.pointee.system_codes = nil
            table.pointee.system_code_count = 0
            table.pointee.atr = nil
            table.pointee.atr_length = 0
            table.pointee.historical_bytes = nil
            table.pointee.historical_bytes_length = 0
        }
        return withExtendedLifetime(self) {
            uid.withUnsafeBufferPointer { uidBuffer in
                codes.withUnsafeBufferPointer { codeBuffer in
                  atr.withUnsafeBufferPointer { atrBuffer in
                    historical.withUnsafeBufferPointer { historicalBuffer in
                    table.initialize(to: transit_host_api(
                        struct_size: UInt32(MemoryLayout<transit_host_api>.size),
                        abi_version: UInt32(TRANSIT_ABI_VERSION),
                        context: UnsafeMutableRawPointer(bitPattern: token),
                        technology: technology,
                        uid: uidBuffer.baseAddress, uid_length: uidBuffer.count,
                        system_codes: systemCodes == nil ? nil : codeBuffer.baseAddress, system_code_count: codes.count,
                        felica_transceive: hostFeliCaTransceive, apdu_transceive: hostAPDUTransceive,
                        log: hostLog, option: hostOption,
                        set_field: hostSetField, set_balance: hostSetBalance, add_metadata: hostAddMetadata,
                        begin_transaction: hostBeginTransaction, set_transaction_field: hostSetTransactionField,
                        set_transaction_amount: hostSetTransactionAmount,
                        add_transaction_metadata: hostAddTransactionMetadata,
                        atr: atrBuffer.baseAddress, atr_length: atrBuffer.count,
                        // The ATS is not asked for (it would cost every ISO card an exchange).
                        ats: nil, ats_length: 0,
                        historical_bytes: historical.isEmpty ? nil : historicalBuffer.baseAddress,
                        historical_bytes_length: historical.count,
                        max_felica_frame: largestFrame,
                        begin_pass: hostBeginPass, set_pass_field: hostSetPassField, add_pass_metadata: hostAddPassMetadata,
                        classic_sector_count: UInt32(session.technology == .mifareClassic ? session.storage?.sectorCount ?? 0 : 0),
                        classic_read_sector: hostClassicReadSector, classic_key_matches: hostClassicKeyMatches,
                        ultralight_read_pages: hostUltralightReadPages))
                    return read(table)
                    }
                  }
                }
            }
        }
    }

    fileprivate func transceive(_ felica: Bool, _ command: [UInt8], _ out: UnsafeMutablePointer<UInt8>?, _ capacity: Int,
                                _ length: UnsafeMutablePointer<Int>?) -> transit_status {
        if let transportError, transportError.kind.endsEveryRead {
            return StatusTranslation.status(for: transportError)
        }
        // Read-only by construction (issue 42): a MIFARE Classic or Ultralight card takes no APDU or
        // frame of a plugin's, so no write, increment, decrement, restore or transfer can reach it in
        // any pass-through form; the host sends only the reads StorageCardReader builds.
        if session.technology == .mifareClassic || session.technology == .mifareUltralight {
            log("a MIFARE Classic or Ultralight card takes no \(felica ? "FeliCa frame" : "APDU") from a plugin: read it with classic_read_sector or ultralight_read_pages")
            return TRANSIT_STATUS_INTERNAL
        }
        guard spendExchange() else { return TRANSIT_STATUS_COMMUNICATION }
        do {
            let answer = felica ? try session.felica(command) : try session.apdu(command)
            guard answer.count <= capacity, let out else {
                length?.pointee = answer.count // the size the plugin's buffer would need
                return TRANSIT_STATUS_BUFFER_TOO_SMALL
            }
            for (i, byte) in answer.enumerated() { out[i] = byte }
            length?.pointee = answer.count
            return TRANSIT_STATUS_OK
        } catch {
            let error = TransitError(error, while: "exchanging with the card")
            transportError = error
            log("transport: \(error.message)")
            return StatusTranslation.status(for: error)
        }
    }

    /// Counts one exchange of the plugin's budget; false once the plugin went past its exchanges or
    /// the read's deadline (`budgetExceeded` says which), when nothing more is sent.
    private func spendExchange() -> Bool {
        exchanges += 1
        if budgetExceeded == nil {
            if exchanges > limits.maxExchanges {
                budgetExceeded = L10n.words("went past its budget of %1$s exchanges", .init(String(limits.maxExchanges)))
            } else if deadline.hasPassed {
                budgetExceeded = L10n.words("went past its budget of %1$s seconds", .init("\(limits.readTimeout)"))
            }
        }
        return budgetExceeded == nil
    }

    /// One storage call (a sector, a key check, pages): counted as one exchange of the plugin's
    /// budget (it may cost several APDUs, each recorded in the log bundle), its transport errors
    /// kept as a transceive's are.
    fileprivate func storage<T>(_ what: String, _ call: (StorageCardReader) throws -> T) -> StorageCall<T> {
        if let transportError, transportError.kind.endsEveryRead { return .failure(StatusTranslation.status(for: transportError)) }
        guard let reader = session.storage else {
            log("\(what): this card is no MIFARE Classic or Ultralight")
            return .failure(TRANSIT_STATUS_INTERNAL)
        }
        guard spendExchange() else { return .failure(TRANSIT_STATUS_COMMUNICATION) }
        do {
            return .success(try call(reader))
        } catch {
            let error = TransitError(error, while: what)
            transportError = error
            log("transport: \(error.message)")
            return .failure(StatusTranslation.status(for: error))
        }
    }

    fileprivate func log(_ line: String) {
        logLines.append(line)
        logSink("\(plugin.name): \(line)")
    }

    /// A line the plugin logged at `level` (TRANSIT_LOG_*), labelled with it unless INFO (another
    /// value counts as INFO). `PluginLogLevel.warningLabel` lines are said without --verbose too.
    fileprivate func log(level: Int32, _ line: String) {
        switch level {
        case TRANSIT_LOG_DEBUG: log(PluginLogLevel.debugLabel + line)
        case TRANSIT_LOG_WARNING: log(PluginLogLevel.warningLabel + line)
        default: log(line)
        }
    }

    fileprivate func option(_ key: String) -> UnsafePointer<CChar>? {
        guard let value = plugin.entry.options[key] else { return nil }
        return OptionStrings.cString(plugin: plugin.name, key: key, value: value)
    }
}

/// How a plugin's log line carries its level (TRANSIT_LOG_*) in the host's log: `<plugin>: warning: …`.
package enum PluginLogLevel {
    package static let debugLabel = "debug: ", warningLabel = "warning: "

    /// True for a host log line that carries a plugin's warning.
    package static func isWarning(_ logLine: String, plugins: [String]) -> Bool {
        plugins.contains { logLine.hasPrefix("\($0): \(warningLabel)") }
    }
}

// MARK: - The C side of the host table

private func invocation(_ context: UnsafeMutableRawPointer?) -> PluginInvocation? {
    InvocationRegistry.live(UInt(bitPattern: context))
}

private func bytes(_ p: UnsafePointer<UInt8>?, _ n: Int) -> [UInt8] {
    guard let p, n > 0 else { return [] }
    return Array(UnsafeBufferPointer(start: p, count: n))
}

private func string(_ p: UnsafePointer<CChar>?) -> String? { p.map { String(cString: $0) } }

private func ok(_ accepted: Bool) -> transit_status { accepted ? TRANSIT_STATUS_OK : TRANSIT_STATUS_INTERNAL }

private let hostFeliCaTransceive: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<UInt8>?, Int, UnsafeMutablePointer<UInt8>?, Int, UnsafeMutablePointer<Int>?) -> transit_status = { ctx, cmd, n, out, cap, len in
    invocation(ctx)?.transceive(true, bytes(cmd, n), out, cap, len) ?? TRANSIT_STATUS_INTERNAL
}

private let hostAPDUTransceive: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<UInt8>?, Int, UnsafeMutablePointer<UInt8>?, Int, UnsafeMutablePointer<Int>?) -> transit_status = { ctx, cmd, n, out, cap, len in
    invocation(ctx)?.transceive(false, bytes(cmd, n), out, cap, len) ?? TRANSIT_STATUS_INTERNAL
}

/// A storage call's value, or the status the plugin gets instead.
fileprivate enum StorageCall<T> {
    case success(T)
    case failure(transit_status)
}

private func copy(_ data: [UInt8], _ out: UnsafeMutablePointer<UInt8>?, _ capacity: Int, _ length: UnsafeMutablePointer<Int>?) -> transit_status {
    length?.pointee = data.count
    guard data.count <= capacity, let out else { return TRANSIT_STATUS_BUFFER_TOO_SMALL }
    for (i, byte) in data.enumerated() { out[i] = byte }
    return TRANSIT_STATUS_OK
}

private let hostClassicReadSector: @convention(c) (UnsafeMutableRawPointer?, UInt32, UnsafeMutablePointer<UInt8>?, Int, UnsafeMutablePointer<Int>?) -> transit_status = { ctx, sector, out, cap, len in
    guard let i = invocation(ctx) else { return TRANSIT_STATUS_INTERNAL }
    switch i.storage("reading sector \(sector)", { try $0.sector(Int(sector)) }) {
    case .success(let data?): return copy(data, out, cap, len)
    case .success(nil): len?.pointee = 0; return TRANSIT_STATUS_LOCKED
    case .failure(let status): return status
    }
}

private let hostClassicKeyMatches: @convention(c) (UnsafeMutableRawPointer?, UInt32, UnsafePointer<CChar>?, UnsafePointer<UnsafePointer<CChar>?>?, Int, UnsafeMutablePointer<Int32>?) -> transit_status = { ctx, sector, salt, digests, count, matched in
    guard let i = invocation(ctx), let salt = string(salt), count >= 0, count <= 1024, count == 0 || digests != nil else { return TRANSIT_STATUS_INTERNAL }
    let list = (0 ..< count).compactMap { n in digests.flatMap { string($0[n]) } }
    switch i.storage("checking the key of sector \(sector)", { try $0.keyMatches(sector: Int(sector), salt: salt, digests: list) }) {
    case .success(let match?): matched?.pointee = match ? 1 : 0; return TRANSIT_STATUS_OK
    case .success(nil): matched?.pointee = 0; return TRANSIT_STATUS_LOCKED
    case .failure(let status): return status
    }
}

private let hostUltralightReadPages: @convention(c) (UnsafeMutableRawPointer?, UInt32, UInt32, UnsafeMutablePointer<UInt8>?, Int, UnsafeMutablePointer<Int>?) -> transit_status = { ctx, first, count, out, cap, len in
    guard let i = invocation(ctx) else { return TRANSIT_STATUS_INTERNAL }
    switch i.storage("reading pages from \(first)", { try $0.pages(Int(first), count: Int(count)) }) {
    case .success(let data): return copy(data, out, cap, len)
    case .failure(let status): return status
    }
}

private let hostLog: @convention(c) (UnsafeMutableRawPointer?, Int32, UnsafePointer<CChar>?) -> Void = { ctx, level, message in
    invocation(ctx)?.log(level: level, string(message) ?? "")
}

private let hostOption: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?) -> UnsafePointer<CChar>? = { ctx, key in
    guard let key = string(key) else { return nil }
    return invocation(ctx)?.option(key)
}

private let hostSetField: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?, UnsafePointer<CChar>?) -> transit_status = { ctx, key, value in
    guard let i = invocation(ctx), let key = string(key), let value = string(value) else { return TRANSIT_STATUS_INTERNAL }
    return ok(i.builder.setField(key, value))
}

private let hostSetBalance: @convention(c) (UnsafeMutableRawPointer?, Int64) -> transit_status = { ctx, value in
    guard let i = invocation(ctx) else { return TRANSIT_STATUS_INTERNAL }
    i.builder.setBalance(value)
    return TRANSIT_STATUS_OK
}

private let hostAddMetadata: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?, UnsafePointer<CChar>?) -> transit_status = { ctx, key, value in
    guard let i = invocation(ctx), let key = string(key), let value = string(value) else { return TRANSIT_STATUS_INTERNAL }
    i.builder.addMetadata(key, value)
    return TRANSIT_STATUS_OK
}

private let hostBeginTransaction: @convention(c) (UnsafeMutableRawPointer?) -> transit_status = { ctx in
    guard let i = invocation(ctx) else { return TRANSIT_STATUS_INTERNAL }
    i.builder.beginTransaction()
    return TRANSIT_STATUS_OK
}

private let hostSetTransactionField: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?, UnsafePointer<CChar>?) -> transit_status = { ctx, key, value in
    guard let i = invocation(ctx), let key = string(key), let value = string(value) else { return TRANSIT_STATUS_INTERNAL }
    return ok(i.builder.setTransactionField(key, value))
}

private let hostSetTransactionAmount: @convention(c) (UnsafeMutableRawPointer?, UInt64) -> transit_status = { ctx, value in
    guard let i = invocation(ctx) else { return TRANSIT_STATUS_INTERNAL }
    return ok(i.builder.setTransactionAmount(value))
}

private let hostAddTransactionMetadata: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?, UnsafePointer<CChar>?) -> transit_status = { ctx, key, value in
    guard let i = invocation(ctx), let key = string(key), let value = string(value) else { return TRANSIT_STATUS_INTERNAL }
    return ok(i.builder.addTransactionMetadata(key, value))
}

private let hostBeginPass: @convention(c) (UnsafeMutableRawPointer?) -> transit_status = { ctx in
    guard let i = invocation(ctx) else { return TRANSIT_STATUS_INTERNAL }
    i.builder.beginPass()
    return TRANSIT_STATUS_OK
}

private let hostSetPassField: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?, UnsafePointer<CChar>?) -> transit_status = { ctx, key, value in
    guard let i = invocation(ctx), let key = string(key), let value = string(value) else { return TRANSIT_STATUS_INTERNAL }
    return ok(i.builder.setPassField(key, value))
}

private let hostAddPassMetadata: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?, UnsafePointer<CChar>?) -> transit_status = { ctx, key, value in
    guard let i = invocation(ctx), let key = string(key), let value = string(value) else { return TRANSIT_STATUS_INTERNAL }
    return ok(i.builder.addPassMetadata(key, value))
}
