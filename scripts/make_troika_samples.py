#!/usr/bin/env python3
"""Writes the sample images of Troika (Moscow) and Podorozhnik (St Petersburg) cards in samples/.

Synthetic cards of our own: every field is laid out here from the published layouts (Metrodroid
transit/troika/*.kt and transit/podorozhnik/*.kt, Flipper plantain.c for offsets: facts only),
independently of the Swift decoders, so the tests' expected values can be checked by hand here.
The sector trailers hold keys MADE UP for these samples (no operator key appears anywhere); the
tests name the cards' key digests, computed below with hashlib, through the plugins' `key-digests`
option. Moscow and St Petersburg keep UTC+3 all year (since 2014).
"""
import datetime, hashlib, json, pathlib

OUT = pathlib.Path(__file__).resolve().parent.parent / "samples"

def hx(b): return bytes(b).hex().upper()
def le(v, n): return list(v.to_bytes(n, "little"))

def put_bits(buf, offset, width, value):
    """Writes `value` into bits offset..offset+width-1 (MSB first) of the byte list `buf`."""
    assert 0 <= value < 1 << width, (offset, width, value)
    for i in range(width):
        bit = value >> (width - 1 - i) & 1
        byte, shift = (offset + i) // 8, 7 - (offset + i) % 8
        buf[byte] = buf[byte] & ~(1 << shift) | bit << shift

def digest(salt, key):
    """Metrodroid HashUtils.checkKeyHash: lowercase hex MD5 of salt ‖ key ‖ salt."""
    return hashlib.md5(salt.encode() + bytes.fromhex(key) + salt.encode()).hexdigest()

ACCESS = [0xFF, 0x07, 0x80, 0x69]               # transport configuration access bits
OTHER_KEY = "A1B2C3D4E5F6"                        # made up: every sector the tests do not name
def trailer(key): return bytes.fromhex(key) + bytes(ACCESS) + bytes.fromhex(key)   # key A = key B

def classic(uid, kind, sectors, keys):
    """A Classic image: `sectors` maps a sector to its data blocks (16 bytes each, trailer excluded)."""
    count = {"1K": 16, "4K": 40}[kind]
    uid_b = bytes.fromhex(uid)
    if len(uid_b) == 4:
        bcc = uid_b[0] ^ uid_b[1] ^ uid_b[2] ^ uid_b[3]
        block0 = list(uid_b) + [bcc, 0x08 if kind == "1K" else 0x18, 0x04 if kind == "1K" else 0x02, 0x00] + [0x62, 0x63, 0x64, 0x65, 0x66, 0x67, 0x68, 0x69]
    else:
        block0 = list(uid_b) + [0x08 if kind == "1K" else 0x18, 0x44 if kind == "1K" else 0x42, 0x00] + [0x11, 0x22, 0x33, 0x44, 0x55, 0x66]
    blocks = []
    for s in range(count):
        n = 4 if s < 32 else 16
        data = sectors.get(s, [[0] * 16 for _ in range(n - 1)])
        assert len(data) == n - 1 and all(len(b) == 16 for b in data), s
        if s == 0: data = [block0] + data[1:]
        blocks += [hx(b) for b in data] + [hx(trailer(keys.get(s, OTHER_KEY)))]
    return {"uid": uid, "type": kind, "blocks": blocks}

def troika_header(ticket_type, serial, layout, sub):
    """48 bytes: bits 0-3 (4: with a 0x5D.. ticket type they make the mark 0x117, with 0x20.. 0x108),
    ticket type 4-19, printed number 20-51, layout 52-55, layout E's sub-layout 56-60."""
    buf = [0] * 48
    put_bits(buf, 0, 4, 4); put_bits(buf, 4, 16, ticket_type); put_bits(buf, 20, 32, serial)
    put_bits(buf, 52, 4, layout)
    if sub is not None: put_bits(buf, 56, 5, sub)
    return buf

def days_since(year, d): return (d - datetime.date(year, 1, 1)).days + 1          # day 1 = 1 January
def minutes_since_day0(year, t):                                                  # day 0: 31 December before
    return int((t - datetime.datetime(year - 1, 12, 31)).total_seconds()) // 60
def blocks_of(buf): return [buf[i:i + 16] for i in range(0, len(buf), 16)]

samples = {}

# --- Troika E/3 (sector 8) -------------------------------------------------------------------------------
# Expected: number "1234 567 890", balance 123.45 RUB, valid until 2030-12-31; validation at
# 2026-11-20 08:15 MSK on validator 1234 and its transfer 25 minutes later (08:40); transport codes
# leading 1, long 01 11 00 00 (metro, then MCC): the newest (08:40) MCC, the earlier (08:15) metro;
# fare 2 = "90 minutes". Sector 1 key 4A2B3C4D5E6F (made up), digest printed below.
e3 = troika_header(0x5DB1, 1234567890, 0xE, 3)
put_bits(e3, 61, 16, days_since(1992, datetime.date(2030, 12, 31)))               # 14245
put_bits(e3, 128, 16, 1234)
put_bits(e3, 144, 23, minutes_since_day0(2016, datetime.datetime(2026, 11, 20, 8, 15)))  # from 2015-12-31 00:00
put_bits(e3, 171, 7, 25)
put_bits(e3, 178, 2, 1); put_bits(e3, 180, 8, 0b01110000)
put_bits(e3, 188, 22, 12345)
put_bits(e3, 210, 2, 2)
TROIKA_S1_KEY = "4A2B3C4D5E6F"
samples["troika-e3.json"] = {
    "format": "transit-card-image/1",
    "description": "Synthetic Troika (Classic 1K), purse E/3 in sector 8: 123.45 RUB, validations 2026-11-20 08:15 and 08:40 Moscow",
    "mifareClassic": classic("5A1B2C3D", "1K", {8: blocks_of(e3)}, {1: TROIKA_S1_KEY})}

# --- Troika E/5 (sector 8) -------------------------------------------------------------------------------
# Expected: number "3000 000 001" (above 2^31), balance 500.00 RUB, valid until 2031-06-30;
# last top-up 2026-11-18 19:05 (no amount on the card), top-up count 7, trips on the purse 15;
# validation 2026-11-20 18:30 with transfers 12 and 40 minutes later: 19:10 (validator 4321), 18:42,
# 18:30 (E/5 stores no transport). Ticket type 0x2220 (made up) gives the mark 0x108.
e5 = troika_header(0x2220, 3000000001, 0xE, 5)
put_bits(e5, 61, 13, days_since(2019, datetime.date(2031, 6, 30)))                # 4564
put_bits(e5, 84, 23, minutes_since_day0(2019, datetime.datetime(2026, 11, 18, 19, 5)))
put_bits(e5, 107, 10, 7)
put_bits(e5, 128, 23, minutes_since_day0(2019, datetime.datetime(2026, 11, 20, 18, 30)))
put_bits(e5, 151, 7, 12); put_bits(e5, 158, 7, 40)
put_bits(e5, 167, 19, 50000)
put_bits(e5, 186, 16, 4321)
put_bits(e5, 216, 7, 15)
samples["troika-e5.json"] = {
    "format": "transit-card-image/1",
    "description": "Synthetic Troika (Classic 1K), purse E/5 in sector 8: 500.00 RUB, top-up 2026-11-18, validation 2026-11-20 18:30",
    "mifareClassic": classic("6B2C3D4E", "1K", {8: blocks_of(e5)}, {1: TROIKA_S1_KEY})}

# --- Troika Ultralight, layout E/2 (pages 4-15) ---------------------------------------------------------
# Expected: number "0987 654 321"; pass "20 rides" (ticket type 0x5DA0), from 2026-11-01, length
# 90 days (129600 minutes) so until 2026-11-01 00:00 + 129599 min = 2027-01-29 23:59, shown as the
# date 2027-01-29; 17 trips left; one validation 2026-11-20 07:45 (minute 27825 of the validity,
# stored as 129600 - 27825 = 101775 minutes before its end), metro, validator 2222.
ul = troika_header(0x5DA0, 987654321, 0xE, 2)
start = days_since(1992, datetime.date(2026, 11, 1))                               # 12724
put_bits(ul, 71, 16, days_since(1992, datetime.date(2027, 12, 31)))
put_bits(ul, 97, 16, start)
put_bits(ul, 131, 20, 90 * 1440)
put_bits(ul, 163, 2, 1)
put_bits(ul, 167, 10, 17)
put_bits(ul, 177, 16, 2222)
put_bits(ul, 196, 20, 90 * 1440 - (19 * 1440 + 7 * 60 + 45))
ul_uid = bytes.fromhex("04A1B2C3D4E5F6")
bcc0 = 0x88 ^ ul_uid[0] ^ ul_uid[1] ^ ul_uid[2]; bcc1 = ul_uid[3] ^ ul_uid[4] ^ ul_uid[5] ^ ul_uid[6]
head = list(ul_uid[:3]) + [bcc0] + list(ul_uid[3:]) + [bcc1, 0x48, 0x00, 0x00] + [0x00, 0x00, 0x00, 0x00]
samples["troika-ul.json"] = {
    "format": "transit-card-image/1",
    "description": "Synthetic Troika Ultralight ticket, layout E/2: 20 rides, 17 left, valid 2026-11-01 to 2027-01-29",
    "mifareUltralight": {"uid": ul_uid.hex().upper(), "type": "Ultralight",
                         "pages": [hx(head[i:i + 4]) for i in range(0, 16, 4)] + [hx(ul[i:i + 4]) for i in range(0, 48, 4)]}}

# --- Troika Ultralight, layout A (pages 4-15) ----------------------------------------------------------
# Layout A counts its start in 9 bits of days from 2016-01-01 (day 1), so it can only name days up
# to mid-2017: an old ticket. Expected: number "0000 123 456"; pass "2 rides" (0x5D9C) from
# 2017-03-01 (day 426), 5 days = 7200 minutes, so until 2017-03-05 23:59, shown as 2017-03-05;
# 1 trip left; validation minute 2010 of the start day = 2017-03-02 09:30, leading transport code
# 2 (ground transport), validator 777.
ula = troika_header(0x5D9C, 123456, 0xA, None)
put_bits(ula, 67, 9, days_since(2016, datetime.date(2017, 3, 1)))                 # 426
put_bits(ula, 76, 19, 5 * 1440)
put_bits(ula, 96, 19, 1440 + 9 * 60 + 30)
put_bits(ula, 126, 2, 2)
put_bits(ula, 128, 8, 1)
put_bits(ula, 136, 16, 777)
samples["troika-ul-a.json"] = {
    "format": "transit-card-image/1",
    "description": "Synthetic Troika Ultralight ticket, layout A: 2 rides, 1 left, valid 2017-03-01 to 2017-03-05",
    "mifareUltralight": {"uid": ul_uid.hex().upper(), "type": "Ultralight",
                         "pages": [hx(head[i:i + 4]) for i in range(0, 16, 4)] + [hx(ula[i:i + 4]) for i in range(0, 48, 4)]}}

# --- Podorozhnik (sectors 4 and 5) -----------------------------------------------------------------------
# Number: block 0 bytes 0-6 (the 7-byte UID 04 A1 B2 C3 D4 E5 F6) little-endian = 0xF6E5D4C3B2A104,
# 17 digits grouped 4 4 4 4 1 after "9643 3078", then a Luhn digit over all 25 (printed below).
# Balance 150.75 RUB; top-up 2026-11-10 12:30 MSK, 500.00 RUB, agency 1, machine 1234; last trip
# 2026-11-20 08:05, metro (transport 1), validator 45 << 6 | 3 = 2883 (station 45, gate 3), fare
# 66.00; block 1 (metro 12, ground 5, the last trip's time) is newer than block 2 (metro 11,
# ground 5, 2026-11-19 18:20): counts 12 and 5, and 2026-11-19 18:20 is an earlier trip.
def pmin(t): return int((t - datetime.datetime(2010, 1, 1)).total_seconds()) // 60
P_UID = "04A1B2C3D4E5F6"
p_value = int.from_bytes(bytes.fromhex(P_UID), "little")
p_digits = str(p_value).zfill(17)
def luhn_digit(s):
    total = 0
    for i, c in enumerate(reversed(s)):
        d = int(c) * (2 if i % 2 == 0 else 1)
        total += d - 9 if d > 9 else d
    return (10 - total % 10) % 10
P_NUMBER = "9643 3078 " + " ".join(p_digits[i:i + 4] for i in range(0, 16, 4)) + " " + p_digits[16] + str(luhn_digit("96433078" + p_digits))
purse = le(15075, 4) + [0] * 12
topup = [0, 0] + le(pmin(datetime.datetime(2026, 11, 10, 12, 30)), 3) + [1] + le(1234, 2) + le(50000, 3) + [0] * 5
last = pmin(datetime.datetime(2026, 11, 20, 8, 5))
trip = le(last, 3) + [1] + le(45 << 6 | 3, 2) + le(6600, 4) + [0] * 6
copy1 = [12, 5] + le(last, 3) + [0] * 11
copy2 = [11, 5] + le(pmin(datetime.datetime(2026, 11, 19, 18, 20)), 3) + [0] * 11
P_S4_KEY = "5A6B7C8D9E0F"
p_sectors = {4: [purse, purse, topup], 5: [trip, copy1, copy2]}
samples["podorozhnik.json"] = {
    "format": "transit-card-image/1",
    "description": "Synthetic Podorozhnik (Classic 1K): 150.75 RUB, top-up 500.00 on 2026-11-10, last trip 2026-11-20 08:05 metro",
    "mifareClassic": classic(P_UID, "1K", p_sectors, {4: P_S4_KEY})}
samples["podorozhnik-4k.json"] = {
    "format": "transit-card-image/1",
    "description": "Synthetic Podorozhnik (Classic 4K): the same sectors 4 and 5 as podorozhnik.json",
    "mifareClassic": classic(P_UID, "4K", p_sectors, {4: P_S4_KEY})}

if __name__ == "__main__":
    for name, image in samples.items():
        (OUT / name).write_text(json.dumps(image, indent=1) + "\n")
    print("troika sector 1 key digest:", digest("troika", TROIKA_S1_KEY))
    print("podorozhnik sector 4 key digest:", digest("podorozhnik", P_S4_KEY))
    print("podorozhnik number:", P_NUMBER)
