#!/usr/bin/env python3
"""nfcpy_suica.py: nfcpy's best recipe for the Suica read `transit scan` makes, for the benchmark.

    nfcpy_suica.py [--device usb:054c:02e1]

Run by scripts/benchmark.py under the emulated RC-S370 (Tests/Fixtures/rcs956/rcs956_emulator.py),
with nfcpy (PyPI `nfcpy`, EUPL-1.1) from the benchmark's virtual environment. It uses nfcpy's public
API only, as a user of it would, and asks the card what transit's read asks of it (its log
bundle): a Polling (nfcpy's sense at 212 kbit/s, `00 FF FF 01 00`), then Read Without Encryption
of the balance (service 008B, block 0) with history blocks 0-9 (service 090F) in one command and
blocks 10-19 in a second: as many blocks a command as the card takes (the sample's
maxBlocksPerRead is 12; nfcpy's read_without_encryption sends every block it is given in one
command). Nothing else: no NDEF probe, no presence check (nfcpy's `connect` would add both).

Prints one JSON line: the balance (008B block 0, bytes 11-12 little-endian: Metrodroid's
SuicaTransitData, as the JapanIC plugin reads it), the history blocks read, and the milliseconds from opening
the reader to closing it (the Python start and nfcpy's import left out).
"""
import argparse
import json
import sys
import time

import nfc
import nfc.clf
import nfc.tag
import nfc.tag.tt3

BALANCE, HISTORY = 0x008B, 0x090F     # Japan IC: the purse, the 20-entry history (service codes)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--device", default="usb:054c:02e1")
    args = ap.parse_args()
    started = time.perf_counter()
    clf = nfc.ContactlessFrontend(args.device)
    try:
        target = clf.sense(nfc.clf.RemoteTarget("212F"))
        if target is None:
            sys.exit("nfcpy: no card")
        tag = nfc.tag.activate(clf, target)
        purse = nfc.tag.tt3.ServiceCode(BALANCE >> 6, BALANCE & 0x3F)
        history = nfc.tag.tt3.ServiceCode(HISTORY >> 6, HISTORY & 0x3F)
        first = tag.read_without_encryption([purse, history], [nfc.tag.tt3.BlockCode(0, service=0)]
                                            + [nfc.tag.tt3.BlockCode(n, service=1) for n in range(10)])
        rest = tag.read_without_encryption([history], [nfc.tag.tt3.BlockCode(n, service=0) for n in range(10, 20)])
    finally:
        clf.close()
    elapsed = (time.perf_counter() - started) * 1000
    blocks = [bytes(first[i:i + 16]) for i in range(16, len(first), 16)] + [bytes(rest[i:i + 16]) for i in range(0, len(rest), 16)]
    print(json.dumps({"balance": first[11] | first[12] << 8, "history": len(blocks), "ms": round(elapsed, 2),
                      "idm": bytes(target.sensf_res[1:9]).hex().upper()}))


if __name__ == "__main__":
    main()
