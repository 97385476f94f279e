#!/usr/bin/env python3
# The referee comparisons of slabacct report's figures (referee-lib.sh).
# Each check prints "# what = value" when the figures agree and
# "FAIL: what: ..." when they do not; the exit status is 1 if any failed.
#
#   referee-check.py REPORT.json RECOUNT.json [options]
#     --perf-stats FILE    perf report --stats of perf's file: it must
#                          hold the events trace-cmd decoded from ours,
#                          and have lost none (else perf is no referee)
#     --perf-caller FILE   perf kmem --slab stat --caller --alloc output
#     --perf-page FILE     perf kmem --page stat output
#     --page-size N        the traced machine's page size (perf's KB)
#     --refload FILE       refload's output: its vmstat snapshots, and
#                          slabinfo lines
#     --live-site FUNC     the only call site of --live-cache: its live
#     --live-cache CACHE   objects must equal /proc/slabinfo's active ones
#     --min-repeats N      at least N large-kmalloc repeats expected
#     --no-repeats         none expected (a kernel that traces it once)
#
# REPORT.json is `slabacct report --what all --json` of the trace that
# RECOUNT.json (tc-recount.py) recounted from trace-cmd's decoding.
import argparse
import json
import re
import sys

failed = []


def check(what, want, got):
    if want != got:
        failed.append(what)
        print('FAIL: %s: expected %r, got %r' % (what, want, got))
    else:
        print('# %s = %r' % (what, got))


def site_key(sym):
    return re.sub(r' \[.*\]$', '', sym)


def perf_site(name):
    # perf prints "func+8e" (hex without 0x) or a bare address
    m = re.match(r'^(.*)\+([0-9a-f]+)$', name)
    return '%s+0x%s' % (m.group(1), m.group(2)) if m else name


SUMMED = ('allocs', 'bytes_req', 'bytes_alloc', 'frees', 'live',
          'live_bytes', 'freed_untraced')


def ours_sites(rep):
    # trace-cmd's decoding names a call site by symbol+offset only, so
    # two functions of one name (static ones, in different files) at the
    # same offset are one site to the recount: sum the report's rows,
    # which keep them apart by address, the same way
    out = {}
    for r in rep['sections']['callsite']['rows']:
        k = r['kind'] + ' ' + site_key(r['site'])
        if k in out:
            out[k] = dict(out[k])
            for f in SUMMED:
                if out[k].get(f) is not None:
                    out[k][f] += r.get(f) or 0
        else:
            out[k] = r
    return out


def check_recount(rep, rc, a):
    """Every call-site figure against trace-cmd's decoding, recounted."""
    ours = ours_sites(rep)
    want = {k: v for k, v in rc['sites'].items() if v['allocs'] > 0}
    check('call sites (with allocations) vs trace-cmd recount',
          sorted(want), sorted(ours))
    bad = []
    for k, v in want.items():
        o = ours.get(k)
        if not o:
            continue
        w = (v['allocs'], v['req'], v['alloc'], v['frees'], v['live'],
             v['live_bytes'], v['untraced'])
        g = (o['allocs'], o['bytes_req'], o['bytes_alloc'], o['frees'],
             o['live'], o['live_bytes'], o.get('freed_untraced'))
        if w != g:
            bad.append('%s: trace-cmd %s, report %s' % (k, w, g))
    check('sites whose allocs, req, alloc, frees, live, live bytes, '
          'untraced frees differ from trace-cmd', [], bad)
    t = rep['sections']['callsite']['totals']
    check('frees of memory allocated before the trace',
          rc['frees']['unmatched'], t['unmatched_frees'])
    check('kfree(NULL)', rc['frees']['null'], t['null_frees'])
    check('freed without a trace event (total)',
          sum(v['untraced'] for v in rc['sites'].values()),
          t['reused_without_free'])
    check('large kmalloc repeats (report header) vs trace-cmd',
          rc['repeats']['n'], rep['records'].get('kmalloc_repeats'))
    if a.no_repeats:
        check('large kmalloc repeats on this kernel', 0, rc['repeats']['n'])
    if a.min_repeats:
        if rc['repeats']['n'] < a.min_repeats:
            failed.append('repeats')
            print('FAIL: only %d large kmalloc repeats, expected >= %d' %
                  (rc['repeats']['n'], a.min_repeats))


def check_perf_stats(rc, path):
    """perf's file and ours hold the same events: same filter, window."""
    text = open(path).read()
    lost = re.findall(r'LOST\w* events:\s*(\d+)', text)
    check('events perf lost', 0, sum(int(n) for n in lost))
    perf = {}
    for m in re.finditer(r'kmem:(\w+) stats:\s*\n\s*SAMPLE events:\s*(\d+)',
                         text):
        perf[m.group(1)] = int(m.group(2))
    ours = {k: v for k, v in rc['events'].items() if k in perf or
            k.startswith(('k', 'mm_page'))}
    check('events by name: perf record vs trace-cmd report of ours',
          {k: v for k, v in perf.items() if v}, ours)


def check_perf_caller(rep, rc, path):
    """Allocations per call site against perf kmem."""
    perf = {}
    row = re.compile(r'^\s*(\S+)\s*\|\s*(\d+)/\d+\s*\|\s*(\d+)/\d+\s*\|'
                     r'\s*(\d+)\s*\|')
    table = None
    for line in open(path):
        h = re.match(r'^\s*(Callsite|Alloc Ptr)\s*\|', line)
        if h:
            table = h.group(1)
            continue
        m = row.match(line)
        if m and table == 'Callsite':
            perf[perf_site(m.group(1))] = [int(m.group(4)),
                                           int(m.group(3)),
                                           int(m.group(2))]
    if not perf:
        failed.append('perf')
        print('FAIL: no call site in %s' % path)
        return
    # perf counts both events of a large kmalloc (the first at the
    # allocator's own address) and the allocations that returned NULL;
    # the report counts the first of a pair at its caller only, and
    # NULL results not at all. Take both out of perf's rows, as found
    # in trace-cmd's decoding of the same events.
    for s, r in rc['repeats']['first'].items():
        if s in perf:
            perf[s] = [perf[s][0] - r['n'], perf[s][1] - r['req'],
                       perf[s][2] - r['alloc']]
    for k, v in rc['sites'].items():
        s = k.split(' ', 1)[1]
        if v['failed'] and s in perf:
            perf[s] = [perf[s][0] - v['failed'],
                       perf[s][1] - v['failed_req'],
                       perf[s][2] - v['failed_alloc']]
    want = {s: v for s, v in perf.items() if v[0] > 0}
    ours = {}
    for r in rep['sections']['callsite']['rows']:
        v = ours.setdefault(site_key(r['site']), [0, 0, 0])
        v[0] += r['allocs']
        v[1] += r['bytes_req']
        v[2] += r['bytes_alloc']
    check('call sites vs perf kmem', sorted(want), sorted(ours))
    bad = ['%s: perf %s, report %s' % (s, v, ours.get(s))
           for s, v in want.items() if ours.get(s) != v]
    check('sites whose allocs, bytes req, bytes alloc differ from perf',
          [], bad)
    tot = [sum(v[i] for v in want.values()) for i in range(3)]
    t = rep['sections']['callsite']['totals']
    check('total allocs, req, alloc vs perf kmem', tot,
          [t['kmalloc'][x] + t['cache'][x]
           for x in ('allocs', 'bytes_req', 'bytes_alloc')])


def pages_of(rep):
    return rep['sections']['pages']


def check_pages_recount(rep, rc):
    p, w = pages_of(rep), rc['pages']
    check('page allocations, pages, failed vs trace-cmd',
          [w['allocs'], w['pages_alloc'], w['failed']],
          [p['allocs'], p['pages_alloc'], p['failed']])
    check('page frees (mm_page_free), pages freed vs trace-cmd',
          [w['frees'], w['pages_freed']], [p['frees'], p['pages_freed']])
    check('page frees that came in batches vs trace-cmd', w['batched'],
          p.get('frees_batched'))


def check_pages_perf(rep, path, page_size):
    text = open(path).read()

    def total(label):
        m = re.search(r'Total %s\s*:\s*(\d+)\s*\[\s*(\d+) KB' % label, text)
        return [int(m.group(1)), int(m.group(2))] if m else None
    p = pages_of(rep)
    kb = page_size // 1024
    req, fail = total('allocation requests'), total('allocation failures')
    if not req or not fail:
        failed.append('perf-page')
        print('FAIL: no page allocation summary in %s' % path)
        return
    # perf counts the allocations that failed among its requests
    check('perf kmem --page: allocation requests and KB, less failures',
          [req[0] - fail[0], req[1] - fail[1]],
          [p['allocs'], p['pages_alloc'] * kb])
    check('perf kmem --page: allocation failures', fail[0], p['failed'])
    check('perf kmem --page: free requests and KB', total('free requests'),
          [p['frees'], p['pages_freed'] * kb])
    # perf's table: rows by order, columns by migratetype number (its
    # labels assume an older order of the types: the numbers are compared)
    names = ['Unmovable', 'Movable', 'Reclaimable', 'HighAtomic', 'other']
    perf = {}
    for line in text.splitlines():
        m = re.match(r'^\s*(\d+)((?:\s+(?:\d+|\.)){5})\s*$', line)
        if m:
            for mt, v in enumerate(m.group(2).split()):
                if v != '.':
                    k = '%s %s' % (m.group(1), names[min(mt, 4)])
                    perf[k] = perf.get(k, 0) + int(v)
    ours = {'%s %s' % (c['order'], c['migratetype']): c['blocks']
            for c in p['alloc'] if c['blocks']}
    check('perf kmem --page: blocks by order x migratetype', perf, ours)


def check_timeline(rep):
    bins = rep['sections']['timeline']['bins']
    live = rep['sections']['live']['totals']['live_bytes']
    check('timeline: final outstanding = live bytes', live,
          bins[-1]['outstanding'] if bins else 0)


def check_vmstat(rc, path):
    snaps = {}
    for line in open(path):
        f = line.split()
        if len(f) == 4 and f[0] == 'vmstat':
            s = snaps.setdefault(int(f[1]), {'alloc': 0, 'free': 0})
            s['alloc' if f[2].startswith('pgalloc_') else 'free'] += \
                int(f[3])
    wins = rc.get('windows', [])
    check('vmstat snapshots and windows between them',
          len(snaps) - 1 if snaps else 0, len(wins))
    clean = 0
    for i, w in enumerate(wins):
        a, b = snaps[i + 1], snaps[i + 2]
        if not w['clean']:
            print('# window %d: a page event lies next to a snapshot: '
                  'not compared' % (i + 1))
            continue
        clean += 1
        check('window %d: sum of pgalloc_* delta = pages of mm_page_alloc'
              % (i + 1), b['alloc'] - a['alloc'], w['pages_alloc'])
        check('window %d: pgfree delta = pages of mm_page_free' % (i + 1),
              b['free'] - a['free'], w['pages_freed'])
        print('# window %d: counting mm_page_free_batched as frees too '
              'would give %d' % (i + 1, w['pages_freed'] + w['batched']))
    if not clean:
        failed.append('vmstat')
        print('FAIL: no window could be compared with /proc/vmstat')


def check_live(rep, path, func, cache):
    line = None
    for l in open(path):
        f = l.split()
        if len(f) > 2 and f[0] == 'slabinfo' and f[1] == cache:
            line = f
    if not line:
        failed.append('slabinfo')
        print('FAIL: no slabinfo line for %s' % cache)
        return
    active = int(line[2])
    rows = [r for r in rep['sections']['live']['rows']
            if r.get('function') == func]
    check('live objects of %s = active objects of %s in /proc/slabinfo'
          % (func, cache), active, sum(r['live'] for r in rows))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('report')
    ap.add_argument('recount')
    ap.add_argument('--perf-stats')
    ap.add_argument('--perf-caller')
    ap.add_argument('--perf-page')
    ap.add_argument('--page-size', type=int, default=4096)
    ap.add_argument('--refload')
    ap.add_argument('--live-site')
    ap.add_argument('--live-cache')
    ap.add_argument('--min-repeats', type=int, default=0)
    ap.add_argument('--no-repeats', action='store_true')
    ap.add_argument('--no-pages', action='store_true')
    a = ap.parse_args()
    rep = json.load(open(a.report))
    rc = json.load(open(a.recount))
    check_recount(rep, rc, a)
    if not a.no_pages:
        check_pages_recount(rep, rc)
    check_timeline(rep)
    if a.perf_stats:
        check_perf_stats(rc, a.perf_stats)
    if a.perf_caller:
        check_perf_caller(rep, rc, a.perf_caller)
    if a.perf_page:
        check_pages_perf(rep, a.perf_page, a.page_size)
    if a.refload and 'windows' in rc:
        check_vmstat(rc, a.refload)
    if a.refload and a.live_site:
        check_live(rep, a.refload, a.live_site, a.live_cache)
    if failed:
        print('FAIL: %d referee comparisons failed' % len(failed))
        sys.exit(1)


main()
