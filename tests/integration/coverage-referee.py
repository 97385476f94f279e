#!/usr/bin/env python3
# The coverage section recomputed without slabacct, for the coverage
# tests: `coverage-referee.py TRACE.DAT < trace-cmd-report.txt` prints the
# JSON of the section as `slabacct report --json --what coverage` should
# give it (sections.coverage), from
#   - /proc/slabinfo as the trace stores it: the raw text in the system
#     snapshot at the end (the origin section after the CPU data, laid out
#     as userspace/lib/trace/tracedat-format.h says), summed here per
#     cache: active_objs x objsize;
#   - the live objects of trace-cmd's decoding of the same file: every
#     allocation (kmalloc, kmem_cache_alloc, _node) not freed (kfree,
#     kmem_cache_free) by the end, by ptr, with its bytes_alloc; a ptr
#     allocated again while live is one object (the last).
# The rules (report/agg/coverage.h): slot sizes on both sides; a kmalloc
# above the biggest kmalloc cache's objsize is pages, not slab; the
# kmalloc caches are rows per slot, "kmalloc-*-N"; rows per cache only
# when every kmem_cache_alloc names its cache.
import json
import re
import struct
import sys

LINE = re.compile(r'^\s*(?P<comm>.*?)-(?P<pid>\d+)\s+\[(?P<cpu>\d+)\]\s+'
                  r'(?:\S+\s+)?(?P<ts>\d+\.\d+):\s+(?P<ev>\w+):\s+(?P<rest>.*)$')
FIELD = re.compile(r'(\w+)=(\S+)')


def origin(path):
    with open(path, 'rb') as f:
        data = f.read()
    if data[-8:] != b'SAORIGIN':
        sys.exit('no origin section in ' + path)
    off = struct.unpack('<Q', data[-16:-8])[0]
    pos = off + 8
    _version, count = struct.unpack('<II', data[pos:pos + 8])
    pos += 8
    out = {}
    for _ in range(count):
        end = data.index(b'\0', pos)
        key = data[pos:end].decode()
        n = struct.unpack('<Q', data[end + 1:end + 9])[0]
        out[key] = data[end + 9:end + 9 + n].decode()
        pos = end + 9 + n
    return out


def is_kmalloc(name):
    return name.startswith('kmalloc-') or name.startswith('dma-kmalloc-')


def num(s):
    return 0 if s == '(nil)' else int(s, 0)


def main():
    o = origin(sys.argv[1])
    snap = json.loads(o['snapshot_end'])
    caches = []
    for line in snap['sources']['slabinfo'].splitlines()[2:]:
        f = line.split()
        caches.append((f[0], int(f[1]), int(f[3])))
    kmax = max([size for name, _, size in caches if is_kmalloc(name)] or [0])

    live = {}
    named = unnamed = False
    for line in sys.stdin:
        m = LINE.match(line)
        if not m:
            continue
        ev = m.group('ev')
        if ev not in ('kmalloc', 'kmalloc_node', 'kmem_cache_alloc',
                      'kmem_cache_alloc_node', 'kfree', 'kmem_cache_free'):
            continue
        fields = dict(FIELD.findall(m.group('rest')))
        ptr = num(fields.get('ptr', '0'))
        if not ptr:
            continue
        if ev in ('kfree', 'kmem_cache_free'):
            live.pop(ptr, None)
            continue
        name = None
        if ev.startswith('kmem_cache_alloc'):
            name = fields.get('name')
            if name:
                named = True
            else:
                unnamed = True
        live[ptr] = (ev.startswith('kmalloc'), name,
                     int(fields['bytes_alloc']))

    per_cache = named and not unnamed
    rows = {}

    def row(key, kmalloc, slot):
        return rows.setdefault(key, {'cache': key, 'kmalloc': kmalloc,
                                     'slot': slot, 'caches': 0,
                                     'traced_objs': 0, 'traced_bytes': 0,
                                     'slab_objs': 0, 'slab_bytes': 0})

    tot = {'caches': 0, 'traced_objs': 0, 'traced_bytes': 0,
           'slab_objs': 0, 'slab_bytes': 0}
    large = [0, 0]
    unn = [0, 0]
    for name, active, size in caches:
        tot['caches'] += 1
        tot['slab_objs'] += active
        tot['slab_bytes'] += active * size
        if per_cache:
            km = is_kmalloc(name)
            r = row('kmalloc-*-%d' % size if km else name, km, size)
            r['caches'] += 1
            r['slab_objs'] += active
            r['slab_bytes'] += active * size
    for is_km, name, alloc in live.values():
        if is_km and alloc > kmax:
            large[0] += 1
            large[1] += alloc
            continue
        tot['traced_objs'] += 1
        tot['traced_bytes'] += alloc
        if not is_km and not name:
            unn[0] += 1
            unn[1] += alloc
            continue
        if not per_cache:
            continue
        if is_km or is_kmalloc(name):
            r = row('kmalloc-*-%d' % alloc, True, alloc)
        else:
            r = row(name, False, alloc)
        r['traced_objs'] += 1
        r['traced_bytes'] += alloc
    for r in list(rows.values()) + [tot]:
        r['rest_objs'] = r['slab_objs'] - r['traced_objs']
        r['rest_bytes'] = r['slab_bytes'] - r['traced_bytes']
    print(json.dumps({
        'slabinfo': True, 'per_cache': per_cache, 'kmalloc_max': kmax,
        'large_kmalloc_objs': large[0], 'large_kmalloc_bytes': large[1],
        'unnamed_objs': unn[0], 'unnamed_bytes': unn[1], 'totals': tot,
        'rows': sorted(rows.values(), key=lambda r: r['cache'])},
        indent=1, sort_keys=True))


main()
