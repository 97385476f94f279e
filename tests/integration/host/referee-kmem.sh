# Referee test on this host: slabacct report's call-site, page, repeat,
# untraced-free and timeline figures against counts made by programs we
# did not write, on a real workload (refload: netlink dumps, which make
# 32 KB skbs, anonymous memory, a tmpfs file).
#
# slabacct record and perf record follow the same events with the same
# kernel filter (comm == "refload", referee-record.sh), so both files hold
# exactly the same events, whatever else runs on the host. Then:
# - call sites: allocations, bytes requested and allocated, per site and
#   in total, equal `perf kmem --slab stat --caller --alloc`, once perf's
#   rows lose what it counts and we do not: the first event of each large
#   kmalloc traced twice (6.10+ kernels trace it at the allocator's own
#   address, then at the caller) and allocations that returned NULL, both
#   found in trace-cmd's decoding of our file;
# - frees per site, live objects, frees of untraced memory, kfree(NULL)
#   and the objects freed without a trace event equal a recount of
#   `trace-cmd report` of our file (perf misses frees in interrupts on the
#   idle task, so frees are not compared with it);
# - the large-kmalloc repeats equal that recount, and there are some
#   (netlink dump skbs of 32 KB are large kmallocs);
# - pages: allocations (blocks and KB, less failures), failures, frees
#   (mm_page_free only: mm_page_free_batched fires for the same page, as
#   a property) and blocks by order x migratetype equal
#   `perf kmem --page stat`; frees in batches equal trace-cmd's count;
# - timeline: its final outstanding equals the live section's bytes.
# /proc/vmstat is compared in the guests (guest/referee-kmem.sh): on this
# host other work changes its counters at any time.
. "$(dirname "$0")/../../lib.sh"
. "$(dirname "$0")/../referee-record.sh"
need_root
for t in perf trace-cmd python3 jq node chromium; do
	command -v $t >/dev/null || fail "$t is not installed (scripts/install-deps)"
done
REFLOAD=$TOP/build/tests/referee/refload
[ -x "$REFLOAD" ] || fail "$REFLOAD is not built (make all)"
o=$TEST_TMP

referee_record "$o" kmem,page "$REFLOAD" netlink 20 anon 16 file /dev/shm 4 ||
	fail "recording failed: $(cat "$o/record.log" "$o/perf.log" "$o/refload.err")"
cat "$o/record.log"
grep -q 'no events lost' "$o/record.log" || fail "slabacct record lost events"
grep -q 'lost\|LOST' "$o/perf.log" && fail "perf record lost events: $(cat "$o/perf.log")"
export HOME=$o
perf report -i "$o/perf.data" --stats >"$o/perf-stats.txt" 2>&1 ||
	fail "perf report --stats failed: $(tail -3 "$o/perf-stats.txt")"
perf kmem -i "$o/perf.data" --slab --caller --alloc stat >"$o/perf-caller.txt" 2>&1 ||
	fail "perf kmem --slab stat failed: $(tail -3 "$o/perf-caller.txt")"
perf kmem -i "$o/perf.data" --page stat >"$o/perf-page.txt" 2>&1 ||
	fail "perf kmem --page stat failed: $(tail -3 "$o/perf-page.txt")"
trace-cmd report "$o/ours.dat" 2>/dev/null |
	python3 "$TOP/tests/integration/tc-recount.py" >"$o/recount.json" ||
	fail "trace-cmd recount failed"
"$SLABACCT" report --what all --json "$o/ours.dat" >"$o/r.json" ||
	fail "report --json failed"
python3 "$TOP/tests/integration/referee-check.py" "$o/r.json" \
	"$o/recount.json" --perf-stats "$o/perf-stats.txt" \
	--perf-caller "$o/perf-caller.txt" \
	--perf-page "$o/perf-page.txt" --page-size "$(getconf PAGESIZE)" \
	--min-repeats 1 || fail "figures differ from the referees"
. "$(dirname "$0")/../referee-formats.sh"
referee_formats "$o/ours.dat" "$o/recount.json"
exit 0
