#!/usr/bin/env python3
# The library's layers, checked on the objects the build made: which
# object uses which other object's symbols (nm). Fails on
#   - a cycle between objects (each named, with the symbols that tie it);
#   - a use of a layer the Makefile does not allow (`make layers`);
#   - library code that calls the command layers' printers (sa_err,
#     sa_warn): the library returns its errors.
#
#   layers.py BUILD_DIR   (reads `make -s layers` from the top directory)
import collections
import os
import subprocess
import sys

build = sys.argv[1] if len(sys.argv) > 1 else 'build'
top = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
allowed = {}
for line in subprocess.run(['make', '-s', '-C', top, 'layers'], check=True,
                           capture_output=True, text=True).stdout.splitlines():
    name, deps = line.split(':', 1)
    allowed[name.strip()] = set(deps.split()) | {name.strip()}
allowed['cli'] = set(allowed) | {'cli'}


def layer(obj):
    rel = os.path.relpath(obj, os.path.join(build, 'userspace'))
    p = rel.split(os.sep)
    if p[0] in ('cli', 'bpf'):
        return p[0]
    if p[0] == 'lib':
        return p[1]
    return None


# the objects of today's sources (an old build may leave others behind)
objs = []
for root, _, files in os.walk(os.path.join(build, 'userspace')):
    for f in files:
        o = os.path.join(root, f)
        src = os.path.join(top, os.path.relpath(o, build))[:-2] + '.c'
        if f.endswith('.o') and os.path.exists(src):
            objs.append(o)
if len(objs) < 50:
    print(f'FAIL: only {len(objs)} objects under {build}/userspace: build first')
    sys.exit(1)
defs, uses = {}, collections.defaultdict(set)
for o in objs:
    out = subprocess.run(['nm', o], check=True, capture_output=True,
                         text=True).stdout
    for line in out.splitlines():
        f = line.split()
        if len(f) == 3 and f[1] in 'TDBRCVW':
            defs.setdefault(f[2], o)
        elif len(f) == 2 and f[0] == 'U':
            uses[o].add(f[1])
edges = collections.defaultdict(lambda: collections.defaultdict(set))
for o in objs:
    for s in uses[o]:
        d = defs.get(s)
        if d and d != o:
            edges[o][d].add(s)
short = lambda o: os.path.relpath(o, os.path.join(build, 'userspace'))
bad = 0
for o in sorted(objs):
    lo = layer(o)
    for d, syms in sorted(edges[o].items()):
        ld = layer(d)
        if lo not in allowed or ld not in allowed[lo]:
            print(f'upward: {short(o)} ({lo}) uses {short(d)} ({ld}): '
                  f'{", ".join(sorted(syms)[:4])}')
            bad += 1
    if lo not in ('cli', 'bpf') and not o.endswith('/util/msg.o'):
        printers = uses[o] & {'sa_err', 'sa_warn'}
        if printers:
            print(f'prints: {short(o)} calls {", ".join(sorted(printers))}')
            bad += 1
# includes: a source or header of a layer includes headers of the layers
# it may use only (an unused include upward is an arrow up all the same,
# which nm cannot see)
src_top = os.path.join(top, 'userspace')


def src_layer(rel):
    p = rel.split('/')
    if p[0] in ('cli', 'bpf'):
        return p[0]
    if p[0] == 'lib' and len(p) > 2:
        return p[1]
    return None


includes = 0
for root, _, files in os.walk(src_top):
    for f in sorted(files):
        if not f.endswith(('.c', '.h')):
            continue
        path = os.path.join(root, f)
        rel = os.path.relpath(path, src_top)
        lo = src_layer(rel.replace(os.sep, '/'))
        if lo is None:
            continue
        with open(path, encoding='utf-8', errors='replace') as fh:
            for n, line in enumerate(fh, 1):
                m = line.split('"')
                if not line.startswith('#include "') or len(m) < 3:
                    continue
                inc = m[1]
                # "LAYER/x.h" is under userspace/lib/; "cli/", "bpf/"
                # under userspace/
                li = src_layer('lib/' + inc) if os.path.exists(
                    os.path.join(src_top, 'lib', inc)) else \
                    src_layer(inc) if os.path.exists(
                        os.path.join(src_top, inc)) else None
                if li is None:
                    continue
                includes += 1
                if lo not in allowed or li not in allowed[lo]:
                    print(f'upward include: userspace/{rel}:{n} ({lo}) '
                          f'includes "{inc}" ({li})')
                    bad += 1
# cycles: Tarjan's strongly connected components
index, low, stack, on, sccs = {}, {}, [], set(), []
sys.setrecursionlimit(10000)


def visit(v):
    index[v] = low[v] = len(index)
    stack.append(v)
    on.add(v)
    for w in edges[v]:
        if w not in index:
            visit(w)
            low[v] = min(low[v], low[w])
        elif w in on:
            low[v] = min(low[v], index[w])
    if low[v] == index[v]:
        comp = []
        while True:
            w = stack.pop()
            on.discard(w)
            comp.append(w)
            if w == v:
                break
        if len(comp) > 1:
            sccs.append(comp)


for v in sorted(objs):
    if v not in index:
        visit(v)
for comp in sccs:
    print(f'cycle of {len(comp)} objects: '
          f'{" ".join(sorted(short(o) for o in comp))}')
    bad += 1
print(f'# {len(objs)} objects, '
      f'{sum(len(e) for e in edges.values())} edges between them, '
      f'{includes} includes of a layer\'s headers, '
      f'{len(sccs)} cycles, {bad} problems')
sys.exit(1 if bad else 0)
