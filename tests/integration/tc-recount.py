#!/usr/bin/env python3
# A recount of a trace from trace-cmd's decoding of it (`trace-cmd report`
# text on stdin), for the referee tests (referee-lib.sh). It prints JSON:
#
#   sites     "kind site" -> allocs, req, alloc, frees, live, live_bytes,
#             untraced (objects whose pointer was allocated again with no
#             free traced in between: freed by kmem_cache_free_bulk,
#             kfree_bulk or a batched RCU free), failed (allocations that
#             returned NULL, with their req and alloc)
#   repeats   a large kmalloc traced twice (6.10+): a kmalloc on a CPU
#             whose previous kmem event was a kmalloc of the same ptr,
#             bytes_req and bytes_alloc from another call site, the ptr
#             still live. It is one allocation, of the second call site;
#             "first" holds what the first events would add per site.
#   frees     frees of a pointer allocated in the trace; "unmatched" the
#             others (allocated before), "null" kfree(NULL)
#   pages     mm_page_alloc (blocks, pages = 1 << order, by order and
#             migratetype), failures (pfn 0), mm_page_free (the one free
#             of a page) and mm_page_free_batched (a property of some of
#             those frees, not a second free)
#   events    how many events of each name trace-cmd decoded
#   windows   with --vmstat-marks COMM: the page figures between two
#             reads of /proc/vmstat by task COMM (see refload.c): each
#             read's snapshot lies between its kmalloc in vmstat_start and
#             its kfree in vmstat_stop; a window is exact when no page
#             event lies between those two at either end ("clean")
import json
import re
import sys

LINE = re.compile(r'^\s*(?P<comm>.*?)-(?P<pid>\d+)\s+\[(?P<cpu>\d+)\]\s+'
                  r'(?:\S+\s+)?(?P<ts>\d+\.\d+):\s+(?P<ev>\w+):\s+(?P<rest>.*)$')
FIELD = re.compile(r'(\w+)=(\S+)')
KMEM_ALLOC = {'kmalloc': 'kmalloc', 'kmalloc_node': 'kmalloc',
              'kmem_cache_alloc': 'cache', 'kmem_cache_alloc_node': 'cache'}
KMEM_FREE = ('kfree', 'kmem_cache_free')


def site_name(s):
    return re.sub(r' \[.*\]$', '', s)


def num(s):
    if s == '(nil)':
        return 0
    return int(s, 0)


def main():
    marks = None
    if len(sys.argv) == 3 and sys.argv[1] == '--vmstat-marks':
        marks = sys.argv[2]
    sites = {}
    live = {}            # ptr -> (key, req, alloc)
    last = {}            # cpu -> (ev, ptr, req, alloc, site)
    repeats = {'n': 0, 'first': {}}
    frees = {'matched': 0, 'unmatched': 0, 'null': 0}
    pages = {'allocs': 0, 'pages_alloc': 0, 'failed': 0, 'frees': 0,
             'pages_freed': 0, 'batched': 0, 'alloc_table': {}}
    # windows: a list of events "page" (pages alloc, pages freed) and marks
    seq = []
    open_mark = {}       # ptr -> index in seq of the vmstat_start kmalloc
    events = {}

    def site(kind, s):
        key = kind + ' ' + site_name(s)
        if key not in sites:
            sites[key] = dict(allocs=0, req=0, alloc=0, frees=0, live=0,
                              live_bytes=0, untraced=0, failed=0,
                              failed_req=0, failed_alloc=0)
        return sites[key]

    for line in sys.stdin:
        m = LINE.match(line)
        if not m:
            continue
        ev, cpu = m.group('ev'), int(m.group('cpu'))
        events[ev] = events.get(ev, 0) + 1
        f = dict(FIELD.findall(m.group('rest')))
        if ev in KMEM_ALLOC:
            kind = KMEM_ALLOC[ev]
            ptr, req, alloc = num(f['ptr']), int(f['bytes_req']), \
                int(f['bytes_alloc'])
            cs = f['call_site']
            s = site(kind, cs)
            prev = last.get(cpu)
            last[cpu] = (ev, ptr, req, alloc, cs)
            if not ptr:
                s['failed'] += 1
                s['failed_req'] += req
                s['failed_alloc'] += alloc
                continue
            if marks and m.group('comm') == marks and \
                    cs.startswith('vmstat_start+'):
                open_mark[ptr] = len(seq)
                seq.append(('open', 0, 0))
            if (kind == 'kmalloc' and prev and prev[0] in KMEM_ALLOC and
                    KMEM_ALLOC[prev[0]] == 'kmalloc' and
                    prev[1:4] == (ptr, req, alloc) and prev[4] != cs and
                    ptr in live and
                    live[ptr][0] == 'kmalloc ' + site_name(prev[4])):
                # the allocator's own event, then the caller's: one
                first = sites[live[ptr][0]]
                first['allocs'] -= 1
                first['req'] -= req
                first['alloc'] -= alloc
                first['live'] -= 1
                first['live_bytes'] -= alloc
                r = repeats['first'].setdefault(
                    site_name(prev[4]), dict(n=0, req=0, alloc=0))
                r['n'] += 1
                r['req'] += req
                r['alloc'] += alloc
                repeats['n'] += 1
                del live[ptr]
            elif ptr in live:
                old = sites[live[ptr][0]]
                old['untraced'] += 1
                old['live'] -= 1
                old['live_bytes'] -= live[ptr][2]
            s['allocs'] += 1
            s['req'] += req
            s['alloc'] += alloc
            s['live'] += 1
            s['live_bytes'] += alloc
            live[ptr] = (kind + ' ' + site_name(cs), req, alloc)
        elif ev in KMEM_FREE:
            ptr = num(f['ptr'])
            last[cpu] = (ev, ptr, 0, 0, f.get('call_site', ''))
            if not ptr:
                frees['null'] += 1
                continue
            if ptr in open_mark and f.get('call_site', '').startswith(
                    'vmstat_stop+'):
                seq.append(('close', open_mark.pop(ptr), 0))
            if ptr not in live:
                frees['unmatched'] += 1
                continue
            key, req, alloc = live.pop(ptr)
            sites[key]['frees'] += 1
            sites[key]['live'] -= 1
            sites[key]['live_bytes'] -= alloc
            frees['matched'] += 1
        elif ev == 'mm_page_alloc':
            pfn, order = num(f['pfn']), int(f['order'])
            if pfn == 0:
                pages['failed'] += 1
                continue
            pages['allocs'] += 1
            pages['pages_alloc'] += 1 << order
            cell = '%d %d' % (order, int(f['migratetype']))
            pages['alloc_table'][cell] = pages['alloc_table'].get(cell, 0) + 1
            seq.append(('page', 1 << order, 0))
        elif ev == 'mm_page_free':
            order = int(f['order'])
            pages['frees'] += 1
            pages['pages_freed'] += 1 << order
            seq.append(('page', 0, 1 << order))
        elif ev == 'mm_page_free_batched':
            pages['batched'] += 1
            seq.append(('batched', 0, 0))

    out = dict(sites=sites, repeats=repeats, frees=frees, pages=pages,
               events=events)
    if marks:
        # each read: (index of its kmalloc, index of its kfree)
        reads = sorted((o, i) for i, (t, o, _) in enumerate(seq)
                       if t == 'close')
        windows = []
        for (o1, c1), (o2, c2) in zip(reads, reads[1:]):
            clean = all(seq[j][0] != 'page' for j in
                        list(range(o1 + 1, c1)) + list(range(o2 + 1, c2)))
            between = seq[c1 + 1:o2]
            windows.append(dict(
                clean=clean,
                pages_alloc=sum(e[1] for e in between if e[0] == 'page'),
                pages_freed=sum(e[2] for e in between if e[0] == 'page'),
                batched=sum(1 for e in between if e[0] == 'batched')))
        out['windows'] = windows
    json.dump(out, sys.stdout, indent=1, sort_keys=True)
    print()


main()
