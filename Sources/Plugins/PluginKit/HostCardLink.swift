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
        guard let offset = MemoryLayout<transit_host_api>.offset(of: \.max_felica_frame),
              Int(api.pointee.struct_size) >= offset + MemoryLayout<Int>.size else { return nil }
        let value = api.pointee.max_felica_frame
        return value > 0 ? value : nil
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

    func option(_ key: String) -> String? {
        guard let fn = api.pointee.option, let value = fn(api.pointee.context, key) else { return nil }
        return String(cString: value)
    }

    func log(_ message: String) {
        api.pointee.log?(api.pointee.context, TRANSIT_LOG_INFO, message)
    }

    /// Hands the result to the host's builder, field by field.
    func publish(_ result: CardResult) throws {
        let a = api.pointee, ctx = a.context
        func check(_ status: transit_status?, _ what: String) throws {
            guard status == TRANSIT_STATUS_OK else { throw PluginError.internal("host refused \(what)") }
        }
        func field(_ key: String, _ value: String?) throws {
            guard let value else { return }
            try check(a.set_field?(ctx, key, value), "field \(key)")
        }
        try field("family", result.family)
        try field("cardName", result.cardName)
        try field("serialNumber", result.serialNumber)
        try field("currency", result.currency)
        try field("validFrom", result.validFrom?.iso8601)
        try field("validUntil", result.validUntil?.iso8601)
        if let balance = result.balance { try check(a.set_balance?(ctx, balance), "balance") }
        for (key, value) in result.metadata.sorted(by: { $0.key < $1.key }) {
            try check(a.add_metadata?(ctx, key, value), "metadata \(key)")
        }
        for t in result.transactions {
            try check(a.begin_transaction?(ctx), "transaction")
            func tfield(_ key: String, _ value: String?) throws {
                guard let value else { return }
                try check(a.set_transaction_field?(ctx, key, value), "transaction field \(key)")
            }
            try tfield("type", t.type.rawValue)
            try tfield("date", t.date?.iso8601)
            try tfield("entryStation", t.entryStation)
            try tfield("exitStation", t.exitStation)
            try tfield("rawType", t.rawType)
            try tfield("rawPayload", t.rawPayload)
            try tfield("balance", t.balance.map { String($0) })
            if let amount = t.amount { try check(a.set_transaction_amount?(ctx, amount), "amount") }
            for (key, value) in t.metadata.sorted(by: { $0.key < $1.key }) {
                try check(a.add_transaction_metadata?(ctx, key, value), "transaction metadata \(key)")
            }
        }
    }
}
