#!/bin/bash
# slabacct report --pprof --vmlinux: file:line on every frame of a stack,
# not only at the call site. On the committed recording with 447 kernel
# stacks (stacks-segments.dat.gz, rows of --by stack with up to 24
# frames), a vmlinux made here defines a function of each frame's name,
# 8 KB long, each 16 bytes of it on a line of its own, so that every
# return address falls on a line of its own. Go's pprof (go tool pprof
# -raw) reads the profile; for each of its locations, binutils' addr2line
# on that vmlinux, at the link address (nm) of the frame's function plus
# its offset less one (the call before the return address), names the
# function and the file:line that the location must carry. The frames'
# function+offset come from the report's JSON (its "frames" addresses
# beside its "site" chain). Every address is one location, and the
# frames beyond the caller, the outer ones, are checked too; go tool
# pprof -traces -lines shows them. Without --vmlinux, no location has a
# line, and --folded is the same with and without it.
. "$(dirname "$0")/../../lib.sh"
for t in go python3 gcc nm addr2line; do
	command -v $t >/dev/null || fail "$t is missing (scripts/install-deps)"
done
export HOME=$TEST_TMP GOTOOLCHAIN=local GOFLAGS= GOPROXY=off
cd "$TEST_TMP" || fail "no workspace"
zcat "$TOP/tests/data/report/stacks-segments.dat.gz" >t.dat ||
	fail "no stacks-segments.dat.gz"

# the frames: address -> function+offset, from the rows of --by stack
"$SLABACCT" report --json --by stack --stack-depth 32 t.dat >r.json ||
	fail "report --json --by stack"
python3 - r.json >frames <<'PY' || fail "no frames in the report"
import json, re, sys
rows = json.load(open(sys.argv[1]))["sections"]["callsite"]["rows"]
seen = {}
for r in rows:
    if "frames" not in r or r.get("via"):
        continue
    # "leaf+0xoff <- f1+0xoff <- ...": the frames after the call site
    parts = r["site"].split(" <- ")[1:]
    if len(parts) != len(r["frames"]):
        sys.exit("%s: %d names, %d frames" % (r["site"], len(parts),
                                               len(r["frames"])))
    for a, p in zip(r["frames"], parts):
        m = re.fullmatch(r"([A-Za-z0-9_.]+)\+0x([0-9a-f]+)", p)
        if m and int(m.group(2), 16) < 8192:
            seen[int(a, 16)] = (m.group(1), int(m.group(2), 16))
if len(seen) < 100:
    sys.exit("only %d frames" % len(seen))
for a, (f, o) in sorted(seen.items()):
    print("%x %s %x" % (a, f, o))
PY
note "$(wc -l <frames) frame addresses"

# the vmlinux: each function 512 lines of 16 bytes (8 KB)
{
	n=0
	for f in $(cut -d' ' -f2 frames | sort -u); do
		echo "void f$n(void) __asm__(\"$f\");"
		echo "void f$n(void)"
		echo "{"
		for _ in $(seq 512); do echo '	__asm__ volatile(".skip 16");'; done
		echo "}"
		n=$((n + 1))
	done
	echo 'void _start(void) { }'
} >fake.c
gcc -g -O0 -nostdlib -static -Wl,--build-id=none -o fake.elf fake.c ||
	fail "cannot build a test vmlinux"

"$SLABACCT" report --vmlinux fake.elf --pprof lines.pb.gz t.dat 2>/dev/null ||
	fail "report --vmlinux --pprof failed"
"$SLABACCT" report --pprof nolines.pb.gz t.dat ||
	fail "report --pprof failed"
go tool pprof -raw lines.pb.gz >raw || fail "go tool pprof -raw failed"
go tool pprof -raw nolines.pb.gz >raw0 || fail "go tool pprof -raw failed"

# the referee's answer for each frame address: addr2line's function and
# file:line at the link address + offset - 1
nm fake.elf | awk '$2 == "T" { print $1, $3 }' >syms
python3 - frames syms >queries <<'PY' || fail "a frame's function is not in the vmlinux"
import sys
link = {}
for l in open(sys.argv[2]):
    a, n = l.split()
    link[n] = int(a, 16)
for l in open(sys.argv[1]):
    a, f, o = l.split()
    print("%x %s" % (link[f] + int(o, 16) - 1, a))
PY
cut -d' ' -f1 queries | addr2line -f -e fake.elf >answers ||
	fail "addr2line failed"
out=$(python3 - queries answers raw raw0 <<'PY'

import os, re, sys
q = [l.split() for l in open(sys.argv[1])]
a = open(sys.argv[2]).read().split("\n")
want = {}
for i, (_, addr) in enumerate(q):
    func, pos = a[2 * i], a[2 * i + 1]
    file, line = pos.rsplit(":", 1)
    want[int(addr, 16)] = (func, os.path.basename(file), int(line))

def locations(path):
    text = open(path).read()
    locs = text.split("Locations\n", 1)[1].split("Mappings\n", 1)[0]
    out = []
    for l in locs.split("\n"):
        m = re.match(r"\s+\d+: 0x([0-9a-f]+) M=1 (\S+) (\S*):(\d+) s=0$", l)
        if m:
            out.append((int(m.group(1), 16), m.group(2), m.group(3),
                        int(m.group(4))))
    return out

locs = locations(sys.argv[3])
addrs = [l[0] for l in locs]
if len(addrs) != len(set(addrs)):
    sys.exit("an address is several locations")
checked, lines = 0, set()
for addr, func, file, line in locs:
    if addr not in want:
        continue
    if (func, file, line) != want[addr]:
        sys.exit("0x%x: pprof says %s %s:%d, addr2line %s %s:%d" %
                 ((addr, func, file, line) + want[addr]))
    checked += 1
    lines.add(line)
missing = set(want) - set(addrs)
if missing:
    sys.exit("%d frame addresses are no location, 0x%x one" %
             (len(missing), min(missing)))
if checked < 100 or len(lines) < 20:
    sys.exit("only %d locations, %d lines" % (checked, len(lines)))
if any(l[3] for l in locations(sys.argv[4])):
    sys.exit("a line without --vmlinux")
print("%d frame locations, %d distinct lines, as addr2line says" %
      (checked, len(lines)))
PY
) || fail "pprof's lines differ from addr2line's: $out"
note "$out"

# the frames beyond the caller carry them: the outermost, a syscall's
# entry, at its own line, in every trace of go tool pprof -traces -lines
go tool pprof -traces -lines lines.pb.gz >traces 2>&1 ||
	fail "go tool pprof -traces -lines failed"
outer=$(awk '$2 == "entry_SYSCALL_64_after_hwframe" { print $1 }' frames | head -n 1)
[ -n "$outer" ] || fail "no entry_SYSCALL_64_after_hwframe frame"
want=$(awk -v a="$outer" '$2 == a { print $1 }' queries |
	addr2line -e fake.elf | sed 's|.*/||')
grep -qE "^ +entry_SYSCALL_64_after_hwframe $want\$" traces ||
	fail "no entry_SYSCALL_64_after_hwframe at $want in -traces -lines: $(grep -m3 entry_SYSCALL traces)"

# --folded is the same with and without --vmlinux
"$SLABACCT" report --folded t.dat >f0 || fail "report --folded"
"$SLABACCT" report --vmlinux fake.elf --folded t.dat >f1 2>/dev/null ||
	fail "report --vmlinux --folded"
cmp -s f0 f1 || fail "--vmlinux changed --folded"
exit 0
