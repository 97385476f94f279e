#!/bin/bash
# slabacct report --pprof: the call sites and their stacks as a gzipped
# pprof profile.proto, read by Go's own pprof (go tool pprof, offline:
# the local toolchain, a HOME of the test's) in
# tests/integration/pprof-check.py: Go's heap sample types in order, each
# type's sum equal to the report's totals (allocations, bytes, live
# objects, live bytes), and pprof's functions by flat value equal to the
# call-site rows summed per leaf function. On the committed recording
# with kernel stacks (wrappers-6.18.dat: a wrapper's caller under its
# whole stack, leaf first; and stacks-segments.dat.gz, 447 stacks of up
# to 24 frames) and on two without (one-frame samples);
# file:line from a --vmlinux made here on the locations. The
# file is written through a temporary file; wrong combinations are
# refused. A second decoder, the npm package pprof-format (tests/pprof/,
# installed by scripts/install-deps), finds the same sums and leaves.
. "$(dirname "$0")/../../lib.sh"
data=$TOP/tests/data/report
check=$TOP/tests/integration/pprof-check.py
for t in go python3 gzip node gcc; do
	command -v $t >/dev/null || fail "$t is missing (scripts/install-deps)"
done
[ -f "$TOP/tests/pprof/node_modules/pprof-format/package.json" ] ||
	fail "npm pprof-format is missing in tests/pprof (scripts/install-deps)"
export HOME=$TEST_TMP GOTOOLCHAIN=local GOFLAGS= GOPROXY=off

zcat "$data/stacks-segments.dat.gz" >"$TEST_TMP/stacks-segments.dat" ||
	fail "no stacks-segments.dat.gz"
for dat in wrappers-6.18 tc-6.12 tc-6.1 stacks-segments; do
	f=$data/$dat.dat
	[ -f "$f" ] || f=$TEST_TMP/$dat.dat
	"$SLABACCT" report --json "$f" >"$TEST_TMP/r.json" ||
		fail "report --json $dat failed"
	"$SLABACCT" report --pprof "$TEST_TMP/$dat.pb.gz" "$f" ||
		fail "report --pprof $dat failed"
	gzip -t "$TEST_TMP/$dat.pb.gz" || fail "$dat: --pprof's file is not gzip"
	out=$(python3 "$check" "$TEST_TMP/r.json" "$TEST_TMP/$dat.pb.gz") ||
		fail "$dat: --pprof against the report"
	note "$dat: $out"
done

# with stacks: leaf first, the wrapper, its caller, out to the syscall
go tool pprof -traces -sample_index=alloc_objects \
	"$TEST_TMP/wrappers-6.18.pb.gz" >"$TEST_TMP/traces" 2>&1 ||
	fail "go tool pprof -traces failed"
python3 - "$TEST_TMP/traces" <<'PY' || fail "no stack of kobject_set_name_vargs <- dev_set_name"
import sys
traces = open(sys.argv[1]).read().split("-----------+")
want = ["kobject_set_name_vargs", "dev_set_name", "netdev_register_kobject"]
for t in traces:
    frames = [l.split()[-1] for l in t.split("\n")[1:] if l.strip()
              and ":" not in l]
    if frames[:3] == want and frames[-1] == "entry_SYSCALL_64_after_hwframe":
        sys.exit(0)
sys.exit(1)
PY
# without: every sample is one frame
go tool pprof -traces "$TEST_TMP/tc-6.12.pb.gz" >"$TEST_TMP/traces" 2>&1 ||
	fail "go tool pprof -traces failed"
python3 - "$TEST_TMP/traces" <<'PY' || fail "tc-6.12 has no stacks, but a sample has frames"
import sys
for t in open(sys.argv[1]).read().split("-----------+")[1:]:
    frames = [l for l in t.split("\n")[1:] if l.strip() and ":" not in l]
    if len(frames) > 1:
        sys.exit(1)
PY

# through a temporary file: a failed write leaves the old file
cp "$TEST_TMP/tc-6.1.pb.gz" "$TEST_TMP/keep.pb.gz"
"$SLABACCT" report --pprof "$TEST_TMP/keep.pb.gz" "$TEST_TMP/none.dat" \
	2>/dev/null && fail "--pprof of a missing trace succeeded"
cmp -s "$TEST_TMP/tc-6.1.pb.gz" "$TEST_TMP/keep.pb.gz" ||
	fail "a failed --pprof changed the file at its path"
ln -s "$TEST_TMP/keep.pb.gz" "$TEST_TMP/link.pb.gz"
"$SLABACCT" report --pprof "$TEST_TMP/link.pb.gz" "$data/tc-6.1.dat" \
	2>/dev/null && fail "--pprof followed a symlink"

# file:line through --vmlinux: a vmlinux made here (no banner, no build
# ID: used with a note) whose functions are named as three call sites of
# tc-6.1, at lines 10, 11 and 12 of fake.c; pprof's locations carry them
cd "$TEST_TMP" || fail "no workspace"
"$SLABACCT" report --json --sort bytes "$data/tc-6.1.dat" >all.json || fail "report"
mapfile -t funcs < <(python3 -c '
import json, re, sys
seen = []
for r in json.load(open(sys.argv[1]))["sections"]["callsite"]["rows"]:
    if r["module"] is None and re.search(r"\+0x[0-9a-f]{1,3}$", r["site"]) \
            and r["function"] not in seen:
        seen.append(r["function"])
print("\n".join(seen[:3]))' all.json)
[ ${#funcs[@]} = 3 ] || fail "not three call sites to name"
{
	for i in 1 2 3 4 5 6 7 8 9; do echo "/* $i */"; done
	for i in 0 1 2; do
		echo "void f$i(void) __asm__(\"${funcs[$i]}\");"\
			"void f$i(void) { __asm__ volatile(\".skip 8192\"); }"
	done
	echo 'void _start(void) { }'
} >fake.c
gcc -g -O0 -nostdlib -static -Wl,--build-id=none -o bare.elf fake.c ||
	fail "cannot build a test vmlinux"
"$SLABACCT" report --vmlinux bare.elf --pprof lines.pb.gz "$data/tc-6.1.dat" \
	2>/dev/null || fail "report --vmlinux --pprof failed"
go tool pprof -raw lines.pb.gz >raw || fail "go tool pprof -raw failed"
for i in 0 1 2; do
	grep -qE "^ +[0-9]+: 0x[0-9a-f]+ M=1 ${funcs[$i]} fake\.c:1$i s=0$" raw ||
		fail "no location of ${funcs[$i]} at fake.c:1$i: $(grep " ${funcs[$i]} " raw)"
done
# the others have no line
grep -qE " M=1 [^ ]+ :0 s=0$" raw || fail "every location has a line"

assert_refused "--pprof --json" 2 "--pprof writes a file of its own" \
	"$SLABACCT" report --pprof "$TEST_TMP/x" --json "$data/tc-6.12.dat"
assert_refused "--pprof --folded" 2 "--pprof writes a file of its own" \
	"$SLABACCT" report --pprof "$TEST_TMP/x" --folded "$data/tc-6.12.dat"
assert_refused "--pprof --by cache" 2 "--pprof writes stacks: not --by cache" \
	"$SLABACCT" report --pprof "$TEST_TMP/x" --by cache "$data/tc-6.12.dat"
[ ! -e "$TEST_TMP/x" ] || fail "a refused --pprof wrote its file"
exit 0
