import ReaderABI

/// `CardLink` over the host's function table, plus publishing a `CardResult` to its result builder.
final class HostCardLink: CardLink {
    private let api: UnsafePointer<transit_host_api>
    /// Room for the largest answer the host can hand over: an extended APDU's 65,536 bytes and SW.
    private var buffer = [UInt8](repeating: 0, count: 65_538)

    init(_ api: UnsafePointer<transit_host_api>) { self.api = api }

    var uid: [UInt8] {
        guard let p = api.pointee.uid else { return [] }
        return Array(UnsafeBufferPointer(start: p, count: api.pointee.uid_length))
    }

    var systemCodes: [UInt16]? {
        guard let p = api.pointee.system_codes, api.pointee.system_code_count > 0 else { return nil }
        return Array(UnsafeBufferPointer(start: p, count: api.pointee.system_code_count))
    }

    /// `max_felica_frame`, read only from a host whose table carries it (TRANSIT_HOST_HAS).
    var largestFeliCaFrame: Int? {
        guard carries(\.max_felica_frame) else { return nil }
        let value = api.pointee.max_felica_frame
        return value > 0 ? value : nil
    }

    /// `atr` (release 2), read only from a host whose table carries it.
    var atr: [UInt8]? {
        guard carries(\.atr_length) else { return nil }
        return bytes(api.pointee.atr, api.pointee.atr_length)
    }

    /// `historical_bytes` (release 2), or those of `ats` when the host gives only the ATS; read only
    /// from a host whose table carries them.
    var historicalBytes: [UInt8]? {
        guard carries(\.historical_bytes_length) else { return nil }
        if let historical = bytes(api.pointee.historical_bytes, api.pointee.historical_bytes_length) { return historical }
        return bytes(api.pointee.ats, api.pointee.ats_length).flatMap(HistoricalBytes.ofATS)
    }

    /// TRANSIT_HOST_HAS: true when the host's table reaches to the end of `field` (a field appended
    /// after the first release lies beyond an older host's smaller table and must not be read).
    func carries<Field>(_ field: KeyPath<transit_host_api, Field>) -> Bool {
        guard let offset = MemoryLayout<transit_host_api>.offset(of: field) else { return false }
        return Int(api.pointee.struct_size) >= offset + MemoryLayout<Field>.size
    }

    /// `count` bytes from `start`, or nil when the host gave none.
    private func bytes(_ start: UnsafePointer<UInt8>?, _ count: Int) -> [UInt8]? {
        guard let start, count > 0 else { return nil }
        return Array(UnsafeBufferPointer(start: start, count: count))
    }

    func felica(_ frame: [UInt8]) throws -> [UInt8] {
        guard let fn = api.pointee.felica_transceive else { throw PluginError.internal("host has no FeliCa transceive") }
        return try exchange(fn, frame, "FeliCa command \(Hex.string(frame.prefix(2)))")
    }

    func apdu(_ command: [UInt8]) throws -> [UInt8] {
        guard let fn = api.pointee.apdu_transceive else { throw PluginError.internal("host has no APDU transceive") }
        return try exchange(fn, command, "APDU \(Hex.string(command.prefix(4)))")
    }

    private typealias Transceive = @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<UInt8>?, Int,
                                                   UnsafeMutablePointer<UInt8>?, Int, UnsafeMutablePointer<Int>?) -> transit_status

    private func exchange(_ fn: Transceive, _ command: [UInt8], _ what: String) throws -> [UInt8] {
        var length = 0
        let capacity = buffer.count
        let status = command.withUnsafeBufferPointer { cmd in
            buffer.withUnsafeMutableBufferPointer { out in
                fn(api.pointee.context, cmd.baseAddress, cmd.count, out.baseAddress, capacity, &length)
            }
        }
        guard status == TRANSIT_STATUS_OK else { throw PluginError(hostStatus: status, during: what) }
        guard length <= capacity else { throw PluginError.internal("host reported \(length) bytes in a \(capacity)-byte buffer") }
        return Array(buffer[0 ..< length])
    }

    var technology: CardTechnology? {
        switch api.pointee.technology {
        case TRANSIT_TECHNOLOGY_FELICA: return .felica
        case TRANSIT_TECHNOLOGY_ISO7816: return .iso7816
        case TRANSIT_TECHNOLOGY_MIFARE_CLASSIC: return .mifareClassic
        case TRANSIT_TECHNOLOGY_MIFARE_ULTRALIGHT: return .mifareUltralight
        default: return nil
        }
    }

    /// `classic_sector_count` (release 5), read only from a host whose table carries it.
    var classicSectorCount: Int {
        guard carries(\.ultralight_read_pages) else { return 0 }
        return Int(api.pointee.classic_sector_count)
    }

    func classicSector(_ sector: Int) throws -> [UInt8]? {
        guard carries(\.ultralight_read_pages), let fn = api.pointee.classic_read_sector else {
            throw PluginError.internal("this host reads no MIFARE Classic sectors (ABI 1 release 5)")
        }
        guard let n = UInt32(exactly: sector) else { throw PluginError.internal("sector \(sector)") }
        var length = 0
        let capacity = buffer.count
        let status = buffer.withUnsafeMutableBufferPointer { fn(api.pointee.context, n, $0.baseAddress, capacity, &length) }
        if status == TRANSIT_STATUS_LOCKED { return nil }
        guard status == TRANSIT_STATUS_OK else { throw PluginError(hostStatus: status, during: "reading sector \(sector)") }
        guard length <= capacity else { throw PluginError.internal("host reported \(length) bytes in a \(capacity)-byte buffer") }
        return Array(buffer[0 ..< length])
    }

    func classicKeyMatches(sector: Int, salt: String, digests: [String]) throws -> Bool? {
        guard carries(\.ultralight_read_pages), let fn = api.pointee.classic_key_matches else {
            throw PluginError.internal("this host reads no MIFARE Classic sectors (ABI 1 release 5)")
        }
        guard let n = UInt32(exactly: sector) else { throw PluginError.internal("sector \(sector)") }
        let strings: [UnsafeMutablePointer<CChar>] = digests.map { digest in
            let text = Array(digest.utf8CString)
            let p = UnsafeMutablePointer<CChar>.allocate(capacity: text.count)
            p.initialize(from: text, count: text.count)
            return p
        }
        defer { strings.forEach { $0.deallocate() } }
        var matched: Int32 = 0
        let status = strings.map { Optional(UnsafePointer($0)) }.withUnsafeBufferPointer { list in
            fn(api.pointee.context, n, salt, list.baseAddress, list.count, &matched)
        }
        if status == TRANSIT_STATUS_LOCKED { return nil }
        guard status == TRANSIT_STATUS_OK else { throw PluginError(hostStatus: status, during: "checking the key of sector \(sector)") }
        return matched != 0
    }

    func ultralightPages(_ first: Int, count: Int) throws -> [UInt8] {
        guard carries(\.ultralight_read_pages), let fn = api.pointee.ultralight_read_pages else {
            throw PluginError.internal("this host reads no Ultralight pages (ABI 1 release 5)")
        }
        guard let p = UInt32(exactly: first), let c = UInt32(exactly: count) else { throw PluginError.internal("pages \(first)+\(count)") }
        var length = 0
        let capacity = buffer.count
        let status = buffer.withUnsafeMutableBufferPointer { fn(api.pointee.context, p, c, $0.baseAddress, capacity, &length) }
        guard status == TRANSIT_STATUS_OK else { throw PluginError(hostStatus: status, during: "reading pages \(first)–\(first + count - 1)") }
        guard length <= capacity else { throw PluginError.internal("host reported \(length) bytes in a \(capacity)-byte buffer") }
        return Array(buffer[0 ..< length])
    }

    func option(_ key: String) -> String? {
        guard let fn = api.pointee.option, let value = fn(api.pointee.context, key) else { return nil }
        return String(cString: value)
    }

    func log(_ message: String) {
        api.pointee.log?(api.pointee.context, TRANSIT_LOG_INFO, message)
    }

    func log(_ message: String, level: LogLevel) {
        api.pointee.log?(api.pointee.context, level.abiValue, message)
    }

    /// True when the host's table carries `begin_pass` and the pass calls after it (release 4).
    var hostTakesPasses: Bool { carries(\.add_pass_metadata) }

    /// Hands the result to the host's builder, field by field.
    func publish(_ result: CardResult) throws {
        let a = api.pointee, ctx = a.context
        func field(_ key: String, _ value: String?) throws {
            guard let value else { return }
            try check(a.set_field?(ctx, key, value), "field \(key)")
        }
        try field(TRANSIT_FIELD_FAMILY, result.family)
        try field(TRANSIT_FIELD_CARD_NAME, result.cardName)
        try field(TRANSIT_FIELD_SERIAL_NUMBER, result.serialNumber)
        try field(TRANSIT_FIELD_CURRENCY, result.currency)
        try field(TRANSIT_FIELD_VALID_FROM, result.validFrom?.plausible?.iso8601)
        try field(TRANSIT_FIELD_VALID_UNTIL, result.validUntil?.plausible?.iso8601)
        let passes = hostTakesPasses
        if let balance = result.balance {
            try check(a.set_balance?(ctx, balance), "balance")
        } else if !passes {
            // A host before release 4 refuses a reading without a balance: the card's lack of one
            // is said as 0 there, and in the log.
            log("this host predates cards without a stored value (ABI 1 release 4): balance given as 0", level: .warning)
            try check(a.set_balance?(ctx, 0), "balance")
        }
        for (key, value) in result.metadata.sorted(by: { $0.key < $1.key }) {
            try check(a.add_metadata?(ctx, key, value), "metadata \(key)")
        }
        for t in result.transactions {
            try check(a.begin_transaction?(ctx), "transaction")
            func tfield(_ key: String, _ value: String?) throws {
                guard let value else { return }
                try check(a.set_transaction_field?(ctx, key, value), "transaction field \(key)")
            }
            try tfield(TRANSIT_TX_TYPE, t.type.abiValue)
            try tfield(TRANSIT_TX_DATE, t.date?.plausible?.iso8601)
            try tfield(TRANSIT_TX_ENTRY_STATION, t.entryStation)
            try tfield(TRANSIT_TX_EXIT_STATION, t.exitStation)
            try tfield(TRANSIT_TX_RAW_TYPE, t.rawType)
            try tfield(TRANSIT_TX_RAW_PAYLOAD, t.rawPayload)
            try tfield(TRANSIT_TX_BALANCE, t.balance.map { String($0) })
            if let amount = t.amount { try check(a.set_transaction_amount?(ctx, amount), "amount") }
            for (key, value) in t.metadata.sorted(by: { $0.key < $1.key }) {
                try check(a.add_transaction_metadata?(ctx, key, value), "transaction metadata \(key)")
            }
        }
        if passes {
            try publishPasses(result.passes)
        } else if !result.passes.isEmpty {
            log("this host predates passes (ABI 1 release 4): \(result.passes.count) passes left out", level: .warning)
        }
    }

    /// A builder call the host refused is a plugin fault naming the call.
    private func check(_ status: transit_status?, _ what: String) throws {
        guard status == TRANSIT_STATUS_OK else { throw PluginError.internal("host refused \(what)") }
    }

    /// The passes through begin_pass, set_pass_field and add_pass_metadata (release 4).
    private func publishPasses(_ passes: [Pass]) throws {
        let a = api.pointee, ctx = a.context
        for p in passes {
            try check(a.begin_pass?(ctx), "pass")
            func pfield(_ key: String, _ value: String?) throws {
                guard let value else { return }
                try check(a.set_pass_field?(ctx, key, value), "pass field \(key)")
            }
            try pfield(TRANSIT_PASS_NAME, p.name)
            try pfield(TRANSIT_PASS_TARIFF, p.tariff)
            try pfield(TRANSIT_PASS_VALID_FROM, p.validFrom?.plausible?.iso8601)
            try pfield(TRANSIT_PASS_VALID_UNTIL, p.validUntil?.plausible?.iso8601)
            try pfield(TRANSIT_PASS_REMAINING_TRIPS, p.remainingTrips.map { String($0) })
            try pfield(TRANSIT_PASS_ZONES, p.zones)
            try pfield(TRANSIT_PASS_STATUS, p.status?.abiValue)
            for (key, value) in p.metadata.sorted(by: { $0.key < $1.key }) {
                try check(a.add_pass_metadata?(ctx, key, value), "pass metadata \(key)")
            }
        }
    }
}
