import CardSimulation
import TestSupport
import TransitModel
import XCTest

/// Reading a DESFire sample through the desfire library, recording every command.
struct DESFireReading {
    let reading: CardReading
    /// The commands sent, the host's FF CA first.
    let commands: [[UInt8]]
    /// The plugin's own commands (the budget counts these).
    var counted: Int { commands.count - 1 }

    /// Native commands that change a DESFire card (DESFireCommand.cardChanging's list).
    static let cardChanging: Set<UInt8> = [0x0C, 0x1C, 0xDC, 0x3D, 0x3B, 0xEB, 0xC7, 0xA7, 0xC4, 0x54, 0x5F, 0x5C, 0xFC, 0xCA, 0xDA,
                                           0xCD, 0xCB, 0xCC, 0xC1, 0xC0, 0xDF]

    static func read(_ image: CardImage, plugins: [PluginRead.Plugin] = [.desfire], file: StaticString = #filePath, line: UInt = #line) throws -> DESFireReading {
        var commands = [[UInt8]]()
        let outcome = try PluginRead.read(image, plugins: plugins) { _, command, answer in commands.append(command); return answer }
        let r = try XCTUnwrap(outcome.reading, "\(String(describing: outcome.error))", file: file, line: line)
        XCTAssertFalse(commands.contains { $0.count >= 2 && $0[0] == 0x90 && cardChanging.contains($0[1]) }, "a card-changing command", file: file, line: line)
        return DESFireReading(reading: r, commands: commands)
    }
}
