#!/usr/bin/python3
"""Soak of `transit watch` (issue 47): TAPS taps on virtual readers, each card changed as soon as
the watch has read it, every family of samples/ in turn, the archive on; the watch's RSS, threads
and open files sampled every 100 taps (and at the end), between taps.

  scripts/soak.py [--taps 10000] [--seed 47] [--readers 2] [--build release] [--transit PATH]
                  [--sim PATH] [--every 100] [--summary FILE]

It needs root: pcscd runs in a private mount and network namespace (`unshare -mn`, a tmpfs on
/run/pcscd, as Tests/TestSupport/VirtualReaderHarness.swift does), with --readers vsmartcard vpcd
readers of two slots each; transit and transit-sim run inside through nsenter. The machine's own
pcscd is never used. The archive is a temporary XDG_DATA_HOME of the soak's own.

A tap: transit-sim starts with the next card on a slot, the soak waits for the watch's JSON line
for that reader, ends the simulator and waits until pcscd has seen the card go (`transit
readers`), so the next card is a new tap. pcscd looks at a vpcd slot about every 400 ms, so a tap
takes most of a second: the slots are tapped at once, a round a tap on each, and the samples are
taken between rounds (every slot empty). The cards are every sample below in turn, from a place
the seed picks (the same seed, the same taps).

Flat means (checked at the end, exit 1 naming what failed): RSS growth under 2 MB from the
sample after the first 500 taps on (skipped for a soak shorter than 600 taps), threads at every
sample the same as after the first round (before it the watch has not opened its readers) and
open files never above it (a replaced plugin worker's pipes are closed for a sample), no error line, no line missed, and every tap kept in the archive (its reads counted by
`transit cards --json`).
"""
import argparse, json, os, pathlib, queue, random, shutil, signal, subprocess, sys, tempfile, threading, time

ROOT = pathlib.Path(__file__).resolve().parent.parent
# One sample of each family that reads without keys or options (the Classic samples need --keys).
CARDS = ["suica.json", "edy.json", "waon.json", "nanaco.json", "octopus.json", "ezlink.json", "tmoney.json", "snapper.json",
         "tunion.json", "beijing.json", "opal.json", "clipper.json", "orca.json", "hsl.json", "navigo.json", "compass.json",
         "troika-ul.json", "ventra.json"]
VPCD = "/usr/lib/pcsc/drivers/serial/libifdvpcd.so"
PORT = 35963  # the first reader's first slot; each vpcd reader has two slots (ports p and p + 1)


class Namespace:
    """pcscd and one vpcd reader in namespaces of their own (VirtualReaderHarness's recipe)."""

    def __init__(self, folder, transit, env, readers):
        self.folder, self.transit, self.env = folder, transit, env
        # Reader i: "Virtual PCD i" on ports PORT + 2i (slot "… 00 00") and PORT + 2i + 1 ("… 00 01").
        self.slots = [(PORT + 2 * i + k, f"Virtual PCD {i} 00 0{k}") for i in range(readers) for k in range(2)]
        for tool in ["/usr/sbin/pcscd", "/usr/bin/unshare", "/usr/bin/nsenter", "/usr/sbin/ip", VPCD]:
            if not os.path.exists(tool):
                sys.exit(f"soak: {tool} is missing (pcscd, vsmartcard-vpcd, util-linux, iproute2)")
        if os.getuid() != 0:
            sys.exit("soak: needs root (a pcscd of its own in private namespaces)")
        conf = folder / "reader.conf.d"
        conf.mkdir()
        for i in range(readers):
            # A copy of the library a reader: vpcd keeps one socket table per loaded library.
            library, port = folder / f"libifdvpcd-{i}.so", PORT + 2 * i
            shutil.copy(os.path.realpath(VPCD), library)
            (conf / f"reader-{i}").write_text(f'FRIENDLYNAME "Virtual PCD {i}"\nDEVICENAME   /dev/null:{port:#x}\nLIBPATH      {library}\n'
                                              f"CHANNELID    {port:#x}\n\n")
        os.makedirs("/run/pcscd", exist_ok=True)
        self.anchor = subprocess.Popen(["/usr/bin/unshare", "--mount", "--net", "--propagation", "private", "--", "/bin/sh", "-c",
                                        "mount -t tmpfs -o mode=0755 tmpfs /run/pcscd && /usr/sbin/ip link set lo up && exec sleep 100000"],
                                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for _ in range(100):
            if pathlib.Path(f"/proc/{self.anchor.pid}/comm").read_text().startswith("sleep"):
                break
            time.sleep(0.05)
        self.pcscd = self.start(["/usr/sbin/pcscd", "--foreground", "-c", str(conf)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for _ in range(100):
            listed = self.readers()
            if all(name in listed for _, name in self.slots):
                return
            time.sleep(0.1)
        self.stop()
        sys.exit("soak: pcscd did not show the virtual readers")

    def command(self, argv):
        return ["/usr/bin/nsenter", "--target", str(self.anchor.pid), "--mount", "--net", f"--wd={ROOT}", "--"] + argv

    def start(self, argv, **kw):
        return subprocess.Popen(self.command(argv), env=self.env, **kw)

    def readers(self):
        return subprocess.run(self.command([self.transit, "readers"]), env=self.env, capture_output=True, text=True).stdout

    def stop(self):
        for p in [getattr(self, "pcscd", None), self.anchor]:
            if p and p.poll() is None:
                p.terminate()
                p.wait()


def sample(pid):
    """The process's RSS (kB), threads and open files, from /proc."""
    status = dict(line.split(":", 1) for line in pathlib.Path(f"/proc/{pid}/status").read_text().splitlines() if ":" in line)
    return int(status["VmRSS"].split()[0]), int(status["Threads"]), len(os.listdir(f"/proc/{pid}/fd"))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--taps", type=int, default=10000)
    ap.add_argument("--seed", type=int, default=47)
    ap.add_argument("--build", default="release")
    ap.add_argument("--transit", help="the transit binary (default .build/BUILD/transit)")
    ap.add_argument("--sim", help="the transit-sim binary (default beside transit)")
    ap.add_argument("--every", type=int, default=100, help="taps between samples")
    ap.add_argument("--readers", type=int, default=2, help="vpcd readers (two slots each), tapped at once")
    ap.add_argument("--timeout", type=float, default=15, help="seconds a tap may take to be read")
    ap.add_argument("--summary", help="write the samples and the verdict as JSON here")
    args = ap.parse_args()
    transit = os.path.abspath(args.transit or ROOT / ".build" / args.build / "transit")
    sim = os.path.abspath(args.sim or pathlib.Path(transit).parent / "transit-sim")
    rng = random.Random(args.seed)
    start = rng.randrange(len(CARDS))
    order = [str(ROOT / "samples" / CARDS[(start + i) % len(CARDS)]) for i in range(len(CARDS))]
    for path in [transit, sim] + order:
        if not os.path.exists(path):
            sys.exit(f"soak: {path} is missing")

    with tempfile.TemporaryDirectory(prefix="transit-soak-") as tmp:
        folder = pathlib.Path(tmp)
        env = dict(os.environ, XDG_DATA_HOME=str(folder / "data"), XDG_CONFIG_HOME=str(folder / "config"), NO_COLOR="1")
        ns = Namespace(folder, transit, env, args.readers)
        watch = None
        try:
            watch = ns.start([transit, "watch", "--json"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            lines = {name: queue.Queue() for _, name in ns.slots}
            problems, strays = [], []

            def route():
                for line in watch.stdout:
                    try:
                        reader = json.loads(line).get("reader")
                    except ValueError:
                        reader = None
                    (lines[reader].put(line) if reader in lines else strays.append(line.strip()))
            threading.Thread(target=route, daemon=True).start()
            threading.Thread(target=lambda: [problems.append(l.rstrip()) for l in watch.stderr], daemon=True).start()
            samples, errors, began = [], [], time.monotonic()
            read, families = {}, set()  # taps read, by card file; the families they were read as
            missed = [0]
            print(f"soak: {args.taps} taps on {len(ns.slots)} virtual slots, seed {args.seed}, {len(order)} cards from {CARDS[start]}, "
                  f"watch pid {watch.pid}", flush=True)
            print(f"{'taps':>6} {'RSS kB':>8} {'threads':>7} {'fds':>4} {'errors':>6} {'missed':>6} {'s':>7}", flush=True)

            def take(taps):
                rss, threads, fds = sample(watch.pid)
                samples.append({"taps": taps, "rssKB": rss, "threads": threads, "fds": fds, "errors": len(errors) + len(problems) + len(strays),
                                "missed": missed[0], "seconds": round(time.monotonic() - began, 1)})
                s = samples[-1]
                print(f"{taps:>6} {rss:>8} {threads:>7} {fds:>4} {s['errors']:>6} {missed[0]:>6} {s['seconds']:>7}", flush=True)

            def tap(number, port, name):
                """One card on the slot of `port`, read, taken away, seen gone."""
                card = order[(number - 1) % len(order)]
                s = ns.start([sim, "--card", card, "--port", str(port)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                try:
                    line = lines[name].get(timeout=args.timeout)
                    seen = json.loads(line)
                    if "error" in seen or not seen.get("card"):
                        errors.append(f"tap {number} ({pathlib.Path(card).name}): {line.strip()[:300]}")
                    else:
                        read[pathlib.Path(card).name] = read.get(pathlib.Path(card).name, 0) + 1
                        families.add(seen["card"].get("family", ""))
                except queue.Empty:
                    missed[0] += 1
                    errors.append(f"tap {number} ({pathlib.Path(card).name}) on {name}: no line in {args.timeout} s")
                s.terminate()
                s.wait()
                # The card gone as pcscd sees it: the next card on the slot is a tap of its own.
                for _ in range(200):
                    if f"{name}\tcard" not in ns.readers():
                        break
                    time.sleep(0.02)

            take(0)
            done = 0
            while done < args.taps:
                # A round: a tap on each slot at once, then every slot empty (between taps).
                round_taps = [(done + k + 1, port, name) for k, (port, name) in enumerate(ns.slots[:args.taps - done])]
                workers = [threading.Thread(target=tap, args=t) for t in round_taps]
                for w in workers:
                    w.start()
                for w in workers:
                    w.join()
                before, done = done, done + len(round_taps)
                if done // args.every > before // args.every or done == args.taps:
                    take(done)
            time.sleep(0.5)  # a line still on its way is counted
            for q in lines.values():
                while not q.empty():
                    strays.append(q.get().strip())
            watch.send_signal(signal.SIGINT)
            watch.wait(timeout=30)
            cards = json.loads(subprocess.run([transit, "cards", "--json"], env=env, capture_output=True, text=True).stdout or "[]")
            kept = sum(c["reads"] for c in cards)
        finally:
            if watch and watch.poll() is None:
                watch.kill()
            ns.stop()

    base = next((s for s in samples if s["taps"] >= 500), None) if args.taps >= 600 else None
    growth = (samples[-1]["rssKB"] - base["rssKB"]) if base else None
    verdict = []
    if growth is not None and growth >= 2048:
        verdict.append(f"RSS grew {growth} kB after tap {base['taps']}")
    # The level between taps: the first sample after taps began (at 0 the watch has not yet
    # opened its readers' lanes).
    level = samples[1] if len(samples) > 1 else samples[0]
    # Threads never change; open files may drop for a sample (the plugin worker is replaced after
    # 1,000 reads a lane and its pipes close until the next read opens them): only a rise is a leak.
    if any(s["threads"] != level["threads"] for s in samples[1:]):
        verdict.append(f"threads: {sorted({s['threads'] for s in samples[1:]})}, not flat at {level['threads']}")
    if any(s["fds"] > level["fds"] for s in samples[1:]):
        verdict.append(f"fds: {sorted({s['fds'] for s in samples[1:]})}, rose above {level['fds']}")
    if errors or problems or strays:
        verdict.append(f"{len(errors)} errors, {len(problems)} stderr lines, {len(strays)} lines unasked: "
                       + "; ".join((errors + problems + strays)[:5]))
    if kept != args.taps:
        verdict.append(f"the archive kept {kept} reads of {args.taps} taps")
    summary = {"taps": args.taps, "seed": args.seed, "samples": samples, "kept": kept, "rssGrowthKB": growth,
               "readByCard": read, "families": sorted(families),
               "flat": not verdict, "problems": verdict}
    print(f"read as {len(families)} families: {', '.join(sorted(families))}")
    print(f"kept in the archive: {kept} reads of {args.taps} taps; RSS growth after tap {base['taps'] if base else '-'}: "
          f"{'-' if growth is None else f'{growth} kB'}; {'flat' if not verdict else 'NOT flat: ' + '; '.join(verdict)}")
    if args.summary:
        pathlib.Path(args.summary).write_text(json.dumps(summary, indent=1))
    return 0 if not verdict else 1


if __name__ == "__main__":
    sys.exit(main())
