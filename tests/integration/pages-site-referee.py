#!/usr/bin/env python3
# An independent count of page allocations by call site, from
# `trace-cmd report` of a trace.dat recorded with a kernel stack after
# every event (slabacct record --stacks=all -e page): each <stack trace>
# whose frames hold mm_page_alloc's tracepoint goes to the newest
# mm_page_alloc of its CPU without a stack since the CPU last lost events
# (trace-cmd's "CPU:N [... EVENTS DROPPED]": a stack after a loss may be
# a lost event's, so the allocations before it keep none); the
# allocation's call site is
# the first frame past the page allocator, the large kmalloc and the
# allocation wrappers (the frames from the innermost of those outwards),
# named "VIA <- CALLER_FUNC" after the outermost of those it went
# through. mm_page_free of a pfn ends its block's life. Prints JSON:
#   {"VIA <- CALLER_FUNC": [blocks, pages, live_blocks, live_pages], ...}
# with "(no kernel stack)" and "(no caller in the stack)" rows.
#
#   pages-site-referee.py FILE.dat
import importlib.util
import json
import os
import re
import subprocess
import sys

# the allocation wrappers, and the reading of trace-cmd's lines (losses
# among them), as the wrapper referee has them
_spec = importlib.util.spec_from_file_location(
    "stack_referee", os.path.join(os.path.dirname(__file__),
                                  "stack-referee.py"))
_sr = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_sr)
WRAPPERS, HEAD, FRAME, DROPPED, norm = (_sr.WRAPPERS, _sr.HEAD, _sr.FRAME,
                                        _sr.DROPPED, _sr.norm)
PAGES = {
    "alloc_pages", "alloc_frozen_pages", "alloc_pages_nodemask",
    "alloc_pages_mpol", "alloc_pages_node", "alloc_pages_vma",
    "alloc_pages_exact", "alloc_pages_exact_nid", "alloc_pages_bulk",
    "alloc_pages_bulk_array", "alloc_pages_bulk_array_mempolicy",
    "alloc_pages_bulk_mempolicy", "alloc_pages_bulk_array_node",
    "alloc_pages_bulk_node", "alloc_frozen_pages_nolock",
    "alloc_pages_nolock", "folio_alloc", "folio_alloc_mpol",
    "folio_alloc_node", "vma_alloc_folio", "get_free_pages",
    "get_zeroed_page",
    "kmalloc", "kmalloc_node", "kmalloc_large", "kmalloc_large_node",
    "kmalloc_order", "kmalloc_order_trace", "kmalloc_node_track_caller",
    "kmalloc_trace", "kmalloc_cache",
}
SET = WRAPPERS | PAGES


def site(frames):
    # a compiler's copy (name.constprop.0, .isra.0, .part.0) is its
    # function: a kernel symbol has a '.' only in such a suffix
    names = [norm(f.split('.', 1)[0]) for f in frames]
    i = next((k for k, n in enumerate(names) if n in SET), None)
    if i is None:
        return "(no caller in the stack)"
    j = i
    while j < len(names) and names[j] in SET:
        j += 1
    if j == len(names):
        return "(no caller in the stack)"
    return "%s <- %s" % (names[j - 1], frames[j])


def main():
    text = subprocess.run(['trace-cmd', 'report', sys.argv[1]], check=True,
                          capture_output=True, text=True).stdout
    pending = {}            # cpu -> [[pfn, order, site or None], ...]
    allocs = []
    live = {}               # pfn -> alloc
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        m = HEAD.match(lines[i])
        d = DROPPED.match(lines[i])
        i += 1
        if d:
            pending.pop(int(d.group(1)), None)
        if not m:
            continue
        cpu, ev, rest = int(m.group(3)), m.group(5), m.group(6)
        if ev == 'mm_page_alloc':
            pfn = re.search(r'\bpfn=(\S+)', rest)
            order = int(re.search(r'\border=(\d+)', rest).group(1))
            if not pfn or pfn.group(1) in ('-1', '0xffffffffffffffff'):
                continue
            a = [int(pfn.group(1), 0), order, None]
            allocs.append(a)
            old = live.get(a[0])
            if old:
                old.append('gone')
            live[a[0]] = a
            pending.setdefault(cpu, []).append(a)
        elif ev == 'mm_page_free':
            pfn = int(re.search(r'\bpfn=(\S+)', rest).group(1), 0)
            live.pop(pfn, None)
        elif ev == 'kernel_stack':
            frames = []
            while i < len(lines) and FRAME.match(lines[i]):
                frames.append(FRAME.match(lines[i]).group(1))
                i += 1
            # the stack's event is its first tracepoint frame: an
            # interrupt that came while another event's stack was taken
            # shows that event's tracepoint further out
            ev_frame = next((f for f in frames
                             if 'trace_event_raw_event_' in f), '')
            if not ev_frame.endswith('event_mm_page_alloc'):
                continue
            p = pending.get(cpu)
            if p:
                p.pop()[2] = site(frames)
    rows = {}
    alive = {id(a) for a in live.values()}
    for a in allocs:
        k = a[2] or "(no kernel stack)"
        r = rows.setdefault(k, [0, 0, 0, 0])
        r[0] += 1
        r[1] += 1 << a[1]
        if id(a) in alive:
            r[2] += 1
            r[3] += 1 << a[1]
    json.dump(rows, sys.stdout, sort_keys=True)
    print()


main()
