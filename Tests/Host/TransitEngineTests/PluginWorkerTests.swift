import CardSimulation
import TestSupport
import XCTest
import CardProtocol
import TransitModel
import TransitFiles
import TransitTransport
import TransitPluginHost
import TransitEngine
import TransitStations
import TransitArchive
import TransitOutput

/// The host's side of the plugin worker, driven with in-memory channels.
final class PluginWorkerTests: XCTestCase {
    /// Passes exchanges to a card image; the exchange numbered `resetAt` (0-based) fails once as a
    /// reset by another PC/SC client would.
    final class ResettingChannel: ReaderChannel {
        let inner: EmulatedChannel
        var resetAt: Int?
        private(set) var count = 0
        init(_ inner: EmulatedChannel, resetAt: Int) { self.inner = inner; self.resetAt = resetAt }
        var readerName: String { inner.readerName }
        var atr: [UInt8] { inner.atr }
        func transmit(_ apdu: [UInt8], by deadline: Deadline) throws(TransitError) -> [UInt8] {
            defer { count += 1 }
            if count == resetAt {
                resetAt = nil
                throw TransitError(.cardReset, "another application reset the card during the read")
            }
            return try inner.transmit(apdu, by: deadline)
        }
    }

    private func engine() throws -> ReadEngine {
        let plugins = [WorkerMessages.Plugin(PluginConfig.Entry(name: "japan-ic", library: "", options: [:], line: 1),
                                             path: BuildProducts.plugin("TransitJapanIC"))]
        return ReadEngine(runner: PluginWorker(plugins: plugins, executable: BuildProducts.transit), dialects: DialectMemory())
    }

    func testACardResetByAnotherClientIsReadAgainOnce() throws {
        let channel = ResettingChannel(try EmulatedChannel(image: try CardImages.sample("suica.json")), resetAt: 2)
        let outcome = try engine().read(channel)
        XCTAssertEqual(try outcome.result.get().balance, 2010)
        XCTAssertEqual(channel.count, 3 + 5, "three exchanges, the reset, then the whole read again")
        XCTAssertEqual(outcome.bundle.exchanges.count, 5, "the log holds the read that succeeded")
    }

    func testASecondResetEndsTheReadAsCommunication() throws {
        let channel = ResettingAlways(try EmulatedChannel(image: try CardImages.sample("suica.json")))
        let outcome = try engine().read(channel)
        guard case .failure(let e) = outcome.result else { return XCTFail("read despite two resets") }
        XCTAssertEqual(e.kind.reported, "communication")
        XCTAssertEqual(e.kind.exitCode, 5)
        XCTAssertEqual(channel.reads, 2, "read again once, not more")
    }

    /// Every read through it (each begins with the UID, FF CA) meets a reset at its next exchange.
    final class ResettingAlways: ReaderChannel {
        let inner: ReaderChannel
        private(set) var reads = 0
        private var afterUID = false
        init(_ inner: ReaderChannel) { self.inner = inner }
        var readerName: String { inner.readerName }
        var atr: [UInt8] { inner.atr }
        func transmit(_ apdu: [UInt8], by deadline: Deadline) throws(TransitError) -> [UInt8] {
            if apdu.starts(with: [0xFF, 0xCA]) { reads += 1; afterUID = true; return try inner.transmit(apdu, by: deadline) }
            if afterUID { afterUID = false; throw TransitError(.cardReset, "another application reset the card during the read") }
            return try inner.transmit(apdu, by: deadline)
        }
    }
}
