/// Uppercase hex for the host's messages and output.
enum HexFormat {
    static func string<C: Collection>(_ bytes: C) -> String where C.Element == UInt8 {
        bytes.map { b in
            let digits = Array("0123456789ABCDEF")
            return String([digits[Int(b >> 4)], digits[Int(b & 0xF)]])
        }.joined()
    }
}
