#!/usr/bin/env python3
# A referee for slab_account.ko: recount kmem events from trace-cmd's own
# decoding (`trace-cmd report FILE`) of a recording, and compare every
# column of the module's /proc/slab_account rows for the call sites whose
# symbol starts with PREFIX.
#
#   kmem-recount.py TRACE-CMD-REPORT.txt SLAB_ACCOUNT PREFIX MODULE
#
# Allocations are counted per call site (symbol+offset as trace-cmd
# prints it) and kind (kmalloc, cache); a free is matched to the last
# allocation of its pointer; an allocation of a pointer still live ends
# the old one (no free traced). A kmalloc that repeats the event just
# before it on the same CPU (same pointer and sizes: 6.10+ traces a large
# kmalloc twice, the allocator's own address first) is one allocation of
# the second call site, and the module must show no row for the first.
# Every PREFIX site with allocations must be a module row of [MODULE]
# with the same total, slack, req, live, objs, allocs/frees and kind, and
# every module row of [MODULE] must be in the recording. Exit 1 if not.
import re, sys
from collections import defaultdict

report, account, prefix, module = sys.argv[1:5]
tag = ['[%s]' % module]
ev = re.compile(r'\[(\d+)\]\s+[\d.]+:\s+(kmalloc|kmem_cache_alloc|kfree|'
                r'kmem_cache_free):\s+(.*)$')
COLS = ('allocs', 'total', 'req', 'live', 'objs')
sites = defaultdict(lambda: defaultdict(int))   # (kind, site) -> counters
live = {}          # ptr -> (kind, site, alloc, req)
prev = {}          # cpu -> the last kmem event on it
firsts = defaultdict(int)
for line in open(report):
    m = ev.search(line)
    if not m:
        continue
    cpu, name, rest = m.groups()
    f = dict(kv.split('=', 1) for kv in rest.split() if '=' in kv)
    ptr = f['ptr']
    if name in ('kfree', 'kmem_cache_free'):
        prev[cpu] = (name, ptr)
        if ptr in live:
            kind, site, alloc, req = live.pop(ptr)
            s = sites[kind, site]
            s['frees'] += 1
            s['live'] -= alloc
            s['objs'] -= 1
        continue
    kind = 'kmalloc' if name == 'kmalloc' else 'cache'
    site, req, alloc = f['call_site'], int(f['bytes_req']), int(f['bytes_alloc'])
    this = (name, ptr, req, alloc)
    if prev.get(cpu) == this and ptr in live:
        # the repeat: the first event's allocation moves to this site
        _, first, _, _ = live.pop(ptr)
        for k, v in zip(COLS, (1, alloc, req, alloc, 1)):
            sites[kind, first][k] -= v
        firsts[first] += 1
        prev[cpu] = None
    else:
        prev[cpu] = this
        if ptr in live:
            # allocated again with no free traced: the old one is gone
            okind, osite, oalloc, _ = live.pop(ptr)
            sites[okind, osite]['live'] -= oalloc
            sites[okind, osite]['objs'] -= 1
    for k, v in zip(COLS, (1, alloc, req, alloc, 1)):
        sites[kind, site][k] += v
    live[ptr] = (kind, site, alloc, req)

# the module's rows: total slack req live objs allocs/frees kind caller
rows = {}
heading = False
for line in open(account):
    if line.startswith('#') and 'total' in line:
        heading = True
        continue
    if not heading or not line.strip():
        continue
    t = line.split()
    rows[t[6], t[7].split('/')[0]] = (t[:7], t[8:])
bad = 0
want = sorted(k for k in sites if k[1].startswith(prefix) and
              sites[k]['allocs'])
for kind, site in want:
    s = sites[kind, site]
    exp = [str(s['total']), str(s['total'] - s['req']), str(s['req']),
           str(s['live']), str(s['objs']),
           '%d/%d' % (s['allocs'], s['frees']), kind]
    got = rows.get((kind, site))
    print('%-7s %-28s trace  %s' % (kind, site, ' '.join(exp)))
    if not got or got[1] != tag:
        print('  no module row')
        bad = 1
        continue
    print('%-7s %-28s module %s' % ('', '', ' '.join(got[0])))
    if got[0] != exp:
        print('  differs')
        bad = 1
# every module row of MODULE is in the recording
for (kind, site), (cols, mod) in sorted(rows.items()):
    if mod == tag and (kind, site) not in want:
        print('module row %s %s not in the recording: %s' % (kind, site, cols))
        bad = 1
for first, n in sorted(firsts.items()):
    print('%d repeats folded from %s' % (n, first))
    if ('kmalloc', first) in rows:
        print('  the module has a row for it: %s' %
              ' '.join(rows['kmalloc', first][0]))
        bad = 1
if not want:
    print('no %s site in the recording' % prefix)
    bad = 1
sys.exit(bad)
