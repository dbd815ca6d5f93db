#!/usr/bin/env python3
"""Writes the bundled sample card images in samples/ (synthetic cards, not copies of real ones).

Every byte is laid out here from the documented record formats (docs/card-image.md cites them),
so the expected values in the tests can be checked by hand against this file.
"""
import json, datetime, pathlib

OUT = pathlib.Path(__file__).resolve().parent.parent / "samples"

def hx(b): return bytes(b).hex().upper()

# --- Japan IC (FeliCa system 0003) -------------------------------------------------------------
def jdate(y, m, d):  # bytes 4-5: 7 bits year-2000, 4 bits month, 5 bits day
    v = (y - 2000) << 9 | m << 5 | d
    return [v >> 8, v & 0xFF]

def jrec(console, process, date, b6_9, balance, seq, region):
    return hx([console, process, 0, 0] + date + b6_9 + [balance & 0xFF, balance >> 8] + [0, 0, seq] + [region])

def jtime(h, mi):  # product sales: bytes 6-7 = 5 bits hour, 6 bits minute, 5 unknown bits
    v = h << 11 | mi << 5
    return [v >> 8, v & 0xFF]

suica_history = [  # newest first
    jrec(0x16, 0x01, jdate(2026, 11, 5), [0xE3, 0x3B, 0xE6, 0x21], 2010, 6, 0x90),  # gate: E33B -> E621, 2170-2010 = 160
    jrec(0xC8, 0x46, jdate(2026, 11, 4), jtime(13, 45) + [0x12, 0x34], 2170, 5, 0x00),  # vending machine 13:45, 120
    jrec(0x05, 0x0D, jdate(2026, 11, 3), [0x0A, 0x12, 0x34, 0x56], 2290, 4, 0x00),  # bus line 0A12 stop 3456, 210
    jrec(0x08, 0x02, jdate(2026, 11, 2), [0x01, 0x01, 0x00, 0x00], 2500, 3, 0x00),  # charge at a ticket machine, +2000
    jrec(0x16, 0x01, jdate(2026, 11, 1), [0x01, 0x01, 0x02, 0x03], 500, 2, 0x40),  # oldest: no older balance, no amount
] + [hx([0] * 16)] * 15
suica_balance = hx([0] * 11 + [2010 & 0xFF, 2010 >> 8] + [0] * 3)

suica = {
    "format": "transit-card-image/1",
    "description": "Synthetic Suica-like card: Japan IC system 0003 (balance 2010 yen, 5 records) and an empty common area FE00",
    "felica": {
        "idm": "012E4CD8A1B2C3D4", "pmm": "100B4B428485D0FF", "maxBlocksPerRead": 15,
        "systems": [
            {"code": "0003", "services": {"008B": [suica_balance], "090F": suica_history}, "lockedServices": ["0810", "1808"]},
            {"code": "FE00", "services": {}, "lockedServices": ["1A8B"]},
        ],
    },
}

# --- CEPAS (EZ-Link) ----------------------------------------------------------------------------
EPOCH = datetime.datetime(1995, 1, 1)  # Singapore time, as the card counts
def days(y, m, d): return (datetime.datetime(y, m, d) - EPOCH).days
def secs(*a): return int((datetime.datetime(*a) - EPOCH).total_seconds())
def s24(v): v &= 0xFFFFFF; return [v >> 16, v >> 8 & 0xFF, v & 0xFF]
def u16(v): return [v >> 8, v & 0xFF]
def u32(v): return [v >> 24, v >> 16 & 0xFF, v >> 8 & 0xFF, v & 0xFF]

log = [  # newest first: type, signed amount in cents, time, user data
    (0x30, -128, (2026, 11, 20, 8, 15, 30), b"BGB-TPG "),
    (0x31, -99, (2026, 11, 19, 18, 2, 11), b"BUS 174 "),
    (0x75, 2000, (2026, 11, 18, 12, 0, 0), b"TOP-UP  "),
    (0xA0, -110, (2026, 11, 17, 9, 0, 0), b"TIT2784 "),
]
records = b"".join(bytes([t] + s24(a) + u32(secs(*ts))) + ud for t, a, ts, ud in log)
purse = bytes([0x02, 0x01] + s24(897) + s24(0) + [0x10, 0x09, 0x12, 0x34, 0x56, 0x78, 0x90, 0x12]
              + [0x80, 0x00, 0x00, 0x00, 0x11, 0x22, 0x33, 0x44] + u16(days(2030, 6, 30)) + u16(days(2021, 3, 15))
              + [0] * 12 + [len(log), 0] + [0] * 20 + [0])
assert len(purse) == 63

ezlink = {
    "format": "transit-card-image/1",
    "description": "Synthetic EZ-Link card: CEPAS purse 3, balance S$8.97, four log records",
    "iso7816": {
        "uid": "08A1B2C3",
        "applications": [{
            "name": "CEPAS file 4000", "select": "00A40000024000", "answer": "9000",
            "commands": {"9032030000": purse.hex().upper() + "9000", "90320300010000": records.hex().upper() + "9000"},
        }],
    },
}

unknown = {
    "format": "transit-card-image/1",
    "description": "An ISO 14443-4 card of no known family: every SELECT answers 6A82",
    "iso7816": {"uid": "04112233445566", "applications": []},
}

for name, image in [("suica.json", suica), ("ezlink.json", ezlink), ("unknown-iso.json", unknown)]:
    (OUT / name).write_text(json.dumps(image, indent=2) + "\n")
