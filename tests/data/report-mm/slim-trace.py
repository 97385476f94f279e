#!/usr/bin/env python3
# Shrink a trace.dat (version 6, as `slabacct record` writes it) for use
# as test data: keep only the kallsyms lines the trace's events need (the
# symbol covering each address `trace-cmd report` names, the one after it
# so the range ends where it did, and _text/_stext/_etext), then move the
# CPU data and slabacct's origin section up by whole pages.
#
#   slim-trace.py IN OUT
import re
import struct
import subprocess
import sys

src, dst = sys.argv[1], sys.argv[2]
d = open(src, 'rb').read()


def u32(p):
    return struct.unpack_from('<I', d, p)[0]


def u64(p):
    return struct.unpack_from('<Q', d, p)[0]


p = d.index(b'\0', 10) + 1 + 2
page = u32(p)
p += 4
for name in (b'header_page\0', b'header_event\0'):
    assert d[p:p + len(name)] == name
    p += len(name) + 8 + u64(p + len(name))
n = u32(p)
p += 4
for _ in range(n):
    p += 8 + u64(p)
n = u32(p)
p += 4
for _ in range(n):
    p = d.index(b'\0', p) + 1
    m = u32(p)
    p += 4
    for _ in range(m):
        p += 8 + u64(p)
ks_at = p
ks = d[p + 4:p + 4 + u32(p)].decode()
rest_at = p + 4 + u32(p)

# the functions the events name
report = subprocess.run(['trace-cmd', 'report', src], capture_output=True,
                        text=True).stdout
used = set(re.findall(r'([A-Za-z_][\w.$]*)\+0x', report))
used |= {'_text', '_stext', '_etext'}
lines = [ln for ln in ks.splitlines() if ln.strip()]
rows = sorted(((int(ln.split()[0], 16), i) for i, ln in enumerate(lines)))
keep = set()
for k, (addr, i) in enumerate(rows):
    if lines[i].split()[2] in used:
        keep.add(i)
        if k + 1 < len(rows):
            keep.add(rows[k + 1][1])
slim = ''.join(lines[i] + '\n' for i in sorted(keep)).encode()

head = d[:ks_at] + struct.pack('<I', len(slim)) + slim
# printk, cmdlines, cpu count, options, "flyrecord": copied, offsets fixed
p = rest_at
p += 4 + u32(p)                      # printk
p += 8 + u64(p)                      # cmdlines
cpus = u32(p)
p += 4
fly = d.index(b'flyrecord\0', p) + 10
table = [(u64(fly + 16 * c), u64(fly + 16 * c + 8)) for c in range(cpus)]
first = min(off for off, size in table if size) if any(
    s for _, s in table) else fly + 16 * cpus
meta = d[rest_at:fly]
new_fly = len(head) + len(meta)
new_first = -(-(new_fly + 16 * cpus) // page) * page
delta = first - new_first
assert delta >= 0 and delta % page == 0
out = bytearray(head + meta)
for off, size in table:
    out += struct.pack('<QQ', off - delta if size else off, size)
out += b'\0' * (new_first - len(out))
out += d[first:]
# slabacct's origin section: its offset is in the last 16 bytes
if out[-8:] == b'SAORIGIN':
    o = struct.unpack_from('<Q', out, len(out) - 16)[0]
    struct.pack_into('<Q', out, len(out) - 16, o - delta)
open(dst, 'wb').write(out)
print('%s: %d -> %d bytes, kallsyms %d -> %d lines' %
      (dst, len(d), len(out), len(lines), len(keep)))
