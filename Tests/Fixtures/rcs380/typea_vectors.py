#!/usr/bin/env python3
"""typea_vectors.py: checks rcs380_emulator.py's 106 kbit/s type A card against nfcpy's documented
frames, in process (no umockdev device, no transit).

    python3 Tests/Fixtures/rcs380/typea_vectors.py [-v]

The host's commands are nfcpy's, byte for byte, from its tests/test_clf_rcs380.py (EUPL; facts
only): test_sense_tta_with_no_target_found, test_sense_tta_find_tt2_target_uid_7 and
test_sense_tta_tt2_request_uid_7 (the SEL_REQ `93 70 88 01 02 03 88`, its BCC included),
test_send_cmd_recv_rsp_with_tt2_target (`02 040102000501`). The card's answers are checked against
ISO/IEC 14443-3 (SENS_RES, UID CLn and BCC, SAK and the cascade bit, CRC_A with Annex B's examples)
and NXP MF0ICU1 (READ: four pages, roll-over, NAK past the memory), never against transit's Swift
code. The card is a made-up image with nfcpy's UID 01 02 … 07. Exit 0 when every check holds.
"""

import os
import sys
import tempfile
import threading
import time
import types
import json

HERE = os.path.dirname(os.path.abspath(__file__))
sys.argv = [sys.argv[0]] + [a for a in sys.argv[1:] if a == "-v"]
sys.path.insert(0, HERE)
import rcs380_emulator as emu  # noqa: E402

VERBOSE = "-v" in sys.argv
failures = []


def FRAME(hexstr):
    """A Port-100 frame around the data (docs/research/port100.md §"Frames"), as nfcpy's tests build it."""
    data = bytes.fromhex(hexstr.replace(" ", ""))
    n = bytes([len(data) % 256, len(data) // 256])
    return b"\x00\x00\xff\xff\xff" + n + bytes([256 - sum(n) & 255]) + data + bytes([256 - sum(data) & 255]) + b"\x00"


def CMD(hexstr):
    return FRAME("D6" + hexstr)


DEFAULTS = "02 00180101020103000400050006000708 080009000a000b000c000e040f001000 110012001306"


def check(what, got, expected):
    ok = got == expected
    if not ok:
        failures.append("%s: got %s, expected %s" % (what, got.hex() if isinstance(got, bytes) else got,
                                                     expected.hex() if isinstance(expected, bytes) else expected))
    if VERBOSE or not ok:
        print("%s %s" % ("ok  " if ok else "FAIL", what))


class Chip:
    """The emulator's Port-100 with a card, driven frame by frame."""

    def __init__(self, image):
        path = os.path.join(tempfile.mkdtemp(), "card.json")
        with open(path, "w") as f:
            json.dump(image, f)
        opts = types.SimpleNamespace(kernel_driver=None, unplug_after=None, silent_after=None, garbage_answers=False,
                                     bitrate_424_only=False, card_slack_ms=500, damage=None, damage_status="crc",
                                     card=path, card_sim=None, index=None, sim_args=[])
        self.log = emu.TransferLog(None, False)
        self.cv = threading.Condition()
        self.card = emu.load_card(opts, self.log)
        self.chip = emu.Port100(opts, self.card, self.log, self.cv)

    def send(self, frame):
        """The data of the chip's answer to one command frame (after its ACK), `D7 …`."""
        self.chip.host_out(frame)
        got = []
        deadline = time.monotonic() + 2
        with self.cv:
            while len(got) < 2 and time.monotonic() < deadline:
                while self.chip.in_queue and len(got) < 2:
                    got.append(self.chip.in_queue.popleft().data)
                if len(got) < 2:
                    self.cv.wait(0.05)
        if len(got) < 2 or got[0] != emu.ACK:
            return None
        answer = got[1]
        n = answer[5] | answer[6] << 8
        return answer[8:8 + n]

    def stop(self):
        self.chip.stop()


def rsp(hexstr):
    return bytes.fromhex(("D7" + hexstr).replace(" ", ""))


def main():
    # ISO/IEC 14443-3 Annex B's CRC_A examples, and nfcpy's Type 2 fixture ("34" ends CD F5).
    check("CRC_A 00 00", emu.crc_a(b"\x00\x00"), bytes.fromhex("A01E"))
    check("CRC_A 12 34", emu.crc_a(b"\x12\x34"), bytes.fromhex("26CF"))
    check("CRC_A 33 34", emu.crc_a(b"\x33\x34"), bytes.fromhex("CDF5"))

    pages = ["01020388", "04050607", "00000000", "00000000"] + ["%02X%02X%02X%02X" % (4 * p, 4 * p + 1, 4 * p + 2, 4 * p + 3)
                                                                 for p in range(4, 16)]
    ul = Chip({"format": "transit-card-image/1", "mifareUltralight": {"uid": "01020304050607", "pages": pages}})
    try:
        sense = [CMD("00 02030f03"), CMD(DEFAULTS), CMD("02 01000200050100060707")]
        for i, frame in enumerate(sense):
            check("sense setting %d" % i, ul.send(frame), rsp("01 00" if i == 0 else "03 00"))
        # SENS_RES of an Ultralight: 0044, least significant byte first (MF0ICU1 8.4; nfcpy's 4400).
        check("SENS_REQ -> SENS_RES", ul.send(CMD("04 360126")), rsp("05 00000000 08 4400"))
        check("02 04010708", ul.send(CMD("02 04010708")), rsp("03 00"))
        check("02 01000200", ul.send(CMD("02 01000200")), rsp("03 00"))
        # UID CL1: the cascade tag, three UID bytes, BCC (their XOR: 88).
        check("SDD_REQ CL1", ul.send(CMD("04 36019320")), rsp("05 00000000 08 88010203 88"))
        check("02 01010201", ul.send(CMD("02 01010201")), rsp("03 00"))
        # nfcpy's test_sense_tta_tt2_request_uid_7 SEL_REQ; SAK 04 (cascade bit), its CRC removed by the chip.
        check("SEL_REQ CL1", ul.send(CMD("04 360193708801020388")), rsp("05 00000000 08 04"))
        check("02 01000200 again", ul.send(CMD("02 01000200")), rsp("03 00"))
        check("SDD_REQ CL2", ul.send(CMD("04 36019520")), rsp("05 00000000 08 04050607 00"))
        check("02 01010201 again", ul.send(CMD("02 01010201")), rsp("03 00"))
        check("SEL_REQ CL2 -> SAK 00", ul.send(CMD("04 360195700405060700")), rsp("05 00000000 08 00"))
        # nfcpy's Type 2 exchange settings, then READ 30 04 with 1 s: pages 4-7 and their CRC_A, unchecked by the chip.
        check("InSetRF 106A", ul.send(CMD("00 02030f03")), rsp("01 00"))
        check("defaults", ul.send(CMD(DEFAULTS)), rsp("03 00"))
        check("02 040102000501", ul.send(CMD("02 040102000501")), rsp("03 00"))
        data = bytes(range(16, 32))
        check("READ 4", ul.send(CMD("04 1a27 3004")), rsp("05 00000000 08") + data + emu.crc_a(data))
        # Roll-over: page 14 gives 14, 15, 0, 1 (MF0ICU1 9.3).
        data = bytes(range(56, 64)) + bytes.fromhex("0102038804050607")
        check("READ 14 rolls over", ul.send(CMD("04 1a27 300e")), rsp("05 00000000 08") + data + emu.crc_a(data))
        # Past the memory: a 4-bit NAK, handed over as one byte; the tag falls back to IDLE.
        check("READ 16: NAK", ul.send(CMD("04 1a27 3010")), rsp("05 00000000 08 00"))
        check("READ after NAK: silent", ul.send(CMD("04 1a27 3004")), rsp("05 80000000"))
    finally:
        ul.stop()

    # A Classic 1K: SENS_RES 0004, SAK 08 (AN10833), a 4-byte UID; SEL_REQ with CRC_A checked.
    blocks = ["3A5C7E91890804006263646566676869"] + ["00" * 16] * 63
    mc = Chip({"format": "transit-card-image/1", "mifareClassic": {"uid": "3A5C7E91", "type": "1K", "atqa": "0004", "sak": "08", "blocks": blocks}})
    try:
        for frame in [CMD("00 02030f03"), CMD(DEFAULTS), CMD("02 01000200050100060707")]:
            mc.send(frame)
        check("Classic SENS_RES", mc.send(CMD("04 360126")), rsp("05 00000000 08 0400"))
        mc.send(CMD("02 04010708"))
        mc.send(CMD("02 01000200"))
        check("Classic SDD_REQ", mc.send(CMD("04 36019320")), rsp("05 00000000 08 3A5C7E91 89"))
        # A SEL_REQ sent without CRC (add CRC still 0) is no SEL_REQ to the card: silent.
        check("SEL_REQ without CRC: silent", mc.send(CMD("04 360193703A5C7E9189")), rsp("05 80000000"))
    finally:
        mc.stop()

    # No card: nfcpy's test_sense_tta_with_no_target_found answer.
    none = Chip({"format": "transit-card-image/1", "mifareUltralight": {"uid": "01020304050607", "pages": pages}})
    try:
        none.card.power(False)
        none.card.power = lambda on: None  # never powered: as good as no card
        for frame in [CMD("00 02030f03"), CMD(DEFAULTS), CMD("02 01000200050100060707")]:
            none.send(frame)
        check("no card: RECEIVE_TIMEOUT", none.send(CMD("04 360126")), rsp("05 80000000"))
    finally:
        none.stop()

    # A SENS_REQ of 8 bits (07 left at 08) is not a short frame: the card stays silent.
    odd = Chip({"format": "transit-card-image/1", "mifareUltralight": {"uid": "01020304050607", "pages": pages}})
    try:
        for frame in [CMD("00 02030f03"), CMD(DEFAULTS), CMD("02 01000200")]:
            odd.send(frame)
        check("8-bit SENS_REQ: silent", odd.send(CMD("04 360126")), rsp("05 80000000"))
    finally:
        odd.stop()

    for f in failures:
        print("FAIL " + f)
    print("%d failure(s)" % len(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    code = main()
    sys.stdout.flush()
    os._exit(code)
