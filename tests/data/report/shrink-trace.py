#!/usr/bin/env python3
# Make a small copy of a trace.dat (file version 6, uncompressed: convert
# first with `trace-cmd convert --file-version 6 -i in.dat -o v6.dat`).
# Only the kallsyms lines the records need are kept (each call-site
# function and the symbol after it, which bounds its size), and the
# per-CPU data are copied after the rebuilt header, page aligned. The
# records themselves are unchanged, so every report figure stays the same.
#
# A file slabacct wrote loses its VERSION option ("slabacct ..."), which
# says an origin section follows the CPU data: it is not copied.
#
#   shrink-trace.py IN.v6.dat OUT.dat FUNC...   (FUNC: names to keep)
import struct
import sys


def main():
    src, dst, keep = sys.argv[1], sys.argv[2], set(sys.argv[3:])
    d = open(src, 'rb').read()
    assert d[:10] == b'\x17\x08\x44tracing' and d[10:12] == b'6\x00'
    pos = 12
    endian = '<' if d[pos] == 0 else '>'
    page_size = struct.unpack(endian + 'I', d[pos + 2:pos + 6])[0]
    pos += 6

    def u(fmt, n):
        nonlocal pos
        v = struct.unpack(endian + fmt, d[pos:pos + n])[0]
        pos += n
        return v

    def skip(fmt, n):
        nonlocal pos
        size = u(fmt, n)
        pos += size

    for name in (b'header_page\x00', b'header_event\x00'):
        assert d[pos:pos + len(name)] == name
        pos += len(name)
        skip('Q', 8)
    for _ in range(u('I', 4)):          # ftrace formats
        skip('Q', 8)
    for _ in range(u('I', 4)):          # event systems
        pos = d.index(b'\x00', pos) + 1
        for _ in range(u('I', 4)):
            skip('Q', 8)
    ks_start = pos
    ks_len = u('I', 4)
    kallsyms = d[pos:pos + ks_len]
    pos += ks_len
    rest_start = pos
    skip('I', 4)                     # printk formats
    skip('Q', 8)                     # saved cmdlines
    ncpus = u('I', 4)
    assert d[pos:pos + 10] == b'options  \x00'
    pos += 10
    opts_start = pos
    opts = b''
    while True:
        at = pos
        oid = u('H', 2)
        if oid == 0:
            opts += d[at:pos]
            break
        skip('I', 4)
        if oid == 9 and d[at + 6:at + 15] == b'slabacct ':
            continue
        opts += d[at:pos]
    opts_end = pos
    assert d[pos:pos + 10] == b'flyrecord\x00'
    pos += 10
    cpus = [(u('Q', 8), u('Q', 8)) for _ in range(ncpus)]
    table_at = pos - 16 * ncpus

    lines = [l for l in kallsyms.split(b'\n') if l.strip()]
    ents = []
    for l in lines:
        f = l.split()
        if len(f) >= 3:
            ents.append((int(f[0], 16), f[2].decode(), l))
    ents.sort(key=lambda e: e[0])
    out = []
    for i, (addr, name, l) in enumerate(ents):
        if name in keep:
            out.append(l)
            if i + 1 < len(ents):
                out.append(ents[i + 1][2])
    newks = b'\n'.join(sorted(set(out), key=lambda l: int(l.split()[0], 16))) + b'\n'

    head = d[:ks_start] + struct.pack(endian + 'I', len(newks)) + newks
    head += d[rest_start:opts_start] + opts + d[opts_end:table_at]
    table_len = 16 * ncpus
    off = len(head) + table_len
    off = (off + page_size - 1) // page_size * page_size
    table = b''
    body = b''
    for (o, size) in cpus:
        table += struct.pack(endian + 'QQ', off, size)
        pad = off - (len(head) + table_len + len(body))
        body += b'\x00' * pad + d[o:o + size]
        off += size
        off = (off + page_size - 1) // page_size * page_size
    open(dst, 'wb').write(head + table + body)


main()
