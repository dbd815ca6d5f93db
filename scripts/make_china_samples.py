#!/usr/bin/env python3
"""Writes the sample images of China's city cards in samples/ (synthetic cards of our own).

Every field is laid out here from the published layouts (NFSee read.js, Metrodroid transit/china:
facts only), independently of the Swift decoder, so the tests' expected values can be checked by
hand against this file. The PBOC log record (23 bytes): counter 2, overdraft 3, amount 4 (fen,
big-endian), type 1 (02 load, 06 purchase), terminal 6, BCD date-time 7 (China Standard Time).
"""
import json, pathlib

OUT = pathlib.Path(__file__).resolve().parent.parent / "samples"

def hx(b): return bytes(b).hex().upper()
def be(v, n): return list(v.to_bytes(n, "big"))
def le(v, n): return list(v.to_bytes(n, "little"))
def bcd(digits): return list(bytes.fromhex(digits))
def ascii_aid(s): return list(s.encode())
def select(aid): return hx([0x00, 0xA4, 0x04, 0x00, len(aid)] + aid + [0x00])

def record(counter, amount, typ, time):
    rec = be(counter, 2) + [0, 0, 0] + be(amount, 4) + [typ] + [0x22, 0x00, 0x00, 0x65, 0x43, 0x21] + bcd(time)
    assert len(rec) == 23
    return hx(rec)

def log(day0):
    """Ten records, newest first: record 4 (index 3) a load of 100.00, the others purchases of
    2.00 + 0.10 i; dates 2026-11-<day0 - i> 07:45:<i> CST."""
    return [record(30 - i, 10000 if i == 3 else 200 + 10 * i, 0x02 if i == 3 else 0x06, f"202611{day0 - i:02d}0745{i:02d}")
            for i in range(10)]

def balance(raw): return {"805C000204": hx(be(raw, 4)) + "9000"}

def image(description, uid, apps, commands=None):
    iso = {"uid": uid, "applications": apps}
    if commands: iso["commands"] = commands
    return {"format": "transit-card-image/1", "description": description, "iso7816": iso}

def file15(fields, length=30):
    """File 0x15: `fields` is {offset: bytes}; the rest zero."""
    f = [0] * length
    for off, data in fields.items(): f[off:off + len(data)] = data
    assert len(f) == length
    return hx(f)

samples = {}

# Beijing BMAC: MF SFI 04 (32 bytes) read before the DF select; number 1000 7515 1234 5678 (bytes 0-7),
# issued 2020-04-10 (24-27), expires 2030-04-10 (28-31). DF 1001 purse 32.00 CNY (0x0C80 fen).
mf04 = bcd("1000751512345678") + [0] * 16 + bcd("20200410") + bcd("20300410")
assert len(mf04) == 32
samples["beijing.json"] = image("Synthetic Beijing Yikatong (BMAC, non-interoperable): 32.00 CNY, ten log records", "08B1B2B3", [{
    "name": "DF 1001", "select": "00A40000021001",
    "commands": balance(0x0C80), "records": {"18": log(28)},
}], commands={"00B0840020": hx(mf04) + "9000"})

# Shenzhen Tong: serial 295176543 stored little-endian at 16-19 (Metrodroid); check digit: digit sum
# 2+9+5+1+7+6+5+4+3 = 42 -> 8. Validity 2019-06-01 .. 2029-06-01. Purse 45.60 CNY (top bit set, as
# T-Union cards do: 0x800011D0).
samples["shenzhen.json"] = image("Synthetic Shenzhen Tong: 45.60 CNY, ten log records", "08C1C2C3", [{
    "name": "PAY.SZT", "select": select(ascii_aid("PAY.SZT")), "answer": "9000",
    "commands": balance(0x800011D0), "binaries": {"15": file15({16: le(295176543, 4), 20: bcd("20190601"), 24: bcd("20290601")}, 28)},
    "records": {"18": log(27)},
}])

# Shanghai (City Union, city code 2000 at 2-3): serial 2105123456 big-endian at 16-19; validity
# 2018-03-01 .. 2038-03-01. Purse 18.50 CNY.
CITY_UNION = [0xA0, 0x00, 0x00, 0x00, 0x03, 0x86, 0x98, 0x07, 0x01]
samples["shanghai.json"] = image("Synthetic Shanghai Public Transportation Card (City Union 2000): 18.50 CNY", "08D1D2D3", [{
    "name": "City Union", "select": select(CITY_UNION),
    "commands": balance(1850), "binaries": {"15": file15({2: bcd("2000"), 16: be(2105123456, 4), 20: bcd("20180301"), 24: bcd("20380301")})},
    "records": {"18": log(26)},
}])

# Wuhan Tong: number 3101 2345 6789 0123 at 12-19, validity 2021-09-09 .. 2031-09-09. Purse 7.25 CNY.
samples["wuhan.json"] = image("Synthetic Wuhan Tong: 7.25 CNY", "08E4E5E6", [{
    "name": "AP1.WHCTC", "select": select(ascii_aid("AP1.WHCTC")),
    "commands": balance(725), "binaries": {"15": file15({12: bcd("3101234567890123"), 20: bcd("20210909"), 24: bcd("20310909")})},
    "records": {"18": log(25)},
}])

# Lingnan Pass: PAY.APPY holds file 0x15 (number 51 0123 4567 at 11-15), PAY.TICL the purse (66.00 CNY).
samples["lingnan.json"] = image("Synthetic Lingnan Pass (Yang Cheng Tong): 66.00 CNY", "08F1F2F3", [
    {"name": "PAY.APPY", "select": select(ascii_aid("PAY.APPY")), "commands": {}, "binaries": {"15": file15({11: bcd("5101234567")})}},
    {"name": "PAY.TICL", "select": select(ascii_aid("PAY.TICL")), "commands": balance(6600), "records": {"18": log(24)}},
])

# Macau Pass: number 12 3456 7890 at 35-39 of a 40-byte file 0x15, validity 2022-01-01 .. 2032-01-01.
# Purse raw 955: balance 955 x 10 - 1000 = 8550 (85.50 MOP); log amounts x 10 (0.1 MOP units).
samples["macau.json"] = image("Synthetic Macau Pass: 85.50 MOP", "08A4A5A6", [{
    "name": "Macau Pass", "select": select([0xB0, 0xC4, 0xC3, 0xC5, 0xCD, 0xA8, 0xC7, 0xAE, 0xB0, 0xFC]),
    "commands": balance(955), "binaries": {"15": file15({20: bcd("20220101"), 24: bcd("20320101"), 35: bcd("1234567890")}, 40)},
    "records": {"18": log(23)},
}])

for name, img in samples.items():
    (OUT / name).write_text(json.dumps(img, indent=2) + "\n")
