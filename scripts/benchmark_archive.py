#!/usr/bin/python3
"""Benchmark of the history archive against the database's own speed (issue 47): at 1,000,
10,000 and about 100,000 records, `transit history` (text and --json), `report` over the cards'
whole life (text and JSON) and `export --format csv` (and json), each beside the sqlite3 shell
printing the same rows of the same archive as CSV, in one interleaved run; and what storing adds
to a read. Medians over repeated runs; not a test (the figures depend on the machine).

  scripts/benchmark_archive.py [--build debug|release] [--runs N] [--cards N] [--only 1000|10000|all]
                               [--compare OTHER_TRANSIT] [--data DIR] [--no-store]

The archive is filled through transit itself, honestly: card images of Japan IC cards whose
20-record ring moves on by 20 records from one image to the next (records numbered in bytes
13-14), read by `transit decode --save` — the plugins, the merge and the store as for any read.
A card of 1,000 records (#1), then --cards cards of 10,000 (#2 …): the 1,000 and 10,000 rows are
`history CARD`, `export CARD`…; the 100,000 row is every card at once (no CARD: 101,000
records). One card of 100,000 records cannot be had from a Japan IC card: it numbers its records
in 16 bits, and record 65,537 holds record 1's number with other bytes, which the archive keeps
apart as a contradiction. Everything runs in a temporary XDG_DATA_HOME (or --data DIR, filled
once and kept, for profiling); nothing touches the user's archive.

"sqlite3" is `sqlite3 -csv history.db "SELECT * FROM records WHERE card = ID ORDER BY card,
position"` (every card's rows for the 100,000 row): every column of the rows, their stored JSON
included, printed as CSV — the floor a listing of them cannot go under. "start" is transit's own
process start (`transit --version`), taken off each transit figure before its ratio: ratio =
(transit − start) ÷ sqlite3. Every command runs once a round, in turn (sqlite3, start, each
listing, --compare's), the rounds repeated --runs times; medians. Target (issue 47): history,
history --json and export csv ≤ 1.5× at 10,000 records, and about the same time a record
(µs/rec) at 100,000 as at 10,000 (linear).

"Store adds" is the median wall time of `transit scan --card IMAGE` (card #1 whose ring moved on
by 20 new records since the last read) minus the median of the same reads with --no-save,
interleaved.
"""
import argparse, json, os, pathlib, statistics, subprocess, sys, tempfile, time

ROOT = pathlib.Path(__file__).resolve().parent.parent
SLOTS = 20
BATCH = 500  # images a `decode --save`


def record(n):
    """Japan IC rail trip number n (bytes 13-14, its low 16 bits), ten trips a day from 2010 (so 100,000
    records end in 2037, within the plugin's years), 10 yen a trip."""
    d = n // 10
    date = (10 + d // 336) << 9 | (1 + d // 28 % 12) << 5 | (1 + d % 28)
    balance = 20000 - 10 * (n % 1500)
    b = [0x16, 0x01, 0, 0, date >> 8, date & 0xFF, 0xE3, 0x3B, 0xE6, 0x21, balance & 0xFF, balance >> 8, 0, n >> 8 & 0xFF, n & 0xFF, 0x90]
    return "".join("%02X" % x for x in b), balance


def day(n):
    """Record n's day as the plugin reads it (YYYY-MM-DD)."""
    d = n // 10
    return "%04d-%02d-%02d" % (2010 + d // 336, 1 + d // 28 % 12, 1 + d % 28)


def image(card, k):
    """Card `card`'s k-th read: records 20k+1 … 20k+20, newest first."""
    numbers = range(SLOTS * k + SLOTS, SLOTS * k, -1)
    blocks = [record(n)[0] for n in numbers]
    balance = record(numbers[0])[1]
    purse = "00" * 11 + "%02X%02X" % (balance & 0xFF, balance >> 8) + "000000"
    return {"format": "transit-card-image/1", "felica": {"idm": "01140000000000%02X" % card, "maxBlocksPerRead": 12,
            "systems": [{"code": "0003", "services": {"008B": [purse], "090F": blocks}}]}}


def run(cmd, env):
    p = subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if p.returncode != 0:
        sys.exit(f"{' '.join(cmd)}: exit {p.returncode}: {p.stderr[:2000]}")


def timed(cmd, env):
    start = time.perf_counter()
    run(cmd, env)
    return (time.perf_counter() - start) * 1000


def fill(transit, conf, env, images, scales):
    """One card a scale, `scale` records each, through decode --save; the cards' ids by scale."""
    start = time.perf_counter()
    reads = 0
    for card, scale in enumerate(scales):
        count = scale // SLOTS
        for first in range(0, count, BATCH):
            files = []
            for k in range(first, min(count, first + BATCH)):
                path = images / f"card{card}-{k}.json"
                path.write_text(json.dumps(image(card, k)))
                files.append(str(path))
            p = subprocess.run([transit, "decode", "--save", "--config", conf] + files, env=env, capture_output=True, text=True)
            if p.returncode != 0 or p.stderr:
                sys.exit(f"decode --save: exit {p.returncode}: {p.stderr[:2000]}")
            for f in files:
                os.unlink(f)
            reads += len(files)
    took = time.perf_counter() - start
    print(f"filled: {reads} reads in {took:.1f} s ({took / max(1, reads) * 1000:.1f} ms a read, decode + store)")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default="release")
    ap.add_argument("--runs", type=int, default=9)
    ap.add_argument("--cards", type=int, default=10, help="cards of 10,000 records (besides the one of 1,000)")
    ap.add_argument("--compare", metavar="TRANSIT", help="another transit binary (an older build) timed on the same archive, "
                    "interleaved, for a ratio that a busy machine does not skew")
    ap.add_argument("--data", metavar="DIR", help="the XDG_DATA_HOME to fill (when it holds no archive) and keep")
    ap.add_argument("--no-store", action="store_true", help="skip what storing adds to a read")
    ap.add_argument("--only", choices=["1000", "10000", "all"], action="append", help="only this scale (repeatable)")
    args = ap.parse_args()
    transit = str(ROOT / ".build" / args.build / "transit")
    conf = str(ROOT / "plugins.conf")
    # A card of 1,000 records, then --cards cards of 10,000: the 100,000 scale is every card at
    # once (`history` and `export` without CARD). One card of 100,000 records cannot be had: a
    # Japan IC card numbers its records in 16 bits, and record 65,537 holds the number of record 1
    # with other bytes, which the archive rightly keeps apart as a contradiction.
    scales = [1000] + [10000] * args.cards
    with tempfile.TemporaryDirectory() as tmp:
        data = os.path.abspath(args.data) if args.data else tmp + "/data"
        env = dict(os.environ, XDG_DATA_HOME=data, XDG_CONFIG_HOME=tmp + "/config", NO_COLOR="1")
        db = data + "/transit/history.db"
        images = pathlib.Path(tmp) / "images"
        images.mkdir()
        if not os.path.exists(db):
            fill(transit, conf, env, images, scales)
        cards = json.loads(subprocess.run([transit, "cards", "--json"], env=env, capture_output=True, text=True).stdout)
        by_serial = {c["serialNumber"]: c for c in cards}

        if not args.no_store:
            # Storing: the smallest card read again with its ring moved on (20 new records each time).
            saved, unsaved = [], []
            base = scales[0] // SLOTS
            for k in range(args.runs):
                path = images / f"next-{k}.json"
                path.write_text(json.dumps(image(0, base + k)))
                unsaved.append(timed([transit, "scan", "--no-save", "--config", conf, "--card", str(path)], env))
                saved.append(timed([transit, "scan", "--config", conf, "--card", str(path)], env))
            s, u = statistics.median(saved), statistics.median(unsaved)
            print(f"scan --card, saved: median {s:.2f} ms; --no-save: {u:.2f} ms; storing adds {s - u:.2f} ms (target < 5 ms)")

        print(f"\nmedians of {args.runs} interleaved rounds (ms); ratio = (transit − start) ÷ sqlite3; per record: (transit − start) ÷ records")
        header = f"{'records':>8}  {'measure':<28} {'sqlite3':>8} {'start':>6} {'transit':>8} {'ratio':>6} {'µs/rec':>7}"
        if args.compare:
            header += f" {'compare':>8} {'ratio':>6}"
        print(header)
        total = sum(c["records"] for c in cards)
        every = "every card"
        for label, card in [("1000", 0), ("10000", 1), ("all", None)]:
            if args.only and label not in args.only:
                continue
            c = by_serial.get("01140000000000%02X" % card) if card is not None else None
            if card is not None and not c:
                sys.exit(f"no card {card} in {db}")
            handle, records = (c["id"], c["records"]) if c else (None, total)
            which = f"card = {handle[1:]}" if handle else "1"
            first, last = day(1), day(10000 * 10 + SLOTS * 2000)
            dump = ["sqlite3", "-csv", db, f"SELECT * FROM records WHERE {which} ORDER BY card, position"]
            card_args = [handle] if handle else []
            measures = [
                ("history (text)", ["history"] + card_args),
                ("history --json", ["history"] + card_args + ["--json"]),
                # To standard output, as sqlite3 prints: `--out FILE` adds the file's fsync and rename.
                ("export --format csv", ["export"] + card_args + ["--format", "csv"]),
                ("export --format json", ["export"] + card_args + ["--format", "json"]),
                ("report, whole life (text)", ["report"] + card_args + ["--from", first, "--to", last]),
                ("report, whole life (json)", ["report"] + card_args + ["--from", first, "--to", last, "--format", "json"]),
            ]
            times = {"start": [], "sqlite3": []}
            for _ in range(args.runs):
                times["sqlite3"].append(timed(dump, env))
                times["start"].append(timed([transit, "--version"], env))
                for name, cmd in measures:
                    times.setdefault(name, []).append(timed([transit] + cmd, env))
                    if args.compare:
                        times.setdefault(name + " compare", []).append(timed([args.compare] + cmd, env))
            m = {k: statistics.median(v) for k, v in times.items()}
            for name, cmd in measures:
                base = m["sqlite3"]
                mine = m[name] - m["start"]
                line = f"{records:>8}  {name:<28} {base:>8.1f} {m['start']:>6.1f} {m[name]:>8.1f} {mine / base:>6.2f} {mine / records * 1000:>7.2f}"
                if args.compare:
                    theirs = m[name + " compare"]
                    line += f" {theirs:>8.1f} {(theirs - m['start']) / base:>6.2f}"
                print(line, flush=True)

if __name__ == "__main__":
    main()
