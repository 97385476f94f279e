#!/usr/bin/env python3
# An independent count of the allocations made through allocation
# wrappers, from `trace-cmd report` of a trace.dat with kernel stacks
# (slabacct record --stacks, trace-cmd record -T): each <stack trace>
# trace-cmd prints is paired with an event before it on its CPU that has
# no stack yet: the newest whose call site's function is among the
# stack's frames (the stack is the one of the context that recorded that
# event), however many events lie between (an interrupt may record as
# many as it likes between an event and its stack: a softirq's RCU
# batch, say), or else the newest, but never an event from before the
# CPU last lost events (trace-cmd's "CPU:N [... EVENTS DROPPED]": a
# stack after a loss may be a lost event's); and an allocation
# whose call site is in a wrapper is counted at the first frame after the
# call site's frame that is not a wrapper. Prints JSON:
#   {"WRAPPER <- CALLER_FUNC": [allocs, bytes_alloc], ...}
# WRAPPER is the wrapper's name without leading underscores and _noprof.
#
#   stack-referee.py FILE.dat [EXTRA_WRAPPER...]
#   stack-referee.py --report TEXT [EXTRA_WRAPPER...]   (trace-cmd report's
#                                       output, saved: the referee's test)
import json
import re
import subprocess
import sys

WRAPPERS = {
    "kstrdup", "kstrdup_const", "kstrndup", "kstrdup_quotable",
    "kmemdup", "kmemdup_nul", "kmemdup_array", "kvmemdup",
    "kvasprintf", "kvasprintf_const", "kasprintf",
    "krealloc", "kvrealloc", "kvmalloc", "kvmalloc_node",
    "memdup_user", "vmemdup_user", "strndup_user", "memdup_user_nul",
    "mempool_alloc", "mempool_kmalloc", "mempool_alloc_slab",
    "devm_kmalloc", "devm_krealloc", "devm_kmemdup", "devm_kstrdup",
    "devm_kasprintf", "devm_kvasprintf", "kobject_set_name_vargs",
}
ALLOCS = {"kmalloc", "kmalloc_node", "kmem_cache_alloc",
          "kmem_cache_alloc_node"}
# events of a CPU without a stack that a stack may still go to
WINDOW = 4096

HEAD = re.compile(r'^\s*(.*?)-(\d+)\s+\[(\d+)\]\s+([\d.]+):\s+(\w+):\s*(.*)$')
FRAME = re.compile(r'^=> (\S+) \(([0-9a-f]+)\)')
DROPPED = re.compile(r'^CPU:(\d+) \[(\d+ )?EVENTS DROPPED\]')


def norm(f):
    f = f.lstrip('_')
    if f.endswith('_noprof') and len(f) > len('_noprof'):
        f = f[:-len('_noprof')]
    return f


def main():
    args = sys.argv[1:]
    if args[:1] == ['--report']:
        with open(args[1]) as f:
            text = f.read()
        args = args[2:]
    else:
        text = subprocess.run(['trace-cmd', 'report', args[0]], check=True,
                              capture_output=True, text=True).stdout
        args = args[1:]
    wrappers = WRAPPERS | {norm(w) for w in args}
    events = []                     # [name, fields, frames]
    open_by_cpu = {}                # cpu -> events without a stack
    cur = None                      # the stack being read: (cpu, frames)

    def attach(cpu, frames):
        cand = open_by_cpu.get(cpu, [])
        if not cand:
            return
        funcs = {f for f, _ in frames}
        pick = len(cand) - 1
        for i in range(len(cand) - 1, -1, -1):
            site = cand[i][1].get('call_site', '').split('+')[0]
            if site and site in funcs:
                pick = i
                break
        cand.pop(pick)[2] = frames

    for line in text.splitlines():
        m = FRAME.match(line)
        if m and cur is not None:
            cur[1].append((m.group(1), int(m.group(2), 16)))
            continue
        if cur is not None:
            attach(*cur)
            cur = None
        d = DROPPED.match(line)
        if d:
            open_by_cpu.pop(int(d.group(1)), None)
            continue
        m = HEAD.match(line)
        if not m:
            continue
        cpu, name, rest = int(m.group(3)), m.group(5), m.group(6)
        if name == 'kernel_stack':
            cur = (cpu, [])
            continue
        if name not in ALLOCS and name not in ('kfree', 'kmem_cache_free'):
            continue
        fields = dict(kv.split('=', 1) for kv in rest.split()
                      if '=' in kv)
        ev = [name, fields, None]
        events.append(ev)
        lst = open_by_cpu.setdefault(cpu, [])
        lst.append(ev)
        del lst[:-WINDOW]
    if cur is not None:
        attach(*cur)
    out = {}
    for name, fields, frames in events:
        if name not in ALLOCS or fields.get('ptr') in (None, '(nil)'):
            continue
        site = fields['call_site'].split('+')[0]
        if norm(site) not in wrappers or not frames:
            continue
        funcs = [f for f, _ in frames]
        if site not in funcs:
            continue
        i = funcs.index(site) + 1
        while i < len(funcs) and norm(funcs[i]) in wrappers:
            i += 1
        if i == len(funcs):
            continue
        key = norm(site) + ' <- ' + funcs[i]
        n = out.setdefault(key, [0, 0])
        n[0] += 1
        n[1] += int(fields['bytes_alloc'])
    json.dump(out, sys.stdout, sort_keys=True)
    print()


if __name__ == "__main__":
    main()
