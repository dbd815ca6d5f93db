#!/usr/bin/env python3
"""Benchmark: exchanges per read and wall time through pcscd + vpcd, and start-up of `transit plugins`.

Not a test: the figures depend on the machine. Reports medians over repeated runs.

  scripts/benchmark.py [--build debug|release] [--runs N] [--latency-ms 5]

Exchanges are counted from the simulator's exchange log (every APDU the reader passed to the card,
the host's UID and Request System Code included). Wall time is one `transit scan` process, start to
exit, with the simulated card answering each APDU after --latency-ms.
"""
import argparse, os, pathlib, shutil, statistics, subprocess, sys, tempfile, time

ROOT = pathlib.Path(__file__).resolve().parent.parent
READER = "Virtual PCD 00 00"
# card, family, budget, and whether the budget counts the whole read or only the plugin's own
# exchanges (from the first command after the host's UID and Request System Code, for FeliCa purses).
CARDS = [("suica.json", "japan-ic", 4, "read"), ("edy.json", "edy", 5, "plugins"), ("waon.json", "waon", 5, "plugins"),
         ("nanaco.json", "nanaco", 5, "plugins"), ("octopus.json", "octopus", 2, "plugins"), ("ezlink.json", "cepas", 4, "read"),
         ("tmoney.json", "ksx6924", 5 + 4, "read"), ("tunion.json", "tunion", 20, "read")]  # T-Money: 5 + its 4 records
HOST_FELICA_EXCHANGES = 2  # FF CA (IDm) and Request System Code


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def readers_visible(transit):
    r = run([transit, "readers"])
    return r.returncode == 0 and READER in r.stdout


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default="release", choices=["debug", "release"])
    ap.add_argument("--runs", type=int, default=15)
    ap.add_argument("--latency-ms", type=float, default=5)
    args = ap.parse_args()

    subprocess.run(["swift", "build", "-c", args.build], cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
    bindir = pathlib.Path(run(["swift", "build", "-c", args.build, "--show-bin-path"], cwd=ROOT).stdout.strip())
    transit, sim = str(bindir / "transit"), str(bindir / "transit-sim")

    pcscd = None
    if not readers_visible(transit):
        pcscd = subprocess.Popen([shutil.which("pcscd") or "/usr/sbin/pcscd", "--foreground"],
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for _ in range(50):
            if readers_visible(transit):
                break
            time.sleep(0.1)
        else:
            sys.exit("pcscd with vsmartcard-vpcd did not come up (scripts/setup.sh installs them)")

    print(f"transit benchmark: {args.build} build, {args.runs} runs each, card latency {args.latency_ms} ms per APDU")
    print(f"{'card':<14}{'family':<10}{'exchanges':>10}{'counted':>9}{'target':>8}{'median ms':>11}{'min ms':>8}{'max ms':>8}")
    failures = 0
    try:
        with tempfile.TemporaryDirectory() as tmp:
            for card, family, target, counting in CARDS:
                log = pathlib.Path(tmp) / f"{card}.log"
                s = subprocess.Popen([sim, "--card", str(ROOT / "samples" / card), "--latency-ms", str(args.latency_ms),
                                      "--log", str(log)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                try:
                    times, counts = [], []
                    for i in range(args.runs + 1):  # the first run waits for pcscd to see the card: not counted
                        before = len(log.read_text().splitlines()) if log.exists() else 0
                        t0 = time.perf_counter()
                        r = run([transit, "scan", "--json", "--reader", READER, "--wait", "5"], cwd=ROOT)
                        elapsed = (time.perf_counter() - t0) * 1000
                        if r.returncode != 0 or f'"family":"{family}"' not in r.stdout:
                            sys.exit(f"{card}: scan failed: {r.stderr.strip()}")
                        if i:
                            times.append(elapsed)
                            counts.append(len(log.read_text().splitlines()) - before)
                finally:
                    s.terminate()
                    s.wait()
                    for _ in range(30):  # let pcscd see the card go before the next one
                        if "00 00\tcard" not in run([transit, "readers"]).stdout:
                            break
                        time.sleep(0.1)
                exchanges = statistics.median(counts)
                counted = exchanges - (HOST_FELICA_EXCHANGES if counting == "plugins" else 0)
                failures += counted > target
                print(f"{card:<14}{family:<10}{exchanges:>10g}{counted:>9g}{'≤' + str(target):>8}{statistics.median(times):>11.1f}"
                      f"{min(times):>8.1f}{max(times):>8.1f}")

        startup = []
        for i in range(max(args.runs, 20) + 1):
            t0 = time.perf_counter()
            r = run([transit, "plugins", "--config", str(ROOT / "plugins.conf")])
            if r.returncode != 0 or "refused" in r.stdout:
                sys.exit(f"transit plugins failed: {r.stdout} {r.stderr}")
            if i:
                startup.append((time.perf_counter() - t0) * 1000)
        median = statistics.median(startup)
        failures += median >= 30
        print(f"transit plugins (all plugins of plugins.conf loaded): median {median:.1f} ms "
              f"(min {min(startup):.1f}, max {max(startup):.1f}), target < 30 ms")
    finally:
        if pcscd:
            pcscd.terminate()
            pcscd.wait()
    if failures:
        print(f"{failures} figure(s) over target")
        sys.exit(1)


if __name__ == "__main__":
    main()
