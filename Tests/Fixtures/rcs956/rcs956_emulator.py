#!/usr/bin/python3
"""rcs956_emulator.py: an emulated Sony RC-S330/360/370 (the RC-S956 chip, USB 054c:02e1) under umockdev.

What it is
==========
A test double for transit's RC-S956 driver: the umockdev testbed and usbdevfs device of
../rcs380/rcs380_emulator.py (the project's own, imported for its USB layer, its sysfs and its
card link to `transit-sim`), with the RC-S380's Port-100 chip replaced by a model of the RC-S956
written here from docs/research/rcs956-facts.md, never from transit's driver:

    rcs956_emulator.py [options] -- COMMAND ARGS...

Options
-------
  --model RC-S330|RC-S360|RC-S370   the product string (default RC-S330; the strings are a GUESS)
  --bus N --address N    the node /dev/bus/usb/BBB/DDD (default 1 and 13)
  --card-sim PATH        transit-sim to run (default $TRANSIT_SIM)
  --card FILE            the card image; without it no card is on the reader
  --index N              the card of a file that holds several
  --sim-args ARGS...     more transit-sim options up to `--` (e.g. --remove-after 3); last option
  --bitrate-424-only     the card answers at 424 kbit/s only
  --kernel-driver NAME   the interface starts bound to NAME: pn533_usb (the kernel's), usbhid
  --node-mode MODE       mode of the device node (default 0666)
  --as-nobody            run COMMAND as user nobody
  --damage LIST          InCommunicateThru answers (counted from 1 among those the card answered;
                         numbers and N- ranges) that come back damaged: status --damage-status, no frame
  --damage-status KIND   crc (02, default), parity (03) or protocol (0B)
  --lose LIST            InCommunicateThru answers (counted as for --damage) lost on the air: the
                         chip answers status 01 (time out, the target has not answered) once its
                         timeout has run out, as for a card that stayed silent
  --unanswered LIST      InCommunicateThru commands (counted as for --damage) the chip ACKs and
                         never answers, until the host's ACK cancels them (GUESS: a chip that lost
                         its answer; nfcpy sends the ACK on a USB read timeout, §4)
  --list-fault LIST      InListPassiveTarget commands (counted from 1, every one) that fail as
                         --list-fault-kind says
  --list-fault-kind KIND damaged (default): the card's answer to the chip's first Polling try
                         comes back damaged; the chip drops it (InListPassiveTarget has no status
                         byte) and tries again while MaxRetries allows, else answers NbTg 0;
                         silent (ACK, no answer until the host's ACK); error (ACK, error frame)
  --silent-after N       after N bulk OUT transfers the device never answers again
  --unplug-after N       after N bulk OUT transfers the device is unplugged (the RC-S380
                         emulator's: pending transfers end, the node goes, udev says "remove")
  --card-slack-ms N      how much longer than the chip's timeout transit-sim may take (default 500)
  --timeout S            kill COMMAND after S seconds (default 120)
  --log FILE             `OUT <hex>` / `IN <hex>` a bulk transfer, `# …` for the rest
  --verbose              the same lines on stderr

The facts (docs/research/rcs956-facts.md; each label there: TRACE, CODE, GUESS)
==============================================================================
* USB: 054c:02e1; bulk IN 0x84, OUT 0x04, 64-byte packets (libnfc's known values, §1); class ff,
  bcdDevice 0x0100, 100 mA: GUESS.
* Frames (§2): normal `00 00 FF LEN LCS D4 … DCS 00`, extended `00 00 FF FF FF LENm LENl LCS …`
  (big-endian); the ACK `00 00 FF 00 FF 00` as its own IN transfer before each answer; a host ACK
  cancels the command under way; a NAK is logged and not answered (GUESS); a bad frame or a
  command not modelled is answered with the error frame `00 00 FF 01 FF 7F 81 00` (GUESS which).
* Commands (§3, §4): Diagnose 00 (line test: the data echoed), GetFirmwareVersion (`33 01 30 07`),
  ReadRegister / WriteRegister (a register file; CIU_TxMode 6302 / RxMode 6303: bits 6-4 the speed
  000 106, 001 212, 010 424; bits 1-0 framing, 10 FeliCa; CIU_TxControl 6304 bits 0-1 the field),
  SetParameters, ResetMode, RFConfiguration (01 the field; 02 the timeouts, third byte n:
  100 µs × 2^(n−1), 0 none; 05 MaxRetries, the third passive activation: tries = n + 1, 0xFF until
  the host's ACK), InListPassiveTarget (BrTy 01 212 and 02 424 FeliCa; the field on; the CIU set to
  the rate; the Polling `06 00 SC SC RC TSN` to the card, 5 ms a try without an answer (GUESS);
  answered `4B 01 01 POL_RES` or `4B 00`), InCommunicateThru (the frame to the card in the CIU's
  mode: `43 00 <frame>`, or `43 01` once the timeout has run out). No SAMConfiguration (a PN532
  command): error frame.
* The card: transit-sim behind the ACR122U's bare-frame dialect, as in rcs380_emulator.py; it
  hears a frame only with the field on, at 212 or 424 FeliCa (not at 212 with --bitrate-424-only).
"""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "rcs380"))
import rcs380_emulator as usb  # noqa: E402  (its own re-exec runs this script again when it must)
from usb_chip import ChipLink, listed, run_command  # noqa: E402  (../usbemu, on the path rcs380_emulator set)

import argparse  # noqa: E402
import collections  # noqa: E402
import queue  # noqa: E402
import signal  # noqa: E402
import subprocess  # noqa: E402
import threading  # noqa: E402
import time  # noqa: E402

from gi.repository import UMockdev  # noqa: E402

PRODUCT = 0x02E1
MODELS = ("RC-S330", "RC-S360", "RC-S370")
EP_IN, EP_OUT = 0x84, 0x04           # libnfc pn53x_usb_supported_devices (§1)
BCD_DEVICE = 0x0100                  # GUESS
MAX_POWER_2MA = 50                   # GUESS: 100 mA
KERNEL_DRIVER = "pn533_usb"          # drivers/nfc/pn533/usb.c (§3)

ACK = bytes.fromhex("0000ff00ff00")
NAK = bytes.fromhex("0000ffff0000")
ERR = bytes.fromhex("0000ff01ff7f8100")   # nfcpy base_clf_pn53x ERR
FIRMWARE = bytes.fromhex("33013007")      # nfcpy test_clf_rcs956.py: IC 33, Ver 01, Rev 30, Support 07
DAMAGE_STATUS = {"crc": 0x02, "parity": 0x03, "protocol": 0x0B}
NO_CARD_TRY = 0.005                       # GUESS: how long one passive activation try waits
CIU_TX_MODE, CIU_RX_MODE, CIU_TX_CONTROL = 0x6302, 0x6303, 0x6304
SPEEDS = {0: 106, 1: 212, 2: 424}
FELICA_FRAMING = 0x02


def frame(data):
    """A PN53x frame: normal up to 255 bytes of data, extended (big-endian LEN) beyond."""
    n = len(data)
    if n < 256:
        head = bytes([0, 0, 0xFF, n, -n & 0xFF])
    else:
        hi, lo = n >> 8, n & 0xFF
        head = bytes([0, 0, 0xFF, 0xFF, 0xFF, hi, lo, -(hi + lo) & 0xFF])
    return head + bytes(data) + bytes([-sum(data) & 0xFF, 0])


def parse(buf):
    """('ack'|'nak', None, n) | ('cmd', data, n) | ('more', None, 0) | ('bad', None, len(buf))."""
    b = bytes(buf)
    if len(b) < 3:
        return ("more", None, 0) if b == bytes([0, 0, 0xFF])[:len(b)] else ("bad", None, len(b))
    if b[:3] != b"\x00\x00\xff":
        return "bad", None, len(b)
    if len(b) < 6:
        return "more", None, 0
    if b[:6] == ACK:
        return "ack", None, 6
    if b[:6] == NAK:
        return "nak", None, 6
    if b[3] == 0xFF and b[4] == 0xFF:
        if len(b) < 8:
            return "more", None, 0
        if (b[5] + b[6] + b[7]) & 0xFF:
            return "bad", None, len(b)
        n, start = b[5] << 8 | b[6], 8
    else:
        if (b[3] + b[4]) & 0xFF:
            return "bad", None, len(b)
        n, start = b[3], 5
    if len(b) < start + n + 2:
        return "more", None, 0
    data = b[start:start + n]
    if (sum(data) + b[start + n]) & 0xFF or b[start + n + 1] != 0 or not data or data[0] != 0xD4:
        return "bad", None, len(b)
    return "cmd", data, start + n + 2


class RCS956(ChipLink):
    """The chip: its USB side is `ChipLink`'s (usbemu/usb_chip.py); its frames, commands and answers are here."""

    ACK, ERR, MAX_PACKET = ACK, ERR, usb.MAX_PACKET
    THREAD_NAME = "rcs956"

    def __init__(self, opts, card, log, cv):
        super().__init__(opts, card, log, cv)
        self.list_commands = 0
        self.commands_run = collections.Counter()
        self.reset_chip()
        self.start()

    def reset_chip(self):
        self.registers = {CIU_TX_MODE: 0x00, CIU_RX_MODE: 0x00, CIU_TX_CONTROL: 0x00}
        self.comm_timeout_index = 0x0A    # GUESS: what the kernel's pn533 leaves (51.2 ms)
        self.passive_retries = 0xFF       # PN53x power-up value (GUESS for the RC-S956, §4)
        self.listed = False

    @staticmethod
    def parse(buf):
        return parse(buf)

    # -- the chip's thread -----------------------------------------------------------------------

    def answer(self, generation, payload):
        result = self.execute(payload, generation)
        if result is None:
            return  # cancelled
        answer, ready = result
        self._emit(generation, ERR if answer is None else frame(bytes([0xD5, payload[1] + 1]) + answer), ready)

    def cancelled(self, generation):
        return lambda: generation != self.generation or self.stopped

    def execute(self, data, generation):
        """(answer after D5 code+1, or None for the error frame; when it is ready), or None when cancelled."""
        cmd, p = data[1], bytes(data[2:])
        self.commands_run[cmd] += 1
        if cmd == 0x00:                        # Diagnose: 00 the communication line test echoes
            return (p[1:], 0) if p[:1] == b"\x00" else (None, 0)
        if cmd == 0x02:
            return FIRMWARE, 0
        if cmd == 0x06:                        # ReadRegister
            if not p or len(p) % 2:
                return None, 0
            return bytes(self.registers.get(p[i] << 8 | p[i + 1], 0) for i in range(0, len(p), 2)), 0
        if cmd == 0x08:                        # WriteRegister
            if not p or len(p) % 3:
                return None, 0
            for i in range(0, len(p), 3):
                self.registers[p[i] << 8 | p[i + 1]] = p[i + 2]
            self._field(self.registers.get(CIU_TX_CONTROL, 0) & 0x03 != 0)
            return b"\x00", 0
        if cmd == 0x12:                        # SetParameters
            return (b"", 0) if len(p) == 1 else (None, 0)
        if cmd == 0x18:                        # ResetMode
            self.listed = False
            return b"", 0
        if cmd == 0x32:
            return self._rf_configuration(p)
        if cmd == 0x4A:
            return self._in_list_passive_target(p, generation)
        if cmd == 0x42:
            return self._in_communicate_thru(p, generation)
        self.log.note("command %02x not emulated: error frame" % cmd)
        return None, 0

    def _field(self, on):
        if on:
            self.registers[CIU_TX_CONTROL] = self.registers.get(CIU_TX_CONTROL, 0) | 0x03
        else:
            self.registers[CIU_TX_CONTROL] = self.registers.get(CIU_TX_CONTROL, 0) & ~0x03
        self.card.power(on)

    def field_on(self):
        return self.registers.get(CIU_TX_CONTROL, 0) & 0x03 != 0

    def _rf_configuration(self, p):
        if not p:
            return None, 0
        item, values = p[0], p[1:]
        if item == 0x01 and len(values) == 1:
            self._field(values[0] & 0x01 == 1)
        elif item == 0x02 and len(values) == 3:
            self.comm_timeout_index = values[2]
        elif item == 0x05 and len(values) == 3:
            self.passive_retries = values[2]
        elif item not in (0x04, 0x0A, 0x0B, 0x0C, 0x0D, 0x81, 0x82):
            return None, 0
        return b"", 0

    def _mode(self):
        tx, rx = self.registers.get(CIU_TX_MODE, 0), self.registers.get(CIU_RX_MODE, 0)
        speed = SPEEDS.get(tx >> 4 & 0x07)
        felica = tx & 0x03 == FELICA_FRAMING and rx & 0x03 == FELICA_FRAMING and (rx >> 4 & 0x07) == (tx >> 4 & 0x07)
        return speed, felica

    def _hears(self):
        """Why the card does not hear a frame now; None when it does."""
        speed, felica = self._mode()
        if not self.field_on():
            return "the field is off"
        if not felica or speed not in (212, 424):
            return "the CIU is at %s kbit/s, %s" % (speed, "FeliCa" if felica else "not FeliCa")
        if self.opts.bitrate_424_only and speed == 212:
            return "the card answers at 424 kbit/s only"
        return None

    def _exchange(self, sent, wait, generation):
        reason = self._hears()
        if reason:
            self.log.note("card: > %s: silent (%s)" % (usb.hexs(sent), reason))
            return None
        answer = self.card.exchange(sent, wait + self.opts.card_slack_ms / 1000.0, self.cancelled(generation))
        self.log.note("card: %d > %s < %s" % (self._mode()[0], usb.hexs(sent), usb.hexs(answer) if answer is not None else "(timeout)"))
        return answer

    def _in_list_passive_target(self, p, generation):
        if len(p) < 2 or p[0] not in (1, 2):
            return None, 0
        self.list_commands += 1
        fault = self.opts.list_fault_kind if listed(self.opts.list_fault, self.list_commands) else None
        if fault:
            self.log.note("list fault: InListPassiveTarget %d: %s (--list-fault)" % (self.list_commands, fault))
        if fault == "silent":
            return None                       # ACKed; no answer until the host's ACK
        if fault == "error":
            return None, 0                    # the error frame
        brty, initiator = p[1], p[2:]
        if brty in (0x01, 0x02):
            if len(initiator) != 5:
                return None, 0
            mode = 0x80 | (1 if brty == 0x01 else 2) << 4 | FELICA_FRAMING   # CRC on, the rate, FeliCa
            self.registers[CIU_TX_MODE] = self.registers[CIU_RX_MODE] = mode
        elif brty in (0x00, 0x03, 0x04):
            self.registers[CIU_TX_MODE] = self.registers[CIU_RX_MODE] = 0x00   # 106 kbit/s: a FeliCa card is silent
        else:
            return None, 0
        if not self.field_on():
            self._field(True)
        tries = 0
        while True:
            tries += 1
            answer = None
            if brty in (0x01, 0x02):
                answer = self._exchange(bytes([1 + len(initiator)]) + initiator, NO_CARD_TRY, generation)
            if generation != self.generation or self.stopped:
                return None
            if fault == "damaged" and tries == 1 and answer is not None:
                self.log.note("list fault: the card's Polling answer damaged on try 1: dropped")
                answer = None
            if answer is not None and len(answer) >= 18 and answer[0] == len(answer) and answer[1] == 0x01:
                self.listed = True
                return bytes([0x01, 0x01]) + answer, 0
            if self.passive_retries != 0xFF and tries > self.passive_retries:
                self.listed = False
                return b"\x00", 0
            time.sleep(NO_CARD_TRY)

    def _in_communicate_thru(self, p, generation):
        n = self.comm_timeout_index
        timeout = 100e-6 * (1 << (min(n, 16) - 1)) if n else 3600.0  # 0: no timeout (§4)
        t0 = time.monotonic()
        answer = self._exchange(p, timeout, generation)
        if generation != self.generation:
            self.log.note("card: cancelled")
            return None
        if answer is None:
            return b"\x01", t0 + timeout     # time out: the target has not answered
        self.card_exchanges += 1
        if listed(self.opts.lose, self.card_exchanges):
            self.log.note("lost: InCommunicateThru %d answered status 01 after the timeout (--lose)" % self.card_exchanges)
            return b"\x01", t0 + timeout
        if listed(self.opts.unanswered, self.card_exchanges):
            self.log.note("unanswered: InCommunicateThru %d ACKed and never answered (--unanswered)" % self.card_exchanges)
            return None
        if listed(self.opts.damage, self.card_exchanges):
            status = DAMAGE_STATUS[self.opts.damage_status]
            self.log.note("damaged: InCommunicateThru %d answered status %02x (--damage)" % (self.card_exchanges, status))
            return bytes([status]), 0
        return b"\x00" + answer, 0



def parse_args(argv):
    if "--" not in argv:
        sys.stderr.write(__doc__ if ("-h" in argv or "--help" in argv) else "usage: rcs956_emulator.py [options] -- COMMAND ARGS...\n")
        sys.exit(0 if ("-h" in argv or "--help" in argv) else 2)
    split = argv.index("--")
    own, command = argv[:split], argv[split + 1:]
    sim_args = []
    if "--sim-args" in own:
        at = own.index("--sim-args")
        own, sim_args = own[:at], own[at + 1:]
    p = argparse.ArgumentParser(prog="rcs956_emulator.py")
    p.add_argument("--model", choices=MODELS, default="RC-S330")
    p.add_argument("--bus", type=int, default=1)
    p.add_argument("--address", type=int, default=13)
    p.add_argument("--card-sim", default=os.environ.get("TRANSIT_SIM"))
    p.add_argument("--card")
    p.add_argument("--index", type=int)
    p.add_argument("--bitrate-424-only", action="store_true")
    p.add_argument("--kernel-driver", choices=[KERNEL_DRIVER, "usbhid"])
    p.add_argument("--node-mode", type=lambda s: int(s, 8), default=0o666)
    p.add_argument("--as-nobody", action="store_true")
    p.add_argument("--damage")
    p.add_argument("--damage-status", choices=sorted(DAMAGE_STATUS), default="crc")
    p.add_argument("--lose")
    p.add_argument("--unanswered")
    p.add_argument("--list-fault")
    p.add_argument("--list-fault-kind", choices=["damaged", "silent", "error"], default="damaged")
    p.add_argument("--silent-after", type=int)
    p.add_argument("--unplug-after", type=int)
    p.add_argument("--card-slack-ms", type=int, default=500)
    p.add_argument("--timeout", type=float, default=120.0)
    p.add_argument("--log")
    p.add_argument("--verbose", action="store_true")
    opts = p.parse_args(own)
    opts.sim_args = sim_args
    # What the imported USB layer reads of its options.
    opts.detach_delay_ms, opts.garbage_answers, opts.interrupt_endpoints = 0, False, False
    if not command:
        p.error("no COMMAND after --")
    if opts.card and not opts.card_sim:
        p.error("--card needs --card-sim PATH (or $TRANSIT_SIM)")
    for name in ("damage", "lose", "unanswered", "list_fault"):
        spec = getattr(opts, name)
        if spec and not all(part.rstrip("-").isdigit() for part in spec.split(",")):
            p.error("--%s LIST: numbers and N- ranges" % name.replace("_", "-"))
    return opts, command


def identity(model):
    """The RC-S956's USB identity in the imported USB layer's globals, which its descriptors read."""
    usb.PRODUCTS = {PRODUCT: model}
    usb.EP_IN, usb.EP_OUT = EP_IN, EP_OUT
    usb.BCD_DEVICE = BCD_DEVICE
    usb.MAX_POWER_2MA = MAX_POWER_2MA


def main(argv):
    opts, command = parse_args(argv)
    identity(opts.model)
    return usb.serve(opts, command, PRODUCT, RCS956, "rcs956_emulator",
                     lambda sysfs: "RC-S956 %04x:%04x (%s) at %s" % (usb.VENDOR, PRODUCT, opts.model, sysfs.devnode),
                     after=lambda chip, rc: "; commands run: %s" % " ".join("%02x×%d" % kv for kv in sorted(chip.commands_run.items())))


if __name__ == "__main__":
    code = main(sys.argv[1:])
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)
