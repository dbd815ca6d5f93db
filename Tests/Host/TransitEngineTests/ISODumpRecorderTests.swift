import XCTest
import CardProtocol
import TransitModel
import TransitFiles
import TransitEngine
import TransitStations
import TransitArchive
import TransitOutput

final class ISODumpRecorderTests: XCTestCase {
    func exchange(_ command: String, _ response: String) -> LogBundle.Exchange {
        .init(command: command, response: response, error: nil, ms: 0)
    }

    func testGetResponseChainsFoldIntoTheCommandsAnswer() {
        let select = "00A4040007D410000003000100"
        let bundle = LogBundle(tool: "t", abiVersion: 1, reader: "r", dialect: "part3", atr: "3B8580018073C821100E", uid: nil,
                               initialAID: nil, plugins: [], exchanges: [
                                   exchange("00A40000024000", "6A82"),
                                   exchange(select, "6104"), exchange("00C0000004", "6F02B0009000"),
                                   exchange("904C000004", "000027109000"),
                               ], outcome: "read", result: nil, error: nil)
        let image = ISODumpRecorder.image(from: bundle)
        let apps = image.iso7816?.applications ?? []
        XCTAssertEqual(apps.map(\.select), ["00A40000024000", select])
        XCTAssertEqual(apps[0].answer, "6A82", "a refused SELECT keeps its status word")
        XCTAssertEqual(apps[1].answer, "6F02B0009000", "the SELECT answers with what GET RESPONSE fetched")
        XCTAssertEqual(apps[1].commands, ["904C000004": "000027109000"], "GET RESPONSE is not a command of its own")
        XCTAssertEqual(image.iso7816?.historicalBytes, "8073C82110")
    }
}
