#!/usr/bin/env python3
"""Captures reads of the bundled sample cards through pcscd + vpcd + transit-sim as log bundles in
Tests/Fixtures/captures/, which the test suite replays (`transit replay`). Run after changing a
plugin's exchanges on purpose: a replay that diverges is how the suite notices a change in them.

  scripts/capture.py
"""
import pathlib, shutil, subprocess, sys, time

ROOT = pathlib.Path(__file__).resolve().parent.parent
READER = "Virtual PCD 00 00"
CARDS = ["suica", "edy", "edy-mobile", "waon", "nanaco", "octopus", "ezlink", "tmoney", "snapper", "tunion", "unknown-iso"]


def main():
    subprocess.run(["swift", "build"], cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
    bindir = pathlib.Path(subprocess.run(["swift", "build", "--show-bin-path"], cwd=ROOT, capture_output=True,
                                         text=True).stdout.strip())
    transit, sim = str(bindir / "transit"), str(bindir / "transit-sim")
    out = ROOT / "Tests/Fixtures/captures"
    out.mkdir(parents=True, exist_ok=True)

    def visible():
        r = subprocess.run([transit, "readers"], capture_output=True, text=True)
        return r.returncode == 0 and READER in r.stdout

    pcscd = None
    if not visible():
        pcscd = subprocess.Popen([shutil.which("pcscd") or "/usr/sbin/pcscd", "--foreground"],
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for _ in range(50):
            if visible():
                break
            time.sleep(0.1)
    try:
        for card in CARDS:
            s = subprocess.Popen([sim, "--card", str(ROOT / "samples" / f"{card}.json")],
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            try:
                r = subprocess.run([transit, "scan", "--json", "--no-save", "--config", str(ROOT / "plugins.conf"), "--reader", READER, "--wait", "5", "--log",
                                    str(out / f"{card}.log.json")], cwd=ROOT, capture_output=True, text=True)
                print(f"{card}: exit {r.returncode}")
            finally:
                s.terminate()
                s.wait()
                for _ in range(30):
                    if "00 00\tcard" not in subprocess.run([transit, "readers"], capture_output=True, text=True).stdout:
                        break
                    time.sleep(0.1)
    finally:
        if pcscd:
            pcscd.terminate()
            pcscd.wait()


if __name__ == "__main__":
    main()
