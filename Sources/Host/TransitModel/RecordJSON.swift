/// A transaction record's JSON written by hand, byte for byte as `JSONOutput.makeEncoder()` writes
/// it (keys sorted, absent optionals left out, slashes as they are, the encoder's escapes): the
/// history and export listings write 100,000 records, and running the encoder for each cost them
/// eight times what the CSV costs. `RecordJSONTests` holds it to the encoder's own output.
package enum RecordJSON {
    /// `{"amount":…,"balance":…,"date":…,"entryStation":…,"entryStationName":…,"exitStation":…,
    /// "exitStationName":…,"metadata":{…},"rawPayload":…,"rawType":…,"type":…}`, appended to `out`.
    package static func append(_ r: CardReading.TransactionRecord, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "{"))
        var first = true
        func key(_ k: StaticString) {
            if !first { out.append(UInt8(ascii: ",")) }
            first = false
            out.append(UInt8(ascii: "\""))
            k.withUTF8Buffer { out.append(contentsOf: $0) }
            out.append(contentsOf: [UInt8(ascii: "\""), UInt8(ascii: ":")])
        }
        if let amount = r.amount { key("amount"); out.append(contentsOf: String(amount).utf8) }
        if let balance = r.balance { key("balance"); out.append(contentsOf: String(balance).utf8) }
        if let date = r.date { key("date"); string(date.description, to: &out) }
        if let s = r.entryStation { key("entryStation"); string(s, to: &out) }
        if let s = r.entryStationName { key("entryStationName"); string(s, to: &out) }
        if let s = r.exitStation { key("exitStation"); string(s, to: &out) }
        if let s = r.exitStationName { key("exitStationName"); string(s, to: &out) }
        key("metadata")
        out.append(UInt8(ascii: "{"))
        for (i, member) in r.metadata.sorted(by: { $0.key < $1.key }).enumerated() {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            string(member.key, to: &out)
            out.append(UInt8(ascii: ":"))
            string(member.value, to: &out)
        }
        out.append(UInt8(ascii: "}"))
        if let s = r.rawPayload { key("rawPayload"); string(s, to: &out) }
        if let s = r.rawType { key("rawType"); string(s, to: &out) }
        key("type")
        string(r.type.rawValue, to: &out)
        out.append(UInt8(ascii: "}"))
    }

    /// A JSON string as the encoder writes it: `"` and `\` escaped, the C0 controls as `\b \t \n
    /// \f \r` or `\u00xx` (lowercase hex), everything else as it is (DEL, C1 and format controls are escaped after,
    /// for the whole output, by `JSONOutput.escapingUnsafeScalars`).
    package static func string(_ s: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        // Most strings hold nothing to escape: appended whole, by their bytes.
        var s = s
        let plain = s.withUTF8 { bytes in
            guard !bytes.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) else { return false }
            out.append(contentsOf: bytes)
            return true
        }
        guard !plain else {
            out.append(UInt8(ascii: "\""))
            return
        }
        for byte in s.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out.append(contentsOf: [0x5C, 0x22])
            case UInt8(ascii: "\\"): out.append(contentsOf: [0x5C, 0x5C])
            case 0x08: out.append(contentsOf: [0x5C, UInt8(ascii: "b")])
            case 0x09: out.append(contentsOf: [0x5C, UInt8(ascii: "t")])
            case 0x0A: out.append(contentsOf: [0x5C, UInt8(ascii: "n")])
            case 0x0C: out.append(contentsOf: [0x5C, UInt8(ascii: "f")])
            case 0x0D: out.append(contentsOf: [0x5C, UInt8(ascii: "r")])
            case 0x00 ..< 0x20:
                let digits = Array("0123456789abcdef".utf8) // lowercase, as the encoder writes them
                out.append(contentsOf: [0x5C, UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), digits[Int(byte >> 4)], digits[Int(byte & 0xF)]])
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}
