#!/usr/bin/env python3
"""Writes the MIFARE Classic sample card images in samples/ (synthetic cards, not copies of real ones):
easycard.json, charliecard.json, bilhete-unico.json.

Every byte is laid out here from the format facts the plugins cite (Metrodroid transit/easycard,
transit/charlie, transit/bilhete_unico; Flipper charliecard.c for CharlieCard's type, validity and
passes), with made-up values, so the tests' expected values can be checked by hand against this file.
The keys in the sector trailers are MADE UP (no operator key): CharlieCard is recognised by the
salted digest of sector 0's key, so its tests give the made-up key's digest through the plugin's
`key-digests` option (printed by this script, computed with hashlib below).
"""
import datetime, hashlib, json, pathlib

OUT = pathlib.Path(__file__).resolve().parent.parent / "samples"
ACCESS = bytes([0xFF, 0x07, 0x80, 0x69])  # transport-configuration access bits

def hx(b): return bytes(b).hex().upper()

def card(uid, sectors, keys):
    """64 blocks of a 1K card: sectors = {n: [3 data blocks]}, keys = (key A, key B) made up."""
    blocks = []
    for s in range(16):
        data = sectors.get(s, [bytes(16)] * 3)
        assert len(data) == 3 and all(len(b) == 16 for b in data)
        if s == 0:  # manufacturer block: UID, BCC, SAK 08, ATQA 0004, made-up manufacturer bytes
            bcc = uid[0] ^ uid[1] ^ uid[2] ^ uid[3]
            data = [bytes(uid) + bytes([bcc, 0x08, 0x04, 0x00]) + bytes.fromhex("6263646566676869")] + data[1:]
        blocks += [hx(b) for b in data] + [hx(keys[0] + ACCESS + keys[1])]
    return {"uid": hx(uid), "type": "1K", "atqa": "0004", "sak": "08", "blocks": blocks}

def setbits(block, offset, count, value):
    """Writes `value` into `count` bits from bit `offset` of a bytearray, most significant bit first."""
    for i in range(count):
        bit = (value >> (count - 1 - i)) & 1
        byte, pos = divmod(offset + i, 8)
        block[byte] = block[byte] & ~(0x80 >> pos) | (bit << (7 - pos))

def le(v, n): return v.to_bytes(n, "little")
def be(v, n): return v.to_bytes(n, "big")

def value_block(value, address):
    v = le(value & 0xFFFFFFFF, 4)
    return v + bytes(b ^ 0xFF for b in v) + v + bytes([address, address ^ 0xFF, address, address ^ 0xFF])

def write(name, image):
    (OUT / name).write_text(json.dumps(image, indent=2) + "\n")

# --- EasyCard (Taipei) ----------------------------------------------------------------------------
# Times are Unix seconds; Taipei is UTC+8, so 2026-11-02 08:00 Taipei = 2026-11-02 00:00 UTC.
TPE = datetime.timezone(datetime.timedelta(hours=8))
def unix_taipei(*a): return int(datetime.datetime(*a, tzinfo=TPE).timestamp())

def ez_record(ts, tap_out, amount, place, machine):
    # byte 0 unknown (0), 1-4 time LE, 5 = 0x11 on a tap-out, 6-7 amount LE (NT$), 8-10 unknown (0),
    # 11 place (1 shop, 5 bus, else MRT station), 12-15 machine LE
    return bytes([0]) + le(ts, 4) + bytes([0x11 if tap_out else 0x00]) + le(amount, 2) + bytes(3) + bytes([place]) + le(machine, 4)

EZ_MAGIC = bytes.fromhex("0E140001070208030904081000000000")
easycard = card(
    bytes.fromhex("3A5C7E91"),
    {
        0: [bytes(16), EZ_MAGIC, bytes(16)],
        # balance NT$350 as a value block of block 8 (the plugin reads bytes 0-3 LE): 350 = 0x015E
        2: [value_block(350, 8), bytes(16),
            # last top-up: NT$500 at 2026-11-01 09:30:00 Taipei, station 19, machine 0x00ABCDEF
            ez_record(unix_taipei(2026, 11, 1, 9, 30), False, 500, 19, 0x00ABCDEF)],
        3: [bytes(16),
            ez_record(unix_taipei(2026, 11, 2, 8, 0), False, 0, 19, 0x11111111),   # tap-in at station 19
            ez_record(unix_taipei(2026, 11, 2, 8, 25), True, 25, 42, 0x22222222)],  # tap-out at 42, NT$25
        4: [ez_record(unix_taipei(2026, 11, 2, 18, 10), False, 15, 5, 0x33333333),  # bus, NT$15
            ez_record(unix_taipei(2026, 11, 3, 12, 0), False, 60, 1, 0x44444444),   # shop, NT$60
            ez_record(unix_taipei(2026, 11, 4, 7, 45), False, 0, 7, 0x55555555)],   # tap-in at 7, no tap-out yet
        5: [bytes(16)] * 3,  # empty slots
    },
    (bytes.fromhex("A1B2C3D4E5F6"), bytes.fromhex("B1C2D3E4F5A6")))  # made-up keys
write("easycard.json", {
    "format": "transit-card-image/1",
    "description": "Synthetic EasyCard (Taipei, MIFARE Classic 1K): balance NT$350; newest first: tap-in at "
                   "station 7 2026-11-04 07:45 (no fare yet), shop NT$60 2026-11-03 12:00, bus NT$15 2026-11-02 18:10, "
                   "station 19 -> 42 NT$25 2026-11-02 08:00-08:25 (one trip), top-up NT$500 2026-11-01 09:30 "
                   "(all UTC+8). Made-up keys.",
    "mifareClassic": easycard})

# --- CharlieCard (Boston) -------------------------------------------------------------------------
# Times: minutes since 2003-01-01T05:00Z (= 00:00 EST); end of validity in 8-minute steps.
CHARLIE_EPOCH = datetime.datetime(2003, 1, 1, 5, tzinfo=datetime.timezone.utc)
def charlie_minutes(y, mo, d, h, mi, utc_offset):
    t = datetime.datetime(y, mo, d, h, mi, tzinfo=datetime.timezone(datetime.timedelta(hours=utc_offset)))
    return int((t - CHARLIE_EPOCH).total_seconds()) // 60

def half_cents(cents, negative=False): return be((0x8000 if negative else 0) | cents * 2, 2)

def type_and_end(type_code, end_minutes):
    assert end_minutes % 8 == 0
    return be(type_code << 22 | 1 << 21 | end_minutes // 8, 4)  # 10-bit type, divider bit, 21-bit end

def charlie_slot(minutes, gate, flags, price):
    return be(minutes, 3) + be(gate << 3 | flags, 2) + price

ISSUED = charlie_minutes(2006, 2, 1, 10, 0, -5)    # 2006-02-01 10:00 EST
CARD_END = charlie_minutes(2029, 12, 31, 0, 0, -5)  # 2029-12-31 00:00 EST: a multiple of 8 minutes
def balance_sector(cents, counter):
    b0 = bytearray(16)
    b0[0] = 0x11
    b0[6:9] = be(ISSUED, 3)
    b0[9] = 0x65
    setbits(b0, 81, 16, counter)  # Metrodroid: the sector with the larger counter holds the balance
    b1 = bytearray(type_and_end(367, CARD_END) + bytes([0]) + half_cents(cents) + bytes(9))  # 367 = Adult
    return [bytes(b0), bytes(b1), bytes([0x20]) + bytes(15)]

pass_end = charlie_minutes(2026, 12, 1, 0, 0, -5)  # 2026-12-01 00:00 EST
EMPTY_PASS = bytes([0x00, 0x20, 0, 0, 0, 0])
s6 = [charlie_slot(charlie_minutes(2026, 11, 20, 8, 15, -5), 6766, 1, half_cents(240))   # EST (after Nov 1)
      + charlie_slot(charlie_minutes(2026, 7, 4, 14, 30, -4), 1234, 1, half_cents(170))  # EDT
      + bytes(2),
      charlie_slot(charlie_minutes(2026, 7, 1, 9, 0, -4), 2091, 0, half_cents(2000, negative=True))  # top-up $20
      + charlie_slot(charlie_minutes(2006, 3, 20, 12, 0, -5), 2167, 1, half_cents(125))  # EST: 2006 summer began Apr 2
      + bytes(2),
      bytes(16)]
CHARLIE_KEY_A, CHARLIE_KEY_B = bytes.fromhex("C0FFEE123456"), bytes.fromhex("BADC0DE65432")  # made up
charlie = card(
    bytes.fromhex("1A2B3C4D"),  # number 5-439041101 (0x1A2B3C4D)
    {
        1: [bytes(16), be(0x0010, 2) + bytes(14), be(0x000F, 2) + bytes(14)],  # Flipper's use counters: 3 active
        2: balance_sector(500, 0x0100),   # older copy: $5.00, counter 0x0100
        3: balance_sector(1235, 0x0101),  # current: $12.35, counter 0x0101 > 0x0100
        4: [type_and_end(138, pass_end) + be(0x0004, 2) + bytes([0]) + EMPTY_PASS + bytes(3), bytes(16), bytes(16)],
        5: [EMPTY_PASS + bytes([0]) + EMPTY_PASS + bytes(3), bytes(16), bytes(16)],
        6: s6,
        7: [bytes(16)] * 3,
        8: [be(123456, 4) + bytes(12), bytes(16), bytes(16)],  # second number A0000123456
    },
    (CHARLIE_KEY_A, CHARLIE_KEY_B))
def charlie_digest(key): return hashlib.md5(b"charlie" + key + b"charlie").hexdigest()
write("charliecard.json", {
    "format": "transit-card-image/1",
    "description": "Synthetic CharlieCard (Boston, MIFARE Classic 1K) with MADE-UP keys: give the plugin "
                   f"key-digests = {charlie_digest(CHARLIE_KEY_A)},{charlie_digest(CHARLIE_KEY_B)} "
                   "(md5 of 'charlie' + key + 'charlie'). Number 5-439041101, balance $12.35 (sector 3), Adult, "
                   "issued 2006-02-01 10:00 EST, valid until 2029-12-31 00:00 EST; 30 Day LinkPass (138) until "
                   "2026-12-01 00:00 EST; newest first: $2.40 2026-11-20 08:15 EST, $1.70 2026-07-04 14:30 EDT, "
                   "top-up $20.00 2026-07-01 09:00 EDT, $1.25 2006-03-20 12:00 EST.",
    "mifareClassic": charlie})

# --- Bilhete Único (São Paulo) --------------------------------------------------------------------
def bu_day(y, m, d): return (datetime.date(y, m, d) - datetime.date(2000, 1, 1)).days

def crc16_ibm(data):
    crc = 0
    for b in data:
        crc ^= b
        for _ in range(8): crc = (crc >> 1) ^ 0xA001 if crc & 1 else crc >> 1
    return crc

def trip_sector(transport, place, line, counter, fare, day, minute, first_day, first_minute, first_line):
    b0, b1, b2 = bytearray(16), bytearray(16), bytearray(16)
    setbits(b0, 0, 8, transport); setbits(b0, 8, 20, place); setbits(b0, 28, 20, line); setbits(b0, 48, 14, counter)
    setbits(b1, 36, 16, fare); setbits(b1, 76, 14, day); setbits(b1, 90, 11, minute)
    setbits(b2, 2, 14, first_day); setbits(b2, 16, 11, first_minute); setbits(b2, 27, 9, first_line)
    data = bytes(b0 + b1 + b2[:14])
    data += le(crc16_ibm(data), 2)  # the reflected CRC appended low byte first: CRC of all 48 bytes = 0
    assert crc16_ibm(data) == 0
    return [data[0:16], data[16:32], data[32:48]]

serial = 11 << 36 | 243123151 << 4 | 5  # printed "110 243123151": bits 36-39 = 11, bits 4-35 = 243123151
s2b0 = bytearray(16)
setbits(s2b0, 2, 14, bu_day(2015, 3, 10))  # "Date 1"
s2b0[3:8] = be(serial, 5)
s8b0 = bytearray(16)
setbits(s8b0, 2, 14, bu_day(2018, 12, 1)); setbits(s8b0, 29, 11, 2000); setbits(s8b0, 44, 14, 7)  # top-up R$20.00
bilhete = card(
    bytes.fromhex("4F3E2D1C"),
    {
        2: [bytes(s2b0), bytes(16), bytes(16)],
        # last trip: bus (B4), place 1A2B3, line 875, 42nd trip, R$4.40, 2018-12-10 18:45 (summer time, -02:00);
        # the journey's first tap 18:05 on line 45 (45 >> 5 = 2: tram)
        3: trip_sector(0xB4, 0x1A2B3, 0x875, 42, 440, bu_day(2018, 12, 10), 18 * 60 + 45,
                       bu_day(2018, 12, 10), 18 * 60 + 5, 0x45),
        # the other copy, one trip older: tram (78), place 2F1, line 3, R$3.80, 2017-06-05 07:10 (-03:00);
        # its first tap is the same moment (so no separate first tap)
        4: trip_sector(0x78, 0x2F1, 0x3, 41, 380, bu_day(2017, 6, 5), 7 * 60 + 10,
                       bu_day(2017, 6, 5), 7 * 60 + 10, 0x41),
        5: [bytes(16), value_block(0, 21), value_block(0, 21)],
        6: [bytes(16), value_block(0, 25), value_block(0, 25)],
        7: [bytes(16), value_block(0, 29), value_block(0, 29)],
        8: [bytes(s8b0), value_block(1234, 33), value_block(1234, 33)],  # balance R$12.34
    },
    (bytes.fromhex("D1E2F3A4B5C6"), bytes.fromhex("E1F2A3B4C5D6")))  # made-up keys
write("bilhete-unico.json", {
    "format": "transit-card-image/1",
    "description": "Synthetic Bilhete Único (São Paulo, MIFARE Classic 1K): number 110 243123151, balance R$12.34, "
                   "last trip bus R$4.40 2018-12-10 18:45-02:00 (first tap 18:05), top-up R$20.00 2018-12-01; "
                   "sector 4 holds an older tram trip 2017-06-05 07:10-03:00. Made-up keys.",
    "mifareClassic": bilhete})

print("charliecard key-digests:", charlie_digest(CHARLIE_KEY_A) + "," + charlie_digest(CHARLIE_KEY_B))
