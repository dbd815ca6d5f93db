"""usb_chip.py: what the emulated USB readers' chips share (rcs380_emulator.py, rcs956_emulator.py).

Both Sony chips take `00 00 FF …` frames on the bulk OUT endpoint, answer each command with an ACK
as an IN transfer of its own and then the answer, and drop what they were doing when the host
sends an ACK. `ChipLink` is that USB side, written once: the OUT bytes cut into frames (each
chip's `parse`), a command thread, the IN queue the USB layer delivers, cancel and USB reset, the
--silent-after and --unplug-after faults. Each chip's model (its frames, commands, answers) stays
in its own emulator. `run_command` runs COMMAND under the umockdev testbed as both emulators do.
"""

import collections
import os
import queue
import signal
import stat
import subprocess
import sys
import threading
import time

PRELOAD = "libumockdev-preload.so.0"


def hexs(b):
    return bytes(b).hex()


class InMessage:
    __slots__ = ("data", "offset", "ready")

    def __init__(self, data, ready):
        self.data, self.offset, self.ready = data, 0, ready


def listed(spec, number):
    """Whether `number` is in LIST `spec` (numbers and N- ranges, comma-separated)."""
    for part in filter(None, (spec or "").split(",")):
        if part.endswith("-"):
            if number >= int(part[:-1]):
                return True
        elif number == int(part):
            return True
    return False


class ChipLink:
    """A chip's USB side: takes the host's bulk OUT bytes (in umockdev's worker thread), runs
    commands on its own thread and queues IN messages for the USB layer. A subclass gives
    `parse(buffer)` -> (kind, payload, used) with kind "more", "bad", "ack", "nak" or "cmd";
    `answer(generation, payload)`, which emits the command's answer; `reset_chip()`; ACK and ERR;
    and the words its log uses."""

    ACK = ERR = b""
    MAX_PACKET = 64
    ERR_WORDS = "the error frame"
    CANCEL_WORDS = "cancel"
    THREAD_NAME = "chip"
    # True when a zero-length packet after part of a frame ends it as a bad frame.
    ZLP_ENDS_FRAME = False

    def __init__(self, opts, card, log, cv):
        self.opts, self.card, self.log, self.cv = opts, card, log, cv
        self.in_queue = collections.deque()   # InMessage, delivered in order
        self.commands = queue.Queue()
        self.generation = 0                    # bumped by a host ACK (cancel)
        self.rx = bytearray()
        self.out_transfers = 0
        self.stopped = False
        self.unplug_requested = False
        self.card_exchanges = 0               # card commands that reached the card (--damage counts them)

    def start(self):
        self.thread = threading.Thread(target=self._run, name=self.THREAD_NAME, daemon=True)
        self.thread.start()

    # -- host side (umockdev's worker thread) --------------------------------------------------

    def host_out(self, data):
        """One bulk OUT transfer."""
        if not data:
            self.log.note("OUT zero-length packet")
            if self.rx and self.ZLP_ENDS_FRAME:
                self._bad("a zero-length packet ended an incomplete frame")
            return
        self.out_transfers += 1
        self.log.line("OUT " + hexs(data))
        if self.opts.unplug_after is not None and self.out_transfers >= self.opts.unplug_after:
            self.unplug_requested = True
        if self.opts.silent_after is not None and self.out_transfers > self.opts.silent_after:
            self.log.note("silent: bulk OUT transfer %d ignored" % self.out_transfers)
            return
        self.rx += data
        while self.rx:
            kind, payload, used = self.parse(self.rx)
            if kind == "more":
                if len(data) % self.MAX_PACKET:
                    self._bad("a short packet ended an incomplete frame")
                break
            if kind == "bad":
                self._bad("bad frame")
                break
            del self.rx[:used]
            if kind == "ack":
                self.cancel("host ACK")
            elif kind == "nak":
                self.log.note("host NAK: not answered (GUESS)")
            else:
                self.commands.put(("cmd", self.generation, payload))

    def _bad(self, why):
        self.log.note("%s: %s; answering %s" % (why, hexs(self.rx), self.ERR_WORDS))
        self.rx.clear()
        self.commands.put(("bad", self.generation, None))

    def cancel(self, why):
        with self.cv:
            self.generation += 1
            dropped = len(self.in_queue)
            self.in_queue.clear()
        self.log.note("%s: %s (%d undelivered IN message(s) dropped)" % (why, self.CANCEL_WORDS, dropped))

    def usb_reset(self):
        self.cancel("USB reset")
        self.rx.clear()
        self.reset_chip()

    def stop(self):
        with self.cv:
            self.stopped = True
            self.cv.notify_all()
        self.commands.put(None)

    # -- the chip's thread ---------------------------------------------------------------------

    def _emit(self, generation, data, ready=0.0):
        with self.cv:
            if generation != self.generation or self.stopped:
                return
            self.in_queue.append(InMessage(bytes(data), ready))
            self.cv.notify_all()

    def _run(self):
        while not self.stopped:
            try:
                item = self.commands.get(timeout=0.2)
            except queue.Empty:
                continue
            if item is None:
                return
            kind, generation, payload = item
            if generation != self.generation:
                continue
            if kind == "bad":
                self._emit(generation, self.ERR)
                continue
            self._emit(generation, self.ACK)
            try:
                self.answer(generation, payload)
            except Exception as e:  # a bug in the model must not hang the client
                self.log.note("model error: %r" % (e,))
                self._emit(generation, self.ERR)


def _world_searchable(directory):
    """True when every directory from / down to `directory` may be searched by others (user nobody)."""
    path = os.path.realpath(directory)
    while True:
        try:
            st = os.stat(path)
        except OSError:
            return False
        if not st.st_mode & stat.S_IXOTH:
            return False
        if path == "/":
            return True
        path = os.path.dirname(path)


def run_command(command, opts, sysfs, log, name, after=None):
    """Runs COMMAND under the testbed `sysfs` (umockdev's preload, its UMOCKDEV_DIR), as user
    nobody with --as-nobody; forwards SIGINT, SIGTERM and SIGHUP to it, unplugs the device when
    the chip asks, kills it after --timeout. Returns its exit status (124 when killed, 128 + N
    for signal N, 127 when it cannot be run). `after(rc)` adds to the log's last line."""
    env = dict(os.environ)
    env.pop("RCS380_EMULATOR_REEXEC", None)
    env["UMOCKDEV_DIR"] = sysfs.root
    if PRELOAD not in env.get("LD_PRELOAD", ""):
        env["LD_PRELOAD"] = PRELOAD + (":" + env["LD_PRELOAD"] if env.get("LD_PRELOAD") else "")
    if opts.as_nobody:
        env["PATH"] = ":".join(d for d in env.get("PATH", "/usr/bin:/bin").split(":") if d and _world_searchable(d))
        env["HOME"] = "/nonexistent"
        command = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "--"] + command
    log.note("running: " + " ".join(command))
    try:
        proc = subprocess.Popen(command, env=env, start_new_session=True)
    except OSError as e:
        sys.stderr.write("%s: cannot run %s: %s\n" % (name, command[0], e))
        return 127

    def forward(signum, frame):
        try:
            os.killpg(proc.pid, signum)
        except OSError:
            pass
    for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(s, forward)

    deadline = time.monotonic() + opts.timeout if opts.timeout > 0 else None
    timed_out = False
    while True:
        try:
            proc.wait(0.05)
            break
        except subprocess.TimeoutExpired:
            pass
        if sysfs.unplug_requested:
            sysfs.unplug_requested = False
            sysfs.unplug()
        if deadline and time.monotonic() > deadline and not timed_out:
            timed_out = True
            sys.stderr.write("%s: COMMAND still running after %g s: killed\n" % (name, opts.timeout))
            log.note("timeout: killing COMMAND")
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except OSError:
                pass
    rc = proc.returncode
    log.note("COMMAND exited with %d" % rc + (after(rc) if after else ""))
    return 124 if timed_out else (128 - rc if rc < 0 else rc)
