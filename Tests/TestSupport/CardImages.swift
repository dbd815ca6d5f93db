import CardSimulation
import Foundation

/// Card images for tests: the bundled samples, edited copies, and images built from parts.
public enum CardImages {
    public static func sample(_ name: String) throws -> CardImage { try CardImage.load(BuildProducts.sample(name)) }

    /// The digest of the Podorozhnik samples' made-up sector 4 key 5A6B7C8D9E0F, by Python's hashlib:
    /// `hashlib.md5(b"podorozhnik" + bytes.fromhex("5A6B7C8D9E0F") + b"podorozhnik").hexdigest()`.
    public static let podorozhnikKeyDigest = "eb1db438b3662f3e4adede4120952d0a"

    /// A Japan IC card (system 0003) with the given 090F blocks (hex) and balance.
    public static func japanIC(history: [String], balance: Int = 0, maxBlocksPerRead: Int = 15,
                               extraSystems: [CardImage.FeliCaSystemImage] = [], locked: [String] = []) -> CardImage {
        let b = [UInt8](repeating: 0, count: 11) + [UInt8(balance & 0xFF), UInt8(balance >> 8 & 0xFF)] + [0, 0, 0]
        let slots = history + Array(repeating: String(repeating: "0", count: 32), count: max(0, 20 - history.count))
        var services = ["008B": [b.map { String(format: "%02X", $0) }.joined()], "090F": slots]
        for code in locked { services.removeValue(forKey: code) }
        return CardImage(felica: .init(idm: "0114AABBCCDDEEFF", pmm: nil, maxBlocksPerRead: maxBlocksPerRead,
                                       systems: [.init(code: "0003", services: services, lockedServices: locked)] + extraSystems))
    }

    /// An ISO card with one application and its commands.
    public static func iso(select: String, answer: String = "9000", commands: [String: String]) -> CardImage {
        CardImage(iso7816: .init(uid: "04A1A2A3", historicalBytes: nil,
                                 applications: [.init(name: nil, select: select, answer: answer, commands: commands)],
                                 commands: nil))
    }

    /// Writes an image to a temporary file for `--card`.
    public static func write(_ image: CardImage, in directory: URL, name: String = "card.json") throws -> String {
        let url = directory.appendingPathComponent(name)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(image).write(to: url)
        return url.path
    }
}
