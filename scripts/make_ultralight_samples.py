#!/usr/bin/env python3
"""Writes the sample images of MIFARE Ultralight transit tickets in samples/ (synthetic tickets of our own).

Every byte is laid out here on its own from the published layouts (Metrodroid transit/nextfareul,
transit/yvr_compass, transit/ventra, transit/hsl/HSLUltralightTransitData.kt, HSLArvo.kt,
HSLTransaction.kt: facts only), independently of the Swift decoders, so the tests' expected values
can be checked by hand against this file. All values are made up.
"""
import datetime, json, pathlib

OUT = pathlib.Path(__file__).resolve().parent.parent / "samples"

def hx(b): return bytes(b).hex().upper()

def manufacturer_pages(uid):
    """Pages 0-3 of an Ultralight: UID0-2 and BCC0 (88 ^ UID0 ^ UID1 ^ UID2), UID3-6, BCC1 (UID3 ^ ... ^ UID6),
    the internal byte 48 and two zero lock bytes, then a zero OTP page (NXP MF0ICU1 data sheet)."""
    bcc0 = 0x88 ^ uid[0] ^ uid[1] ^ uid[2]
    bcc1 = uid[3] ^ uid[4] ^ uid[5] ^ uid[6]
    return [uid[0:3] + [bcc0], uid[3:7], [bcc1, 0x48, 0, 0], [0, 0, 0, 0]]

def image(description, uid, pages):
    assert len(pages) == 16 and all(len(p) == 4 for p in pages)
    return {"format": "transit-card-image/1", "description": description,
            "mifareUltralight": {"uid": hx(uid), "type": "Ultralight", "pages": [hx(p) for p in pages]}}

samples = {}

# --- Nextfare Ultralight (Compass, Ventra) -------------------------------------------------------------
def luhn_digit(digits):
    """The digit that makes digits+it pass the Luhn check."""
    total = 0
    for i, ch in enumerate(reversed(digits)):
        d = int(ch) * (2 if i % 2 == 0 else 1)
        total += d - 9 if d > 9 else d
    return (10 - total % 10) % 10

def nextfare_number(uid):
    """UID bytes 1-6 as one number, plus 10^15, then its Luhn digit; 20 digits in groups of four."""
    serial = int.from_bytes(bytes(uid[1:7]), "big") + 10**15
    s = f"{serial * 10 + luhn_digit(str(serial)):020d}"
    return " ".join(s[i:i + 4] for i in range(0, 20, 4))

def packed_date(y, m, d):
    """Bits 9-15 years after 2000, bits 5-8 month, bits 0-4 day."""
    return (y - 2000) << 9 | m << 5 | d

def nextfare_header(base, ticket_type, product, compass, machine):
    """Pages 4-7: 0A <type> 00 <base low> | <base high> 01 <product, bit 7 = Compass> 00 | 00 00 00 00 | machine LE, 00 00."""
    return [[0x0A, ticket_type, 0x00, base & 0xFF], [base >> 8, 0x01, product | (0x80 if compass else 0), 0x00],
            [0, 0, 0, 0], [machine & 0xFF, machine >> 8, 0, 0]]

def nextfare_record(rtype, minutes, days_back, seq, balance, expiry_back, location, route, machine):
    """16 bytes: [0-1] LE type | minutes << 5; [2] days back; [4-6] LE seq | balance << 5 (bits 5-6 are
    shared by both fields, so the made-up values agree there); [8] signed expiry days back;
    [9-10] LE location; [11] route; [12-13] BE machine; the rest zero."""
    assert seq >> 5 == balance & 3, "sequence bits 5-6 and balance bits 0-1 are the same bits"
    t = rtype | minutes << 5
    s = seq | balance << 5
    return [t & 0xFF, t >> 8, days_back, 0, s & 0xFF, s >> 8 & 0xFF, s >> 16, 0,
            expiry_back & 0xFF, location & 0xFF, location >> 8, route, machine >> 8, machine & 0xFF, 0, 0]

def pages_of(b): return [b[i:i + 4] for i in range(0, len(b), 4)]

# Compass: UID 04 12 34 56 78 9A BC. UID bytes 1-6 = 0x123456789ABC = 20 015 998 343 868;
# + 10^15 = 1 020 015 998 343 868. Luhn over 1020015998343868, from the right, doubling the 1st, 3rd…:
# digits right to left 8 6 8 3 4 3 8 9 9 5 1 0 0 2 0 1; doubled 8→16→7, 8→16→7, 4→8, 8→16→7, 9→18→9, 1→2, 0→0, 0→0;
# kept 6, 3, 3, 9, 5, 0, 2, 1. Sum 7+7+8+7+9+2+0+0 + 6+3+3+9+5+0+2+1 = 40 + 29 = 69 → check digit 1.
# Printed: 10200159983438681 as 20 digits: 0001 0200 1599 8343 8681.
# Base date 2026-11-20: (26 << 9) | (11 << 5) | 20 = 13312 + 352 + 20 = 13684 = 0x3574.
# Regular ticket (type 04), product 02 (One Zone), issuing machine 0x1234.
# Record at pages 8-11: sequence 5, route 0 (ticket machine: the sale), type 1, 0 days back, 08:05
#   (485 min), balance 4.00 CAD, expiry byte 0 (base date), location 0, machine 0x0101.
# Record at pages 12-15: sequence 6 (newer), route 9 (train), type 2 (tap on), 0 days back, 08:17
#   (497 min), balance 3.00 CAD, expiry byte FF = -1 day back → 2026-11-21, location 1234, machine 0xBEEF.
# Vancouver on 2026-11-20 is on PST (-08:00: summer time ended 2026-11-01).
# Expected: balance 300 CAD cents, valid until 2026-11-21, trips newest first:
#   2026-11-20T08:17:00-08:00 tap on, station 1234, train; 2026-11-20T08:05:00-08:00 purchase.
compass_uid = [0x04, 0x12, 0x34, 0x56, 0x78, 0x9A, 0xBC]
assert nextfare_number(compass_uid) == "0001 0200 1599 8343 8681"
base = packed_date(2026, 11, 20)
assert base == 0x3574
compass = (manufacturer_pages(compass_uid) + nextfare_header(base, 0x04, 0x02, True, 0x1234)
           + pages_of(nextfare_record(1, 8 * 60 + 5, 0, 5, 400, 0, 0, 0, 0x0101))
           + pages_of(nextfare_record(2, 8 * 60 + 17, 0, 6, 300, -1, 1234, 9, 0xBEEF)))
samples["compass.json"] = image("Synthetic Compass ticket: 3.00 CAD, One Zone, tapped on 2026-11-20 08:17 Vancouver",
                                compass_uid, compass)

# Ventra: UID 04 00 00 00 00 00 2A. UID bytes 1-6 = 42; + 10^15 = 1 000 000 000 000 042.
# Luhn over 1000000000000042: right to left 2 4 0 … 0 1; doubled 2→4, then zeros, and the 16th digit
# (1, at an odd position from the right) kept; kept 4 → sum 4 + 4 + 1 = 9 → check digit 1.
# Printed: 10000000000000421 → 0001 0000 0000 0000 0421.
# Base date 2026-03-10: (26 << 9) | (3 << 5) | 10 = 13312 + 96 + 10 = 13418 = 0x346A. Concession (type 08),
# product 05 (no names known for Ventra: shown as 05), machine 0x0042.
# Sequence numbers wrap at 128: the record at pages 8-11 has sequence 0 and is newer than the one at
# pages 12-15 with 127 ((0 - 127) mod 128 = 1 < 63).
# Pages 12-15: sequence 127, route 0x14, type 2 (tap on), 0 days back, 07:10 (430 min) → 2026-03-10T07:10:00-05:00
#   (CDT: summer time began 2026-03-08), balance 4.75 USD, location 567.
# Pages 8-11: sequence 0, route 0x14, type 6 (tap off: Ventra has no bus rule), 0 days back, 07:45 (465 min)
#   → 2026-03-10T07:45:00-05:00, balance 2.00 USD, expiry byte E2 = -30 → 2026-03-10 + 30 days = 2026-04-09
#   (March has 31 days: 10 + 30 = 40 → 9 April), location 89.
# The tap off follows the tap on (sequence 127 + 1 = 0 mod 128, same route): one journey, 567 → 89.
# Expected: balance 200 USD cents, valid until 2026-04-09, one trip 2026-03-10T07:10:00-05:00 from 567
#   to 89, tapped off 2026-03-10T07:45:00-05:00. With the base date changed to 2026-03-07
#   ((26 << 9) | (3 << 5) | 7 = 0x3467: page 4 byte 3 = 67) the trip is 2026-03-07T07:10:00-06:00 (CST).
ventra_uid = [0x04, 0, 0, 0, 0, 0, 0x2A]
assert nextfare_number(ventra_uid) == "0001 0000 0000 0000 0421"
vbase = packed_date(2026, 3, 10)
assert vbase == 0x346A
ventra = (manufacturer_pages(ventra_uid) + nextfare_header(vbase, 0x08, 0x05, False, 0x0042)
          + pages_of(nextfare_record(6, 7 * 60 + 45, 0, 0, 200, -30, 89, 0x14, 0x0203))
          + pages_of(nextfare_record(2, 7 * 60 + 10, 0, 127, 475, -30, 567, 0x14, 0x0203)))
assert packed_date(2026, 3, 7) == 0x3467
samples["ventra.json"] = image("Synthetic Ventra ticket: 2.00 USD, a journey 2026-03-10 07:10-07:45 Chicago",
                               ventra_uid, ventra)

# --- HSL Ultralight (application version 2) ------------------------------------------------------------
class Bits:
    """MSB-first bit writer."""
    def __init__(self): self.v, self.n = 0, 0
    def put(self, value, width):
        assert 0 <= value < 1 << width, (value, width)
        self.v, self.n = self.v << width | value, self.n + width
        return self
    def bytes(self, length):
        assert self.n <= length * 8
        return list((self.v << (length * 8 - self.n)).to_bytes(length, "big"))

def en1545_day(y, m, d): return (datetime.date(y, m, d) - datetime.date(1997, 1, 1)).days

# UID 04 A1 B2 C3 D4 E5 F6: A1B2C3 XOR D4E5F6 = 755735 (A^D=7, 1^4=5, B^E=5, 2^5=7, C^F=3, 3^6=5),
# AND 7FFFFF = 0x755735 = 7·16^5 + 5·16^4 + 0x5735 = 7 340 032 + 327 680 + 22 325 = 7 690 037.
# Page 4: 23 92 46 21 (version 2, key version 3). Page 5: 00 (city 0: HSL) 12 45 <eTicket byte 0>;
# byte 2 = 0100 010 1: serial digit 4, platform type 2, security level 1.
# Printed: hex of bytes 1-5 "9246210012" + "7690037" + "4" → 924621 0012 7690 0374.
# eTicket (41 bytes from page 5 byte 3), v2: product 17, adult, Finnish, 80 minutes (units 0), area
# type 2, area 0b000001 (from A to B: zones AB), sold 2026-11-20 at hour 14 on device type 1 / 4321,
# price 2.95 EUR (295), 1 passenger, seal 0123456789AB, valid 2026-11-20 14:32 to 15:52
# (872 and 952 minutes), 14 reserved bits and a 64-bit seal (made up), then at bit 264 the last
# validation: 2026-11-20 14:32, vehicle 1234, location type 0, location 1300 (metro, route 300),
# direction 1, area type 2, area 1 (zone B). Helsinki in November: EET, +02:00.
# 2026-11-20 is day 10 915 after 1997-01-01 (29 years of 365 days = 10 585, + 7 leap days
# 2000…2024 = 10 592, + 323 days from 1 January to 20 November 2026 = 10 915).
hsl_uid = [0x04, 0xA1, 0xB2, 0xC3, 0xD4, 0xE5, 0xF6]
assert (0xA1B2C3 ^ 0xD4E5F6) & 0x7FFFFF == 7690037
day = en1545_day(2026, 11, 20)
assert day == 10915
ticket = (Bits().put(17, 10).put(0, 1).put(0, 2).put(0, 2).put(80, 8).put(2, 2).put(0b000001, 6)
          .put(day, 14).put(14, 5).put(1, 3).put(4321, 14).put(295, 15).put(1, 6).put(0x0123456789AB, 48)
          .put(day, 14).put(14 * 60 + 32, 11).put(day, 14).put(15 * 60 + 52, 11)
          .put(0, 14).put(0xA5A5A5A5A5A5A5A5, 64))
assert ticket.n == 264
ticket.put(day, 14).put(14 * 60 + 32, 11).put(1234, 14).put(0, 2).put(1300, 14).put(1, 1).put(2, 2).put(1, 6)
assert ticket.n == 328
eticket = ticket.bytes(41)
hsl_raw = [0x23, 0x92, 0x46, 0x21, 0x00, 0x12, 0x45] + eticket
assert len(hsl_raw) == 48
hsl = manufacturer_pages(hsl_uid) + pages_of(hsl_raw)
samples["hsl-ul.json"] = image("Synthetic HSL Ultralight ticket: 80-minute eTicket for zones AB, 2026-11-20 14:32 Helsinki",
                               hsl_uid, hsl)

for name, body in samples.items():
    (OUT / name).write_text(json.dumps(body, indent=2) + "\n")
    print("wrote", OUT / name)
