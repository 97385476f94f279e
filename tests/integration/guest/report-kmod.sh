# slabacct report in one guest of kernel flavour $1: sa_test.ko makes N
# known kmallocs and CN cache allocations (M and CM of them freed) while
# `slabacct record` and slab_account.ko both watch, and LN large kmallocs
# (3 pages; 6.10+ traces each twice) from a third site, LM freed. The
# report's rows for those call sites must equal the known counts and the
# module's rows exactly; a `trace-cmd record` of the same load must give
# the same rows; every column of the module's rows for sa_test's call
# sites must equal trace-cmd's decoding of our recording of the same
# window (kmem-recount.py), with no row for the allocator's address of a
# repeated kmalloc; diff of the module's snapshot against our recording
# shows no change for them.
. "$(dirname "$0")/../../lib.sh"
flavour=${1:?kernel flavour}
N=1000 S=100 M=300 CN=500 CM=200 LN=50 LM=20

cat >"$TEST_TMP/guest.sh" <<GUEST
set -e
insmod \$MODDIR/slab_account.ko
insmod \$MODDIR/sa_test.ko
load='echo kmalloc $N $S $M > /proc/sa_test; echo cache $CN $S $CM > /proc/sa_test; echo large $LN $LM > /proc/sa_test'
slabacct record -o \$OUT/ours.dat -- sh -c "\$load" > \$OUT/record.log 2>&1
cat /proc/sa_test > \$OUT/sa_test
cat /sys/kernel/slab/sa_test_cache/slab_size > \$OUT/slab_size
cat /proc/slab_account > \$OUT/account
echo free > /proc/sa_test
trace-cmd record -e kmem:kmalloc -e kmem:kfree -e kmem:kmem_cache_alloc \
	-e kmem:kmem_cache_free -o \$OUT/tc.dat sh -c "\$load" \
	> \$OUT/trace-cmd.log 2>&1
echo free > /proc/sa_test
rmmod sa_test
rmmod slab_account
GUEST
o=$TEST_TMP/out
# trace-cmd's own file must be readable by trace-cmd's own reader before
# it says anything about ours. A file it cannot read (seen once in CI:
# libtracecmd died on it) is trace-cmd's failure, not a sample: it is
# kept in build/test-logs/ and the boot is done once more.
for attempt in 1 2; do
	guest_run "$flavour" "$TEST_TMP/guest.sh" -t 300 \
		-f /usr/bin/trace-cmd:/bin/trace-cmd || fail "guest run failed"
	trace-cmd report "$o/tc.dat" >/dev/null 2>"$TEST_TMP/tc.err" && break
	keep=$TOP/build/test-logs/report-kmod-$flavour-tc.dat
	mkdir -p "${keep%/*}" && cp "$o/tc.dat" "$keep"
	note "trace-cmd report cannot read the tc.dat trace-cmd record wrote" \
		"(kept as $keep): $(tail -n 2 "$TEST_TMP/tc.err" | tr '\n' ' ')"
	[ $attempt = 2 ] && fail "trace-cmd wrote an unreadable tc.dat twice"
done
ksize=$(sed -n 's/^kmalloc_ksize: //p' "$o/sa_test")
lsize=$(sed -n 's/^large_size: //p' "$o/sa_test")
lksize=$(sed -n 's/^large_ksize: //p' "$o/sa_test")
slot=$(cat "$o/slab_size")
[ -n "$ksize" ] && [ -n "$slot" ] && [ -n "$lksize" ] ||
	fail "sa_test did not report its sizes"
note "kmalloc($S) size class $ksize, sa_test_cache slot $slot," \
	"kmalloc($lsize) $lksize bytes"

# site KIND FUNC FILE.csv: "allocs frees bytes_alloc bytes_req live live_bytes"
site() {
	python3 - "$@" <<'PY'
import csv, sys
kind, func, path = sys.argv[1:4]
rows = [r for r in csv.reader(l for l in open(path) if not l.startswith('#'))
        if r and r[0] == 'callsite' and r[1] == kind and r[4] == func]
if len(rows) != 1:
    sys.exit("%d %s rows for %s" % (len(rows), kind, func))
h = next(csv.reader(l for l in open(path) if l.startswith('callsite,kind')))
r = dict(zip(h, rows[0]))
print(r['allocs'], r['frees'], r['bytes_alloc'], r['bytes_req'], r['live'],
      r['live_bytes'], r['module'])
PY
}
for dat in ours tc; do
	if ! "$SLABACCT" report --csv "$o/$dat.dat" >"$TEST_TMP/$dat.csv"; then
		keep=$TOP/build/test-logs/report-kmod-$flavour-$dat.dat
		mkdir -p "${keep%/*}" && cp "$o/$dat.dat" "$keep"
		fail "report of $dat.dat failed (the file is kept as $keep)"
	fi
	assert_eq "$dat: kmalloc site sa_test_kmalloc_loop" \
		"$N $M $((N * ksize)) $((N * S)) $((N - M)) $(((N - M) * ksize)) sa_test" \
		"$(site kmalloc sa_test_kmalloc_loop "$TEST_TMP/$dat.csv")"
	assert_eq "$dat: cache site sa_test_cache_loop" \
		"$CN $CM $((CN * slot)) $((CN * S)) $((CN - CM)) $(((CN - CM) * slot)) sa_test" \
		"$(site cache sa_test_cache_loop "$TEST_TMP/$dat.csv")"
	assert_eq "$dat: kmalloc site sa_test_large_loop" \
		"$LN $LM $((LN * lksize)) $((LN * lsize)) $((LN - LM)) $(((LN - LM) * lksize)) sa_test" \
		"$(site kmalloc sa_test_large_loop "$TEST_TMP/$dat.csv")"
done
grep -q '^# lost_events: 0$' "$TEST_TMP/ours.csv" || fail "our recording lost events"

# the module's rows: the same numbers
# total slack req live objs allocs/frees kind caller
set -- $(grep -E ' sa_test_kmalloc_loop\+.*\[sa_test\]' "$o/account" | head -n 1)
assert_eq "module kmalloc row" \
	"$((N * ksize)) $((N * S)) $(((N - M) * ksize)) $((N - M)) $N/$M" \
	"$1 $3 $4 $5 $6"
set -- $(grep -E ' sa_test_cache_loop\+.*\[sa_test\]' "$o/account" | head -n 1)
assert_eq "module cache row" \
	"$((CN * slot)) $((CN * S)) $(((CN - CM) * slot)) $((CN - CM)) $CN/$CM" \
	"$1 $3 $4 $5 $6"

# The module against trace-cmd's decoding of our recording of the same
# window: every column of every row of sa_test's call sites, and no row
# for the allocator's own address in the repeated large kmallocs
# (tests/integration/kmem-recount.py)
trace-cmd report "$o/ours.dat" >"$TEST_TMP/ours.txt" 2>/dev/null ||
	fail "trace-cmd report cannot read our recording"
python3 "$TOP/tests/integration/kmem-recount.py" "$TEST_TMP/ours.txt" \
	"$o/account" sa_test_ sa_test >"$TEST_TMP/recount" 2>&1
rc=$?
cat "$TEST_TMP/recount"
[ $rc = 0 ] || fail "the module's rows differ from trace-cmd's decoding of our recording"
grep -q '^kmalloc sa_test_large_loop+' "$TEST_TMP/recount" ||
	fail "the recount has no sa_test_large_loop row"

# diff: the module snapshot and trace-cmd's recording against ours
for other in "$o/account" "$o/tc.dat"; do
	"$SLABACCT" diff --json "$other" "$o/ours.dat" >"$TEST_TMP/d.json" ||
		fail "diff $other ours.dat failed"
	python3 - "$TEST_TMP/d.json" <<'PY' || fail "diff $other: sa_test rows changed"
import json, sys
rows = json.load(open(sys.argv[1]))["rows"]
bad = [r for r in rows if r["site"].startswith("sa_test_")]
assert not bad, bad
PY
done
note "report rows equal the known load, the module and trace-cmd"
