-- A history archive of schema version 1, as transit wrote it (scan --card samples/suica.json):
-- the migration tests open it with every later transit.
PRAGMA user_version = 1;
PRAGMA foreign_keys=OFF;
BEGIN TRANSACTION;
CREATE TABLE cards (
    id INTEGER PRIMARY KEY,
    family TEXT NOT NULL,
    serial TEXT NOT NULL,          -- serialNumber as printed
    idm TEXT NOT NULL DEFAULT '',  -- metadata idm (FeliCa), '' when the card has none
    name TEXT,                     -- cardName of the latest read
    currency TEXT NOT NULL,
    UNIQUE (family, serial, idm)
);
INSERT INTO cards VALUES(1,'japan-ic','012E4CD8A1B2C3D4','012E4CD8A1B2C3D4',NULL,'JPY');
CREATE TABLE reads (
    id INTEGER PRIMARY KEY,
    card INTEGER NOT NULL REFERENCES cards(id),
    read_at TEXT NOT NULL,         -- UTC, ISO 8601 with milliseconds
    command TEXT NOT NULL,         -- scan, watch, verify, decode, replay
    reader TEXT NOT NULL,
    balance INTEGER NOT NULL,
    merged INTEGER NOT NULL,       -- 1: in the card's timeline; 0: kept apart (see note)
    note TEXT,                     -- why a read was kept apart
    reading TEXT NOT NULL          -- the read as `scan --json` prints it, raw records included
);
INSERT INTO reads VALUES(1,1,'2026-11-30T01:10:40.401Z','scan','Card image',2010,1,NULL,'{"balance":2010,"currency":"JPY","family":"japan-ic","metadata":{"idm":"012E4CD8A1B2C3D4"},"serialNumber":"012E4CD8A1B2C3D4","transactions":[{"amount":160,"date":"2026-11-05","entryStation":"E33B","exitStation":"E621","metadata":{"entryRegion":"2","exitRegion":"1","sequence":"6"},"rawPayload":"160100003565E33BE621DA0700000690","rawType":"1601","type":"trip"},{"amount":120,"date":"2026-11-04T13:45:00+09:00","metadata":{"sequence":"5"},"rawPayload":"C846000035646DA012347A0800000500","rawType":"C846","type":"purchase"},{"amount":210,"date":"2026-11-03","metadata":{"busLineCode":"0A12","busStopCode":"3456","sequence":"4"},"rawPayload":"050D000035630A123456F20800000400","rawType":"050D","type":"trip"},{"amount":2000,"date":"2026-11-02","metadata":{"sequence":"3"},"rawPayload":"08020000356201010000C40900000300","rawType":"0802","type":"topup"},{"date":"2026-11-01","entryStation":"0101","exitStation":"0203","metadata":{"entryRegion":"1","exitRegion":"0","sequence":"2"},"rawPayload":"16010000356101010203F40100000240","rawType":"1601","type":"trip"}]}');
CREATE TABLE records (
    id INTEGER PRIMARY KEY,
    card INTEGER NOT NULL REFERENCES cards(id),
    position INTEGER NOT NULL,     -- order in the card's timeline, oldest first
    identity TEXT NOT NULL,        -- rawType/rawPayload (or the record's JSON without raw bytes)
    sequence INTEGER,              -- metadata sequence, when the card numbers its records
    type TEXT NOT NULL,
    amount INTEGER,
    balance INTEGER,               -- the record's balance, when the reading gives one
    date TEXT,
    entry_station TEXT,
    entry_name TEXT,
    exit_station TEXT,
    exit_name TEXT,
    record TEXT NOT NULL,          -- the transaction as the reading's JSON has it
    first_read INTEGER NOT NULL,
    last_read INTEGER NOT NULL
);
INSERT INTO records VALUES(1,1,65536,'1601/16010000356101010203F40100000240',2,'trip',NULL,NULL,'2026-11-01','0101',NULL,'0203',NULL,'{"date":"2026-11-01","entryStation":"0101","exitStation":"0203","metadata":{"entryRegion":"1","exitRegion":"0","sequence":"2"},"rawPayload":"16010000356101010203F40100000240","rawType":"1601","type":"trip"}',1,1);
INSERT INTO records VALUES(2,1,131072,'0802/08020000356201010000C40900000300',3,'topup',2000,NULL,'2026-11-02',NULL,NULL,NULL,NULL,'{"amount":2000,"date":"2026-11-02","metadata":{"sequence":"3"},"rawPayload":"08020000356201010000C40900000300","rawType":"0802","type":"topup"}',1,1);
INSERT INTO records VALUES(3,1,196608,'050D/050D000035630A123456F20800000400',4,'trip',210,NULL,'2026-11-03',NULL,NULL,NULL,NULL,'{"amount":210,"date":"2026-11-03","metadata":{"busLineCode":"0A12","busStopCode":"3456","sequence":"4"},"rawPayload":"050D000035630A123456F20800000400","rawType":"050D","type":"trip"}',1,1);
INSERT INTO records VALUES(4,1,262144,'C846/C846000035646DA012347A0800000500',5,'purchase',120,NULL,'2026-11-04T13:45:00+09:00',NULL,NULL,NULL,NULL,'{"amount":120,"date":"2026-11-04T13:45:00+09:00","metadata":{"sequence":"5"},"rawPayload":"C846000035646DA012347A0800000500","rawType":"C846","type":"purchase"}',1,1);
INSERT INTO records VALUES(5,1,327680,'1601/160100003565E33BE621DA0700000690',6,'trip',160,NULL,'2026-11-05','E33B',NULL,'E621',NULL,'{"amount":160,"date":"2026-11-05","entryStation":"E33B","exitStation":"E621","metadata":{"entryRegion":"2","exitRegion":"1","sequence":"6"},"rawPayload":"160100003565E33BE621DA0700000690","rawType":"1601","type":"trip"}',1,1);
CREATE INDEX reads_by_card ON reads (card, id);
CREATE INDEX records_by_position ON records (card, position);
CREATE INDEX records_by_sequence ON records (card, sequence) WHERE sequence IS NOT NULL;
COMMIT;
