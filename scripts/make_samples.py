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
        "idm": "012E4CD8A1B2C3D4", "pmm": "100B4B428485D0FF", "maxBlocksPerRead": 12,  # common Suica chips' limit
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

# --- FeliCa common area FE00 purses (Edy, WAON, nanaco) and Octopus ----------------------------
JST_EPOCH = datetime.datetime(2000, 1, 1)
def le(v, n): return [v >> (8 * i) & 0xFF for i in range(n)]
def be(v, n): return [v >> (8 * (n - 1 - i)) & 0xFF for i in range(n)]
def felica_image(description, idm, code, services, locked=()):
    return {"format": "transit-card-image/1", "description": description,
            "felica": {"idm": idm, "systems": [{"code": code, "services": services, "lockedServices": list(locked)}]}}

def edy_time(*a):  # 15 bits days since 2000-01-01, 17 bits seconds of the day (JST)
    t = datetime.datetime(*a); d = (t - JST_EPOCH).days; s = (t - datetime.datetime(t.year, t.month, t.day)).seconds
    return d << 17 | s

edy_history = [  # newest first: type, sequence, time, amount, balance after
    (0x20, 7, (2026, 11, 10, 12, 34, 56), 330, 1234),   # payment
    (0x02, 6, (2026, 11, 9, 9, 0, 0), 1000, 1564),      # charge
    (0x04, 5, (2026, 11, 8, 8, 0, 0), 100, 564),        # gift
    (0x20, 4, (2026, 11, 7, 19, 15, 0), 536, 464),      # payment
    (0x99, 3, (2026, 11, 6, 10, 0, 0), 7, 1000),        # a type no source names: unknown, no amount
]
edy = felica_image("Synthetic Rakuten Edy card: balance 1234 yen, five history records", "0116A0B1C2D3E4F5", "FE00", {
    "110B": [hx([0, 0, 0x12, 0x34, 0x56, 0x78, 0x90, 0x12, 0x34, 0x56] + be(edy_time(2019, 4, 1), 4) + [0, 0])],
    "1317": [hx(le(1234, 4) + [0] * 12)],
    "170F": [hx([t] + be(seq, 3) + be(edy_time(*ts), 4) + be(amt, 4) + be(bal, 4)) for t, seq, ts, amt, bal in edy_history]
            + [hx([0] * 16)],
})

# A phone (Mobile FeliCa): FE00 is system 1 but answers its own IDm, not the derived 11 39 F1 ...;
# system 0 is 8C97, a made-up code no plugin reads. FE00 holds edy.json's purse.
edy_mobile = {
    "format": "transit-card-image/1",
    "description": "Synthetic phone with Rakuten Edy: system 0 8C97 (a made-up code), system 1 FE00 with the "
                   "purse of edy.json (balance 1234 yen) answering its own IDm 0512A0B1C2D3E4F5, not the derived one",
    "felica": {"idm": "0139F1E2D3C4B5A6", "systems": [
        {"code": "8C97", "services": {}, "lockedServices": []},
        {"code": "FE00", "services": edy["felica"]["systems"][0]["services"], "lockedServices": [], "idm": "0512A0B1C2D3E4F5"},
    ]},
}

def bits(fields):  # big-endian bit fields -> bytes
    v, n = 0, 0
    for value, width in fields:
        v, n = v << width | value, n + width
    pad = (-n) % 8
    return be(v << pad, (n + pad) // 8)

def waon_record(serial, typ, y, mo, d, h, mi, balance, usage, charge):
    header = list(b"WT0000000001A") + be(serial, 2) + [0]
    data = [0] + bits([(typ, 8), (y - 2005, 5), (mo, 4), (d, 5), (h, 5), (mi, 6), (balance, 18), (usage, 18), (charge, 17)])
    return [hx(header), hx(data + [0] * (16 - len(data)))]

waon = felica_image("Synthetic WAON card: balance 239 yen, 12 points, three records stored out of date order",
                    "0116B0C1D2E3F405", "FE00", {
    "6817": [hx(le(239, 2) + [0] * 14)],
    "684F": [hx([0x69, 0x00, 0x12, 0x34, 0x56, 0x78, 0x90, 0x12] + [0] * 8)],
    "684B": [hx(be(12, 3) + [0] * 13)],
    "680B": waon_record(41, 0x04, 2026, 11, 3, 10, 5, 239, 100, 0)      # payment, newest
          + waon_record(39, 0x10, 2026, 11, 1, 18, 30, 539, 0, 500)     # charge, oldest
          + waon_record(40, 0x04, 2026, 11, 2, 12, 0, 339, 200, 0),     # payment
})

def nanaco_time(y, mo, d, h, mi): return be((y - 2000) << 21 | mo << 17 | d << 12 | h << 6 | mi, 4)
nanaco_history = [  # newest first: type, amount, balance, time, sequence
    (0x47, 298, 1500, (2026, 11, 12, 18, 45), 12),   # payment
    (0x83, 500, 1798, (2026, 11, 11, 10, 0), 11),    # charge by point exchange
    (0x35, 1000, 1298, (2026, 11, 10, 9, 0), 10),    # transfer
    (0x6F, 1000, 298, (2026, 11, 9, 20, 0), 9),      # charge
]
nanaco = felica_image("Synthetic nanaco card: balance 1500 yen, 150 points, four records", "0116C0D1E2F30415", "FE00", {
    "5597": [hx(le(1500, 4) + [0] * 12)],
    "558B": [hx([0x71, 0x00, 0x00, 0x12, 0x34, 0x56, 0x78, 0x90] + [0] * 8)],
    "560B": [hx([0] * 16), hx(be(120, 3) + [0, 0] + be(30, 3) + [0] * 8)],
    "564F": [hx([t] + be(a, 4) + be(b, 4) + nanaco_time(*ts) + be(s, 2) + [0]) for t, a, b, ts, s in nanaco_history]
            + [hx([0] * 16)],
})

octopus = felica_image("Synthetic Octopus card: raw purse value 1200 (HK$85.00 with offset 350)", "0116D0E1F2031425", "8008", {
    "0117": [hx(be(1200, 4) + [0] * 12)],
    "100B": [hx([0] * 16)],
})

# --- KS X 6924 (T-Money), Snapper, China T-Union -------------------------------------------------
def bcd(digits): return list(bytes.fromhex(digits))
def iso_image(description, uid, apps): return {"format": "transit-card-image/1", "description": description,
                                               "iso7816": {"uid": uid, "applications": apps}}

def purse_info(id_center, csn, issued, expires):  # 47 bytes, tag B0 (Proxmark3 ksx6924core.c layout)
    info = [0x00, 0x10, 0x01, id_center] + bcd(csn) + bcd("0123456789") + bcd(issued) + bcd(expires) + [0x01, 0x00] \
        + be(500000, 4) + [0, 0] + be(0, 4) + [0, 0] + [0] * 8
    assert len(info) == 47
    return [0x6F, 49, 0xB0, 47] + info

def ksx_record(typ, balance, counter, amount, time):  # 46 bytes (Metrodroid TMoneyTrip)
    t = bcd(time) if time else [0xFF] * 7
    rec = [typ, 0x2C] + be(balance, 4) + be(counter, 4) + be(amount, 4) + [0x07, 0x20, 0x09] + [0x11] * 9 + t + [0] * 7 + [0x12, 0x34, 0x56, 0x78] + [0, 0]
    assert len(rec) == 46
    return hx(rec)

TMONEY_SELECT = "00A4040007D410000003000100"
tmoney = iso_image("Synthetic T-Money card: balance 10000 won, two trips and a top-up", "04C1C2C3C4C5C6", [{
    "name": "T-Money", "select": TMONEY_SELECT, "answer": hx(purse_info(0x08, "1010010000987654", "20230301", "20280228")) + "9000",
    "commands": {"904C000004": "000027109000"},
    "records": {"04": [
        ksx_record(0x01, 10000, 4, 1250, "20261120081000"),
        ksx_record(0x01, 11250, 3, 1400, "20261119180000"),
        ksx_record(0x02, 12650, 2, 10000, None),   # a top-up without a time, as cards keep them
        ksx_record(0x01, 0, 1, 0, None),           # an unused slot
    ]},
}])

def snapper_record(balance, amount):  # 46 bytes whose bytes 26-45 are Snapper's FF filler
    rec = [0x01, 0x2C] + be(balance, 4) + be(7, 4) + be(amount, 4) + [0x11] * 12 + [0xFF] * 20
    assert len(rec) == 46
    return hx(rec)

snapper = iso_image("Synthetic Wellington Snapper card (answers the T-Money AID): balance NZ$12.34", "04D1D2D3D4D5D6", [{
    "name": "Snapper", "select": TMONEY_SELECT, "answer": hx(purse_info(0x02, "1011220033445566", "20240105", "20290104")) + "9000",
    "commands": {"904C000004": "000004D29000"},
    "records": {"04": [snapper_record(1234, 230), snapper_record(1464, 230)]},
}])

def tunion_record(counter, amount, typ, time):  # 23 bytes (Metrodroid ChinaTrip)
    rec = be(counter, 2) + [0, 0, 0] + be(amount, 4) + [typ] + [0x11, 0x00, 0x00, 0x12, 0x34, 0x56] + bcd(time)
    assert len(rec) == 23
    return hx(rec)

tunion_log = [tunion_record(20 - i, 200 + 10 * i, 0x02 if i == 4 else 0x06, f"202611{20 - i:02d}0830{i:02d}") for i in range(10)]
file15 = [0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x00, 0x01] + bcd("03104512345678901234") + bcd("20230115") + bcd("20330115") + [0, 0]
tunion = iso_image("Synthetic China T-Union card: primary purse 50.00 (top bit set), negative purse 12.00, ten log records",
                   "08E1E2E3", [{
    "name": "T-Union", "select": "00A4040008A00000063201010500", "answer": "6F108408A0000006320101059000",
    "commands": {"805C000204": "800013889000", "805C010204": "000004B09000"},
    "binaries": {"15": hx(file15)},
    "records": {"18": tunion_log},
}])

for name, image in [("suica.json", suica), ("ezlink.json", ezlink), ("unknown-iso.json", unknown), ("edy.json", edy), ("edy-mobile.json", edy_mobile),
                    ("waon.json", waon), ("nanaco.json", nanaco), ("octopus.json", octopus), ("tmoney.json", tmoney),
                    ("snapper.json", snapper), ("tunion.json", tunion)]:
    (OUT / name).write_text(json.dumps(image, indent=2) + "\n")
