# Referee test in a guest of kernel flavour $1 (one CPU): slabacct
# report's figures against programs we did not write, on a real workload
# (refload: sa_test.ko's own cache, netlink dumps of 32 KB skbs,
# anonymous memory, a tmpfs file).
#
# In the guest, slabacct record and perf record follow refload's events
# with the same kernel filter (comm == "refload", referee-record.sh), and
# a second slabacct record takes the whole system. On the host:
# - the comm-filtered recording (ours.dat) against perf kmem (call
#   sites: allocations, bytes requested and allocated, per site and in
#   total, less what perf counts and we do not, as found in trace-cmd's
#   decoding of our file; pages: requests, failures, frees and blocks by
#   order x migratetype) and against a recount of `trace-cmd report` of
#   the same file (frees, live, untraced frees, repeats, batched frees);
# - live: sa_test_cache_loop, the only call site of the module's
#   sa_test_cache, has as many live objects as /proc/slabinfo shows
#   active in that cache once it is shrunk. SLUB counts the free objects
#   of per-CPU slabs as active; writing 1 to
#   /sys/kernel/slab/sa_test_cache/shrink first flushes those slabs to
#   the node lists, where slabinfo counts free objects, and frees the
#   empty ones: active is then exactly the objects allocated and not
#   freed, which the whole life of the cache (created inside the trace)
#   tells;
# - pages: /proc/vmstat read by refload at points inside the system-wide
#   recording (all.dat). One read() of /proc/vmstat is one snapshot of
#   the counters (vmstat_start sums them once for the first 4 KB, which
#   hold pgalloc_* and pgfree), taken between refload's kmalloc in
#   vmstat_start and its kfree in vmstat_stop, both in the trace. With
#   one CPU, when no page event lies between those two, the events
#   between two reads are exactly those the counters' deltas count:
#   pgalloc_* (summed over zones) += 1 << order for each mm_page_alloc
#   that returned a page, pgfree += 1 << order for each mm_page_free
#   (mm_page_free_batched fires for some of the same pages: not a free).
#   Frees the kernel counts without an event and allocations it traces
#   without counting happen only on rare paths (bulk allocation, which
#   refload does not use; isolated pageblocks; a pcp lock taken when an
#   interrupt frees): the windows hold only refload's actions;
# - the large-kmalloc repeats: 6.12-cloud traces each 32 KB skb twice
#   (there must be some); 6.1 traces it once (there must be none);
# - timeline: its final outstanding equals the live section's bytes, in
#   both recordings.
. "$(dirname "$0")/../../lib.sh"
flavour=${1:?kernel flavour}
for t in trace-cmd python3 jq node chromium; do
	command -v $t >/dev/null || fail "$t is not installed (scripts/install-deps)"
done
[ -x /usr/bin/perf ] || fail "/usr/bin/perf is missing (linux-perf, scripts/install-deps)"
REFLOAD=$TOP/build/tests/referee/refload
[ -x "$REFLOAD" ] || fail "$REFLOAD is not built (make all)"
case $flavour in
6.1) repeats=--no-repeats ;;
*) repeats="--min-repeats 1" ;;
esac

{
	echo 'set -e'
	cat "$TOP/tests/integration/referee-record.sh"
	cat <<'GUEST'
insmod $MODDIR/sa_test.ko
export HOME=/tmp
REFEREE_ALL=1 referee_record $OUT kmem,page refload \
	write /proc/sa_test "cache 500 100 200" \
	write /sys/kernel/slab/sa_test_cache/shrink 1 \
	slabinfo sa_test_cache \
	vmstat netlink 10 anon 8 file /tmp 2 vmstat anon 4 vmstat ||
	{ cat $OUT/*.log $OUT/refload.err; exit 1; }
perf report -i $OUT/perf.data --stats >$OUT/perf-stats.txt 2>&1
perf kmem -i $OUT/perf.data --slab --caller --alloc stat >$OUT/perf-caller.txt 2>&1
perf kmem -i $OUT/perf.data --page stat >$OUT/perf-page.txt 2>&1
sed -n 's/^KernelPageSize: *\([0-9]*\) kB$/\1/p' /proc/self/smaps | head -n 1 >$OUT/page-kb
GUEST
} >"$TEST_TMP/guest.sh"

guest_run "$flavour" "$TEST_TMP/guest.sh" --smp 1 -t 900 \
	-f "$REFLOAD:/bin/refload" -f /usr/bin/perf:/bin/perf ||
	fail "guest run failed"
o=$TEST_TMP/out
cat "$o/record.log" "$o/all.log"
for f in record all; do
	grep -q 'no events lost' "$o/$f.log" || fail "slabacct record ($f) lost events"
done
page_kb=$(cat "$o/page-kb")
[ -n "$page_kb" ] || fail "no page size from the guest"
check() {
	python3 "$TOP/tests/integration/referee-check.py" "$@" ||
		fail "figures differ from the referees ($1)"
}

# the comm-filtered recording: perf, trace-cmd, slabinfo
trace-cmd report "$o/ours.dat" 2>/dev/null |
	python3 "$TOP/tests/integration/tc-recount.py" >"$o/recount.json" ||
	fail "trace-cmd recount of ours.dat failed"
"$SLABACCT" report --what all --json "$o/ours.dat" >"$o/r.json" ||
	fail "report --json of ours.dat failed"
# shellcheck disable=SC2086
check "$o/r.json" "$o/recount.json" $repeats \
	--perf-stats "$o/perf-stats.txt" --perf-caller "$o/perf-caller.txt" \
	--perf-page "$o/perf-page.txt" --page-size $((page_kb * 1024)) \
	--refload "$o/refload.out" --live-site sa_test_cache_loop \
	--live-cache sa_test_cache
. "$TOP/tests/integration/referee-formats.sh"
referee_formats "$o/ours.dat" "$o/recount.json"

# the whole system: trace-cmd, and /proc/vmstat between refload's reads
trace-cmd report "$o/all.dat" 2>/dev/null |
	python3 "$TOP/tests/integration/tc-recount.py" --vmstat-marks refload \
	>"$o/all-recount.json" || fail "trace-cmd recount of all.dat failed"
"$SLABACCT" report --what all --json "$o/all.dat" >"$o/all.json" ||
	fail "report --json of all.dat failed"
# shellcheck disable=SC2086
check "$o/all.json" "$o/all-recount.json" $repeats --refload "$o/refload.out"
exit 0
