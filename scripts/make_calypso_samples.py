#!/usr/bin/env python3
"""Writes the Calypso sample card images in samples/ (synthetic cards: our own card data, no
project's dump): a Navigo with a monthly pass, a 10-trip carnet and three validations; an older
Navigo that takes only CLA 94 and answers nothing to Le 00; a KorriGo whose optional files answer
6A82 and which reads one record a command; a blank MOBIB.

The EN 1545 bits are packed here, independently of the Swift code, from the layouts in
docs/card-image.md's sources (Intercode: environment, contract list, contracts FF/20, events;
docs/research/calypso-desfire-china.md, "EN 1545 layout"): most significant bit first, a bitmap's mask before its members
with mask bit 0 (least significant) standing for the first member, absent members taking no bits,
dates in days since 1997-01-01, times in minutes since local midnight (Europe/Paris). Every value
the tests expect is written below in human terms next to the bits that hold it.
"""
import datetime, json, pathlib

OUT = pathlib.Path(__file__).resolve().parent.parent / "samples"
EPOCH = datetime.date(1997, 1, 1)
RECORD = 29  # Calypso record size


class Bits:
    """An MSB-first bit string."""
    def __init__(self): self.s = ""
    def int(self, value, width):
        assert 0 <= value < 1 << width, (value, width)
        self.s += format(value, "0%db" % width); return self
    def date(self, y, m, d): return self.int((datetime.date(y, m, d) - EPOCH).days, 14)
    def time(self, h, mi): return self.int(h * 60 + mi, 11)
    def mask(self, count, present):
        """A bitmap's mask: `present` lists the member indexes (0 = first member = least significant bit)."""
        return self.int(sum(1 << i for i in present), count)
    def text(self, s, width):  # 5 bits a character: A-Z = 1-26, space = 0
        for i in range(width // 5):
            c = s[i] if i < len(s) else " "
            self.int(0 if c == " " else ord(c) - 64, 5)
        return self.int(0, width % 5) if width % 5 else self
    def bcd(self, digits): return self.int(int(digits, 16), 4 * len(digits))
    def record(self):
        assert len(self.s) <= RECORD * 8, len(self.s)
        s = self.s + "0" * (RECORD * 8 - len(self.s))
        return bytes(int(s[i:i + 8], 2) for i in range(0, len(s), 8)).hex().upper()


ZERO = "00" * RECORD
DF_NAME = b"1TIC.ICA".hex().upper()                   # 31 54 49 43 2E 49 43 41
SELECT = "00A40400" + "08" + DF_NAME + "00"           # SELECT by partial DF name, Le 00


def fci(df_name, serial, startup):
    """6F { 84 <DF name>, A5 { BF0C { C7 <serial, 8 bytes>, 53 <startup info, 7 bytes> } } } 9000."""
    def tlv(tag, value): return tag + format(len(value) // 2, "02X") + value
    return tlv("6F", tlv("84", df_name) + tlv("A5", tlv("BF0C", tlv("C7", serial) + tlv("53", startup)))) + "9000"


def environment(network, end, holder=None):
    """Environment: version 6 = 1 · bitmap(7) {network 24 (0), issuer 8 (1), validity end date (2), …}."""
    b = Bits().int(1, 6).mask(7, [0, 1, 2]).int(network, 24).int(0x03, 8).date(*end)
    if holder:  # holder bitmap(8): names (0) {surname 85 (0)}, birth (1) {BCD birth date 32 (0)}
        surname, birth = holder
        b.mask(8, [0, 1]).mask(2, [0]).text(surname, 85).mask(2, [0]).bcd(birth)
    else:
        b.mask(8, [])
    return b.record()


def contract_list(entries, with_network=None):
    """An EN 1545 repeat (Metrodroid IntercodeTransitData.contractListFields = En1545Repeat(4, ...),
    En1545Repeat.kt: the counter first): a 4-bit count, then that many bitmap(3) {network 24 (0),
    tariff 16 (1), pointer 5 (2)}. (Issue 43: this generator once wrote four entries and no count.)"""
    b = Bits().int(len(entries), 4)
    for tariff, pointer in entries:
        if with_network:
            b.mask(3, [0, 1, 2]).int(with_network, 24)
        else:
            b.mask(3, [1, 2])
        b.int(tariff, 16).int(pointer, 5)
    return b.record()


def contract_ff(tariff, price, start=None, end=None, zones=None, journeys=None, status=1):
    """Layout FF (tariff bits 4-11 = FF): bitmap(20) {network 0, provider 1 = 3, tariff 2, serial 3, …,
    price 10 (cents), …, validity bitmap 13 {start date 0, start time 1, end date 2, end time 3,
    duration 4, limit 5, zones 6 (bit n = zone n+1), journeys 7, period journeys 8}, …, status 16}."""
    present = [1, 2, 10, 13, 16]
    validity = [i for i, v in ((0, start), (2, end), (6, zones), (7, journeys)) if v is not None]
    b = Bits().mask(20, present).int(3, 8).int(tariff, 16).int(price, 16).mask(9, validity)
    if start: b.date(*start)
    if end: b.date(*end)
    if zones: b.int(sum(1 << (z - 1) for z in zones), 8)
    if journeys: b.int(journeys, 16)
    return b.int(status, 8).record()


def event(date, time, location, route, pointer, code=0x11, network=0x250901, price=None):
    """Event: date 14 · time 11 · bitmap(28) {display 0, network 1 (24), code 2 (8), result 3,
    provider 4, not-ok 5, serial 6, destination 7, location 8 (16), gate 9, device 10, route 11 (16),
    …, price 23 (16), price unit 24, contract pointer 25 (5), …}."""
    present = [1, 2, 8, 11] + ([23] if price is not None else []) + [25]
    b = Bits().date(*date).time(*time).mask(28, present).int(network, 24).int(code, 8).int(location, 16).int(route, 16)
    if price is not None: b.int(price, 16)
    return b.int(pointer, 5).record()


def counters(values):
    """Common counters (SFI 19): 3 bytes a contract, contract 1 first."""
    return ("".join(format(v, "06X") for v in values) + ZERO)[:RECORD * 2]


def image(description, uid, apps, **options):
    iso = {"uid": uid, "applications": apps}
    iso.update(options)
    return {"format": "transit-card-image/1", "description": description, "iso7816": iso}


def app(answer, records):
    return {"name": "Calypso ticketing DF 1TIC.ICA", "select": SELECT, "answer": answer, "commands": {}, "records": records}


# --- Navigo (network 250901): card number 439041101 = 0x1A2B3C4D, the serial's last 4 bytes ------
navigo = image(
    "Synthetic Navigo: monthly pass 2026-12-01..2026-12-31 zones 1-5 (tariff 0FF1, 86.40), carnet of 10 "
    "(tariff 0FF2) with 7 trips left, validations 2026-12-01 08:15 (+01:00), 2026-10-25 03:10 (+01:00) and "
    "01:50 (+02:00), a special event 2026-11-20 17:05",
    "02A1B2C3",
    [app(fci(DF_NAME, "000000001A2B3C4D", "063C0402201001"), {
        # SFI 07: network 250901, validity end 2031-06-30; holder DUPONT born 1985-04-12 (personal).
        "07": [environment(0x250901, (2031, 6, 30), ("DUPONT", "19850412"))],
        # SFI 1E: tariff 0FF1 -> contract record 1, tariff 0FF2 -> record 2.
        "1E": [contract_list([(0x0FF1, 1), (0x0FF2, 2)])],
        "09": [contract_ff(0x0FF1, 8640, start=(2026, 12, 1), end=(2026, 12, 31), zones=[1, 2, 3, 4, 5]),   # monthly, 86.40
               contract_ff(0x0FF2, 1690, start=(2026, 9, 14), journeys=10),                                # carnet of 10, 16.90
               ZERO, ZERO],
        # SFI 19: contract 1 none; contract 2 = 7 << 18 | 0x0ABC = 1C0ABC (Navigo: trips in the bits above 18).
        "19": [counters([0, 7 << 18 | 0x0ABC])],
        # SFI 08, newest first: metro entry at 03C5 on line 14 with the monthly pass (winter time);
        # 2026-10-25 03:10 local is after the 01:00 UTC change (+01:00), 01:50 before it (+02:00).
        "08": [event((2026, 12, 1), (8, 15), 0x03C5, 14, 1),
               event((2026, 10, 25), (3, 10), 0x1A20, 38, 2, code=0x21),
               event((2026, 10, 25), (1, 50), 0x0456, 38, 2, code=0x21)],
        # SFI 1D: one special event 2026-11-20 17:05 (+01:00) at 0789, route 4, 1.50 charged.
        "1D": [event((2026, 11, 20), (17, 5), 0x0789, 4, 1, code=0x13, price=150), ZERO],
    })])

# --- An older Navigo: CLA 94 only, an empty 9000 to Le 00; card number 185339150 = 0x0B0C0D0E ---------
navigo94 = image(
    "Synthetic older Navigo: takes CLA 94 only and answers nothing to Le 00; monthly pass 2026-11-01..2026-11-30 "
    "zones 1-2 (tariff 0FF1, 75.20), one validation 2026-11-03 07:45 (+01:00); no special events file",
    "02D1D2D3",
    [app(fci(DF_NAME, "000000000B0C0D0E", "063C0402201001"), {
        "07": [environment(0x250901, (2029, 1, 31))],
        "1E": [contract_list([(0x0FF1, 1)])],
        "09": [contract_ff(0x0FF1, 7520, start=(2026, 11, 1), end=(2026, 11, 30), zones=[1, 2]), ZERO, ZERO, ZERO],
        "08": [event((2026, 11, 3), (7, 45), 0x0101, 1, 1), ZERO, ZERO],
    })],
    onlyClass="94", emptyAnswerToLeZero=True)


def contract_20(tariff, start, zones, price, sold, debit):
    """Layout 20 (tariff bits 4-11 = 20): bitmap(7) {provider 0, tariff 1 (16), serial 2, passenger class 3,
    validity bitmap 4 {start date 0, end date 1}, status 5 (8), extras bitmap 6 (10) {origin/via/destination 0,
    origin/destination 1, zones 2 (16), sale 3, pay 4 {pay method 11, price 16, receipt 1}, passengers 5,
    period 6, sold 7 {sold 8, debit a trip 5}, vehicle class 8, linked contract 9}}."""
    b = Bits().mask(7, [1, 4, 5, 6]).int(tariff, 16).mask(2, [0]).date(*start).int(1, 8)
    b.mask(10, [2, 4, 7]).int(sum(1 << (z - 1) for z in zones), 16)
    b.int(0x090, 11).int(price, 16).int(0, 1).int(sold, 8).int(debit, 5)
    return b.record()


# --- KorriGo (network 250908): card number 3735928559 = 0xDEADBEEF; one record a command; optional
# files 19 (common counters) and 1D (special events) absent: 6A82 ------------------------------------
korrigo = image(
    "Synthetic KorriGo: a 10-trip carnet (layout 20, tariff 0200, 14.50, zones 1-2, from 2026-11-02) with 4 trips "
    "left in its own counter file 0A, one validation 2026-11-28 12:34 (+01:00) at 00AB on route 57; no files 19 "
    "and 1D; READ RECORD of all records refused",
    "02E1E2E3",
    [app(fci(DF_NAME, "00000000DEADBEEF", "063C0402201001"), {
        "07": [environment(0x250908, (2030, 12, 31))],
        "1E": [contract_list([(0x0200, 1)], with_network=0x250908)],
        "09": [contract_20(0x0200, (2026, 11, 2), [1, 2], 1450, 10, 1), ZERO, ZERO, ZERO],
        "0A": [counters([4])],  # 4 trips left (counter / debit a trip of 1)
        "08": [event((2026, 11, 28), (12, 34), 0x00AB, 57, 1, network=0x250908), ZERO, ZERO],
    })],
    multipleRecordReads=False)

def mobib_environment(version, unknown_a, end, serial_digits, unknown_b=0, unknown_c=0, unknown_d=0):
    """MOBIB's environment (Metrodroid MobibTransitData.ticketEnvFields, version > 2): version 6,
    unknown 7, network 24, unknown 5, validity end date 14, unknown 10, BCD birth date 32, card serial
    76 bits of BCD (19 digits, printed 6 / 6+4+2 / 1: MobibTransitData.getSerial), unknown 5, postal
    code 14, 34 bits."""
    assert version > 2 and len(serial_digits) == 19
    b = Bits().int(version, 6).int(unknown_a, 7).int(0x056001, 24).int(unknown_b, 5)
    b.int(end, 14) if isinstance(end, int) else b.date(*end)
    return b.int(unknown_c, 10).int(0, 32).bcd(serial_digits).int(unknown_d, 5).int(0, 14).int(0, 34).record()


# --- A blank MOBIB (network 056001): printed number 639653 / 000123456789 / 4 (our own digits after
# the 639653 the peer's blank card shows), valid to 2030-12-31; no contracts, no trips ----------------
mobib_env = mobib_environment(3, 7, (2030, 12, 31), "6396530001234567894")
mobib = image(
    "Synthetic blank MOBIB (Brussels): environment only (network 056001), no contracts, no trips",
    "02F1F2F3",
    [app(fci(DF_NAME + "D05600018001", "0000000001020304", "063C0402201001"), {
        "07": [mobib_env, ZERO], "09": [ZERO] * 4, "08": [ZERO] * 3,
    })])
mobib["iso7816"]["applications"][0]["select"] = SELECT

for name, img in (("navigo.json", navigo), ("navigo-cla94.json", navigo94), ("korrigo.json", korrigo),
                  ("mobib-blank.json", mobib)):
    (OUT / name).write_text(json.dumps(img, indent=2) + "\n")
    print("wrote", OUT / name)

# --- Cross-checks (Tests/Fixtures/crosscheck): cards laid out from the published formats, whose
# expected values are a peer's documented rendering (the tests cite which). Our bytes, never a copy.
CROSS = OUT.parent / "Tests" / "Fixtures" / "crosscheck"
CROSS.mkdir(parents=True, exist_ok=True)

# Metrodroid's blank MOBIB (src/commonTest/assets/parsed/mobib_blank.json, the rendering only): raw
# fields EnvVersionNumber 3, EnvUnknownA 7, EnvNetworkId 56001, EnvUnknownB 2, validity end 0x3AA1,
# EnvUnknownC 0xA9, EnvCardSerial 6396530056446459999, EnvUnknownD 2; printed
# "639653 / 005644645999 / 9", expiry 2038-02-04.
mobib_peer = image(
    "MOBIB laid out from Metrodroid's rendering of a blank card (its raw fields): printed number "
    "639653 / 005644645999 / 9, expiry 2038-02-04",
    "02F1F2F4",
    [app(fci(DF_NAME + "D05600018001", "0000000001020305", "063C0402201001"), {
        "07": [mobib_environment(3, 7, 0x3AA1, "6396530056446459999", unknown_b=2, unknown_c=0xA9, unknown_d=2), ZERO],
        "09": [ZERO] * 4, "08": [ZERO] * 3,
    })])
mobib_peer["iso7816"]["applications"][0]["select"] = SELECT

# A Navigo Easy as Metrodroid issue #848 describes it: a 10-trip carnet whose counter reads 2359476
# (the holder: "expected: remaining 9 on 10"; Navigo keeps the trips above bit 18), beside a monthly
# pass; the contract list an EN 1545 repeat of two entries, each with its network (bitmap 111).
navigo_peer = image(
    "Navigo laid out from Intercode's published format: monthly pass 2026-03-01..2026-03-31 zones 1-5 and "
    "a 10-trip carnet whose counter is 2359476 (Metrodroid #848: 9 trips left)",
    "02A1B2C4",
    [app(fci(DF_NAME, "0000000012345678", "063C0402201001"), {
        "07": [environment(0x250901, (2031, 6, 30))],
        "1E": [contract_list([(0x0FF1, 1), (0x0FF2, 2)], with_network=0x250901)],
        "09": [contract_ff(0x0FF1, 8640, start=(2026, 3, 1), end=(2026, 3, 31), zones=[1, 2, 3, 4, 5]),
               contract_ff(0x0FF2, 1690, start=(2026, 2, 14), journeys=10), ZERO, ZERO],
        "19": [counters([0, 2359476])],
        "08": [event((2026, 3, 2), (8, 15), 0x03C5, 14, 1), ZERO, ZERO],
    })])

for name, img in (("mobib-blank-metrodroid.json", mobib_peer), ("navigo-848.json", navigo_peer)):
    (CROSS / name).write_text(json.dumps(img, indent=2) + "\n")
    print("wrote", CROSS / name)
