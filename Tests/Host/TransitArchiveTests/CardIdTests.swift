import Foundation
import TestSupport
import XCTest

/// A card's id (`#3`) names one card for as long as the archive lives: after `forget`, no new card
/// is given an id a forgotten card had, in a new archive and in one migrated from an older schema.
final class CardIdTests: XCTestCase {
    private var archive = ArchiveFixture()

    override func tearDown() { archive.remove() }

    private func ids() throws -> [String] {
        let run = try archive.transit(["cards", "--json"])
        XCTAssertEqual(run.status, 0, run.stderr)
        let cards = (try? JSONSerialization.jsonObject(with: Data(run.stdout.utf8))) as? [[String: Any]] ?? []
        return cards.compactMap { $0["id"] as? String }
    }

    func testAForgottenCardsIdIsNeverGivenToAnotherCard() throws {
        for name in ["suica", "ezlink", "tmoney"] { XCTAssertEqual(try archive.scan(BuildProducts.sample("\(name).json")).status, 0) }
        XCTAssertEqual(try ids(), ["#1", "#2", "#3"])
        XCTAssertEqual(try archive.transit(["forget", "#3", "--yes"]).status, 0)
        XCTAssertEqual(try archive.scan(BuildProducts.sample("edy.json")).status, 0)
        XCTAssertEqual(try ids(), ["#1", "#2", "#4"], "the new card is #4: #3 named the forgotten T-Money")
        // A remembered `forget '#3' --yes` now finds nothing rather than the Edy card.
        let again = try archive.transit(["forget", "#3", "--yes"])
        XCTAssertEqual(again.status, 2)
        XCTAssertEqual(try ids(), ["#1", "#2", "#4"])
        // The same after forgetting every card: the ids go on from the highest ever given.
        for id in ["#1", "#2", "#4"] { XCTAssertEqual(try archive.transit(["forget", id, "--yes"]).status, 0) }
        XCTAssertEqual(try archive.scan(BuildProducts.sample("waon.json")).status, 0)
        XCTAssertEqual(try ids(), ["#5"])
    }

    func testAnArchiveOfSchemaFourKeepsItsIdsAndNeverReusesTheHighest() throws {
        // A schema-4 archive (as transit wrote it before ids were kept) holding cards #1 and #7.
        for name in ["suica", "ezlink"] { XCTAssertEqual(try archive.scan(BuildProducts.sample("\(name).json")).status, 0) }
        let schema4 = """
        PRAGMA foreign_keys = OFF;
        CREATE TABLE cards4 AS SELECT * FROM cards;
        UPDATE reads SET card = 7 WHERE card = 2;
        UPDATE records SET card = 7 WHERE card = 2;
        DROP TABLE cards;
        CREATE TABLE cards (id INTEGER PRIMARY KEY, family TEXT NOT NULL, serial TEXT NOT NULL,
            idm TEXT NOT NULL DEFAULT '', name TEXT, currency TEXT NOT NULL, nickname TEXT, UNIQUE (family, serial, idm));
        CREATE UNIQUE INDEX cards_by_nickname ON cards (nickname) WHERE nickname IS NOT NULL;
        INSERT INTO cards SELECT CASE id WHEN 2 THEN 7 ELSE id END, family, serial, idm, name, currency, nickname FROM cards4;
        DROP TABLE cards4;
        DROP TABLE passes; -- schema 6's, which a schema-4 archive never had
        PRAGMA user_version = 4;
        """
        // Schema 4 kept no high-water mark: what a newer transit keeps of one is emptied too.
        let script = "import sqlite3,sys\nc=sqlite3.connect(sys.argv[1])\nc.executescript(sys.argv[2])\n"
            + "try:\n c.execute('DELETE FROM sqlite_sequence'); c.commit()\nexcept sqlite3.OperationalError: pass\nc.close()"
        let made = try CommandRun.run("/usr/bin/python3", ["-c", script, archive.database, schema4])
        XCTAssertEqual(made.status, 0, made.stderr)
        XCTAssertEqual(try ids(), ["#1", "#7"], "the migration keeps the ids the cards had")
        XCTAssertEqual(try archive.transit(["forget", "#7", "--yes"]).status, 0)
        XCTAssertEqual(try archive.scan(BuildProducts.sample("tmoney.json")).status, 0)
        XCTAssertEqual(try ids(), ["#1", "#8"], "#7 stays the forgotten card's")
        XCTAssertEqual((try archive.history("#1").first?["transactions"] as? [Any])?.count, 5, "the Suica's timeline is kept")
    }
}
