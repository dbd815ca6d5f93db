#!/usr/bin/env python3
"""selftest.py: runs rcs380_emulator.py through its scenarios with libusb_probe.py and
libusb_edgecases.py, timing each run.

    python3 Tests/Fixtures/rcs380/selftest.py [--card-sim PATH] [-k SUBSTRING] [-v]

transit-sim: --card-sim, else $TRANSIT_SIM, else .build/debug/transit-sim in this checkout; without
one, the scenarios that need a card are skipped. Exit 0 when every scenario ran as expected.
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", "..", ".."))
EMULATOR = os.path.join(HERE, "rcs380_emulator.py")
PROBE = os.path.join(HERE, "libusb_probe.py")
EDGE = os.path.join(HERE, "libusb_edgecases.py")
SUICA = os.path.join(ROOT, "samples", "suica.json")
PY = "/usr/bin/python3"  # reachable by user nobody, unlike a pyenv shim under /root


def scenarios(sim):
    card = ["--card-sim", sim, "--card", SUICA] if sim else None
    probe = [PY, PROBE, "--card", SUICA]
    return [
        # name, emulator options (None: needs a card), COMMAND, expected exit, output regex, max seconds
        ("read Suica (root)", card, probe, 0, r"balance 2010 yen", 5),
        ("read Suica (nobody, node 0666)", card and card + ["--as-nobody"], probe, 0, r"balance 2010 yen", 5),
        ("nobody, node 0600: LIBUSB_ERROR_ACCESS", card and card + ["--as-nobody", "--node-mode", "0600"],
         [PY, PROBE], 3, r"libusb_open: LIBUSB_ERROR_ACCESS", 5),
        ("root, node 0600: opens", card and card + ["--node-mode", "0600"], probe, 0, r"balance 2010", 5),
        ("RC-S380/P (06c3)", card and card + ["--product", "06c3"], probe, 0, r"product: RC-S380/P", 5),
        ("no card: V6 timeout", ["--no-card"], [PY, PROBE, "--expect-no-card"], 0, r"RECEIVE_TIMEOUT as V6", 5),
        ("424-only card polled at 212F", card and card + ["--bitrate-424-only"], probe, 5, r"status 00000080", 5),
        ("424-only card read at 424F", card and card + ["--bitrate-424-only"], probe + ["--bitrate", "424"], 0,
         r"balance 2010", 5),
        ("silent after 3 OUT transfers", card and card + ["--silent-after", "3"], probe, 1,
         r"GetPDDataVersion ACK: expected 0000ff00ff00, got nothing", 6),
        ("silent device: 2 s read times out", ["--no-card", "--silent-after", "5"],
         [PY, PROBE, "--read-timeout-ms", "2000"], 0, r"idle read: timeout after 20\d\d", 6),
        ("card pulled after 1 APDU", card and card + ["--sim-args", "--remove-after", "1"], probe, 1,
         r"Read Without Encryption: InCommRF answer .*status 00000080", 6),
        ("card hangs after 1 APDU", card and card + ["--sim-args", "--hang-after", "1"], probe, 1,
         r"status 00000080", 7),
        ("port100 bound, no detach: BUSY", card and card + ["--kernel-driver", "port100"], probe, 1,
         r"active on interface 0: 1.*LIBUSB_ERROR_BUSY", 5),
        ("port100 bound, libusb_detach_kernel_driver", card and card + ["--kernel-driver", "port100"],
         probe + ["--detach"], 0, r"detach kernel driver: ok.*balance 2010", 5),
        ("port100 bound, auto-detach", card and card + ["--kernel-driver", "port100"],
         probe + ["--auto-detach"], 0, r"balance 2010", 5),
        ("unplugged after 3 OUT transfers", card and card + ["--unplug-after", "3"], probe, 1,
         r"LIBUSB_ERROR_NO_DEVICE", 5),
        ("edge cases (no card)", ["--no-card"], [PY, EDGE], 0, r"0 failure\(s\)", 8),
        ("hung COMMAND killed by --timeout", ["--no-card", "--timeout", "2"], ["sleep", "30"], 124, r"", 5),
        ("COMMAND's exit code", ["--no-card"], ["sh", "-c", "exit 7"], 7, r"", 5),
    ]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--card-sim")
    ap.add_argument("-k", dest="only")
    ap.add_argument("-v", action="store_true")
    args = ap.parse_args()
    sim = args.card_sim or os.environ.get("TRANSIT_SIM")
    if not sim:
        built = os.path.join(ROOT, ".build", "debug", "transit-sim")
        sim = built if os.path.exists(built) else None
    bad = 0
    total = time.monotonic()
    for name, options, command, want, pattern, limit in scenarios(sim):
        if args.only and args.only not in name:
            continue
        if options is None:
            print("SKIP  %-46s (no transit-sim)" % name)
            continue
        with tempfile.NamedTemporaryFile(prefix="rcs380-", suffix=".log") as log:
            argv = [PY, EMULATOR, "--log", log.name] + options + ["--"] + command
            t = time.monotonic()
            try:
                p = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=limit + 30,
                                   cwd=ROOT, text=True)
                out, rc = p.stdout, p.returncode
            except subprocess.TimeoutExpired as e:
                out, rc = (e.stdout or b"").decode() if isinstance(e.stdout, bytes) else (e.stdout or ""), "hung"
            wall = time.monotonic() - t
            outs = sum(1 for line in open(log.name) if line.startswith("OUT "))
        ok = rc == want and re.search(pattern, out, re.S) is not None and wall <= limit
        bad += not ok
        print("%s  %-46s exit %-4s %5.2f s  %3d bulk OUT" % ("ok  " if ok else "FAIL", name, rc, wall, outs))
        if args.v or not ok:
            print("      " + " ".join(argv))
            if not ok:
                print("      expected exit %s, output matching %r, under %g s" % (want, pattern, limit))
                print("      " + out.replace("\n", "\n      "))
    print("%d failure(s), %.1f s" % (bad, time.monotonic() - total))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
