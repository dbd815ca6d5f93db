#!/usr/bin/env python3
"""libusb_edgecases.py: error paths of an RC-S380 through libusb-1.0 (run it with no card on the reader).

Uses libusb_probe.py's ctypes layer; the frames are docs/research/port100.md §"Test vectors"
(V2, V3, V8) or built with the §"Frames" rule. Checks: a bad checksum gets the "err" frame and no ACK; a frame cut by a short
packet likewise; an unimplemented command gets ACK + err; InCommRF before InSetRF (RF off) and
before InSetProtocol; parameter errors (V3, V8); GetCommandType (V2); a receive timeout comes when
the InCommRF timeout has run out; a frame split at a 64-byte packet boundary is joined, but a
zero-length packet ends the transfer; a host ACK cancels an InCommRF in progress; a too-small read
buffer gives LIBUSB_ERROR_OVERFLOW and the reader carries on; a second handle cannot claim the
interface (LIBUSB_ERROR_BUSY). Exit 0 when all hold.
"""

import ctypes
import os
import sys
import time

sys.dont_write_bytecode = True  # no __pycache__ in the fixtures directory
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from libusb_probe import Failure, Reader, err, framed, load_libusb, DeviceDescriptor  # noqa: E402

ACK = "00 00 FF 00 FF 00"
ERR = "00 00 FF FF FF"


def main():
    lib = load_libusb()
    ctx = ctypes.c_void_p()
    assert lib.libusb_init(ctypes.byref(ctx)) == 0
    devs = ctypes.POINTER(ctypes.c_void_p)()
    n = lib.libusb_get_device_list(ctx, ctypes.byref(devs))
    dev = None
    for i in range(n):
        dd = DeviceDescriptor()
        lib.libusb_get_device_descriptor(devs[i], ctypes.byref(dd))
        if dd.idVendor == 0x054C and dd.idProduct in (0x06C1, 0x06C3):
            dev = devs[i]
    if dev is None:
        print("no RC-S380")
        return 4
    h, h2 = ctypes.c_void_p(), ctypes.c_void_p()
    assert lib.libusb_open(dev, ctypes.byref(h)) == 0
    assert lib.libusb_open(dev, ctypes.byref(h2)) == 0
    lib.libusb_free_device_list(devs, 1)
    r = lib.libusb_claim_interface(h, 0)
    if r:
        print("claim: %s" % err(r))
        return 1
    rd = Reader(lib, h, 0x81, 0x02, 64, "-v" in sys.argv)
    failures = 0

    def check(name, fn):
        nonlocal failures
        t = time.monotonic()
        try:
            fn()
            print("  ok  %-48s %6.1f ms" % (name, (time.monotonic() - t) * 1000))
        except Failure as e:
            failures += 1
            print("  FAILED %s: %s" % (name, e))

    def silent(what, ms=30):
        got = rd.read(ms)
        if got is not None:
            raise Failure("%s: expected nothing, got %s" % (what, got.hex()))

    def cmd(payload_hex, answer_hex):
        rd.write(framed(bytes.fromhex(payload_hex)))
        rd.expect("ACK", ACK, rd.read(1000))
        rd.expect("answer", answer_hex, rd.read(1000))

    def second_handle_busy():
        r = lib.libusb_claim_interface(h2, 0)
        if r != -6:
            raise Failure("second handle's claim: %s, expected LIBUSB_ERROR_BUSY" % err(r))

    def soft_reset():
        rd.write(bytes.fromhex("0000ff00ff00"))
        while rd.read(10) is not None:
            pass

    def bad_dcs():
        rd.write(bytes.fromhex("0000ffffff0200fed6200b00"))  # GetFirmwareVersion with DCS 0B, not 0A
        rd.expect("err frame", ERR, rd.read(1000))
        silent("after the err frame")

    def short_packet_cut():
        frame = bytes.fromhex("0000ffffff0600fad60001010f011800")  # V3 212F
        rd.write(frame[:9])
        rd.expect("err frame", ERR, rd.read(1000))
        silent("after the err frame")

    def unimplemented():
        rd.write(framed(bytes.fromhex("d624")))  # GetProperty: named by nfcpy, not emulated
        rd.expect("ACK", ACK, rd.read(1000))
        rd.expect("err frame", ERR, rd.read(1000))

    def rf_off():
        cmd("d6 06 00", "00 00 FF FF FF 03 00 FD D7 07 00 22 00")                      # SwitchRF off (V1)
        cmd("d6 04 6e 00 06 00 ff ff 01 00", "0000ffffff0600fad705000400002000")      # status 0x400 RF_OFF

    def no_protocol():
        cmd("d6 00 01 01 0f 01", "00 00 FF FF FF 03 00 FD D7 01 00 28 00")            # V3 212F
        cmd("d6 04 6e 00 06 00 ff ff 01 00", "0000ffffff0600fad705010000002300")      # status 0x01 PROTOCOL

    def parameter_errors():
        cmd("d6 00 01 09 0f 09", "00 00 FF FF FF 03 00 FD D7 01 01 27 00")            # V3 PARAMETER
        cmd("d6 2a 05", "00 00 FF FF FF 03 00 FD D7 2B 01 FD 00")                     # V8 SetCommandType
        cmd("d6 28", "00 00 FF FF FF 0A 00 F6 D7 29 00 00 00 00 00 00 00 03 FD 00")    # V2

    def receive_timeout():
        cmd("d6 00 01 01 0f 01", "00 00 FF FF FF 03 00 FD D7 01 00 28 00")
        cmd("d6 02 00 18 01 01 02 01 03 00 04 00 05 00 06 00 07 08 08 00 09 00 0a 00 0b 00 0c 00 0e 04"
            " 0f 00 10 00 11 00 12 00 13 06", "00 00 FF FF FF 03 00 FD D7 03 00 26 00")
        t = time.monotonic()
        cmd("d6 04 d0 07 06 00 ff ff 01 00", "00 00 FF FF FF 06 00 FA D7 05 80 00 00 00 A4 00")  # 200 ms: V6
        ms = (time.monotonic() - t) * 1000
        if not 195 <= ms <= 1000:
            raise Failure("RECEIVE_TIMEOUT after %.1f ms, expected 200" % ms)

    def cancel():
        rd.write(framed(bytes.fromhex("d6 04 1a 27 06 00 ff ff 01 00")))  # 1 s
        rd.expect("ACK", ACK, rd.read(1000))
        rd.write(bytes.fromhex("0000ff00ff00"))                          # cancel
        silent("after the cancel", 1300)
        cmd("d6 20", "00 00 FF FF FF 04 00 FC D7 21 11 01 F6 00")         # and the reader carries on

    def overflow():
        rd.write(framed(bytes.fromhex("d620")))
        rd.expect("ACK", ACK, rd.read(1000))
        buf = (ctypes.c_ubyte * 8)()
        done = ctypes.c_int(0)
        r = lib.libusb_bulk_transfer(h, 0x81, buf, 8, ctypes.byref(done), 1000)
        if r != -8:
            raise Failure("8-byte read of a 14-byte answer: %s, expected LIBUSB_ERROR_OVERFLOW" % err(r))
        silent("after the overflow")
        cmd("d6 22", "00 00 FF FF FF 04 00 FC D7 23 00 01 05 00")

    def split_at_packet_boundary():
        # 64 bytes of a 70-byte frame (InSetProtocol with 30 pairs) end on a packet boundary: the
        # device waits for the rest.
        payload = bytes.fromhex("d602") + bytes([0x00, 0x18]) * 30
        frame = framed(payload)
        assert len(frame) == 72
        first = (ctypes.c_ubyte * 64).from_buffer_copy(frame[:64])
        done = ctypes.c_int(0)
        r = lib.libusb_bulk_transfer(h, 0x02, first, 64, ctypes.byref(done), 1000)  # no zero-length packet
        if r:
            raise Failure("64-byte write: %s" % err(r))
        silent("after 64 of 72 bytes")
        rd.write(frame[64:])
        rd.expect("ACK", ACK, rd.read(1000))
        rd.expect("answer", "00 00 FF FF FF 03 00 FD D7 03 00 26 00", rd.read(1000))

    check("second handle cannot claim", second_handle_busy)
    check("soft reset", soft_reset)
    check("bad DCS: err frame, no ACK", bad_dcs)
    check("frame cut by a short packet: err frame", short_packet_cut)
    check("unimplemented command: ACK + err frame", unimplemented)
    check("InCommRF with RF off: status 0x400", rf_off)
    check("InCommRF before InSetProtocol: status 0x01", no_protocol)
    check("parameter errors (V3, V8), GetCommandType (V2)", parameter_errors)
    check("no card: RECEIVE_TIMEOUT after 200 ms", receive_timeout)
    check("host ACK cancels InCommRF", cancel)
    check("8-byte read: LIBUSB_ERROR_OVERFLOW", overflow)
    check("frame split at a packet boundary", split_at_packet_boundary)

    def zero_length_packet_ends_transfer():
        frame = framed(bytes.fromhex("d602") + bytes([0x00, 0x18]) * 30)
        rd.write(frame[:64])  # Reader.write ends a 64-byte transfer with a zero-length packet
        rd.expect("err frame", ERR, rd.read(1000))
        silent("after the err frame")

    check("64 bytes + zero-length packet: err frame", zero_length_packet_ends_transfer)
    lib.libusb_release_interface(h, 0)
    lib.libusb_close(h2)
    lib.libusb_close(h)
    lib.libusb_exit(ctx)
    print("%d failure(s)" % failures)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
