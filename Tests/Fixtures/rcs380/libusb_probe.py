#!/usr/bin/env python3
"""libusb_probe.py: reads a FeliCa card through a Sony RC-S380 with libusb-1.0 (ctypes, stdlib only).

Written to check rcs380_emulator.py independently of it: every byte it sends and expects comes from
the vectors of docs/research/port100.md (§"Test vectors": V1 init, V3 InSetRF, V4
InSetProtocol, V5 Polling; V7's form for Read Without Encryption), typed here as hex, not from the
emulator's code. It runs as well against a real reader (no port100 bound, or --detach).

    libusb_probe.py [--card samples/suica.json] [--bitrate 212|424] [--detach | --auto-detach]
                    [--expect-no-card] [--expect-access-denied] [--read-timeout-ms N]

1. lists the USB devices, finds 054c:06c1 or 054c:06c3, its interface and bulk endpoints from the
   configuration descriptor; opens it (LIBUSB_ERROR_ACCESS: says so and exits 3), reports the kernel
   driver, reads the manufacturer and product strings, claims interface 0;
2. sends V1 byte for byte (soft-reset ACK, then SetCommandType 1, GetFirmwareVersion,
   GetPDDataVersion, SwitchRF off), checking each ACK and answer byte for byte;
3. senses a FeliCa card (V3 InSetRF 212F or 424F, V4 defaults, V4 guard time, V5 Polling with system
   code FFFF, request code 01) and checks the answer's framing, status and SENSF_RES;
4. reads service 008B block 0 (Read Without Encryption, the Suica-style balance block) and prints
   the balance (little-endian at bytes 11-12 of the block, docs/card-image.md); with --card, checks
   the IDm and the block against the card image.
Exit: 0 read, 1 a check failed, 3 LIBUSB_ERROR_ACCESS, 4 no reader, 5 no card answered the polling.
"""

import argparse
import ctypes
import ctypes.util
import json
import sys
import time

LIBUSB_ERRORS = {
    -1: "LIBUSB_ERROR_IO", -2: "LIBUSB_ERROR_INVALID_PARAM", -3: "LIBUSB_ERROR_ACCESS",
    -4: "LIBUSB_ERROR_NO_DEVICE", -5: "LIBUSB_ERROR_NOT_FOUND", -6: "LIBUSB_ERROR_BUSY",
    -7: "LIBUSB_ERROR_TIMEOUT", -8: "LIBUSB_ERROR_OVERFLOW", -9: "LIBUSB_ERROR_PIPE",
    -10: "LIBUSB_ERROR_INTERRUPTED", -11: "LIBUSB_ERROR_NO_MEM", -12: "LIBUSB_ERROR_NOT_SUPPORTED",
    -99: "LIBUSB_ERROR_OTHER",
}
READERS = {(0x054C, 0x06C1): "RC-S380/S", (0x054C, 0x06C3): "RC-S380/P"}


class DeviceDescriptor(ctypes.Structure):
    _fields_ = [("bLength", ctypes.c_uint8), ("bDescriptorType", ctypes.c_uint8), ("bcdUSB", ctypes.c_uint16),
                ("bDeviceClass", ctypes.c_uint8), ("bDeviceSubClass", ctypes.c_uint8),
                ("bDeviceProtocol", ctypes.c_uint8), ("bMaxPacketSize0", ctypes.c_uint8),
                ("idVendor", ctypes.c_uint16), ("idProduct", ctypes.c_uint16), ("bcdDevice", ctypes.c_uint16),
                ("iManufacturer", ctypes.c_uint8), ("iProduct", ctypes.c_uint8),
                ("iSerialNumber", ctypes.c_uint8), ("bNumConfigurations", ctypes.c_uint8)]


class EndpointDescriptor(ctypes.Structure):
    _fields_ = [("bLength", ctypes.c_uint8), ("bDescriptorType", ctypes.c_uint8),
                ("bEndpointAddress", ctypes.c_uint8), ("bmAttributes", ctypes.c_uint8),
                ("wMaxPacketSize", ctypes.c_uint16), ("bInterval", ctypes.c_uint8),
                ("bRefresh", ctypes.c_uint8), ("bSynchAddress", ctypes.c_uint8),
                ("extra", ctypes.c_void_p), ("extra_length", ctypes.c_int)]


class InterfaceDescriptor(ctypes.Structure):
    _fields_ = [("bLength", ctypes.c_uint8), ("bDescriptorType", ctypes.c_uint8),
                ("bInterfaceNumber", ctypes.c_uint8), ("bAlternateSetting", ctypes.c_uint8),
                ("bNumEndpoints", ctypes.c_uint8), ("bInterfaceClass", ctypes.c_uint8),
                ("bInterfaceSubClass", ctypes.c_uint8), ("bInterfaceProtocol", ctypes.c_uint8),
                ("iInterface", ctypes.c_uint8), ("endpoint", ctypes.POINTER(EndpointDescriptor)),
                ("extra", ctypes.c_void_p), ("extra_length", ctypes.c_int)]


class Interface(ctypes.Structure):
    _fields_ = [("altsetting", ctypes.POINTER(InterfaceDescriptor)), ("num_altsetting", ctypes.c_int)]


class ConfigDescriptor(ctypes.Structure):
    _fields_ = [("bLength", ctypes.c_uint8), ("bDescriptorType", ctypes.c_uint8),
                ("wTotalLength", ctypes.c_uint16), ("bNumInterfaces", ctypes.c_uint8),
                ("bConfigurationValue", ctypes.c_uint8), ("iConfiguration", ctypes.c_uint8),
                ("bmAttributes", ctypes.c_uint8), ("MaxPower", ctypes.c_uint8),
                ("interface", ctypes.POINTER(Interface)), ("extra", ctypes.c_void_p),
                ("extra_length", ctypes.c_int)]


def load_libusb():
    lib = ctypes.CDLL(ctypes.util.find_library("usb-1.0") or "libusb-1.0.so.0")
    p = ctypes.c_void_p
    lib.libusb_init.argtypes = [ctypes.POINTER(p)]
    lib.libusb_exit.argtypes = [p]
    lib.libusb_get_device_list.argtypes = [p, ctypes.POINTER(ctypes.POINTER(p))]
    lib.libusb_get_device_list.restype = ctypes.c_ssize_t
    lib.libusb_free_device_list.argtypes = [ctypes.POINTER(p), ctypes.c_int]
    lib.libusb_get_device_descriptor.argtypes = [p, ctypes.POINTER(DeviceDescriptor)]
    lib.libusb_get_bus_number.argtypes = [p]
    lib.libusb_get_bus_number.restype = ctypes.c_uint8
    lib.libusb_get_device_address.argtypes = [p]
    lib.libusb_get_device_address.restype = ctypes.c_uint8
    lib.libusb_get_active_config_descriptor.argtypes = [p, ctypes.POINTER(ctypes.POINTER(ConfigDescriptor))]
    lib.libusb_free_config_descriptor.argtypes = [ctypes.POINTER(ConfigDescriptor)]
    lib.libusb_open.argtypes = [p, ctypes.POINTER(p)]
    lib.libusb_close.argtypes = [p]
    lib.libusb_kernel_driver_active.argtypes = [p, ctypes.c_int]
    lib.libusb_detach_kernel_driver.argtypes = [p, ctypes.c_int]
    lib.libusb_set_auto_detach_kernel_driver.argtypes = [p, ctypes.c_int]
    lib.libusb_claim_interface.argtypes = [p, ctypes.c_int]
    lib.libusb_release_interface.argtypes = [p, ctypes.c_int]
    lib.libusb_get_string_descriptor_ascii.argtypes = [p, ctypes.c_uint8, ctypes.c_char_p, ctypes.c_int]
    lib.libusb_bulk_transfer.argtypes = [p, ctypes.c_ubyte, ctypes.POINTER(ctypes.c_ubyte), ctypes.c_int,
                                         ctypes.POINTER(ctypes.c_int), ctypes.c_uint]
    lib.libusb_get_version.restype = ctypes.POINTER(ctypes.c_uint16 * 4)
    return lib


def err(code):
    return LIBUSB_ERRORS.get(code, str(code))


class Failure(Exception):
    pass


class Reader:
    def __init__(self, lib, handle, ep_in, ep_out, max_packet, verbose):
        self.lib, self.handle, self.ep_in, self.ep_out = lib, handle, ep_in, ep_out
        self.max_packet, self.verbose = max_packet, verbose
        self.transfers = 0

    def write(self, data, timeout_ms=1000):
        buf = (ctypes.c_ubyte * max(1, len(data))).from_buffer_copy(bytes(data) or b"\0")
        done = ctypes.c_int(0)
        r = self.lib.libusb_bulk_transfer(self.handle, self.ep_out, buf, len(data), ctypes.byref(done), timeout_ms)
        self.transfers += 1
        if self.verbose:
            print("  >>> %s" % bytes(data).hex())
        if r != 0 or done.value != len(data):
            raise Failure("bulk OUT %s: %s (%d of %d bytes)" % (bytes(data).hex(), err(r), done.value, len(data)))
        if len(data) % self.max_packet == 0:  # end the transfer with a zero-length packet
            self.lib.libusb_bulk_transfer(self.handle, self.ep_out, buf, 0, ctypes.byref(done), timeout_ms)

    def read(self, timeout_ms):
        """One IN transfer (300-byte buffer, as nfcpy reads); None on LIBUSB_ERROR_TIMEOUT."""
        buf = (ctypes.c_ubyte * 300)()
        done = ctypes.c_int(0)
        r = self.lib.libusb_bulk_transfer(self.handle, self.ep_in, buf, 300, ctypes.byref(done), timeout_ms)
        self.transfers += 1
        if r == -7:
            return None
        if r != 0:
            raise Failure("bulk IN: %s" % err(r))
        data = bytes(buf[:done.value])
        if self.verbose:
            print("  <<< %s" % data.hex())
        return data

    def expect(self, what, want_hex, got):
        want = bytes.fromhex(want_hex.replace(" ", ""))
        if got != want:
            raise Failure("%s: expected %s, got %s" % (what, want.hex(), got.hex() if got is not None else "nothing (timeout)"))

    def command(self, what, out_hex, answer_hex, answer_timeout_ms=1000):
        """Sends a vector frame, checks the ACK and the answer byte for byte."""
        self.write(bytes.fromhex(out_hex.replace(" ", "")))
        self.expect(what + " ACK", "00 00 FF 00 FF 00", self.read(1000))
        self.expect(what + " answer", answer_hex, self.read(answer_timeout_ms))
        print("  ok  %-22s %s" % (what, answer_hex))


def checked_answer(frame):
    """The payload of a Port-100 frame (00 00 FF FF FF LEN LE, LCS, payload, DCS, 00), checked."""
    if len(frame) < 10 or frame[:5] != b"\x00\x00\xff\xff\xff":
        raise Failure("not a Port-100 frame: %s" % frame.hex())
    n = frame[5] | frame[6] << 8
    if (frame[5] + frame[6] + frame[7]) & 0xFF or len(frame) != 10 + n:
        raise Failure("bad length or LCS: %s" % frame.hex())
    payload = frame[8:8 + n]
    if (sum(payload) + frame[8 + n]) & 0xFF or frame[9 + n] != 0:
        raise Failure("bad DCS or postamble: %s" % frame.hex())
    return payload


def framed(payload):
    """Builds a Port-100 frame for a payload (only for the Read Without Encryption, whose IDm
    comes from the card; the other frames are the vectors as printed)."""
    n = len(payload)
    return (bytes([0, 0, 0xFF, 0xFF, 0xFF, n & 0xFF, n >> 8, -(n + (n >> 8)) & 0xFF]) + payload
            + bytes([-sum(payload) & 0xFF, 0]))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--card", help="card image (JSON) to check the IDm and the 008B block against")
    ap.add_argument("--bitrate", choices=["212", "424"], default="212")
    ap.add_argument("--detach", action="store_true", help="libusb_detach_kernel_driver when a driver is bound")
    ap.add_argument("--auto-detach", action="store_true", help="libusb_set_auto_detach_kernel_driver(1)")
    ap.add_argument("--expect-no-card", action="store_true", help="succeed when the polling times out (V6)")
    ap.add_argument("--expect-access-denied", action="store_true", help="succeed on LIBUSB_ERROR_ACCESS")
    ap.add_argument("--read-timeout-ms", type=int, default=0,
                    help="instead of the card steps: one read with this timeout after the init, must time out")
    ap.add_argument("--verbose", "-v", action="store_true")
    args = ap.parse_args()
    t_start = time.monotonic()

    lib = load_libusb()
    v = lib.libusb_get_version().contents
    print("libusb %d.%d.%d" % (v[0], v[1], v[2]))
    ctx = ctypes.c_void_p()
    if lib.libusb_init(ctypes.byref(ctx)) != 0:
        print("libusb_init failed")
        return 1
    devs = ctypes.POINTER(ctypes.c_void_p)()
    n = lib.libusb_get_device_list(ctx, ctypes.byref(devs))
    print("%d USB device(s)" % n)
    found = None
    for i in range(n):
        dev = devs[i]
        dd = DeviceDescriptor()
        lib.libusb_get_device_descriptor(dev, ctypes.byref(dd))
        name = READERS.get((dd.idVendor, dd.idProduct), "")
        print("  bus %03d device %03d: %04x:%04x class %02x bcdUSB %04x ep0 %d %s" % (
            lib.libusb_get_bus_number(dev), lib.libusb_get_device_address(dev), dd.idVendor, dd.idProduct,
            dd.bDeviceClass, dd.bcdUSB, dd.bMaxPacketSize0, name))
        if name and found is None:
            found = (dev, dd, name)
    if found is None:
        print("no RC-S380 (054c:06c1, 054c:06c3)")
        return 4
    dev, dd, name = found

    cfg = ctypes.POINTER(ConfigDescriptor)()
    r = lib.libusb_get_active_config_descriptor(dev, ctypes.byref(cfg))
    if r != 0:
        print("libusb_get_active_config_descriptor: %s" % err(r))
        return 1
    ep_in = ep_out = None
    max_packet = 64
    interface_number = None
    c = cfg.contents
    for i in range(c.bNumInterfaces):
        alt = c.interface[i].altsetting[0]
        for e in range(alt.bNumEndpoints):
            ep = alt.endpoint[e]
            if ep.bmAttributes & 3 != 2:
                continue
            interface_number = alt.bInterfaceNumber
            if ep.bEndpointAddress & 0x80:
                ep_in = ep.bEndpointAddress
            else:
                ep_out = ep.bEndpointAddress
            max_packet = ep.wMaxPacketSize
        print("  interface %d: class %02x, %d endpoint(s)" % (alt.bInterfaceNumber, alt.bInterfaceClass, alt.bNumEndpoints))
    lib.libusb_free_config_descriptor(cfg)
    if ep_in is None or ep_out is None:
        print("no bulk IN/OUT endpoint pair")
        return 1
    print("  bulk IN %02x, bulk OUT %02x, wMaxPacketSize %d" % (ep_in, ep_out, max_packet))

    handle = ctypes.c_void_p()
    r = lib.libusb_open(dev, ctypes.byref(handle))
    lib.libusb_free_device_list(devs, 1)
    if r != 0:
        print("libusb_open: %s" % err(r))
        if r == -3:
            return 0 if args.expect_access_denied else 3
        return 1
    if args.expect_access_denied:
        print("expected LIBUSB_ERROR_ACCESS, but the device opened")
        return 1

    reader = None
    try:
        active = lib.libusb_kernel_driver_active(handle, interface_number)
        print("kernel driver active on interface %d: %s" % (interface_number, active if active >= 0 else err(active)))
        if args.auto_detach:
            print("auto-detach: %s" % err(lib.libusb_set_auto_detach_kernel_driver(handle, 1)))
        elif active == 1 and args.detach:
            r = lib.libusb_detach_kernel_driver(handle, interface_number)
            print("detach kernel driver: %s" % (err(r) if r else "ok"))
        for index, label in ((dd.iManufacturer, "manufacturer"), (dd.iProduct, "product")):
            if index:
                s = ctypes.create_string_buffer(128)
                r = lib.libusb_get_string_descriptor_ascii(handle, index, s, 128)
                print("%s: %s" % (label, s.value.decode() if r >= 0 else err(r)))
        r = lib.libusb_claim_interface(handle, interface_number)
        if r != 0:
            raise Failure("libusb_claim_interface: %s" % err(r))
        print("claimed interface %d" % interface_number)
        reader = Reader(lib, handle, ep_in, ep_out, max_packet, args.verbose)

        t0 = time.monotonic()
        # V1 (TRACE, nfcpy issue #11): soft reset, then drain whatever is left (nfcpy reads with 10 ms).
        reader.write(bytes.fromhex("0000ff00ff00"))
        drained = 0
        while reader.read(10) is not None:
            drained += 1
        print("soft reset (ACK), %d stale transfer(s) drained" % drained)
        reader.command("SetCommandType 1", "00 00 FF FF FF 03 00 FD D6 2A 01 FF 00", "00 00 FF FF FF 03 00 FD D7 2B 00 FE 00")
        reader.command("GetFirmwareVersion", "00 00 FF FF FF 02 00 FE D6 20 0A 00", "00 00 FF FF FF 04 00 FC D7 21 11 01 F6 00")
        reader.command("GetPDDataVersion", "00 00 FF FF FF 02 00 FE D6 22 08 00", "00 00 FF FF FF 04 00 FC D7 23 00 01 05 00")
        reader.command("SwitchRF off", "00 00 FF FF FF 03 00 FD D6 06 00 24 00", "00 00 FF FF FF 03 00 FD D7 07 00 22 00")
        print("V1 init: %s v1.11 in %.1f ms" % (name, (time.monotonic() - t0) * 1000))

        if args.read_timeout_ms:
            t1 = time.monotonic()
            got = reader.read(args.read_timeout_ms)
            print("idle read: %s after %.1f ms" % (got.hex() if got else "timeout", (time.monotonic() - t1) * 1000))
            return 0 if got is None else 1

        # V3 InSetRF, V4 InSetProtocol (defaults, then guard time 24), V5 Polling FFFF/01 (11 ms).
        in_set_rf = {"212": "00 00 FF FF FF 06 00 FA D6 00 01 01 0F 01 18 00",
                     "424": "00 00 FF FF FF 06 00 FA D6 00 01 02 0F 02 16 00"}[args.bitrate]
        defaults = ("00 00 FF FF FF 28 00 D8 D6 02 00 18 01 01 02 01 03 00 04 00 05 00 06 00 07 08 08 00"
                    " 09 00 0A 00 0B 00 0C 00 0E 04 0F 00 10 00 11 00 12 00 13 06 4B 00")
        t1 = time.monotonic()
        reader.command("InSetRF %sF" % args.bitrate, in_set_rf, "00 00 FF FF FF 03 00 FD D7 01 00 28 00")
        reader.command("InSetProtocol defaults", defaults, "00 00 FF FF FF 03 00 FD D7 03 00 26 00")
        reader.command("InSetProtocol 00 18", "00 00 FF FF FF 04 00 FC D6 02 00 18 10 00", "00 00 FF FF FF 03 00 FD D7 03 00 26 00")
        reader.write(bytes.fromhex("0000ffffff0a00f6d6046e000600ffff0100b300"))
        reader.expect("Polling ACK", "00 00 FF 00 FF 00", reader.read(1000))
        answer = reader.read(1000)
        if answer is None:
            raise Failure("Polling: no answer from the reader within 1 s")
        payload = checked_answer(answer)
        if payload[:2] != b"\xd7\x05":
            raise Failure("Polling: not an InCommRF answer: %s" % answer.hex())
        status = int.from_bytes(payload[2:6], "little")
        if status:
            if status == 0x80 and args.expect_no_card:
                reader.expect("Polling (no card, V6)", "00 00 FF FF FF 06 00 FA D7 05 80 00 00 00 A4 00", answer)
                print("no card: RECEIVE_TIMEOUT as V6, %.1f ms after InSetRF" % ((time.monotonic() - t1) * 1000))
                return 0
            print("Polling: InCommRF status %08x%s" % (status, " (RECEIVE_TIMEOUT: no card)" if status == 0x80 else ""))
            return 5
        if args.expect_no_card:
            raise Failure("expected no card, but the polling was answered: %s" % answer.hex())
        sensf = payload[7:]
        # Accept the answer as nfcpy does (docs/research/port100.md §"Sequences"): LEN ≥ 18, LEN = length, response code 01.
        if len(sensf) < 18 or sensf[0] != len(sensf) or sensf[1] != 0x01:
            raise Failure("Polling: bad SENSF_RES %s" % sensf.hex())
        idm, pmm, sc = sensf[2:10], sensf[10:18], sensf[18:20]
        print("card at %sF: IDm %s PMm %s system code %s (%.1f ms from InSetRF)" % (
            args.bitrate, idm.hex().upper(), pmm.hex().upper(), sc.hex().upper(), (time.monotonic() - t1) * 1000))

        # Exchange as §1.4.3 / V7: InSetRF and InSetProtocol defaults again, then InCommRF with a
        # 1 s timeout (1A 27) carrying Read Without Encryption: service 008B (LE 8B 00), block 0 (80 00).
        t2 = time.monotonic()
        reader.command("InSetRF %sF" % args.bitrate, in_set_rf, "00 00 FF FF FF 03 00 FD D7 01 00 28 00")
        reader.command("InSetProtocol defaults", defaults, "00 00 FF FF FF 03 00 FD D7 03 00 26 00")
        read_frame = bytes([16, 0x06]) + idm + bytes([0x01, 0x8B, 0x00, 0x01, 0x80, 0x00])
        reader.write(framed(bytes([0xD6, 0x04, 0x1A, 0x27]) + read_frame))
        reader.expect("Read ACK", "00 00 FF 00 FF 00", reader.read(1000))
        answer = reader.read(2100)
        if answer is None:
            raise Failure("Read Without Encryption: no answer within 2.1 s")
        payload = checked_answer(answer)
        status = int.from_bytes(payload[2:6], "little")
        if payload[:2] != b"\xd7\x05" or status:
            raise Failure("Read Without Encryption: InCommRF answer %s (status %08x)" % (answer.hex(), status))
        frame = payload[7:]
        # LEN 07 IDm SF1 SF2 count block (V7's expectation)
        if len(frame) < 12 or frame[0] != len(frame) or frame[1] != 0x07 or frame[2:10] != idm:
            raise Failure("Read Without Encryption: unexpected frame %s" % frame.hex())
        if frame[10:12] != b"\x00\x00":
            raise Failure("Read Without Encryption: the card answered status flags %s (A6: no such service)"
                          % frame[10:12].hex().upper())
        if len(frame) != 29 or frame[12] != 1:
            raise Failure("Read Without Encryption: unexpected frame %s" % frame.hex())
        block = frame[13:29]
        balance = int.from_bytes(block[11:13], "little")
        print("service 008B block 0: %s -> balance %d yen (%.1f ms)" % (block.hex().upper(), balance, (time.monotonic() - t2) * 1000))

        if args.card:
            with open(args.card) as fh:
                image = json.load(fh)["felica"]
            want_idm = bytes.fromhex(image["idm"])
            want_block = None
            for system in image["systems"]:
                if "008B" in system.get("services", {}):
                    want_block = bytes.fromhex(system["services"]["008B"][0])
                    break
            if idm != want_idm or block != want_block:
                raise Failure("the card image says IDm %s block %s" % (want_idm.hex(), want_block.hex() if want_block else None))
            print("matches %s" % args.card)

        reader.command("SwitchRF off", "00 00 FF FF FF 03 00 FD D6 06 00 24 00", "00 00 FF FF FF 03 00 FD D7 07 00 22 00")
        return 0
    except Failure as e:
        print("FAILED: %s" % e)
        return 1
    finally:
        if reader is not None:
            lib.libusb_release_interface(handle, interface_number)
            print("%d bulk transfers, %.1f ms in all" % (reader.transfers, (time.monotonic() - t_start) * 1000))
        lib.libusb_close(handle)
        lib.libusb_exit(ctx)


if __name__ == "__main__":
    sys.exit(main())
