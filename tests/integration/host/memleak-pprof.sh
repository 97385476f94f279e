#!/bin/bash
# slabacct memleak --pprof FILE: the outstanding user-space allocations
# of the test program (tests/bpf/leaker: 40 of each kind, each from its
# own function) as a gzipped pprof profile, read by Go's own pprof (go
# tool pprof, offline) and by the npm package pprof-format
# (tests/pprof/): sample types inuse_objects/count and inuse_space/bytes,
# each leak_* function 40 objects by flat value, the sums equal to
# memleak's own JSON totals (outstanding, outstanding_bytes), main and
# the libc start under them. The file is written through a temporary
# file: a symlink at its path is refused.
. "$(dirname "$0")/../../lib.sh"
need_root
for t in go node jq; do
	command -v $t >/dev/null || fail "$t is missing (scripts/install-deps)"
done
[ -f "$TOP/tests/pprof/node_modules/pprof-format/package.json" ] ||
	fail "npm pprof-format is missing in tests/pprof (scripts/install-deps)"
B=$TOP/build/tests/bpf
[ -x "$B/leaker" ] || fail "$B/leaker is missing (make all)"
[ -e /sys/kernel/btf/vmlinux ] || fail "this kernel has no BTF; the BPF tools need it"
cd "$TEST_TMP" || exit 1
export HOME=$TEST_TMP GOTOOLCHAIN=local GOFLAGS= GOPROXY=off

"$SLABACCT" memleak --json --pprof ml.pb.gz -c "$B/leaker 40" >ml.json 2>ml.err ||
	fail "memleak --pprof: $(cat ml.err)"
[ -s ml.pb.gz ] || fail "memleak --pprof wrote no file"
m=$(tail -n 1 ml.json)
n=$(jq .outstanding <<<"$m") b=$(jq .outstanding_bytes <<<"$m")
go tool pprof -top -nodecount=1000 -nodefraction=0 -edgefraction=0 \
	-sample_index=inuse_objects ml.pb.gz >top.txt 2>&1 || fail "go tool pprof: $(cat top.txt)"
for f in leak_malloc leak_calloc leak_realloc leak_memalign leak_aligned; do
	assert_eq "pprof's flat inuse_objects of $f" 40 \
		"$(awk -v f=$f '$NF == f { print $1 }' top.txt)"
done
grep -qE "^ +0 +0% +[0-9.]+% +$n +100% +main$" top.txt ||
	fail "main does not hold all $n objects: $(cat top.txt)"
grep -q "accounting for $n, 100% of $n total" top.txt ||
	fail "pprof's total is not memleak's $n: $(head -n 4 top.txt)"
go tool pprof -raw ml.pb.gz >raw.txt 2>&1 || fail "go tool pprof -raw"
grep -qx " *inuse_objects/count inuse_space/bytes" raw.txt ||
	fail "sample types: $(grep -A1 '^Samples' raw.txt)"
assert_eq "pprof's inuse_space" "$b" "$(awk '/^Samples/ { s = 1; next }
	s && /^ +[0-9]+ +[0-9]+:/ { t += $2 } /^Locations/ { s = 0 }
	END { print t }' raw.txt)"
node "$TOP/tests/pprof/pprof-sums.mjs" ml.pb.gz >pf.json || fail "pprof-format"
assert_eq "pprof-format's sums" "[$n,$b]" "$(jq -c .sums pf.json)"
assert_eq "pprof-format's leak_malloc" 40 "$(jq '.leaves.leak_malloc[0]' pf.json)"
note "memleak --pprof: $n objects, $b bytes; go tool pprof and pprof-format agree"

# through a temporary file: no symlink followed
ln -s "$TEST_TMP/ml.pb.gz" link.pb.gz
"$SLABACCT" memleak --pprof link.pb.gz -c "$B/leaker 4" >/dev/null 2>err &&
	fail "memleak --pprof followed a symlink"
grep -q "link.pb.gz" err || fail "memleak --pprof: a refused symlink not named: $(cat err)"
exit 0
