#!/usr/bin/env python3
# An independent count of vmalloc and percpu allocations, from
# `trace-cmd report` of a trace.dat: per row, allocations, bytes, frees,
# freed bytes, live objects and bytes at the end, and failed attempts.
#
# vmalloc (alloc_vmap_area, free_vmap_area_noflush): an allocation is
# paired with the <stack trace> trace-cmd prints after it on its CPU (the
# newest event of that CPU without a stack yet), and counted at
# "VIA <- CALLER": CALLER the first function after vmalloc's machinery
# (the innermost frame in it, then outwards while in it), VIA the last
# function of the machinery, without leading underscores and _noprof.
# Without a stack: "(no kernel stack)"; a stack with no frame past the
# machinery: "(no caller in the stack)". percpu (percpu_alloc_percpu,
# percpu_free_percpu): at the call site as trace-cmd prints it
# (func+0xoff), or VIA <- CALLER when its function is in the machinery
# and the event has a stack. Bytes: vmalloc's size, percpu's bytes_alloc
# (else size). A free counts at the row of the live allocation at its
# address (va_start, ptr); an allocation at a live address ends the old
# one (not a free). Prints JSON:
#   {"vmalloc": {ROW: [allocs, bytes, frees, freed_bytes, live,
#                      live_bytes, failed]}, "percpu": {...},
#    "unmatched": {"vmalloc": N, "percpu": N}}
#
#   area-referee.py FILE.dat
import importlib.util
import json
import os
import re
import subprocess
import sys

# stack-referee.py's wrappers and its name rule, and vmalloc's and
# percpu's own machinery
_spec = importlib.util.spec_from_file_location(
    "stack_referee", os.path.join(os.path.dirname(__file__),
                                  "stack-referee.py"))
_ref = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_ref)
norm = _ref.norm
WRAPPERS = _ref.WRAPPERS | {
    # vmalloc's machinery
    "alloc_vmap_area", "get_vm_area_node", "get_vm_area_caller",
    "get_vm_area", "vmalloc_node_range", "vmalloc_node", "vmalloc",
    "vzalloc", "vzalloc_node", "vmalloc_user", "vmalloc_32",
    "vmalloc_32_user", "vmalloc_huge", "vmalloc_huge_node",
    "vmalloc_array", "vcalloc", "vmalloc_node_flags_caller",
    "kvmalloc_array_node", "kvmalloc_array",
    "vmap", "vm_map_ram", "vb_alloc", "new_vmap_block",
    "ioremap", "ioremap_caller", "ioremap_prot", "ioremap_cache",
    "ioremap_wc", "ioremap_uc", "generic_ioremap_prot",
    "execmem_alloc", "execmem_vmalloc", "execmem_alloc_rw",
    "module_alloc",
    # percpu's entry points
    "alloc_percpu_gfp", "alloc_percpu", "alloc_reserved_percpu",
    "pcpu_alloc",
}
WINDOW = 8

HEAD = re.compile(r'^\s*(.*?)-(\d+)\s+\[(\d+)\]\s+([\d.]+):\s+(\w+):\s*(.*)$')
FRAME = re.compile(r'^=> (\S+) \(([0-9a-f]+)\)')
NAMES = {"alloc_vmap_area", "free_vmap_area_noflush", "percpu_alloc_percpu",
         "percpu_free_percpu"}


def outer(funcs):
    """(via, caller) past the machinery, or None."""
    i = 0
    while i < len(funcs) and norm(funcs[i]) not in WRAPPERS:
        i += 1
    if i == len(funcs):
        return None
    while i < len(funcs) and norm(funcs[i]) in WRAPPERS:
        i += 1
    if i == len(funcs):
        return None
    return norm(funcs[i - 1]), funcs[i]


def main():
    text = subprocess.run(['trace-cmd', 'report', sys.argv[1]], check=True,
                          capture_output=True, text=True).stdout
    events = []                     # [name, fields, frames]
    open_by_cpu = {}
    cur = None
    for line in text.splitlines():
        m = FRAME.match(line)
        if m and cur is not None:
            cur.append(m.group(1))
            continue
        m = HEAD.match(line)
        if not m:
            cur = None
            continue
        cpu, name, rest = int(m.group(3)), m.group(5), m.group(6)
        cur = None
        if name == 'kernel_stack':
            cand = open_by_cpu.get(cpu, [])
            if cand:
                ev = cand.pop()
                ev[2] = cur = []
            continue
        # "va_start: N" (alloc_vmap_area prints it so) and k=v pairs
        rest = rest.replace('va_start: ', 'va_start=')
        fields = dict(kv.split('=', 1) for kv in rest.split() if '=' in kv)
        ev = [name, fields, None]
        lst = open_by_cpu.setdefault(cpu, [])
        lst.append(ev)
        del lst[:-WINDOW]
        if name in NAMES:
            events.append(ev)
    rows = {"vmalloc": {}, "percpu": {}}
    live = {"vmalloc": {}, "percpu": {}}
    unmatched = {"vmalloc": 0, "percpu": 0}

    def row(kind, key):
        return rows[kind].setdefault(key, [0, 0, 0, 0, 0, 0, 0])

    for name, f, frames in events:
        if name == 'alloc_vmap_area':
            kind, addr = 'vmalloc', int(f['va_start'], 0)
            nbytes = int(f['size'])
            if frames is None:
                key = '(no kernel stack)'
            else:
                vc = outer(frames)
                key = ('%s <- %s' % vc) if vc else '(no caller in the stack)'
            failed = int(f.get('failed', '0')) != 0
        elif name == 'percpu_alloc_percpu':
            kind, addr = 'percpu', int(f['ptr'], 16)
            nbytes = int(f.get('bytes_alloc', f['size']))
            key = f['call_site']
            site = key.split('+')[0]
            if frames and norm(site) in WRAPPERS and site in frames:
                i = frames.index(site) + 1
                while i < len(frames) and norm(frames[i]) in WRAPPERS:
                    i += 1
                if i < len(frames):
                    key = norm(site) + ' <- ' + frames[i]
            failed = False
        else:
            kind = 'vmalloc' if name == 'free_vmap_area_noflush' else 'percpu'
            addr = int(f['va_start' if kind == 'vmalloc' else 'ptr'], 16)
            had = live[kind].pop(addr, None)
            if had is None:
                unmatched[kind] += 1
                continue
            r = row(kind, had[0])
            r[2] += 1
            r[3] += had[1]
            r[4] -= 1
            r[5] -= had[1]
            continue
        r = row(kind, key)
        if failed:
            r[6] += 1
            continue
        r[0] += 1
        r[1] += nbytes
        r[4] += 1
        r[5] += nbytes
        old = live[kind].get(addr)
        if old is not None:
            o = row(kind, old[0])
            o[4] -= 1
            o[5] -= old[1]
        live[kind][addr] = (key, nbytes)
    json.dump({"vmalloc": rows["vmalloc"], "percpu": rows["percpu"],
               "unmatched": unmatched}, sys.stdout, sort_keys=True)
    print()


if __name__ == "__main__":
    main()
