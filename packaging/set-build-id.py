#!/usr/bin/env python3
"""Sets each ELF file's GNU build ID to the SHA-1 of the file itself, with the ID zeroed.

The linker computes the ID over the file as linked, debug information included, and the debug
information of two builds differs by the folder they ran in (clang's module-cache hashes), so
two stripped files of one source differ by their IDs alone. After stripping, the ID made here
depends only on what is shipped (as debugedit --build-id does; docs/install.md).
    set-build-id.py FILE...
"""
import hashlib
import struct
import sys


def build_id_span(data):
    """(offset, length) of the build ID's bytes in a 64-bit little-endian ELF file, or None."""
    if data[:4] != b"\x7fELF" or data[4] != 2 or data[5] != 1:
        return None
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3A)
    def section(i):
        name, kind, _, _, offset, size = struct.unpack_from("<IIQQQQ", data, shoff + i * shentsize)
        return name, kind, offset, size
    _, _, names_offset, _ = section(shstrndx)
    for i in range(shnum):
        name, kind, offset, size = section(i)
        end = data.index(b"\0", names_offset + name)
        if data[names_offset + name:end] != b".note.gnu.build-id":
            continue
        namesz, descsz, note_type = struct.unpack_from("<III", data, offset)
        desc = offset + 12 + ((namesz + 3) & ~3)
        if note_type != 3 or desc + descsz > offset + size:  # NT_GNU_BUILD_ID
            return None
        return desc, descsz
    return None


for path in sys.argv[1:]:
    with open(path, "rb") as f:
        data = bytearray(f.read())
    span = build_id_span(data)
    if span is None:
        continue
    offset, length = span
    data[offset:offset + length] = bytes(length)
    digest = hashlib.sha1(data).digest()
    data[offset:offset + length] = (digest * (length // len(digest) + 1))[:length]
    with open(path, "r+b") as f:
        f.write(data)
