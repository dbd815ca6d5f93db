/// Answers APDUs from a card image: SELECT commands enter applications, then each application
/// answers its listed commands. Unknown SELECTs answer 6A82 (file not found), unknown commands
/// 6D00 (instruction not supported), as ISO 7816-4 cards do.
struct ISO7816Emulator {
    private let applications: [(select: [UInt8], answer: [UInt8], commands: [[UInt8]: [UInt8]])]
    private let global: [[UInt8]: [UInt8]]
    private var selected: Int?

    init(_ image: CardImage.ISO7816Image) throws {
        applications = try image.applications.map { app in
            (try HexText.bytes(app.select), try HexText.bytes(app.answer ?? "9000"), try Self.table(app.commands))
        }
        global = try Self.table(image.commands ?? [:])
    }

    mutating func answer(_ apdu: [UInt8]) -> [UInt8] {
        if apdu.count >= 2, apdu[0] == 0x00, apdu[1] == 0xA4 {
            guard let index = applications.firstIndex(where: { $0.select == apdu }) else { return [0x6A, 0x82] }
            let answer = applications[index].answer
            if answer.suffix(2) == [0x90, 0x00] { selected = index }
            return answer
        }
        if let selected, let a = applications[selected].commands[apdu] { return a }
        return global[apdu] ?? [0x6D, 0x00]
    }

    private static func table(_ t: [String: String]) throws -> [[UInt8]: [UInt8]] {
        var out = [[UInt8]: [UInt8]]()
        for (k, v) in t { out[try HexText.bytes(k)] = try HexText.bytes(v) }
        return out
    }
}
