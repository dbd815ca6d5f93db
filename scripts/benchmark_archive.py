#!/usr/bin/python3
"""Benchmark of the history archive: what storing adds to a read, a month's `report` and `history`
of a card with 10,000 records, `export` of 100,000 records. Medians over repeated runs; not a test (the figures depend
on the machine).

  scripts/benchmark_archive.py [--build debug|release] [--runs N] [--compare OTHER_TRANSIT]

The archive is filled through transit itself, honestly: card images of Japan IC cards whose
20-record ring moves on by 20 records from one image to the next (records numbered in bytes
13-14), read by `transit decode --save` — the plugins, the merge and the store as for any read.
Ten cards of 500 images: 100,000 records, 10,000 a card. Everything runs in a temporary
XDG_DATA_HOME; nothing touches the user's archive.

"Store adds" is the median wall time of `transit scan --card IMAGE` (a card whose ring moved on
by 20 new records since the last read, against the filled archive) minus the median of the same
reads with --no-save, the runs interleaved.
"""
import argparse, json, os, pathlib, statistics, subprocess, sys, tempfile, time

ROOT = pathlib.Path(__file__).resolve().parent.parent
CARDS, IMAGES, SLOTS = 10, 500, 20


def record(n):
    """Japan IC rail trip number n (bytes 13-14), a date that advances with n, 10 yen a trip."""
    d = n // 3
    date = (10 + d // 336) << 9 | (1 + d // 28 % 12) << 5 | (1 + d % 28)
    balance = 20000 - 10 * (n % 1500)
    b = [0x16, 0x01, 0, 0, date >> 8, date & 0xFF, 0xE3, 0x3B, 0xE6, 0x21, balance & 0xFF, balance >> 8, 0, n >> 8 & 0xFF, n & 0xFF, 0x90]
    return "".join("%02X" % x for x in b), balance


def image(card, k):
    """Card `card`'s k-th read: records 20k+1 … 20k+20, newest first."""
    numbers = range(SLOTS * k + SLOTS, SLOTS * k, -1)
    blocks = [record(n)[0] for n in numbers]
    balance = record(numbers[0])[1]
    purse = "00" * 11 + "%02X%02X" % (balance & 0xFF, balance >> 8) + "000000"
    return {"format": "transit-card-image/1", "felica": {"idm": "01140000000000%02X" % card, "maxBlocksPerRead": 12,
            "systems": [{"code": "0003", "services": {"008B": [purse], "090F": blocks}}]}}


def timed(cmd, env, quiet=True):
    start = time.perf_counter()
    p = subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    elapsed = (time.perf_counter() - start) * 1000
    if p.returncode != 0 or (quiet and p.stderr):
        sys.exit(f"{' '.join(cmd)}: exit {p.returncode}: {p.stderr}")
    return elapsed


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default="release")
    ap.add_argument("--runs", type=int, default=21)
    ap.add_argument("--compare", metavar="TRANSIT", help="another transit binary (an older build) timed on the same archive, "
                    "interleaved, for a ratio that a busy machine does not skew")
    args = ap.parse_args()
    transit = str(ROOT / ".build" / args.build / "transit")
    conf = str(ROOT / "plugins.conf")
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, XDG_DATA_HOME=tmp + "/data", XDG_CONFIG_HOME=tmp + "/config")
        images = pathlib.Path(tmp) / "images"
        images.mkdir()
        start = time.perf_counter()
        for card in range(CARDS):
            files = []
            for k in range(IMAGES):
                path = images / f"card{card}-{k}.json"
                path.write_text(json.dumps(image(card, k)))
                files.append(str(path))
            p = subprocess.run([transit, "decode", "--save", "--config", conf] + files, env=env, capture_output=True, text=True)
            if p.returncode != 0 or p.stderr:
                sys.exit(f"decode --save: exit {p.returncode}: {p.stderr[:2000]}")
        fill = time.perf_counter() - start
        cards = json.loads(subprocess.run([transit, "cards", "--json"], env=env, capture_output=True, text=True).stdout)
        total = sum(c["records"] for c in cards)
        print(f"filled: {len(cards)} cards, {total} records from {CARDS * IMAGES} reads in {fill:.1f} s "
              f"({fill / (CARDS * IMAGES) * 1000:.1f} ms a read, decode + store)")
        assert total == CARDS * IMAGES * SLOTS, total

        # Storing: card 0 read again with its ring moved on (20 new records each time).
        saved, unsaved = [], []
        for k in range(args.runs):
            path = images / f"next-{k}.json"
            path.write_text(json.dumps(image(0, IMAGES + k)))
            unsaved.append(timed([transit, "scan", "--no-save", "--config", conf, "--card", str(path)], env))
            saved.append(timed([transit, "scan", "--config", conf, "--card", str(path)], env))
        s, u = statistics.median(saved), statistics.median(unsaved)
        print(f"scan --card, saved: median {s:.2f} ms; --no-save: {u:.2f} ms; storing adds {s - u:.2f} ms (target < 5 ms)")

        card0 = "01140000000000" + "00"
        records = next(c["records"] for c in cards if c["serialNumber"] == card0) + args.runs * SLOTS
        def measure(what, cmd, runs, target="", quiet=True):
            """Median of `cmd` with this build, and with --compare's interleaved, and their ratio."""
            mine, theirs = [], []
            for _ in range(runs):
                mine.append(timed([transit] + cmd, env, quiet=quiet))
                if args.compare:
                    theirs.append(timed([args.compare] + cmd, env, quiet=quiet))
            line = f"{what}: median {statistics.median(mine):.1f} ms{target}"
            if theirs:
                line += f"; {args.compare}: {statistics.median(theirs):.1f} ms, ratio {statistics.median(mine) / statistics.median(theirs):.2f}"
            print(line)

        # A month's report of that card: the month of its newest record (`record`'s dating: n // 3 days on).
        d = (SLOTS * (IMAGES + args.runs)) // 3
        month = "%04d-%02d" % (2010 + d // 336, 1 + d // 28 % 12)
        measure(f"report of a card with {records} records, one month ({month}), text", ["report", card0, "--month", month], args.runs,
                " (target < 50 ms)")
        measure("the same report as JSON", ["report", card0, "--month", month, "--format", "json"], args.runs, " (target < 50 ms)")
        measure(f"history of a card with {records} records (text)", ["history", card0], args.runs, " (target < 100 ms)")
        measure("history --json of the same card", ["history", card0, "--json"], args.runs)
        out = tmp + "/export.csv"
        measure("export --format csv of every record", ["export", "--format", "csv", "--out", out], max(5, args.runs // 2),
                " (target < 1000 ms)", quiet=False)
        rows = sum(1 for _ in open(out, newline="")) - 1
        print(f"  ({rows} records exported)")
        measure("export --format json of the same", ["export", "--format", "json", "--out", out], max(5, args.runs // 2), quiet=False)

if __name__ == "__main__":
    main()
