import CardSimulation
import TestSupport
import XCTest
import TransitModel
import TransitTransport
import TransitPluginHost
import TransitEngine

/// A read has one deadline, `--read-timeout` from its start: every exchange is given it, and a
/// read again after another client reset the card ends by it too (issue 38, "One clock").
final class ReadDeadlineTests: XCTestCase {
    /// A card image behind a reader on a test clock: exchange `resetAt` takes `resetTakes` seconds
    /// and fails as a reset by another PC/SC client; every exchange after it hangs until the
    /// deadline it was given, as a reader that stopped answering.
    final class SlowResetChannel: ReaderChannel {
        let inner: EmulatedChannel
        let clock: TestClock
        let resetAt: Int
        let resetTakes: Double
        private(set) var deadlines = [Deadline]()
        init(_ inner: EmulatedChannel, clock: TestClock, resetAt: Int, resetTakes: Double) {
            self.inner = inner; self.clock = clock; self.resetAt = resetAt; self.resetTakes = resetTakes
        }
        var readerName: String { inner.readerName }
        var atr: [UInt8] { inner.atr }
        func transmit(_ apdu: [UInt8], by deadline: Deadline) throws(TransitError) -> [UInt8] {
            deadlines.append(deadline)
            if deadlines.count - 1 == resetAt {
                clock.advance(by: resetTakes)
                throw TransitError(.cardReset, "another application reset the card during the read")
            }
            if deadlines.count - 1 > resetAt {
                clock.sleep(until: deadline)
                throw TransitError(.communication, "the reader stopped answering")
            }
            return try inner.transmit(apdu, by: deadline)
        }
    }

    func testAReadAgainAfterAResetEndsByTheReadsOneDeadline() throws {
        let plugins = [WorkerMessages.Plugin(PluginConfig.Entry(name: "japan-ic", library: "", options: [:], line: 1),
                                             path: BuildProducts.plugin("TransitJapanIC"))]
        var limits = ReadLimits()
        limits.readTimeout = 4
        let clock = TestClock()
        let engine = ReadEngine(runner: PluginWorker(plugins: plugins, executable: BuildProducts.transit), limits: limits,
                                dialects: DialectMemory(), clock: clock)
        let channel = SlowResetChannel(try EmulatedChannel(image: try CardImages.sample("suica.json")), clock: clock,
                                       resetAt: 2, resetTakes: 3)
        let start = clock.now
        let outcome = engine.read(channel)
        guard case .failure(let e) = outcome.result else { return XCTFail("read a card whose reader stopped answering") }
        XCTAssertEqual(e.kind.reported, "communication")
        XCTAssertGreaterThan(channel.deadlines.count, 3, "the card was read again after the reset")
        // 3 s went to the reset; the read again had what was left of the 4, not 4 more.
        XCTAssertEqual(clock.seconds(since: start), 4, accuracy: 0.001)
        XCTAssertEqual(channel.deadlines, Array(repeating: Deadline(4, after: start), count: channel.deadlines.count),
                       "every exchange, before and after the reset, was given the read's one deadline")
    }
}
