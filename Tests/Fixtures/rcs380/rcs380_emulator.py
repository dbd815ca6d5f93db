#!/usr/bin/python3
"""rcs380_emulator.py: an emulated Sony RC-S380 (PaSoRi, Port-100 chipset) under umockdev.

What it is
==========
A test double for transit's USB transport: a umockdev testbed holding one RC-S380 whose usbdevfs
ioctls are answered by this script, with a simulated card (`transit-sim`, the project's own card
simulator) on it. COMMAND runs under umockdev's preload and sees, through the real libusb-1.0, a
device at /dev/bus/usb/BBB/DDD that speaks Port-100 and reads the card image.

    rcs380_emulator.py [options] -- COMMAND ARGS...

The emulator builds the testbed, starts `transit-sim` behind the reader, runs COMMAND with
LD_PRELOAD=libumockdev-preload.so.0 and the testbed's UMOCKDEV_DIR (as `umockdev-wrapper` does),
serves it until it exits, stops transit-sim, removes the testbed and exits with COMMAND's exit code
(128+N when a signal N ended it, 124 when --timeout killed it, 2 for a setup error).

Options
-------
  --product 06c1|06c3|02e1  RC-S380/S (default) or RC-S380/P; 02e1, an RC-S330/360/370, only to be
                         seen on the bus (its RC-S956 chip is not emulated: the Port-100 model answers)
  --bus N --address N    the node /dev/bus/usb/BBB/DDD (default 1 and 13)
  --card-sim PATH        transit-sim to run (default $TRANSIT_SIM)
  --card FILE            the card image (samples/*.json, a dump); without it, no card is on the reader.
                         A JSON image of a MIFARE Ultralight or Classic is answered by the emulator
                         itself at 106 kbit/s type A (`TypeACard`), with no transit-sim
  --index N              the card of a file that holds several (passed to transit-sim)
  --sim-args ARGS...     more transit-sim options, up to `--` (e.g. --remove-after 3, --hang-after 2,
                         --latency-ms 5, --log FILE); it must be the last emulator option
  --no-card              nothing on the reader (every InCommRF times out)
  --bitrate-424-only     the card answers at 424 kbps only: at 212F every frame times out
  --silent-after N       after N bulk OUT transfers the device never answers again (OUT transfers
                         still complete; IN transfers never do, so the client's reads time out).
                         Zero-length packets are not counted, here or in --unplug-after.
  --unplug-after N       after N bulk OUT transfers the device is unplugged: pending transfers end
                         with -ESHUTDOWN (LIBUSB_TRANSFER_NO_DEVICE), later ioctls fail with ENODEV
                         (LIBUSB_ERROR_NO_DEVICE), "remove" uevents go out (libusb's hotplug
                         callbacks see LIBUSB_HOTPLUG_EVENT_DEVICE_LEFT) and the device leaves sysfs
                         and /dev. The emulator then runs itself under the preload too (the uevent
                         sender finds the device through libudev).
  --node-mode MODE       mode of the device node (default 0666; 0600 denies a non-root COMMAND)
  --as-nobody            run COMMAND as user nobody (setpriv --reuid=65534 --regid=65534
                         --clear-groups), with PATH cut to the directories nobody can search
                         (a pyenv python3 under /root drops out: /usr/bin/python3 is used)
  --kernel-driver NAME    the interface starts bound to the kernel's NAME driver: port100, or
                         usbhid / usb-storage (what a gadget with the RC-S380's ids may get)
  --detach-delay-ms N    a DISCONNECT (detach) returns N ms after it unbound the kernel driver: a
                         slow claim, for a signal that comes between a detach and what follows it
  --interrupt-endpoints  the interface's two endpoints are interrupt ones: no bulk endpoint at all
  --garbage-answers      every command is ACKed, then answered with 8 random bytes that are no
                         frame (other bytes each time): a reader failing every open with new garbage
  --damage LIST          the card's answers to these InCommRF commands come back damaged: LIST is
                         numbers and N- ranges (1,3 or 2- or 3,4,7-), counting the InCommRF
                         commands the card answered, the sense's Polling included, from 1. The card
                         still gets the frame and answers it; the host is told the status of
                         --damage-status instead, with no frame (as V8). A silent card stays silent.
  --damage-status KIND   crc (default), parity, collision or protocol
  --card-slack-ms N      how much longer than the InCommRF timeout the card (transit-sim, a host
                         process) may take to answer (default 500)
  --timeout S            kill COMMAND after S seconds (default 120; 0: never)
  --log FILE             one line per USB transfer, `OUT <hex>` / `IN <hex>` (bulk data as it crossed
                         the bus), and `# ...` lines for everything else (claims, control transfers,
                         card exchanges, cancellations); `grep -c '^OUT '` counts bulk OUT transfers
  --verbose              the same lines on stderr

Example:
    python3 Tests/Fixtures/rcs380/rcs380_emulator.py --card-sim .build/debug/transit-sim \
        --card samples/suica.json -- python3 Tests/Fixtures/rcs380/libusb_probe.py

The facts it is written from
============================
Only from docs/research/port100.md (§"USB identity", §"Commands",
§"InCommRF status", §"Sequences", §"Test doubles", §"Test vectors"). nfcpy (EUPL) and the kernel's
port100.c (GPL) were sources of facts for that note; none of their code is here. Each constant below
names its source; "GUESS" marks what no source settles.

USB: 054c:06c1 (RC-S380/S) or 054c:06c3 (RC-S380/P); bcdUSB 2.00, class ff, bMaxPacketSize0 64
(lsusb in libnfc PR #302, TRACE); one vendor-specific interface 0 with one bulk IN and one bulk OUT
endpoint. Endpoint addresses 0x81/0x02 come from a python-libusb1 script (CODE, no log) and the
64-byte wMaxPacketSize is a GUESS, as are bcdDevice, MaxPower, full speed and the string indexes.
Manufacturer "SONY" and product "RC-S380/P" are what nfcpy prints for a real 06c3 ("found SONY
RC-S380/P NFC Port-100 v1.11", user logs; nfcpy takes both from the USB string descriptors);
"RC-S380/S" for 06c1 is a GUESS by analogy.

Port-100: frames `00 00 FF FF FF LEN(2, LE) LCS D6 cmd data DCS 00`, answers `D7 cmd+1`, an ACK
`00 00 FF 00 FF 00` before every answer; a host ACK cancels the command in progress (§"Frames", §"Commands").

Behaviour (what the device model does)
======================================
* ACK, then the answer, each its own IN transfer. An answer longer than the IN transfer's buffer
  continues in the next transfer when the buffer is a multiple of 64 bytes, else the transfer ends
  with -EOVERFLOW (LIBUSB_ERROR_OVERFLOW) and the rest is lost, as on a real bus. An answer whose
  length is a multiple of 64 is taken to end with a zero-length packet (GUESS).
* A frame with a bad preamble, LCS, DCS or postamble, or not starting D6, gets no ACK but the 5-byte
  "err" frame `00 00 FF FF FF` (nfcpy decodes it as an error; no log shows when the device sends it:
  GUESS). So does a valid frame whose command the model does not implement (target mode, flash,
  registers, diagnose ...). Frames may span several OUT transfers; bytes still incomplete when a
  short packet ends a transfer are a bad frame.
* Commands: InSetRF (212F, 424F, 106A, 106B; anything else PARAMETER error 01), InSetProtocol (keys
  00..13; another key or an odd length: 01), InCommRF, SwitchRF (00/01), ResetDevice (answer
  `D7 13`, then the chip state is reset), GetFirmwareVersion (`11 01`, v1.11 as in V1, TRACE),
  GetPDDataVersion (`00 01`, TRACE), GetCommandType (mask 3, V2), SetCommandType (0 or 1, else 01
  as in V8). The command type set is remembered but not enforced (what type 0 forbids is unknown).
* RF: InSetRF turns the field on with that technology (in the TRACE of nfcpy, SwitchRF off is
  followed by InSetRF, InSetProtocol, InCommRF, and the card answers, so InSetRF must switch RF on);
  SwitchRF 00 turns it off (the card is powered off: vpcd power-off), SwitchRF 01 on.
* InCommRF: timeout in units of 0.1 ms (§"Commands"). RF off or no InSetRF: status RF_OFF 0x400 (GUESS);
  no InSetProtocol since power-up: status PROTOCOL 0x01 (GUESS). Otherwise the FeliCa frame (with its
  LEN byte; the chip adds the CRC) goes to the card as a bare-frame APDU; `<frame> 90 00` becomes
  `D7 05 00 00 00 00 08 <frame>` (the byte after the status is skipped by both drivers; 08 as in the
  V5 fixture), and anything else (`63 00`: the card stayed silent; no card; a pulled card; no answer
  within timeout + --card-slack-ms) becomes RECEIVE_TIMEOUT `D7 05 80 00 00 00` (V6), sent when the
  InCommRF timeout has run out. The card never answers at 106A/106B (it is FeliCa), at 212F with
  --bitrate-424-only, or when InSetProtocol set "add CRC" (key 01) to 0.
* Type A (a MIFARE Ultralight or Classic image, `TypeACard`): the card is modelled here from
  ISO/IEC 14443-3 and NXP's MF0ICU1, and the chip from docs/research/port100.md §"Type A" (nfcpy's
  sense_tta and Type 2 exchange): InSetProtocol 01 (add CRC), 02 (check CRC), 04 (add parity) and
  07 (valid bits in the last byte) decide what the card hears and what the host gets back; it
  answers nothing at 212F/424F. typea_vectors.py checks it against nfcpy's frames.
* The card: the emulator listens on an ephemeral 127.0.0.1 port as vsmartcard's vpcd would, starts
  `transit-sim --port P --card FILE --reader-model acr122u --dialect bare-frame`, powers the card on,
  reads its ATR, and sends each frame as the whole APDU (the ACR122U's bare-frame pass-through, the
  one dialect that carries a frame unwrapped; ReaderModel.swift lists it for acr122u only).
* usbdevfs: SUBMITURB (bulk, control: standard requests answered from the descriptors, others STALL),
  REAPURB and REAPURBNDELAY (an idle REAPURBNDELAY answers EAGAIN after waiting up to 2 ms for data,
  so libusb's event loop, which the always-ready node makes spin, turns at about 500 Hz; an idle
  REAPURB answers EINTR after 100 ms), DISCARDURB (the URB is reaped with -ENOENT), CLAIMINTERFACE,
  RELEASEINTERFACE, GETDRIVER, USBDEVFS_IOCTL DISCONNECT/CONNECT, DISCONNECT_CLAIM (so libusb's
  auto-detach works), GET_CAPABILITIES, CONNECTINFO, GET_SPEED, SETINTERFACE, SETCONFIGURATION,
  RESET, CLEAR_HALT, RESETEP, DROP_PRIVILEGES, and the synchronous BULK and CONTROL ioctls; any other
  ioctl: ENOTTY. Interface claims follow the kernel: a bulk URB claims the interface implicitly;
  another open file's claim or a bound kernel driver gives EBUSY.
* --kernel-driver NAME: GETDRIVER answers NAME until a DISCONNECT (libusb_detach_kernel_driver)
  or DISCONNECT_CLAIM (auto-detach) unbinds it; CONNECT (libusb_attach_kernel_driver) binds it again.
  The interface's sysfs `driver` link and DRIVER= property follow. As the kernel driver would have
  done at probe, the chip starts with command type 1.

* Closing: umockdev 0.17 reports no client's close (IoctlBase::client-vanished is never emitted and
  notify::connected was not seen), but IoctlClient:connected turns false once the preload closed
  its socket; the emulator checks it before deciding a claim or delivering IN data, and then
  releases the closed file's claim and drops its URBs, as the kernel does on close.
* The testbed directory is made sticky and world-writable (1777): the preload binds the wrapped
  udev netlink sockets there, so a COMMAND of another user (--as-nobody) needs to write in it, or
  libusb_init fails ("failed to enable the udev monitor").

Limits
======
* Not a kernel: the node is a regular file that always polls ready, so a waiting libusb turns its
  event loop continuously (throttled by the 2 ms EAGAIN above): measured about 14 % of one core,
  emulator and client together, during a 5 s read that times out. Each transfer costs a few ioctl
  round trips through a Python handler: about 3-5 ms per bulk transfer, 0.15 s for the probe's 38
  transfers. A fully static binary is not intercepted (LD_PRELOAD).
* Unplugging is one-way: libusb learns it from ENODEV, -ESHUTDOWN and the remove uevent, not from
  POLLERR (a regular file has none); there is no re-plug, and no device arrives after start.
* The preload serialises ioctls per open file: while a synchronous USBDEVFS_BULK read waits, other
  threads' ioctls on that file wait too (libusb does not use it).
* Timing is that of a host process: the card's answer time is transit-sim's, not a FeliCa card's;
  timeouts are honoured (a silent card's status comes when the InCommRF timeout ends).
* Target mode, type B cards, ISO 14443-4 type A cards, MIFARE Classic's Crypto-1, register access,
  flash: not emulated (err frame; a Classic answers its activation only).
* The card follows the RF field (vpcd power off/on) but stays the same card; once transit-sim pulls
  it (--remove-after) it stays away.
"""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "usbemu"))
from usb_chip import PRELOAD, ChipLink, InMessage, hexs, listed, run_command  # noqa: E402  (the emulators' shared USB side)


def _reexec():
    """Runs the emulator again when it must: under Debian's Python when this one lacks gi
    (python3-gi lives there; a pyenv python3 first on PATH has none), and under umockdev's preload
    for --unplug-after (the testbed's uevent sender finds the device through libudev, which sees
    the testbed only through the preload)."""
    try:
        import gi  # noqa: F401
        python = sys.executable
    except ImportError:
        python = "/usr/bin/python3"
    own = sys.argv[1:sys.argv.index("--")] if "--" in sys.argv else sys.argv[1:]
    preload = "--unplug-after" in own and PRELOAD not in os.environ.get("LD_PRELOAD", "")
    if python == sys.executable and not preload:
        return
    if os.environ.get("RCS380_EMULATOR_REEXEC") or not os.path.exists(python):
        sys.exit("rcs380_emulator: needs Python's gi with UMockdev (Debian: python3-gi, gir1.2-umockdev-1.0)")
    os.environ["RCS380_EMULATOR_REEXEC"] = "1"
    if preload:
        os.environ["LD_PRELOAD"] = PRELOAD + (":" + os.environ["LD_PRELOAD"] if os.environ.get("LD_PRELOAD") else "")
    os.execv(python, [python] + sys.argv)


_reexec()

import argparse  # noqa: E402
import collections  # noqa: E402
import errno  # noqa: E402
import json  # noqa: E402
import queue  # noqa: E402
import select  # noqa: E402
import shutil  # noqa: E402
import signal  # noqa: E402
import socket  # noqa: E402
import stat  # noqa: E402
import struct  # noqa: E402
import subprocess  # noqa: E402
import threading  # noqa: E402
import time  # noqa: E402

import gi  # noqa: E402

gi.require_version("UMockdev", "1.0")
from gi.repository import UMockdev  # noqa: E402

# ---------------------------------------------------------------------------------------------
# USB identity (docs/research/port100.md §"USB identity")
# ---------------------------------------------------------------------------------------------

VENDOR = 0x054C
# "/P": nfcpy's output for 06c3; "/S": GUESS. 02e1 is the RC-S330/360/370 (RC-S956, docs/research/port100.md
# §"USB identity"): only its identity is emulated (the host is to name it and never open it); its string a GUESS.
PRODUCTS = {0x06C1: "RC-S380/S", 0x06C3: "RC-S380/P", 0x02E1: "RC-S330"}
MANUFACTURER = "SONY"  # nfcpy prints "SONY RC-S380/P ..." from the USB string descriptors
BCD_DEVICE = 0x0110    # GUESS: no lsusb shows it
EP_IN, EP_OUT = 0x81, 0x02  # CODE (python-libusb1 script: endpoints 1 and 2), no log: GUESS
MAX_PACKET = 64        # GUESS (full speed bulk maximum; bMaxPacketSize0 64 is TRACE)
SPEED_MBPS = 12        # GUESS: full speed, consistent with 64-byte bulk packets
MAX_POWER_2MA = 0xFA   # GUESS (500 mA)


def device_descriptor(product):
    return struct.pack("<BBHBBBBHHHBBBB", 18, 1, 0x0200, 0xFF, 0, 0, 64, VENDOR, product,
                       BCD_DEVICE, 1, 2, 0, 1)


# bmAttributes of the two endpoints: 2 bulk (USB 2.0, 9.6.6); --interrupt-endpoints makes them 3.
ENDPOINT_TYPE = [2]


def config_descriptor():
    interface = struct.pack("<BBBBBBBBB", 9, 4, 0, 0, 2, 0xFF, 0, 0, 0)
    ep_in = struct.pack("<BBBBHB", 7, 5, EP_IN, ENDPOINT_TYPE[0], MAX_PACKET, 0 if ENDPOINT_TYPE[0] == 2 else 1)
    ep_out = struct.pack("<BBBBHB", 7, 5, EP_OUT, ENDPOINT_TYPE[0], MAX_PACKET, 0 if ENDPOINT_TYPE[0] == 2 else 1)
    body = interface + ep_in + ep_out
    return struct.pack("<BBHBBBBB", 9, 2, 9 + len(body), 1, 1, 0, 0x80, MAX_POWER_2MA) + body


def string_descriptor(index, product):
    if index == 0:
        return bytes([4, 3, 0x09, 0x04])  # language 0409
    text = {1: MANUFACTURER, 2: PRODUCTS[product]}.get(index)
    if text is None:
        return None
    raw = text.encode("utf-16-le")
    return bytes([2 + len(raw), 3]) + raw


# ---------------------------------------------------------------------------------------------
# usbdevfs (linux/usbdevice_fs.h, x86_64; numbers checked against the header on this machine)
# ---------------------------------------------------------------------------------------------

USBDEVFS_CONTROL = 0xC0185500
USBDEVFS_BULK = 0xC0185502
USBDEVFS_RESETEP = 0x80045503
USBDEVFS_SETINTERFACE = 0x80085504
USBDEVFS_SETCONFIGURATION = 0x80045505
USBDEVFS_GETDRIVER = 0x41045508
USBDEVFS_SUBMITURB = 0x8038550A
USBDEVFS_DISCARDURB = 0x0000550B
USBDEVFS_REAPURB = 0x4008550C
USBDEVFS_REAPURBNDELAY = 0x4008550D
USBDEVFS_CLAIMINTERFACE = 0x8004550F
USBDEVFS_RELEASEINTERFACE = 0x80045510
USBDEVFS_CONNECTINFO = 0x40085511
USBDEVFS_IOCTL = 0xC0105512
USBDEVFS_RESET = 0x00005514
USBDEVFS_CLEAR_HALT = 0x80045515
USBDEVFS_DISCONNECT = 0x00005516
USBDEVFS_CONNECT = 0x00005517
USBDEVFS_GET_CAPABILITIES = 0x8004551A
USBDEVFS_DISCONNECT_CLAIM = 0x8108551B
USBDEVFS_DROP_PRIVILEGES = 0x4004551E
USBDEVFS_GET_SPEED = 0x0000551F

IOCTL_NAMES = {v: k for k, v in globals().items() if k.startswith("USBDEVFS_")}

URB_FMT = "<BBxxiI4xQiiiiiIQ"  # type endpoint status flags buffer buffer_length actual_length
URB_SIZE = 56                   # start_frame number_of_packets error_count signr usercontext
URB_STATUS_OFFSET, URB_ACTUAL_OFFSET, URB_BUFFER_OFFSET = 4, 28, 16
URB_TYPE_ISO, URB_TYPE_INTERRUPT, URB_TYPE_CONTROL, URB_TYPE_BULK = 0, 1, 2, 3

CAP_ZERO_PACKET, CAP_BULK_CONTINUATION, CAP_NO_PACKET_SIZE_LIM = 0x01, 0x02, 0x04
CAP_REAP_AFTER_DISCONNECT = 0x10
CAPABILITIES = CAP_ZERO_PACKET | CAP_BULK_CONTINUATION | CAP_NO_PACKET_SIZE_LIM | CAP_REAP_AFTER_DISCONNECT
DISCONNECT_CLAIM_IF_DRIVER, DISCONNECT_CLAIM_EXCEPT_DRIVER = 0x01, 0x02
USB_SPEED_FULL = 2  # enum usb_device_speed

IDLE_REAP_WAIT = 0.002       # an idle REAPURBNDELAY waits this long for data, then EAGAIN
BLOCKING_REAP_WAIT = 0.1     # an idle REAPURB waits this long, then EINTR (the caller retries)
SYNC_BULK_FOREVER = 60.0     # a USBDEVFS_BULK read with timeout 0 ("forever") gives up after this

# ---------------------------------------------------------------------------------------------
# Port-100 framing (docs/research/port100.md §"Frames", §"Commands")
# ---------------------------------------------------------------------------------------------

ACK = bytes.fromhex("0000ff00ff00")
ERR = bytes.fromhex("0000ffffff")  # nfcpy's "err" frame; when a device sends it is unknown (GUESS)


def port100_frame(payload):
    n = len(payload)
    lo, hi = n & 0xFF, n >> 8
    return (b"\x00\x00\xff\xff\xff" + bytes([lo, hi, -(lo + hi) & 0xFF]) + payload
            + bytes([-sum(payload) & 0xFF, 0]))


def parse_host_frame(buf):
    """('ack', None, n) | ('cmd', payload, n) | ('more', None, 0) | ('bad', None, len(buf))."""
    head = bytes(buf[:5])
    for i, b in enumerate(head[:3]):
        if b != (0x00, 0x00, 0xFF)[i]:
            return "bad", None, len(buf)
    if len(buf) < 5:
        return "more", None, 0
    if head[3:5] == b"\x00\xff":
        if len(buf) < 6:
            return "more", None, 0
        return ("ack", None, 6) if buf[5] == 0 else ("bad", None, len(buf))
    if head[3:5] != b"\xff\xff":
        return "bad", None, len(buf)
    if len(buf) < 8:
        return "more", None, 0
    lo, hi, lcs = buf[5], buf[6], buf[7]
    if (lo + hi + lcs) & 0xFF:
        return "bad", None, len(buf)
    n = lo | hi << 8
    if len(buf) < 10 + n:
        return "more", None, 0
    payload = bytes(buf[8:8 + n])
    if (sum(payload) + buf[8 + n]) & 0xFF or buf[9 + n] != 0 or n < 2 or payload[0] != 0xD6:
        return "bad", None, len(buf)
    return "cmd", payload, 10 + n


# Commands (docs/research/port100.md §"Commands")
IN_SET_RF, IN_SET_PROTOCOL, IN_COMM_RF, SWITCH_RF = 0x00, 0x02, 0x04, 0x06
RESET_DEVICE, GET_FIRMWARE_VERSION, GET_PD_DATA_VERSION = 0x12, 0x20, 0x22
GET_COMMAND_TYPE, SET_COMMAND_TYPE = 0x28, 0x2A

# InSetRF send-set, send-type, recv-set, recv-type (§"Commands")
RF_TECHS = {bytes.fromhex("01010f01"): "212F", bytes.fromhex("01020f02"): "424F",
            bytes.fromhex("02030f03"): "106A", bytes.fromhex("03070f07"): "106B"}

STATUS_OK, STATUS_PARAMETER = 0x00, 0x01  # single status byte (§"Commands")
COMM_PROTOCOL, COMM_RECEIVE_TIMEOUT, COMM_RF_OFF = 0x01, 0x80, 0x400  # InCommRF status bits (§"InCommRF status")
COMM_BYTE_AFTER_STATUS = 0x08  # skipped by both drivers; 08 in nfcpy's fixture (V5)
# The damage --damage puts in a card's answer: InCommRF status bits (§1.3), the answer's frame
# dropped as V8's parity-error answer has none (`D7 05 02 00 00 00`).
DAMAGE_STATUS = {"protocol": 0x01, "parity": 0x02, "crc": 0x04, "collision": 0x08}
FIRMWARE_VERSION = bytes([0x11, 0x01])  # v1.11, V1 TRACE
PD_DATA_VERSION = bytes([0x00, 0x01])   # V1 TRACE
COMMAND_TYPE_MASK = bytes(7) + b"\x03"  # types 0 and 1, V2 (CODE)


# ---------------------------------------------------------------------------------------------
# Log
# ---------------------------------------------------------------------------------------------

class TransferLog:
    def __init__(self, path, verbose):
        self.lock = threading.Lock()
        self.file = open(path, "w", buffering=1) if path else None
        self.verbose = verbose
        self.t0 = time.monotonic()

    def line(self, text):
        with self.lock:
            if self.file:
                self.file.write(text + "\n")
            if self.verbose:
                sys.stderr.write("rcs380-emu %8.3f %s\n" % (time.monotonic() - self.t0, text))

    def note(self, text):
        self.line("# %.3f %s" % (time.monotonic() - self.t0, text))

    def close(self):
        with self.lock:
            if self.file:
                self.file.close()
                self.file = None


# ---------------------------------------------------------------------------------------------
# The card: transit-sim connected as a vpcd virtual card
# ---------------------------------------------------------------------------------------------

class CardLink:
    """Listens as vpcd does; transit-sim connects. Messages: 2-byte big-endian length + payload;
    a 1-byte payload is a control (0 power off, 1 power on, 2 reset, 4 ATR request)."""

    def __init__(self, sim, card, index, sim_args, log):
        self.log = log
        self.gone = False
        self.outstanding = 0   # APDUs sent whose answers have not come back
        self.powered = False
        self.rx = bytearray()
        server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        server.bind(("127.0.0.1", 0))
        server.listen(1)
        port = server.getsockname()[1]
        cmd = [sim, "--port", str(port), "--card", card, "--reader-model", "acr122u",
               "--dialect", "bare-frame"]
        if index:
            cmd += ["--index", str(index)]
        cmd += sim_args
        log.note("card: " + " ".join(cmd))
        env = dict(os.environ)
        for name in ("LD_PRELOAD", "UMOCKDEV_DIR", "RCS380_EMULATOR_REEXEC"):
            env.pop(name, None)
        # transit-sim prints its usage on stdout: keep COMMAND's stdout clean.
        self.proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=sys.stderr.fileno(), env=env)
        self.sock = None
        try:
            self._connect(server)
        except BaseException:
            self.close()
            raise

    def _connect(self, server):
        deadline = time.monotonic() + 15
        try:
            while self.sock is None:
                if self.proc.poll() is not None:
                    raise RuntimeError("transit-sim exited with %d before connecting" % self.proc.returncode)
                if time.monotonic() > deadline:
                    raise RuntimeError("transit-sim did not connect within 15 s")
                r, _, _ = select.select([server], [], [], 0.1)
                if r:
                    self.sock, _ = server.accept()
        finally:
            server.close()
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.control(1)
        self.powered = True
        self._send(bytes([4]))
        atr = self._receive(time.monotonic() + 10)
        if atr is None:
            raise RuntimeError("transit-sim gave no ATR")
        self.log.note("card: powered on, ATR %s" % hexs(atr))

    def _send(self, payload):
        try:
            self.sock.sendall(struct.pack(">H", len(payload)) + payload)
        except OSError:
            self._lost("link closed while sending")

    def _lost(self, why):
        if not self.gone:
            self.gone = True
            self.log.note("card: gone (%s)" % why)

    def _receive(self, deadline, cancelled=lambda: False):
        """One message, or None at the deadline, on cancellation, or when the card went away."""
        while True:
            if len(self.rx) >= 2:
                n = self.rx[0] << 8 | self.rx[1]
                if len(self.rx) >= 2 + n:
                    msg = bytes(self.rx[2:2 + n])
                    del self.rx[:2 + n]
                    return msg
            if self.gone or cancelled():
                return None
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            r, _, _ = select.select([self.sock], [], [], min(left, 0.02))
            if r:
                try:
                    data = self.sock.recv(4096)
                except OSError as e:
                    data = b""
                    self._lost(str(e))
                if not data:
                    self._lost("transit-sim closed the link: the card was pulled away")
                    return None
                self.rx += data

    def control(self, code):
        if not self.gone:
            self._send(bytes([code]))

    def power(self, on):
        if self.gone or on == self.powered:
            return
        self.powered = on
        self.control(1 if on else 0)
        self.log.note("card: power %s" % ("on" if on else "off"))

    def exchange(self, frame, wait, cancelled):
        """The card's answer frame, or None (silent, gone, late, cancelled)."""
        if self.gone:
            return None
        self._send(bytes(frame))
        self.outstanding += 1
        deadline = time.monotonic() + wait
        while True:
            msg = self._receive(deadline, cancelled)
            if msg is None:
                return None  # a late answer is discarded when it comes (outstanding)
            self.outstanding -= 1
            if self.outstanding > 0:
                self.log.note("card: late answer discarded: %s" % hexs(msg))
                continue
            if len(msg) > 2 and msg[-2:] == b"\x90\x00":
                return msg[:-2]
            if msg != b"\x63\x00":
                self.log.note("card: unexpected answer %s, taken as silence" % hexs(msg))
            return None

    def close(self):
        try:
            if self.sock:
                self.sock.close()
        except OSError:
            pass
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(2)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(2)


class NoCard:
    gone = True

    def power(self, on):
        pass

    def exchange(self, frame, wait, cancelled):
        return None

    def close(self):
        pass


# ---------------------------------------------------------------------------------------------
# A type A card from a card image: MIFARE Ultralight or Classic at 106 kbit/s
# ---------------------------------------------------------------------------------------------

def crc_a(data):
    """CRC_A (ISO/IEC 14443-3 Annex B): preset 6363, the reflected CCITT polynomial, sent LSB first.
    Annex B's examples: 00 00 -> A0 1E, 12 34 -> 26 CF; nfcpy's Type 2 fixture has 33 34 -> CD F5."""
    crc = 0x6363
    for b in data:
        b ^= crc & 0xFF
        b = (b ^ (b << 4)) & 0xFF
        crc = (crc >> 8) ^ (b << 8) ^ (b << 3) ^ (b >> 4)
    return bytes([crc & 0xFF, crc >> 8])


SEL_CODES = (0x93, 0x95, 0x97)   # cascade levels 1-3 (ISO/IEC 14443-3 6.5.3.1)
CASCADE_TAG = 0x88               # (6.5.4)
REQA, WUPA, HLTA = 0x26, 0x52, bytes([0x50, 0x00])  # (6.3.1, 6.4.3)
T2_READ = 0x30                   # MIFARE Ultralight READ: 16 bytes from a page (NXP MF0ICU1 9.3)
NAK_INVALID = 0x0                # MF0ICU1 9.3: NAK 0h, invalid argument (page past the memory)
# SENS_RES and SAK of the chips, for images that do not give them: Ultralight 0044 and 00 (CL1 04),
# Classic 1K 0004/08, 4K 0002/18, Mini 0004/09, Plus 2K in SL1 0004/08 (NXP AN10833 3.2; MF0ICU1 8.4).
CLASSIC_IDS = {"1K": (0x0004, 0x08), "4K": (0x0002, 0x18), "Mini": (0x0004, 0x09), "2K": (0x0004, 0x08)}


class TypeACard:
    """A card image's `mifareUltralight` or `mifareClassic` (docs/card-image.md) as the card itself
    answers at 106 kbit/s type A, from ISO/IEC 14443-3 (states IDLE, READY, ACTIVE, HALT; SENS_REQ,
    anticollision and select by cascade level) and NXP's MF0ICU1 (READ of four pages with roll-over,
    NAK past the memory); no transit-sim. It hears what the chip sends: with or without the CRC the
    chip adds (InSetProtocol 01), a short frame when 7 bits of the last byte are valid (07 07), with
    parity bits or without (04). A frame the card would not take (a SEL_REQ without CRC, a standard
    frame without parity, a SENS_REQ of 8 bits) is silence, so the host's settings are checked, not
    assumed. A Classic answers the activation only: no Crypto-1 here (it answers NAK to any
    command, as an unauthenticated card does; transit sends it none)."""

    gone = False

    def __init__(self, image, path, log):
        self.log = log
        ul, mc = image.get("mifareUltralight"), image.get("mifareClassic")
        if ul is not None:
            self.kind = "Ultralight"
            self.uid = bytes.fromhex(ul["uid"])
            self.pages = [None if "?" in p else bytes.fromhex(p) for p in ul.get("pages", [])]
            atqa, self.sak = 0x0044, 0x00
        else:
            self.kind = "Classic " + mc.get("type", "1K")
            self.uid = bytes.fromhex(mc["uid"])
            self.pages = []
            atqa, self.sak = CLASSIC_IDS.get(mc.get("type", "1K"), CLASSIC_IDS["1K"])
            if mc.get("atqa"):
                atqa = int(mc["atqa"], 16)  # written most significant byte first, as Flipper shows it
            if mc.get("sak"):
                self.sak = int(mc["sak"], 16)
        self.sens_res = bytes([atqa & 0xFF, atqa >> 8])  # sent least significant byte first
        if len(self.uid) == 4:
            self.levels = [self.uid]
        elif len(self.uid) == 7:
            self.levels = [bytes([CASCADE_TAG]) + self.uid[:3], self.uid[3:]]
        else:
            raise RuntimeError("%s: a type A UID of %d bytes (4 or 7 emulated)" % (path, len(self.uid)))
        self.state, self.level = "off", 0
        log.note("card: %s, UID %s, SENS_RES %s, SAK %02x, from %s (type A, no transit-sim)" % (
            self.kind, hexs(self.uid), hexs(self.sens_res), self.sak, path))

    def power(self, on):
        if on and self.state == "off":
            self.state = "idle"
        elif not on and self.state != "off":
            self.state = "off"
            self.log.note("card: power off")

    def exchange(self, frame, wait, cancelled):
        return None  # a FeliCa frame: not heard at 106 kbit/s type A

    def close(self):
        pass

    def hear(self, sent, short, parity):
        """What the card sends back to `sent` (the bytes on the air, CRC included when the chip
        added one): ('frame', bytes), ('nak', code) or None (silence)."""
        if self.state == "off":
            return None
        if short:
            command = sent[0] & 0x7F
            if (command == REQA and self.state == "idle") or (command == WUPA and self.state in ("idle", "halt")):
                self.state, self.level = "ready", 0
                return ("frame", self.sens_res)
            if self.state in ("ready", "active"):
                self.state = "idle"  # any other frame there: back to IDLE (14443-3 figure 7)
            return None
        if not parity or self.state in ("idle", "halt"):
            return None
        crc_ok = len(sent) > 2 and crc_a(sent[:-2]) == sent[-2:]
        if self.state == "ready":
            cl = self.levels[self.level]
            uid_cl = cl + bytes([cl[0] ^ cl[1] ^ cl[2] ^ cl[3]])
            if sent == bytes([SEL_CODES[self.level], 0x20]):
                return ("frame", uid_cl)  # UID CLn and BCC, no CRC (6.5.3.2)
            if crc_ok and sent[:-2] == bytes([SEL_CODES[self.level], 0x70]) + uid_cl:
                last = self.level == len(self.levels) - 1
                sak = self.sak if last else 0x04  # the cascade bit until the UID is complete (6.5.3.4)
                if last:
                    self.state = "active"
                else:
                    self.level += 1
                return ("frame", bytes([sak]) + crc_a(bytes([sak])))
            self.state = "idle"
            return None
        # ACTIVE
        if not crc_ok:
            return None
        command = sent[:-2]
        if command == HLTA:
            self.state = "halt"
            return None
        if self.kind == "Ultralight" and len(command) == 2 and command[0] == T2_READ:
            page = command[1]
            if page < len(self.pages):
                chunk = [self.pages[(page + i) % len(self.pages)] for i in range(4)]  # roll-over (MF0ICU1 9.3)
                if all(p is not None for p in chunk):
                    data = b"".join(chunk)
                    return ("frame", data + crc_a(data))
        self.state = "idle"  # a NAK sends the tag back to IDLE (MF0ICU1 8.5)
        return ("nak", NAK_INVALID)


def load_card(opts, log):
    """The card on the reader: none, a type A card of an image (`TypeACard`), or transit-sim."""
    if not opts.card:
        return NoCard()
    image = None
    if opts.card.endswith(".json"):
        try:
            with open(opts.card, encoding="utf-8") as f:
                image = json.load(f)
        except (OSError, ValueError):
            image = None
    if isinstance(image, dict) and ("mifareUltralight" in image or "mifareClassic" in image):
        return TypeACard(image, opts.card, log)
    return CardLink(opts.card_sim, opts.card, opts.index, opts.sim_args, log)


# ---------------------------------------------------------------------------------------------
# The Port-100 chip
# ---------------------------------------------------------------------------------------------

class Port100(ChipLink):
    """The Port-100 chip: its USB side is `ChipLink`'s (usbemu/usb_chip.py); its frames, commands
    and answers are here. InCommRF waits for the card on the chip's thread."""

    ACK, ERR, MAX_PACKET = ACK, ERR, MAX_PACKET
    ERR_WORDS = "the err frame"
    CANCEL_WORDS = "cancel/soft reset"
    THREAD_NAME = "port100"
    ZLP_ENDS_FRAME = True

    def __init__(self, opts, card, log, cv):
        super().__init__(opts, card, log, cv)
        self.reset_chip(command_type=1 if opts.kernel_driver else 0)
        self.start()

    def reset_chip(self, command_type=0):
        self.rf_on = False
        self.rf_tech = None
        self.protocol = {}
        self.protocol_set = False
        self.command_type = command_type

    @staticmethod
    def parse(buf):
        return parse_host_frame(buf)

    # -- chip side (own thread) ----------------------------------------------------------------

    def answer(self, generation, payload):
        self._execute(generation, payload)

    def _execute(self, generation, payload):
        cmd, data = payload[1], payload[2:]
        handlers = {
            IN_SET_RF: self._in_set_rf, IN_SET_PROTOCOL: self._in_set_protocol,
            IN_COMM_RF: self._in_comm_rf, SWITCH_RF: self._switch_rf,
            RESET_DEVICE: self._reset_device, GET_FIRMWARE_VERSION: lambda d, g: (FIRMWARE_VERSION, 0),
            GET_PD_DATA_VERSION: lambda d, g: (PD_DATA_VERSION, 0),
            GET_COMMAND_TYPE: lambda d, g: (COMMAND_TYPE_MASK, 0), SET_COMMAND_TYPE: self._set_command_type,
        }
        if self.opts.garbage_answers:
            self._emit(generation, b"\x12" + os.urandom(7))
            return
        handler = handlers.get(cmd)
        if handler is None:
            self.log.note("command %02x not emulated: err frame" % cmd)
            self._emit(generation, ERR)
            return
        result = handler(data, generation)
        if result is None:
            return  # cancelled
        answer, ready = result
        self._emit(generation, port100_frame(bytes([0xD7, cmd + 1]) + answer), ready)
        if cmd == RESET_DEVICE:
            self.reset_chip()
            self.card.power(False)

    def _set_rf(self, on):
        self.rf_on = on
        self.card.power(on)

    def _in_set_rf(self, data, generation):
        tech = RF_TECHS.get(bytes(data))
        if tech is None:
            return bytes([STATUS_PARAMETER]), 0
        self.rf_tech = tech
        self._set_rf(True)
        return bytes([STATUS_OK]), 0

    def _in_set_protocol(self, data, generation):
        if len(data) % 2 or any(k > 0x13 for k in data[0::2]):
            return bytes([STATUS_PARAMETER]), 0
        for k, v in zip(data[0::2], data[1::2]):
            self.protocol[k] = v
        self.protocol_set = True
        return bytes([STATUS_OK]), 0

    def _switch_rf(self, data, generation):
        if len(data) != 1 or data[0] > 1:
            return bytes([STATUS_PARAMETER]), 0
        self._set_rf(data[0] == 1)
        return bytes([STATUS_OK]), 0

    def _set_command_type(self, data, generation):
        if len(data) != 1 or data[0] > 1:
            return bytes([STATUS_PARAMETER]), 0
        self.command_type = data[0]
        return bytes([STATUS_OK]), 0

    def _reset_device(self, data, generation):
        return b"", 0

    def _in_comm_rf(self, data, generation):
        def status(bits):
            return struct.pack("<I", bits)

        if len(data) < 2:
            return status(COMM_PROTOCOL), 0
        t0 = time.monotonic()
        wait = (data[0] | data[1] << 8) / 10000.0  # units of 0.1 ms (§"Commands")
        frame = bytes(data[2:])
        if not self.rf_on or self.rf_tech is None:
            return status(COMM_RF_OFF), 0
        if not self.protocol_set:
            return status(COMM_PROTOCOL), 0
        if self.rf_tech == "106A" and isinstance(self.card, TypeACard):
            return self._type_a(frame, wait, t0)
        reason = None
        if isinstance(self.card, TypeACard):
            reason = "the card is type A, the field is %s" % self.rf_tech
        elif self.rf_tech not in ("212F", "424F"):
            reason = "the card is FeliCa, the field is %s" % self.rf_tech
        elif self.opts.bitrate_424_only and self.rf_tech == "212F":
            reason = "the card answers at 424 kbps only"
        elif self.protocol.get(0x01, 1) == 0:
            reason = "no CRC added (InSetProtocol 01 00): the card ignores the frame"
        answer = None
        if reason:
            self.log.note("card: %s > %s: silent (%s)" % (self.rf_tech, hexs(frame), reason))
        else:
            answer = self.card.exchange(frame, wait + self.opts.card_slack_ms / 1000.0,
                                        lambda: generation != self.generation or self.stopped)
            if generation != self.generation:
                self.log.note("card: %s > %s: cancelled" % (self.rf_tech, hexs(frame)))
                return None
            self.log.note("card: %s > %s < %s" % (self.rf_tech, hexs(frame),
                                                   hexs(answer) if answer is not None else "(timeout)"))
        if answer is not None and reason is None:
            self.card_exchanges += 1
            if self.damaged(self.card_exchanges):
                bits = DAMAGE_STATUS[self.opts.damage_status]
                self.log.note("damaged: InCommRF %d answered status %08x, no frame (--damage)" % (self.card_exchanges, bits))
                return status(bits), 0
        if answer is not None:
            return status(0) + bytes([COMM_BYTE_AFTER_STATUS]) + answer, 0
        return status(COMM_RECEIVE_TIMEOUT), t0 + wait

    def _type_a(self, frame, wait, t0):
        """InCommRF at 106A to a `TypeACard`: the chip adds CRC_A when InSetProtocol 01 says so,
        sends a short frame when 07 is 7 and the frame one byte, parity bits when 04 is 1; the
        card's answer comes back whole when 02 (check CRC) is 0, else its CRC_A checked and removed,
        and an answer without one (SENS_RES, UID CLn, a 4-bit NAK) is status CRC_ERROR, as nfcpy
        says of the chip ("the chipset reports [ACK/NAK] as crc error", rcs380.py). A 4-bit NAK is
        handed over as one byte (GUESS: how the chip hands 4 bits is unknown; nfcpy takes an answer
        of one byte as an ACK or NAK)."""
        def status(bits):
            return struct.pack("<I", bits)

        sent = frame + crc_a(frame) if self.protocol.get(0x01, 1) else frame
        short = self.protocol.get(0x07, 8) == 7 and len(sent) == 1
        parity = self.protocol.get(0x04, 0) == 1
        answer = self.card.hear(bytes(sent), short, parity)
        self.log.note("card: 106A > %s%s < %s" % (hexs(sent), " (7 bits)" if short else "",
                                                  "(timeout)" if answer is None else "%s %s" % (answer[0], hexs(answer[1]) if answer[0] == "frame" else "%x" % answer[1])))
        if answer is None:
            return status(COMM_RECEIVE_TIMEOUT), t0 + wait
        self.card_exchanges += 1
        if self.damaged(self.card_exchanges):
            bits = DAMAGE_STATUS[self.opts.damage_status]
            self.log.note("damaged: InCommRF %d answered status %08x, no frame (--damage)" % (self.card_exchanges, bits))
            return status(bits), 0
        kind, body = answer
        if kind == "nak":
            if self.protocol.get(0x02, 1):
                return status(DAMAGE_STATUS["crc"]), 0
            return status(0) + bytes([COMM_BYTE_AFTER_STATUS, body]), 0
        if self.protocol.get(0x02, 1):
            if len(body) <= 2 or crc_a(body[:-2]) != body[-2:]:
                return status(DAMAGE_STATUS["crc"]), 0
            body = body[:-2]
        return status(0) + bytes([COMM_BYTE_AFTER_STATUS]) + body, 0

    def damaged(self, number):
        """True when --damage names InCommRF `number` (from 1) that reached the card."""
        return listed(self.opts.damage, number)


# ---------------------------------------------------------------------------------------------
# The USB device behind usbdevfs
# ---------------------------------------------------------------------------------------------

class Urb:
    __slots__ = ("owner", "data", "buf", "addr", "type", "ep", "length", "status", "actual", "sync", "done")

    def __init__(self, owner, data, buf, addr, type_, ep, length):
        self.owner, self.data, self.buf, self.addr = owner, data, buf, addr
        self.type, self.ep, self.length = type_, ep, length
        self.status, self.actual, self.sync, self.done = 0, 0, False, False


class OpenFile:
    """One open file of the node (one umockdev IoctlClient)."""
    serial = 0

    def __init__(self, client):
        OpenFile.serial += 1
        self.n = OpenFile.serial
        self.client = client
        self.completed = collections.deque()
        self.closed = False
        self.privileges_dropped = False
        self.allowed_interfaces = 0xFFFFFFFF


class UsbDevice:
    def __init__(self, opts, log, product, sysfs):
        self.opts, self.log, self.product, self.sysfs = opts, log, product, sysfs
        self.cv = threading.Condition()
        self.files = {}
        self.pending_in = collections.deque()
        self.claimed_by = None                  # the OpenFile holding interface 0 through usbfs
        self.kernel_driver = opts.kernel_driver
        self.unplugged = False
        self.chip = None

    # -- umockdev signals ------------------------------------------------------------------------

    def on_connected(self, handler, client):
        f = OpenFile(client)
        self.files[id(client)] = f
        self.log.note("open file %d: opened" % f.n)

    def forget_closed_files(self):
        """umockdev 0.17 does not signal a client's close (IoctlBase::client-vanished is never
        emitted, nor notify::connected), but IoctlClient:connected turns false once the preload
        closed its socket. The kernel releases a closed file's claims and kills its URBs: so do we,
        when it matters (claims, IN data)."""
        for key, f in list(self.files.items()):
            if f.client.get_connected():
                continue
            del self.files[key]
            with self.cv:
                f.closed = True
                for urb in [u for u in self.pending_in if u.owner is f]:
                    self.pending_in.remove(urb)
                if self.claimed_by is f:
                    self.claimed_by = None
                    self.log.note("open file %d: closed (its claim released)" % f.n)
                else:
                    self.log.note("open file %d: closed" % f.n)

    def on_ioctl(self, handler, client):
        f = self.files.get(id(client))
        if f is None:  # connected before our signal handler saw it
            f = OpenFile(client)
            self.files[id(client)] = f
        request = client.get_request()
        try:
            result = self.ioctl(f, client, request)
        except Exception as e:
            self.log.note("emulator error in %s: %r" % (IOCTL_NAMES.get(request, hex(request)), e))
            result = (-1, errno.EIO)
        if result is not None:
            client.complete(result[0], result[1])
        return True

    # -- ioctls ----------------------------------------------------------------------------------

    def ioctl(self, f, client, request):
        arg = client.get_arg()
        if self.unplugged and request not in (USBDEVFS_REAPURB, USBDEVFS_REAPURBNDELAY, USBDEVFS_DISCARDURB):
            return -1, errno.ENODEV
        if request == USBDEVFS_SUBMITURB:
            return self.submit_urb(f, arg)
        if request in (USBDEVFS_REAPURBNDELAY, USBDEVFS_REAPURB):
            return self.reap_urb(f, arg, request == USBDEVFS_REAPURB)
        if request == USBDEVFS_DISCARDURB:
            return self.discard_urb(f, struct.unpack("<Q", bytes(arg.retrieve()))[0])
        if request == USBDEVFS_CLAIMINTERFACE:
            return self.claim(f, self._u32(arg))
        if request == USBDEVFS_RELEASEINTERFACE:
            return self.release(f, self._u32(arg))
        if request == USBDEVFS_GETDRIVER:
            return self.get_driver(arg.resolve(0, 260))
        if request == USBDEVFS_IOCTL:
            return self.usbfs_ioctl(f, arg.resolve(0, 16))
        if request == USBDEVFS_DISCONNECT_CLAIM:
            return self.disconnect_claim(f, arg.resolve(0, 264))
        if request == USBDEVFS_GET_CAPABILITIES:
            arg.resolve(0, 4).update(0, struct.pack("<I", CAPABILITIES))
            return 0, 0
        if request == USBDEVFS_CONNECTINFO:
            arg.resolve(0, 8).update(0, struct.pack("<IB3x", self.opts.address, 0))
            return 0, 0
        if request == USBDEVFS_GET_SPEED:
            return USB_SPEED_FULL, 0
        if request == USBDEVFS_SETINTERFACE:
            interface, alt = struct.unpack("<II", bytes(arg.resolve(0, 8).retrieve()))
            if interface != 0 or alt != 0:
                return -1, errno.EINVAL
            return self._check_interface(f)
        if request == USBDEVFS_SETCONFIGURATION:
            value = struct.unpack("<i", bytes(arg.resolve(0, 4).retrieve()))[0]
            if value not in (-1, 0, 1):
                return -1, errno.EINVAL
            if (self.claimed_by not in (None, f)) or self.kernel_driver:
                return -1, errno.EBUSY
            self.log.note("open file %d: SET_CONFIGURATION %d" % (f.n, value))
            return 0, 0
        if request == USBDEVFS_RESET:
            self.log.note("open file %d: USB reset" % f.n)
            self.chip.usb_reset()
            return 0, 0
        if request in (USBDEVFS_CLEAR_HALT, USBDEVFS_RESETEP):
            ep = self._u32(arg)
            if ep not in (EP_IN, EP_OUT):
                return -1, errno.ENOENT
            self.log.note("open file %d: %s %02x" % (f.n, IOCTL_NAMES[request], ep))
            return 0, 0
        if request == USBDEVFS_DROP_PRIVILEGES:
            f.privileges_dropped = True
            f.allowed_interfaces = self._u32(arg)
            return 0, 0
        if request == USBDEVFS_BULK:
            return self.sync_bulk(f, arg.resolve(0, 24))
        if request == USBDEVFS_CONTROL:
            return self.sync_control(f, arg.resolve(0, 24))
        self.log.note("open file %d: ioctl %08x not emulated: ENOTTY" % (f.n, request))
        return -1, errno.ENOTTY

    @staticmethod
    def _u32(arg):
        return struct.unpack("<I", bytes(arg.resolve(0, 4).retrieve()))[0]

    # Interface 0 ownership, as usbfs has it: a file claims it (explicitly, or implicitly by
    # using its endpoints), unless another file holds it or a kernel driver is bound (EBUSY).
    def claim(self, f, interface):
        self.forget_closed_files()
        if interface != 0:
            return -1, errno.ENOENT
        if f.privileges_dropped and not f.allowed_interfaces & 1:
            return -1, errno.EACCES
        with self.cv:
            if self.claimed_by is f:
                return 0, 0
            if self.claimed_by is not None or self.kernel_driver:
                self.log.note("open file %d: claim interface 0: EBUSY (%s)" % (
                    f.n, "bound to " + self.kernel_driver if self.kernel_driver else "claimed by another file"))
                return -1, errno.EBUSY
            self.claimed_by = f
        self.log.note("open file %d: claimed interface 0" % f.n)
        return 0, 0

    def _check_interface(self, f):
        if self.claimed_by is f:
            return 0, 0
        return self.claim(f, 0)

    def release(self, f, interface):
        with self.cv:
            if interface != 0 or self.claimed_by is not f:
                return -1, errno.EINVAL
            self.claimed_by = None
        self.log.note("open file %d: released interface 0" % f.n)
        return 0, 0

    def _driver_name(self):
        self.forget_closed_files()
        if self.claimed_by is not None:
            return "usbfs"
        return self.kernel_driver

    def get_driver(self, data):
        interface = struct.unpack("<I", bytes(data.retrieve())[:4])[0]
        name = self._driver_name() if interface == 0 else None
        if name is None:
            return -1, errno.ENODATA
        data.update(4, name.encode() + b"\0")
        return 0, 0

    def _unbind(self, why):
        self.log.note("kernel driver %s unbound (%s)" % (self.kernel_driver, why))
        self.kernel_driver = None
        self.sysfs.set_driver(None)

    def usbfs_ioctl(self, f, data):
        interface, code, _ = struct.unpack("<iiQ", bytes(data.retrieve()))
        if interface != 0:
            return -1, errno.EINVAL
        if code == USBDEVFS_DISCONNECT:
            if f.privileges_dropped:
                return -1, errno.EACCES
            with self.cv:
                if self.claimed_by is not None:
                    self.log.note("DISCONNECT: usbfs claim of open file %d released" % self.claimed_by.n)
                    self.claimed_by = None
                    return 0, 0
            if self.kernel_driver:
                self._unbind("USBDEVFS_DISCONNECT from open file %d" % f.n)
                if self.opts.detach_delay_ms:
                    time.sleep(self.opts.detach_delay_ms / 1000.0)
                return 0, 0
            return -1, errno.ENODATA
        if code == USBDEVFS_CONNECT:
            if self.claimed_by is not None:
                return -1, errno.EBUSY
            if self.opts.kernel_driver:
                if not self.kernel_driver:
                    self.kernel_driver = self.opts.kernel_driver
                    self.sysfs.set_driver(self.kernel_driver)
                    self.log.note("kernel driver %s bound (USBDEVFS_CONNECT)" % self.kernel_driver)
                return 1, 0  # device_attach: 1 when a driver is bound
            return 0, 0      # no driver matched
        return -1, errno.ENOTTY

    def disconnect_claim(self, f, data):
        raw = bytes(data.retrieve())
        interface, flags = struct.unpack("<II", raw[:8])
        wanted = raw[8:].split(b"\0")[0].decode(errors="replace")
        if interface != 0:
            return -1, errno.EINVAL
        current = self._driver_name()
        if current is not None and self.claimed_by is not f:
            if f.privileges_dropped:
                return -1, errno.EACCES
            if flags & DISCONNECT_CLAIM_IF_DRIVER and wanted != current:
                return -1, errno.EBUSY
            if flags & DISCONNECT_CLAIM_EXCEPT_DRIVER and wanted == current:
                return -1, errno.EBUSY
            if current == "usbfs":
                with self.cv:
                    self.claimed_by = None
            else:
                self._unbind("DISCONNECT_CLAIM from open file %d" % f.n)
        return self.claim(f, 0)

    # -- URBs ------------------------------------------------------------------------------------

    def submit_urb(self, f, arg):
        urb_data = arg.resolve(0, URB_SIZE)
        type_, ep, _, flags, _, length, _, _, _, _, _, _ = struct.unpack(URB_FMT, bytes(urb_data.retrieve()))
        buf = urb_data.resolve(URB_BUFFER_OFFSET, length) if length > 0 else None
        urb = Urb(f, urb_data, buf, urb_data.client_addr, type_, ep, length)
        if type_ == URB_TYPE_CONTROL:
            if ep not in (0x00, 0x80) or length < 8:
                return -1, errno.EINVAL
            setup = bytes(buf.retrieve())
            status, answer = self.control(f, setup[:8], setup[8:])
            if answer:
                buf.update(8, answer)
            urb.status, urb.actual = status, len(answer)
            with self.cv:
                f.completed.append(urb)
                self.cv.notify_all()
            return 0, 0
        if type_ not in (URB_TYPE_BULK, URB_TYPE_INTERRUPT):
            return -1, errno.EINVAL
        if type_ == URB_TYPE_INTERRUPT or ep not in (EP_IN, EP_OUT):
            return -1, errno.ENOENT  # no such endpoint (usbfs: ENOENT)
        r = self._check_interface(f)
        if r != (0, 0):
            return r
        if ep == EP_OUT:
            data = bytes(buf.retrieve()) if buf is not None else b""
            self.chip.host_out(data)
            urb.actual = length
            with self.cv:
                f.completed.append(urb)
                self.cv.notify_all()
            self._maybe_unplug()
            return 0, 0
        with self.cv:
            self.pending_in.append(urb)
        self.deliver()
        return 0, 0

    def deliver(self):
        """Moves ready IN messages into pending IN URBs (oldest first)."""
        if self.pending_in and self.pending_in[0].owner.client is not None and not self.pending_in[0].owner.client.get_connected():
            self.forget_closed_files()
        with self.cv:
            now = time.monotonic()
            q = self.chip.in_queue
            while self.pending_in and q and q[0].ready <= now:
                urb = self.pending_in.popleft()
                msg = q[0]
                rest = msg.data[msg.offset:]
                status = 0
                if len(rest) <= urb.length:
                    chunk = rest
                    q.popleft()
                elif urb.length % MAX_PACKET == 0:
                    chunk = rest[:urb.length]     # the transfer ends full; the rest follows
                    msg.offset += urb.length
                else:
                    chunk = rest[:urb.length]     # the device's packet did not fit: babble
                    status = -errno.EOVERFLOW
                    q.popleft()
                if chunk:
                    urb.buf.update(0, chunk)
                urb.actual, urb.status = len(chunk), status
                self.log.line("IN " + hexs(chunk) + ("" if status == 0 else "  # -EOVERFLOW"))
                self._finish(urb)

    def _finish(self, urb):
        urb.done = True
        if not urb.sync:
            urb.owner.completed.append(urb)
        self.cv.notify_all()

    def _next_wake(self):
        q = self.chip.in_queue
        if self.pending_in and q:
            return max(0.0, q[0].ready - time.monotonic())
        return None

    def reap_urb(self, f, arg, blocking):
        wait = BLOCKING_REAP_WAIT if blocking else IDLE_REAP_WAIT
        deadline = time.monotonic() + wait
        while True:
            self.deliver()
            with self.cv:
                if f.completed:
                    urb = f.completed.popleft()
                    break
                if self.unplugged:
                    return -1, errno.ENODEV
                left = deadline - time.monotonic()
                if left <= 0:
                    return -1, (errno.EINTR if blocking else errno.EAGAIN)
                nxt = self._next_wake()
                self.cv.wait(min(left, nxt) if nxt is not None else left)
        urb.data.update(URB_STATUS_OFFSET, struct.pack("<i", urb.status))
        urb.data.update(URB_ACTUAL_OFFSET, struct.pack("<i", urb.actual))
        pointer = arg.resolve(0, 8)
        pointer.set_ptr(0, urb.data)
        return 0, 0

    def discard_urb(self, f, addr):
        with self.cv:
            for urb in self.pending_in:
                if urb.owner is f and urb.addr == addr and not urb.sync:
                    self.pending_in.remove(urb)
                    urb.status, urb.actual = -errno.ENOENT, 0
                    self._finish(urb)
                    self.log.note("open file %d: IN transfer cancelled (DISCARDURB)" % f.n)
                    return 0, 0
        return -1, errno.EINVAL  # already completed: libusb then reaps it

    def sync_bulk(self, f, data):
        ep, length, timeout_ms, _ = struct.unpack("<III4xQ", bytes(data.retrieve()))
        buf = data.resolve(16, length) if length > 0 else None
        if ep not in (EP_IN, EP_OUT):
            return -1, errno.ENOENT
        r = self._check_interface(f)
        if r != (0, 0):
            return r
        if ep == EP_OUT:
            self.chip.host_out(bytes(buf.retrieve()) if buf is not None else b"")
            self._maybe_unplug()
            return length, 0
        urb = Urb(f, None, buf, 0, URB_TYPE_BULK, ep, length)
        urb.sync = True
        deadline = time.monotonic() + (timeout_ms / 1000.0 if timeout_ms else SYNC_BULK_FOREVER)
        with self.cv:
            self.pending_in.append(urb)
        while True:
            self.deliver()
            with self.cv:
                if urb.done:
                    break
                left = deadline - time.monotonic()
                if left <= 0 or self.unplugged:
                    if urb in self.pending_in:
                        self.pending_in.remove(urb)
                    return -1, (errno.ENODEV if self.unplugged else errno.ETIMEDOUT)
                nxt = self._next_wake()
                self.cv.wait(min(left, nxt, 0.05) if nxt is not None else min(left, 0.05))
        if urb.status:
            return -1, -urb.status
        return urb.actual, 0

    def sync_control(self, f, data):
        request_type, request, value, index, length, _, _ = struct.unpack("<BBHHHI4xQ", bytes(data.retrieve()))
        buf = data.resolve(16, length) if length > 0 else None
        out = bytes(buf.retrieve()) if buf is not None and not request_type & 0x80 else b""
        status, answer = self.control(f, struct.pack("<BBHHH", request_type, request, value, index, length), out)
        if status:
            return -1, -status
        if answer:
            buf.update(0, answer)
        return len(answer), 0

    def control(self, f, setup, out):
        """Standard requests from the descriptors; everything else STALLs (-EPIPE)."""
        request_type, request, value, index, length = struct.unpack("<BBHHH", setup)
        answer = None
        if request_type == 0x80 and request == 6:      # GET_DESCRIPTOR
            kind, i = value >> 8, value & 0xFF
            if kind == 1:
                answer = device_descriptor(self.product)
            elif kind == 2 and i == 0:
                answer = config_descriptor()
            elif kind == 3:
                answer = string_descriptor(i, self.product)
        elif request_type == 0x80 and request == 0:    # GET_STATUS (device): bus powered
            answer = b"\x00\x00"
        elif request_type in (0x81, 0x82) and request == 0:
            answer = b"\x00\x00"
        elif request_type == 0x80 and request == 8:    # GET_CONFIGURATION
            answer = b"\x01"
        elif request_type == 0x81 and request == 10:   # GET_INTERFACE
            answer = b"\x00"
        elif request_type in (0x00, 0x01, 0x02) and request in (1, 3, 9, 11):  # CLEAR/SET_FEATURE, SET_CONFIGURATION/INTERFACE
            answer = b""
        if answer is None:
            self.log.note("open file %d: control %s: STALL" % (f.n, hexs(setup)))
            return -errno.EPIPE, b""
        answer = answer[:length]
        self.log.note("open file %d: control %s -> %s" % (f.n, hexs(setup), hexs(answer)))
        return 0, answer

    # -- unplug ----------------------------------------------------------------------------------

    def _maybe_unplug(self):
        if not self.chip.unplug_requested or self.unplugged:
            return
        with self.cv:
            self.unplugged = True
            for urb in list(self.pending_in):
                self.pending_in.remove(urb)
                urb.status, urb.actual = -errno.ESHUTDOWN, 0
                self._finish(urb)
            self.claimed_by = None
        self.log.note("device unplugged (after %d bulk OUT transfers)" % self.chip.out_transfers)
        self.sysfs.unplug_requested = True


# ---------------------------------------------------------------------------------------------
# The testbed
# ---------------------------------------------------------------------------------------------

class Sysfs:
    def __init__(self, opts, product):
        self.opts = opts
        self.unplug_requested = False
        self.testbed = UMockdev.Testbed.new()
        self.root = self.testbed.get_root_dir()
        bus, addr = opts.bus, opts.address
        self.devnode = "/dev/bus/usb/%03d/%03d" % (bus, addr)
        name = "%d-1" % bus
        self.devpath = "/devices/pci0000:00/0000:00:14.0/usb%d/%s" % (bus, name)
        self.ifpath = self.devpath + "/%s:1.0" % name
        minor = (bus - 1) * 128 + addr - 1
        descriptors = device_descriptor(product) + config_descriptor()
        modalias = "usb:v%04Xp%04Xd%04XdcFFdsc00dp00icFFisc00ip00in00" % (VENDOR, product, BCD_DEVICE)
        self.testbed.add_from_string("\n".join([
            "P: " + self.devpath,
            "N: bus/usb/%03d/%03d" % (bus, addr),
            "E: SUBSYSTEM=usb", "E: DEVTYPE=usb_device", "E: DRIVER=usb",
            "E: DEVNAME=" + self.devnode, "E: BUSNUM=%03d" % bus, "E: DEVNUM=%03d" % addr,
            "E: MAJOR=189", "E: MINOR=%d" % minor,
            "E: PRODUCT=%x/%x/%x" % (VENDOR, product, BCD_DEVICE), "E: TYPE=255/0/0",
            "E: ID_VENDOR_ID=%04x" % VENDOR, "E: ID_MODEL_ID=%04x" % product,
            "A: idVendor=%04x" % VENDOR, "A: idProduct=%04x" % product, "A: bcdDevice=%04x" % BCD_DEVICE,
            "A: bDeviceClass=ff", "A: bDeviceSubClass=00", "A: bDeviceProtocol=00",
            "A: bMaxPacketSize0=64", "A: bNumConfigurations=1", "A: bConfigurationValue=1",
            "A: bNumInterfaces= 1", "A: bmAttributes=80", "A: bMaxPower=%dmA" % (MAX_POWER_2MA * 2),
            "A: busnum=%d" % bus, "A: devnum=%d" % addr, "A: devpath=1", "A: speed=%d" % SPEED_MBPS,
            "A: version= 2.00", "A: maxchild=0", "A: authorized=1", "A: configuration=",
            "A: manufacturer=" + MANUFACTURER, "A: product=" + PRODUCTS[product],
            "A: dev=189:%d" % minor,
            "H: descriptors=" + descriptors.hex().upper(),
            "",
            "P: " + self.ifpath,
            "E: SUBSYSTEM=usb", "E: DEVTYPE=usb_interface",
            "E: PRODUCT=%x/%x/%x" % (VENDOR, product, BCD_DEVICE), "E: TYPE=255/0/0",
            "E: INTERFACE=255/0/0", "E: MODALIAS=" + modalias,
            "A: bInterfaceNumber=00", "A: bAlternateSetting= 0", "A: bNumEndpoints=02",
            "A: bInterfaceClass=ff", "A: bInterfaceSubClass=00", "A: bInterfaceProtocol=00",
            "A: modalias=" + modalias,
            "", ""]))
        if opts.kernel_driver:
            self.set_driver(opts.kernel_driver)
        node = self.root + "/dev" + self.devnode[len("/dev"):]
        os.chmod(node, opts.node_mode)
        # mkdtemp made it 0700. A COMMAND of another user must reach sys/ and dev/, and the preload
        # binds its uevent sockets (the wrapped udev netlink) right in this directory, so libusb's
        # hotplug monitor fails (libusb_init: "failed to enable the udev monitor") unless it is
        # writable: sticky and world-writable, like /tmp.
        os.chmod(self.root, 0o1777)

    def set_driver(self, driver):
        """The interface's sysfs driver link and DRIVER= property (kept in step with GETDRIVER)."""
        ifdir = self.root + "/sys" + self.ifpath
        link = ifdir + "/driver"
        if os.path.lexists(link):
            os.unlink(link)
        uevent = ifdir + "/uevent"
        with open(uevent) as fh:
            lines = [ln for ln in fh.read().splitlines() if ln and not ln.startswith("DRIVER=")]
        if driver:
            drvdir = self.root + "/sys/bus/usb/drivers/" + driver
            os.makedirs(drvdir, exist_ok=True)
            os.symlink(os.path.relpath(drvdir, ifdir), link)
            lines.append("DRIVER=" + driver)
        with open(uevent, "w") as fh:
            fh.write("\n".join(lines) + "\n")

    def attach(self, handler):
        self.testbed.attach_ioctl(self.devnode, handler)
        # The preload connects to these sockets at open(): a non-root COMMAND needs write access.
        for sock in (self.root + "/ioctl" + self.devnode, self.root + "/ioctl/_default"):
            if os.path.exists(sock):
                os.chmod(sock, 0o666)

    def unplug(self):
        """Sends "remove" for the interface and the device (libusb's udev monitor hears it and
        calls LIBUSB_HOTPLUG_EVENT_DEVICE_LEFT), then takes the device out of sysfs and /dev."""
        for syspath in ("/sys" + self.ifpath, "/sys" + self.devpath):
            self.testbed.uevent(syspath, "remove")
        self.testbed.remove_device("/sys" + self.devpath)

    def remove(self):
        shutil.rmtree(self.root, ignore_errors=True)


# ---------------------------------------------------------------------------------------------
# main
# ---------------------------------------------------------------------------------------------

def parse_args(argv):
    if "--" not in argv:
        sys.stderr.write("usage: rcs380_emulator.py [options] -- COMMAND ARGS...  (--help for options)\n")
        if "-h" in argv or "--help" in argv:
            sys.stderr.write(__doc__)
            sys.exit(0)
        sys.exit(2)
    split = argv.index("--")
    own, command = argv[:split], argv[split + 1:]
    sim_args = []
    if "--sim-args" in own:  # everything after --sim-args (up to --) goes to transit-sim
        at = own.index("--sim-args")
        own, sim_args = own[:at], own[at + 1:]
    p = argparse.ArgumentParser(prog="rcs380_emulator.py", description="An emulated Sony RC-S380 under umockdev.")
    p.add_argument("--product", choices=["06c1", "06c3", "02e1"], default="06c1")
    p.add_argument("--bus", type=int, default=1)
    p.add_argument("--address", type=int, default=13)
    p.add_argument("--card-sim", default=os.environ.get("TRANSIT_SIM"))
    p.add_argument("--card")
    p.add_argument("--index", type=int)
    p.add_argument("--no-card", action="store_true")
    p.add_argument("--bitrate-424-only", action="store_true")
    p.add_argument("--silent-after", type=int)
    p.add_argument("--unplug-after", type=int)
    p.add_argument("--node-mode", type=lambda s: int(s, 8), default=0o666)
    p.add_argument("--as-nobody", action="store_true")
    p.add_argument("--kernel-driver", choices=["port100", "usbhid", "usb-storage"])
    p.add_argument("--detach-delay-ms", type=int, default=0)
    p.add_argument("--interrupt-endpoints", action="store_true")
    p.add_argument("--garbage-answers", action="store_true")
    p.add_argument("--damage")
    p.add_argument("--damage-status", choices=sorted(DAMAGE_STATUS), default="crc")
    p.add_argument("--card-slack-ms", type=int, default=500)
    p.add_argument("--timeout", type=float, default=120.0)
    p.add_argument("--log")
    p.add_argument("--verbose", action="store_true")
    opts = p.parse_args(own)
    opts.sim_args = sim_args
    if not command:
        p.error("no COMMAND after --")
    if not (1 <= opts.bus <= 255 and 1 <= opts.address <= 127):
        p.error("--bus 1..255, --address 1..127")
    if opts.card and opts.no_card:
        p.error("--card and --no-card exclude each other")
    if opts.card and not opts.card_sim:
        p.error("--card needs --card-sim PATH (or $TRANSIT_SIM)")
    if opts.damage and not all(part.rstrip("-").isdigit() for part in opts.damage.split(",")):
        p.error("--damage LIST: numbers and N- ranges, e.g. 3,4 or 2-")
    if sim_args and not opts.card:
        p.error("--sim-args needs --card")
    return opts, command


def serve(opts, command, product, make_chip, name, describe, after=None):
    """COMMAND run against an emulated reader, whatever its chip (rcs956_emulator.py serves its
    RC-S956 so): the testbed's sysfs and device node, the usbdevfs device, the card, the chip
    `make_chip(opts, card, log, cv)` makes; `describe(sysfs)` is the log's first line, `after(chip,
    rc)` adds to its last. Everything is taken down again; returns COMMAND's status, 2 when the
    testbed could not be set up."""
    log = TransferLog(opts.log, opts.verbose)
    sysfs = card = chip = None
    try:
        sysfs = Sysfs(opts, product)
        device = UsbDevice(opts, log, product, sysfs)
        card = load_card(opts, log)
        chip = make_chip(opts, card, log, device.cv)
        device.chip = chip
        handler = UMockdev.IoctlBase()
        handler.connect("client-connected", device.on_connected)
        handler.connect("handle-ioctl", device.on_ioctl)
        sysfs.attach(handler)
        log.note(describe(sysfs))
        return run_command(command, opts, sysfs, log, name, after=after and (lambda rc: after(chip, rc)))
    except Exception as e:
        sys.stderr.write("%s: %s\n" % (name, e))
        return 2
    finally:
        if chip:
            chip.stop()
        if card:
            card.close()
        if sysfs:
            sysfs.remove()
        log.close()


def main(argv):
    opts, command = parse_args(argv)
    product = int(opts.product, 16)
    if opts.interrupt_endpoints:
        ENDPOINT_TYPE[0] = 3
    return serve(opts, command, product, Port100, "rcs380_emulator", lambda sysfs: "RC-S380 %04x:%04x (%s) at %s, testbed %s" % (
        VENDOR, product, PRODUCTS[product], sysfs.devnode, sysfs.root))


if __name__ == "__main__":
    code = main(sys.argv[1:])
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)  # the umockdev worker thread is not joined
