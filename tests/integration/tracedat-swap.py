#!/usr/bin/env python3
"""Make the big-endian twin of a little-endian trace.dat, for tests.

    tracedat-swap.py IN.dat OUT.dat

IN is a trace.dat of version 6 (uncompressed; `trace-cmd convert
--file-version 6` makes one), little endian, as written by trace-cmd.
OUT is the file a big-endian kernel would have given for the same
events: every number of the file's structure and of its ring-buffer
pages in big-endian order, and each event header's type_len/time_delta
word laid out as a big-endian kernel's bitfield is (type_len in the top
five bits). Each record's fields are swapped after its event format
(offset and size of every field, array elements one by one; strings
and __data_loc payloads are bytes and stay). The word size is the
file's own, from its header_page. What the converter does not know (an
option with binary content other than CPUCOUNT and TRACEID, an event
with no format, a dynamic array of numbers) stops it with an error, so
a test never compares against a half-swapped file.

No big-endian guest is at hand (Debian has no big-endian ARM), so
tests/integration/host/report-foreign.sh checks slabacct's report of
such a file against trace-cmd's own decoding of it, and against the
report of the little-endian original.
"""
import re
import struct
import sys

OPT_CPUCOUNT, OPT_TRACEID = 8, 11
# options whose content is text (trace-cmd.dat.v6(5))
TEXT_OPTS = {1, 2, 4, 5, 6, 9, 10}


class Swap:
    def __init__(self, d):
        self.d = d
        self.pos = 0
        self.out = bytearray()

    def take(self, n):
        v = self.d[self.pos:self.pos + n]
        if len(v) != n:
            raise SystemExit('tracedat-swap: the file ends early')
        self.pos += n
        return v

    def num(self, fmt):
        n = struct.calcsize(fmt)
        v, = struct.unpack('<' + fmt, self.take(n))
        self.out += struct.pack('>' + fmt, v)
        return v

    def copy(self, n):
        self.out += self.take(n)

    def cstr(self):
        end = self.d.index(b'\0', self.pos) + 1
        s = self.d[self.pos:end - 1]
        self.copy(end - self.pos)
        return s

    def block(self, fmt):
        n = self.num(fmt)
        text = self.d[self.pos:self.pos + n]
        self.copy(n)
        return text


def parse_format(text, formats):
    """Record an event format's id and fields: (offset, size, elem)."""
    m = re.search(rb'^ID: (\d+)$', text, re.M)
    if not m:
        return
    fields = []
    for f in re.finditer(rb'field:([^;]*);\s*offset:(\d+);\s*size:(\d+);',
                         text):
        decl, off, size = f.group(1).strip(), int(f.group(2)), int(f.group(3))
        arr = re.search(rb'\[(\d*)\]$', decl)
        if decl.startswith(b'__data_loc') or decl.startswith(b'__rel_loc'):
            if not re.match(rb'__(data|rel)_loc (unsigned )?char\s*\[\]', decl):
                raise SystemExit('tracedat-swap: dynamic array of numbers: %s'
                                 % decl.decode())
            elem = 4                    # the u32 locator
        elif arr and arr.group(1):
            n = int(arr.group(1))
            elem = size // n if n else size
            if decl.split()[0] in (b'char', b'u8', b's8') or \
               b'unsigned char' in decl:
                elem = 1
        else:
            elem = size
        fields.append((off, size, elem))
    formats[int(m.group(1))] = fields


def swap_record(page, at, length, formats, out):
    """Swap one record's fields in place (out: the page being built)."""
    if length < 2:
        return
    eid, = struct.unpack_from('<H', page, at)
    fields = formats.get(eid)
    if fields is None:
        raise SystemExit('tracedat-swap: an event of id %d has no format'
                         % eid)
    for off, size, elem in fields:
        if elem == 1 or off + size > length:
            continue
        if elem not in (2, 4, 8) or size % elem:
            raise SystemExit('tracedat-swap: a field of %d bytes in '
                             'elements of %d' % (size, elem))
        fmt = {2: 'H', 4: 'I', 8: 'Q'}[elem]
        for i in range(size // elem):
            v, = struct.unpack_from('<' + fmt, page, at + off + i * elem)
            struct.pack_into('>' + fmt, out, at + off + i * elem, v)


def swap_page(page, long_size, formats):
    out = bytearray(page)
    lf = 'I' if long_size == 4 else 'Q'
    hdr = 8 + long_size
    ts, = struct.unpack_from('<Q', page, 0)
    struct.pack_into('>Q', out, 0, ts)
    flags, = struct.unpack_from('<' + lf, page, 8)
    struct.pack_into('>' + lf, out, 8, flags)
    commit = flags & ((1 << 27) - 1)
    if (flags >> 31) & 1 and (flags >> 30) & 1 and \
            hdr + commit + long_size <= len(page):
        lost, = struct.unpack_from('<' + lf, page, hdr + commit)
        struct.pack_into('>' + lf, out, hdr + commit, lost)
    cur = 0
    while cur + 4 <= commit:
        p = hdr + cur
        w, = struct.unpack_from('<I', page, p)
        tl, delta = w & 31, w >> 5
        struct.pack_into('>I', out, p, (tl << 27) | delta)
        if tl in (29, 30, 31):
            if cur + 8 > commit:
                break
            a, = struct.unpack_from('<I', page, p + 4)
            struct.pack_into('>I', out, p + 4, a)
            cur = cur + 4 + a if tl == 29 else cur + 8
            continue
        if tl == 0:
            n, = struct.unpack_from('<I', page, p + 4)
            struct.pack_into('>I', out, p + 4, n)
            at, length = p + 8, (n - 4 + 3) & ~3
        else:
            at, length = p + 4, tl * 4
        swap_record(page, at, length, formats, out)
        cur = at - hdr + length
    return bytes(out)


def main():
    if len(sys.argv) != 3:
        raise SystemExit('usage: tracedat-swap.py IN.dat OUT.dat')
    d = open(sys.argv[1], 'rb').read()
    if d[:10] != b'\x17\x08\x44tracing' or d[10:12] != b'6\0':
        raise SystemExit('tracedat-swap: not a version 6 trace.dat')
    if d[12] != 0:
        raise SystemExit('tracedat-swap: already big endian')
    s = Swap(d)
    s.copy(12)
    s.take(1)
    s.out.append(1)                 # big endian
    s.copy(1)                       # the long-size byte, as it was
    page_size = s.num('I')
    formats = {}
    long_size = None
    for name in (b'header_page', b'header_event'):
        if s.cstr() != name:
            raise SystemExit('tracedat-swap: no %s' % name.decode())
        text = s.block('Q')
        if name == b'header_page':
            m = re.search(rb'commit;\s*offset:\d+;\s*size:(\d+);', text)
            long_size = int(m.group(1)) if m else None
    if long_size not in (4, 8):
        raise SystemExit('tracedat-swap: header_page gives no commit size')
    for _ in range(s.num('I')):
        parse_format(s.block('Q'), formats)
    for _ in range(s.num('I')):
        s.cstr()
        for _ in range(s.num('I')):
            parse_format(s.block('Q'), formats)
    s.block('I')                    # kallsyms
    s.block('I')                    # printk formats
    s.block('Q')                    # saved cmdlines
    cpus = s.num('I')
    if s.d[s.pos:s.pos + 10] != b'options  \0':
        raise SystemExit('tracedat-swap: no options section')
    s.copy(10)
    while True:
        oid = s.num('H')
        if not oid:
            break
        size = s.num('I')
        if oid == OPT_CPUCOUNT and size == 4:
            s.num('I')
        elif oid == OPT_TRACEID and size == 8:
            s.num('Q')
        elif oid in TEXT_OPTS:
            s.copy(size)
        else:
            raise SystemExit('tracedat-swap: option %d is not known here'
                             % oid)
    if s.d[s.pos:s.pos + 10] != b'flyrecord\0':
        raise SystemExit('tracedat-swap: not a flyrecord file')
    s.copy(10)
    ranges = [(s.num('Q'), s.num('Q')) for _ in range(cpus)]
    out = s.out
    for off, size in ranges:
        if len(out) < off:
            out += s.d[len(out):off]
        for p in range(off, off + size, page_size):
            out[p:p + page_size] = swap_page(
                d[p:min(p + page_size, off + size)], long_size, formats)
    if len(out) < len(d):
        out += d[len(out):]
    open(sys.argv[2], 'wb').write(bytes(out))


main()
