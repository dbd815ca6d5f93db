#!/usr/bin/python3
"""Benchmark: exchanges per read and wall time through pcscd + vpcd, and start-up of `transit plugins`.

Not a test: the figures depend on the machine. Reports medians over repeated runs.

  scripts/benchmark.py [--build debug|release] [--runs N] [--latency-ms 5]

Exchanges are counted from the simulator's exchange log (every APDU the reader passed to the card,
the host's UID and Request System Code included). Wall time is one `transit scan` process, start to
exit, with the simulated card answering each APDU after --latency-ms. RSS is the peak resident
memory of the scan process. "worker ms" is what the supervised plugin worker adds to a read: the
median wall time of the same reads run with TRANSIT_PLUGIN_WORKER=0 (plugins inside the host),
interleaved with the others, subtracted from the median (target < 10 ms).

The baseline is the strategy of a full-dump reader, as phone apps do it, run by an independent
PC/SC client (pyscard, Debian's python3-pyscard) against the same simulated card: FeliCa: every
service discovered first (Search Service Code), then every block of every readable service, one
block per Read Without Encryption; ISO 14443-4: SELECT of the application the plugin read, then
every SFI swept (READ BINARY, and READ RECORD until the card says no more), then the plugin's own
commands. The ratio is baseline exchanges / transit exchanges.

The RC-S380 table reads the FeliCa cards on Sony's RC-S380 over USB, emulated under umockdev
(Tests/Fixtures/rcs380/rcs380_emulator.py, the same card latency), without pcscd: the exchanges of
the read (its log bundle), the Port-100 commands sent over USB (the emulator's log), the further
ones besides the card's exchanges (set-up, sensing, the field switched off; target ≤ 8), and the
wall time of one `transit scan` process (the emulator, Python answering every USB transfer, adds
a few ms to each: compare the counts, not the times, with the PC/SC table). It is skipped where
umockdev is not installed.

The RC-S330/360/370 table sets transit beside nfcpy (PyPI `nfcpy`, installed into the test
venv, $TRANSIT_TEST_VENV or .build/venv, when it is missing) on the SAME emulated RC-S370
(Tests/Fixtures/rcs956/rcs956_emulator.py, the same card latency) reading the Suica sample:
nfcpy's best recipe for the read (scripts/nfcpy_suica.py: its sense at 212 kbit/s, then Read
Without Encryption of the same blocks transit reads, as many a command as the card takes) against
`transit scan`. "card frames" are the frames the card was sent (the emulator's log), "USB cmds"
the PN53x command frames the host sent (OUT transfers but the ACK), "median ms" the wall time of
one process, start to exit, over --runs runs of each tool interleaved (transit, nfcpy, transit…)
in one emulator session; nfcpy's own time from opening the reader to closing it (Python's start
and nfcpy's import left out) is its second row. "ratio" is nfcpy's figure over transit's.
`--rcs956-only` prints only this table (no pcscd); it is skipped where umockdev is not installed.

The probe table ("probe APDUs per family") reads each ISO card image with `transit scan --card`
(no reader: the same exchanges) in the default order, then with its reading plugin's line alone:
"probes before" are the APDUs the plugins before it sent (each said "not this card"), "own" the
reading plugin's, "counted" both (the host's UID left out). `--probes-only` prints only this table
and needs no pcscd.
"""
import argparse, json, os, pathlib, shutil, statistics, subprocess, sys, tempfile, time

ROOT = pathlib.Path(__file__).resolve().parent.parent
READER = "Virtual PCD 00 00"
# card, family, budget, and whether the budget counts the whole read or only the plugins' own
# exchanges (after the host's UID, and for FeliCa cards its Request System Code).
CARDS = [("suica.json", "japan-ic", 5, "read"), ("edy.json", "edy", 5, "plugins"), ("edy-mobile.json", "edy", 6, "plugins"),
         ("waon.json", "waon", 5, "plugins"),
         ("nanaco.json", "nanaco", 5, "plugins"), ("octopus.json", "octopus", 2, "plugins"), ("ezlink.json", "cepas", 3, "plugins"),
         ("tmoney.json", "ksx6924", 5 + 4, "plugins"), ("tunion.json", "tunion", 20, "plugins"),  # T-Money: 5 + its 4 records
         # Probe APDUs an ISO card is sent before each family's plugin in the default order: cepas 0,
         # ksx6924 1, tunion 6, desfire 7, china-city 8 (desfire's one Get Application IDs), calypso 14;
         # a card whose historical bytes are 80 alone, as DESFire's, is asked nothing by cepas, ksx6924
         # and china-city (docs/research/pcsc.md, "Historical bytes"): tunion's SELECT only.
         # China city cards: 8 probes + the plugin's own (Beijing 14, the MF selected again at the end,
         # … Macau 18; its failed AID SELECTs, 6A82, included).
         ("beijing.json", "china-city", 8 + 14, "plugins"), ("shenzhen.json", "china-city", 8 + 14, "plugins"),
         ("lingnan.json", "china-city", 8 + 16, "plugins"), ("shanghai.json", "china-city", 8 + 16, "plugins"),
         ("wuhan.json", "china-city", 8 + 17, "plugins"), ("macau.json", "china-city", 8 + 18, "plugins"),
         # DESFire cards: 1 probe + the plugin's own (Opal 3, Clipper 17, ORCA 10, HSL 7), within issue
         # 34's budgets: Opal 4, Clipper 18, ORCA 14, HSL 10.
         ("opal.json", "opal", 4, "plugins"), ("clipper.json", "clipper", 18, "plugins"),
         ("orca.json", "orca", 14, "plugins"), ("hsl.json", "hsl", 10, "plugins")]


def is_felica(card):
    """Whether a sample is a FeliCa card, as its image says (no list of the FeliCa families here:
    plugins.conf is the one)."""
    return "felica" in json.loads((ROOT / "samples" / card).read_text())


# The ISO cards of the probe table: the ISO cards above and a Calypso card, the last plugin's.
PROBE_CARDS = [(card, family) for card, family, _, _ in CARDS if not is_felica(card)] + [("navigo.json", "calypso")]
def host_exchanges(card):
    """What the host asks before any plugin: FF CA (UID or IDm), and for FeliCa Request System Code."""
    return 2 if is_felica(card) else 1


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def transmit(conn, apdu):
    data, sw1, sw2 = conn.transmit(list(apdu))
    return bytes(data) + bytes([sw1, sw2])


def felica(conn, frame):
    """One FeliCa frame through PC/SC Part 3 Transparent Exchange (the virtual reader's dialect)."""
    answer = transmit(conn, bytes([0xFF, 0xC2, 0x00, 0x01, len(frame) + 2, 0x95, len(frame)]) + frame + b"\x00")
    body, i = answer[:-2], 0
    while i + 1 < len(body):  # BER-TLV: one-byte tags here, lengths 00-7F or 81 LL
        tag, n, head = body[i], body[i + 1], 2
        if n == 0x81 and i + 2 < len(body):
            n, head = body[i + 2], 3
        if tag == 0x97:
            return body[i + head:i + head + n]
        i += head + n
    return None


def baseline_read(capture):
    """The full-dump reader's strategy on the card under the virtual reader (see the module doc)."""
    from smartcard.System import readers as pcsc_readers  # python3-pyscard
    conn = next(r for r in pcsc_readers() if str(r) == READER).createConnection()
    conn.connect()
    if bytes(conn.getATR())[12:13] == b"\x11":  # PC/SC Part 3 standard byte 11h: FeliCa
        idm = transmit(conn, bytes.fromhex("FFCA000000"))[:-2]
        rsc = felica(conn, bytes([10, 0x0C]) + idm)
        codes = [rsc[11 + 2 * i:13 + 2 * i] for i in range(rsc[10])]
        for index, code in enumerate(codes):
            sidm = bytes([idm[0] & 0x0F | index << 4]) + idm[1:]
            if index and felica(conn, bytes([12, 0x0A]) + sidm + b"\x00\x00") is None:
                sidm = felica(conn, bytes([6, 0x00]) + code + b"\x00\x00")[2:10]  # a phone: Polling gives the IDm
            services, i = [], 0
            while True:
                a = felica(conn, bytes([12, 0x0A]) + sidm + bytes([i & 0xFF, i >> 8]))
                code = int.from_bytes(a[10:12], "little")
                if code == 0xFFFF:
                    break
                if len(a) == 12:
                    services.append(code)
                i += 1
            for s in (s for s in services if s & 1):
                block = 0
                while True:
                    a = felica(conn, bytes([16, 0x06]) + sidm + bytes([1, s & 0xFF, s >> 8, 1, 0x80, block]))
                    if a is None or a[10] != 0:
                        break
                    block += 1
    else:
        selects = [e for e in capture["exchanges"] if e["command"].startswith("00A4") and e.get("response", "").endswith("9000")]
        for e in selects:
            transmit(conn, bytes.fromhex(e["command"]))
            for sfi in range(1, 32):
                transmit(conn, bytes([0x00, 0xB0, 0x80 | sfi, 0x00, 0x00]))
                n = 1
                while transmit(conn, bytes([0x00, 0xB2, n, sfi << 3 | 4, 0x00]))[-2:] == b"\x90\x00":
                    n += 1
            for e2 in capture["exchanges"]:
                if not e2["command"].startswith(("00A4", "00B2", "00B0")):
                    transmit(conn, bytes.fromhex(e2["command"]))
    conn.disconnect()


PROBE_HEADERS = ["card", "family", "plugin", "probes before", "own", "counted"]


def probe_line(cells):
    """Card, family and plugin left-aligned, the counts right-aligned under their headers."""
    widths = [card_width(), 12, 12] + [len(h) + 2 for h in PROBE_HEADERS[3:]]
    return "".join(f"{c:<{w}}" if i < 3 else f"{c:>{w}}" for i, (c, w) in enumerate(zip(cells, widths))).rstrip()


def probe_header():
    return probe_line(PROBE_HEADERS)


def probe_row(card, family, plugin, before, own):
    return probe_line([card, family, plugin, str(before), str(own), str(before + own)])


def scan_bundle(transit, card, config, tmp):
    """The log bundle of one `transit scan --card` of a sample with `config`."""
    bundle = pathlib.Path(tmp) / "probe.log.json"
    bundle.unlink(missing_ok=True)
    r = run([transit, "scan", "--card", str(ROOT / "samples" / card), "--config", str(config), "--json", "--no-save",
             "--log", str(bundle)], cwd=ROOT)
    if r.returncode != 0:
        sys.exit(f"{card}: scan --card failed: {r.stdout.strip()} {r.stderr.strip()}")
    return json.loads(bundle.read_text())


def probe_table(transit):
    """Each ISO card's probe APDUs: the plugins' before its own, and its plugin's (see the module doc)."""
    conf = ROOT / "plugins.conf"
    lines = {l.split()[0]: l for l in conf.read_text().splitlines() if l.strip() and not l.lstrip().startswith("#")}
    print("Probe APDUs per family (transit scan --card, default plugins.conf order; the host's UID not counted)")
    print(probe_header())
    with tempfile.TemporaryDirectory() as tmp:
        for card, family in PROBE_CARDS:
            whole = scan_bundle(transit, card, conf, tmp)
            plugin = next((p["name"] for p in whole["plugins"] if p["outcome"] == "read"), None)
            if whole["result"]["family"] != family or plugin not in lines:
                sys.exit(f"{card}: read by {plugin} as {whole['result']['family']}, not {family}")
            alone = pathlib.Path(tmp) / "alone.conf"  # a bare library name is looked up beside transit
            alone.write_text(lines[plugin] + "\n")
            own = len(scan_bundle(transit, card, alone, tmp)["exchanges"]) - 1
            counted = len(whole["exchanges"]) - 1
            print(probe_row(card, family, plugin, counted - own, own))


# MIFARE Classic and Ultralight samples (issue 42): card, family. Each is read with `transit scan --card`
# (the dump's own trailer keys), which sends the commands an ACS reader takes; the same cards read live
# from a key file behind vpcd as an ACR122U, an OMNIKEY 5022 and an Identiv uTrust in
# Tests/EndToEndTests/StorageCardEndToEndTests.swift, which checks the same budget.
STORAGE_CARDS = [("easycard.json", "easycard"), ("charliecard.json", "charliecard"), ("troika-e3.json", "troika"),
                 ("troika-e5.json", "troika"), ("podorozhnik.json", "podorozhnik"), ("podorozhnik-4k.json", "podorozhnik"),
                 ("bilhete-unico.json", "bilhete-unico"), ("troika-ul.json", "troika"), ("troika-ul-a.json", "troika"), ("compass.json", "nextfare-ul"), ("ventra.json", "nextfare-ul"),
                 ("hsl-ul.json", "hsl-ul")]


def storage_counts(bundle):
    """Authentications (FF 86), sectors they named, and APDUs of a read's log bundle (the UID included)."""
    commands = [e["command"] for e in bundle["exchanges"]]
    auths = [c for c in commands if c.startswith("FF86")]
    sectors = {(lambda b: b // 4 if b < 128 else 32 + (b - 128) // 16)(int(c[14:16], 16)) for c in auths}
    return len(auths), len(sectors), len(commands)


def storage_keys(card):
    """The distinct 6-byte keys a Classic sample's trailers hold (its authors made them up), in sector order."""
    image = json.loads((ROOT / "samples" / card).read_text())
    blocks = image.get("mifareClassic", {}).get("blocks", [])
    keys, block, sector = [], 0, 0
    while block < len(blocks):
        size = 4 if sector < 32 else 16
        trailer = blocks[block + size - 1].replace(" ", "") if block + size - 1 < len(blocks) else ""
        for k in (trailer[0:12], trailer[20:32]):
            if len(k) == 12 and "?" not in k and k.upper() not in keys:
                keys.append(k.upper())
        block, sector = block + size, sector + 1
    return keys


# The samples' made-up keys that only their digest tells (podorozhnik's sector 4 key, CharlieCard's
# sector 0 keys): a deployment adds such digests with key-digests, as the benchmark does here.
# hashlib: md5(salt + key + salt) of the keys scripts/make_troika_samples.py and
# scripts/make_classic_samples.py lay out.
STORAGE_DIGESTS = {"podorozhnik": "eb1db438b3662f3e4adede4120952d0a",
                   "charliecard": "58de1cd9312430aadce82eb222b534c9,9c502304a43d0a7bd258394288b37286"}


def storage_conf(tmp):
    """plugins.conf with STORAGE_DIGESTS on their plugins' lines."""
    lines = []
    for line in (ROOT / "plugins.conf").read_text().splitlines():
        name = line.split()[0] if line.strip() and not line.lstrip().startswith("#") else None
        lines.append(f"{line} key-digests={STORAGE_DIGESTS[name]}" if name in STORAGE_DIGESTS else line)
    conf = pathlib.Path(tmp) / "storage.conf"
    conf.write_text("\n".join(lines) + "\n")
    return conf


def storage_table(transit):
    """Authentications and APDUs per Classic and Ultralight card, against issue 42's budget."""
    print("MIFARE Classic and Ultralight (transit scan --card: the dump's trailer keys; the UID counted in APDUs)")
    headers = ["card", "family", "sectors", "keys", "auths", "budget", "APDUs"]
    widths = [max(card_width(), max(len(c) for c, _ in STORAGE_CARDS) + 2), 15] + [len(h) + 2 for h in headers[2:]]

    def line(cells):
        return "".join(f"{c:<{w}}" if i < 2 else f"{c:>{w}}" for i, (c, w) in enumerate(zip(cells, widths))).rstrip()
    print(line(headers))
    over = []
    with tempfile.TemporaryDirectory() as tmp:
        for card, family in STORAGE_CARDS:
            if not (ROOT / "samples" / card).exists():
                continue
            bundle = scan_bundle(transit, card, storage_conf(tmp), tmp)
            if (bundle.get("result") or {}).get("family") is None:
                sys.exit(f"{card}: not read ({bundle.get('outcome')}: {bundle.get('error')})")
            auths, sectors, apdus = storage_counts(bundle)
            keys = len(storage_keys(card))
            budget = 3 * sectors + keys + 4 if sectors else 0
            print(line([card, bundle["result"]["family"], str(sectors), str(keys), str(auths), str(budget), str(apdus)]))
            if auths > budget:
                over.append(f"{card}: {auths} authentications, budget {budget}")
    if over:
        sys.exit("over issue 42's budget (3 × sectors + keys + 4): " + "; ".join(over))


USB_CARDS = [("suica.json", "japan-ic", 5), ("edy.json", "edy", None), ("waon.json", "waon", None), ("nanaco.json", "nanaco", None),
             ("octopus.json", "octopus", None)]
EMULATOR = ROOT / "Tests/Fixtures/rcs380/rcs380_emulator.py"


class Targets:
    """Each figure checked against its target; those over it are named with value and target."""

    def __init__(self):
        self.over = []

    def check(self, card, figure, value, relation, target, unit=""):
        if value < target if relation == "<" else value <= target:
            return
        shown = f"{value:.1f}" if unit else f"{value:g}"
        suffix = f" {unit}" if unit else ""
        self.over.append(f"{card}: {figure} {shown}{suffix} (target {relation} {target}{suffix})")

    def summary(self):
        if not self.over:
            return []
        n = len(self.over)
        return [f"{n} figure{'' if n == 1 else 's'} over target:"] + ["  " + o for o in self.over]


def card_width():
    """The card column holds the longest sample's name and two spaces."""
    return max(len(c[0]) for c in CARDS + USB_CARDS) + 2


def table_line(cells, headers):
    """Card and family left-aligned, the rest right-aligned; every column two spaces wider than its
    header, so no value runs into the next."""
    widths = [card_width(), 10] + [len(h) + 2 for h in headers[2:]]
    return "".join(f"{c:<{w}}" if i < 2 else f"{c:>{w}}" for i, (c, w) in enumerate(zip(cells, widths))).rstrip()


PCSC_HEADERS = ["card", "family", "exchanges", "counted", "target", "median ms", "min ms", "max ms", "worker ms", "RSS MB",
                "baseline", "ratio"]
USB_HEADERS = ["card", "family", "exchanges", "USB cmds", "further", "target", "median ms", "min ms", "max ms"]


def pcsc_header():
    return table_line(PCSC_HEADERS, PCSC_HEADERS)


def pcsc_row(card, family, exchanges, counted, target, times, worker, rss, baseline):
    """One card's row; `baseline` None (no capture to replay the strategy from) shows as "-"."""
    return table_line([card, family, f"{exchanges:g}", f"{counted:g}", f"≤{target}", f"{statistics.median(times):.1f}",
                       f"{min(times):.1f}", f"{max(times):.1f}", f"{worker:.1f}", f"{rss:.1f}",
                       "-" if baseline is None else str(baseline),
                       "-" if baseline is None else f"{baseline / exchanges:.1f}"], PCSC_HEADERS)


def usb_header():
    return table_line(USB_HEADERS, USB_HEADERS)


def usb_row(card, family, exchanges, sent, further, times):
    return table_line([card, family, str(exchanges), str(sent), str(further), "≤8", f"{statistics.median(times):.1f}",
                       f"{min(times):.1f}", f"{max(times):.1f}"], USB_HEADERS)


def rcs380_table(transit, sim, args, targets):
    """The FeliCa cards on the emulated RC-S380, each figure checked in `targets`."""
    if not pathlib.Path("/usr/lib/x86_64-linux-gnu/libumockdev-preload.so.0").exists():
        print("RC-S380 over USB: skipped (umockdev is not installed; scripts/setup.sh installs it)")
        return
    print(f"RC-S380 over USB (emulated under umockdev, no pcscd), {args.runs} runs each")
    print(usb_header())
    timer = ("import subprocess, sys, time\n"
             "for _ in range(int(sys.argv[1])):\n"
             "    t = time.perf_counter()\n"
             "    r = subprocess.run(sys.argv[2:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)\n"
             "    print(r.returncode, (time.perf_counter() - t) * 1000, flush=True)\n")
    scan = [transit, "scan", "--json", "--no-save", "--config", str(ROOT / "plugins.conf")]
    with tempfile.TemporaryDirectory() as tmp:
        for card, family, target in USB_CARDS:
            usb, bundle = pathlib.Path(tmp) / f"{card}.usb", pathlib.Path(tmp) / f"{card}.bundle"
            # --sim-args takes the rest of the emulator's options: it comes last.
            emulate = lambda *more: ["/usr/bin/python3", str(EMULATOR), "--card-sim", sim, "--card", str(ROOT / "samples" / card), *more,
                                     "--sim-args", "--latency-ms", str(args.latency_ms)]
            one = run(emulate("--log", str(usb)) + ["--"] + scan + ["--log", str(bundle)], cwd=ROOT)
            if one.returncode != 0 or f'"family":"{family}"' not in one.stdout:
                sys.exit(f"{card} on the RC-S380: scan failed: {one.stdout.strip()} {one.stderr.strip()}")
            exchanges = len(json.loads(bundle.read_text())["exchanges"])
            sent = [l[4:] for l in usb.read_text().splitlines() if l.startswith("OUT ") and not l.endswith("0000ff00ff00")]
            card_frames = [c for c in sent if c[16:20] == "d604" and "0600ffff0100" not in c]
            further = len(sent) - len(card_frames)
            timed = run(emulate() + ["--", "/usr/bin/python3", "-c", timer, str(args.runs)] + scan, cwd=ROOT)
            times = [float(l.split()[1]) for l in timed.stdout.splitlines() if l.startswith("0 ")]
            if len(times) != args.runs:
                sys.exit(f"{card} on the RC-S380: {len(times)} of {args.runs} timed reads worked: {timed.stdout} {timed.stderr}")
            targets.check(f"{card} on the RC-S380", "further USB commands", further, "≤", 8)
            if target is not None:
                targets.check(f"{card} on the RC-S380", "exchanges", exchanges, "≤", target)
            print(usb_row(card, family, exchanges, len(sent), further, times))


EMULATOR_956 = ROOT / "Tests/Fixtures/rcs956/rcs956_emulator.py"
NFCPY_READ = ROOT / "scripts/nfcpy_suica.py"
RCS956_HEADERS = ["tool", "card frames", "USB cmds", "median ms", "min ms", "max ms", "USB ratio", "ms ratio"]
# Runs the commands of argv[2] (JSON: [name, argv] pairs) argv[1] + 1 times, interleaved, the
# order turned round each round; the first round warms the caches and is not counted. One JSON
# line a run: the tool, the round, the exit status, the wall time, what the command printed.
INTERLEAVED_TIMER = ("import json, subprocess, sys, time\n"
                     "runs, commands = int(sys.argv[1]), json.loads(sys.argv[2])\n"
                     "for i in range(runs + 1):\n"
                     "    for name, cmd in (commands if i % 2 == 0 else commands[::-1]):\n"
                     "        t = time.perf_counter()\n"
                     "        r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)\n"
                     "        ms = (time.perf_counter() - t) * 1000\n"
                     "        print(json.dumps({'tool': name, 'round': i, 'status': r.returncode, 'ms': ms, 'out': r.stdout.strip()}), flush=True)\n")


def nfcpy_python():
    """The test venv's Python with nfcpy (PyPI), installed there as scripts/test-setup.sh installs
    ofxtools when it is missing; (python, version), or (None, why) when it cannot be had."""
    venv = pathlib.Path(os.environ.get("TRANSIT_TEST_VENV", ROOT / ".build" / "venv"))
    python = venv / "bin" / "python3"
    probe = lambda: run([str(python), "-c", "import nfc; print(nfc.__version__)"]) if python.exists() else None
    found = probe()
    if found is None or found.returncode != 0:
        if not python.exists():
            made = run(["/usr/bin/python3", "-m", "venv", "--system-site-packages", str(venv)])
            if made.returncode != 0:
                return None, f"no venv at {venv}: {made.stderr.strip()}"
        got = run([str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "nfcpy"])
        if got.returncode != 0:
            return None, f"pip install nfcpy failed: {got.stderr.strip()[-300:]}"
        found = probe()
        if found is None or found.returncode != 0:
            return None, f"nfcpy does not import: {found.stderr.strip() if found else ''}"
    return str(python), found.stdout.strip()


def emulator_counts(usb_log):
    """Frames the card was sent (the emulator's `card: RATE > …` notes) and PN53x command frames
    the host sent (OUT transfers but the ACK, which is no command: rcs956-facts.md §2)."""
    lines = usb_log.read_text().splitlines()
    card = sum(1 for l in lines if l.startswith("# ") and " card: " in l and " > " in l and l.split(" card: ")[1][:1].isdigit())
    usb = sum(1 for l in lines if l.startswith("OUT ") and not l.endswith("0000ff00ff00"))
    return card, usb


def rcs956_table(transit, sim, args, targets):
    """transit and nfcpy reading the Suica on the same emulated RC-S370, side by side (module doc)."""
    if not pathlib.Path("/usr/lib/x86_64-linux-gnu/libumockdev-preload.so.0").exists():
        print("RC-S330/360/370 beside nfcpy: skipped (umockdev is not installed; scripts/setup.sh installs it)")
        return
    python, version = nfcpy_python()
    if python is None:
        print(f"RC-S330/360/370 beside nfcpy: skipped ({version})")
        return
    card = ROOT / "samples" / "suica.json"
    reference = json.loads(run([transit, "scan", "--card", str(card), "--json", "--no-save"], cwd=ROOT).stdout)
    emulate = lambda *more: ["/usr/bin/python3", str(EMULATOR_956), "--model", "RC-S370", "--card-sim", sim, "--card", str(card), *more,
                             "--sim-args", "--latency-ms", str(args.latency_ms)]
    tools = [("transit scan", [transit, "scan", "--json", "--no-save", "--config", str(ROOT / "plugins.conf")]),
             (f"nfcpy {version}", [python, str(NFCPY_READ)])]

    def checked(name, out):
        """The balance each tool printed, checked against the card image's reading."""
        got = json.loads(out) if out.startswith("{") else {}
        want = {"balance": reference["balance"]} | ({"history": 20} if name.startswith("nfcpy") else {"serialNumber": reference["serialNumber"]})
        if any(got.get(k) != v for k, v in want.items()):
            sys.exit(f"{name} on the RC-S370 read {out[:200]!r}, not {want}")
    counts = {}
    with tempfile.TemporaryDirectory() as tmp:
        for name, command in tools:
            usb = pathlib.Path(tmp) / "usb.log"
            one = run(emulate("--log", str(usb)) + ["--"] + command, cwd=ROOT)
            if one.returncode != 0:
                sys.exit(f"{name} on the RC-S370 failed: {one.stdout.strip()} {one.stderr.strip()}")
            checked(name, one.stdout.strip())
            counts[name] = emulator_counts(usb)
    timed = run(emulate() + ["--", "/usr/bin/python3", "-c", INTERLEAVED_TIMER, str(args.runs), json.dumps(tools)], cwd=ROOT)
    results = [json.loads(l) for l in timed.stdout.splitlines() if l.startswith("{")]
    times, inside = {name: [] for name, _ in tools}, []
    for r in results:
        if r["status"] != 0:
            sys.exit(f"{r['tool']} on the RC-S370 failed in round {r['round']}: {r['out'][:300]} {timed.stderr[-300:]}")
        checked(r["tool"], r["out"])
        if r["round"]:
            times[r["tool"]].append(r["ms"])
            if r["tool"].startswith("nfcpy"):
                inside.append(json.loads(r["out"])["ms"])
    if any(len(t) != args.runs for t in times.values()):
        sys.exit(f"RC-S370: {[len(t) for t in times.values()]} of {args.runs} timed reads worked: {timed.stderr[-500:]}")
    (ours, _), (theirs, _) = tools
    rows = [(ours, *counts[ours], times[ours]), (theirs + " (process)", *counts[theirs], times[theirs]),
            (theirs + " (open to close)", *counts[theirs], inside)]
    print(f"RC-S330/360/370 beside nfcpy: the Suica on one emulated RC-S370 (umockdev), {args.runs} interleaved runs each, "
          f"card latency {args.latency_ms} ms")
    print("\n".join(rcs956_lines(rows)))
    targets.check("transit on the RC-S370", "USB commands (nfcpy's: %d)" % counts[theirs][1], counts[ours][1], "<", counts[theirs][1])
    targets.check("transit on the RC-S370", "median ms (nfcpy's: %.1f)" % statistics.median(times[theirs]), statistics.median(times[ours]), "<",
                  round(statistics.median(times[theirs]), 1), "ms")


def rcs956_lines(rows):
    """The side-by-side table: a header, then a line a (tool, card frames, USB commands, times) row;
    the ratios are each row's over the first's (transit's)."""
    base_usb, base_ms = rows[0][2], statistics.median(rows[0][3])
    widths = [max(len(r[0]) for r in rows) + 2] + [len(h) + 2 for h in RCS956_HEADERS[1:]]

    def line(cells):
        return "".join(f"{c:<{w}}" if i == 0 else f"{c:>{w}}" for i, (c, w) in enumerate(zip(cells, widths))).rstrip()
    return [line(RCS956_HEADERS)] + [line([name, str(frames), str(usb), f"{statistics.median(ms):.1f}", f"{min(ms):.1f}", f"{max(ms):.1f}",
                                          f"{usb / base_usb:.2f}", f"{statistics.median(ms) / base_ms:.2f}"])
                                     for name, frames, usb, ms in rows]


def readers_visible(transit):
    r = run([transit, "readers"])
    return r.returncode == 0 and READER in r.stdout


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default="release", choices=["debug", "release"])
    ap.add_argument("--runs", type=int, default=15)
    ap.add_argument("--latency-ms", type=float, default=5)
    ap.add_argument("--probes-only", action="store_true", help="print only the probe table (no pcscd)")
    ap.add_argument("--rcs956-only", action="store_true", help="print only transit beside nfcpy on the emulated RC-S370 (no pcscd)")
    args = ap.parse_args()

    # A release build with the flags of what ships (scripts/reproducible-flags.sh), as `make` builds it.
    flags = run([str(ROOT / "scripts" / "reproducible-flags.sh")]).stdout.splitlines() if args.build == "release" else []
    subprocess.run(["swift", "build", "-c", args.build] + flags, cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
    bindir = pathlib.Path(run(["swift", "build", "-c", args.build, "--show-bin-path"], cwd=ROOT).stdout.strip())
    transit, sim = str(bindir / "transit"), str(bindir / "transit-sim")
    if args.rcs956_only:
        targets = Targets()
        rcs956_table(transit, sim, args, targets)
        if targets.over:
            print("\n".join(targets.summary()))
            sys.exit(1)
        return
    probe_table(transit)
    print()
    storage_table(transit)
    if args.probes_only:
        return

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
    print(pcsc_header())
    targets = Targets()
    try:
        with tempfile.TemporaryDirectory() as tmp:
            for card, family, target, counting in CARDS:
                log = pathlib.Path(tmp) / f"{card}.log"
                s = subprocess.Popen([sim, "--card", str(ROOT / "samples" / card), "--latency-ms", str(args.latency_ms),
                                      "--log", str(log)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                try:
                    times, counts, rss, inside = [], [], [], []
                    lines = lambda: len(log.read_text().splitlines()) if log.exists() else 0
                    for i in range(2 * args.runs + 1):  # the first run waits for pcscd to see the card: not counted
                        in_host = i % 2 == 0  # every other run with the plugins inside the host
                        env = dict(os.environ, TRANSIT_PLUGIN_WORKER="0") if in_host else None
                        before = lines()
                        t0 = time.perf_counter()
                        proc = subprocess.Popen([transit, "scan", "--json", "--no-save", "--config", str(ROOT / "plugins.conf"), "--reader", READER, "--wait", "5"], cwd=ROOT, env=env,
                                                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
                        out = proc.stdout.read()
                        _, status, usage = os.wait4(proc.pid, 0)  # this scan's own peak resident memory
                        elapsed = (time.perf_counter() - t0) * 1000
                        if os.waitstatus_to_exitcode(status) != 0 or f'"family":"{family}"' not in out:
                            sys.exit(f"{card}: scan failed: {out.strip()}")
                        if i and in_host:
                            inside.append(elapsed)
                        elif i:
                            times.append(elapsed)
                            counts.append(lines() - before)
                            rss.append(usage.ru_maxrss / 1024)
                    capture_file = ROOT / "Tests/Fixtures/captures" / card.replace(".json", ".log.json")
                    baseline = None  # the cards of issue 34 have no capture yet
                    if capture_file.exists():
                        before = lines()
                        baseline_read(json.loads(capture_file.read_text()))
                        baseline = lines() - before
                finally:
                    s.terminate()
                    s.wait()
                    for _ in range(30):  # let pcscd see the card go before the next one
                        if "00 00\tcard" not in run([transit, "readers"]).stdout:
                            break
                        time.sleep(0.1)
                exchanges = statistics.median(counts)
                counted = exchanges - (host_exchanges(card) if counting == "plugins" else 0)
                worker = statistics.median(times) - statistics.median(inside)
                targets.check(card, "counted exchanges", counted, "≤", target)
                targets.check(card, "worker", worker, "<", 10, "ms")
                targets.check(card, "peak RSS", max(rss), "<", 30, "MB")
                print(pcsc_row(card, family, exchanges, counted, target, times, worker, max(rss), baseline))

        rcs380_table(transit, sim, args, targets)
        print()
        rcs956_table(transit, sim, args, targets)

        startup = []
        for i in range(max(args.runs, 20) + 1):
            t0 = time.perf_counter()
            r = run([transit, "plugins", "--config", str(ROOT / "plugins.conf")])
            if r.returncode != 0 or "refused" in r.stdout:
                sys.exit(f"transit plugins failed: {r.stdout} {r.stderr}")
            if i:
                startup.append((time.perf_counter() - t0) * 1000)
        median = statistics.median(startup)
        targets.check("transit plugins", "start-up", median, "<", 30, "ms")
        print(f"transit plugins (all plugins of plugins.conf loaded): median {median:.1f} ms "
              f"(min {min(startup):.1f}, max {max(startup):.1f}), target < 30 ms")
    finally:
        if pcscd:
            pcscd.terminate()
            pcscd.wait()
    if targets.over:
        print("\n".join(targets.summary()))
        sys.exit(1)


if __name__ == "__main__":
    main()
