# slabacct report's memory-pressure sections on a trace recorded in a small
# guest of kernel flavour $1: `slabacct record -e all` runs while a memory
# hog grows until the OOM killer takes it (tests/data/report-mm/
# guest-oom.sh), with swap on zram so that reclaim swaps out. The report
# must show direct reclaim and kswapd activity, exactly one OOM kill with
# the hog's pid and comm as its victim, and the same in text, JSON and
# CSV; and every figure of the reclaim, compaction and oom sections must
# agree with the kernel's own counts over the recording (/proc/vmstat
# deltas, the OOM lines of the kernel log) or, where the kernel keeps
# none, with trace-cmd's decoding of the same file
# (tests/integration/mm-referee.py says which, figure by figure).
# The comparison needs every event: SLABACCT_MM_BUF_KB sets the ring
# buffer per CPU (default 1024 KB; kernel/pressure raises it for its
# KASAN and kmemleak kernel, slower to drain and with more kmem events).
. "$(dirname "$0")/../../lib.sh"
flavour=${1:?kernel flavour}
command -v jq >/dev/null || fail "jq is missing (scripts/install-deps)"
command -v trace-cmd >/dev/null || fail "trace-cmd is missing (scripts/install-deps)"
command -v python3 >/dev/null || fail "python3 is missing"

# swap on zram: the kernel's own modules, or built in (a custom kernel
# with kconfig-fragments/pressure.config)
zram_swap "$flavour" || fail "no zram in kernel $flavour"
{ echo "KMODS='$KMOD_ORDER' ZRAM_SWAP=1 BUF_KB=${SLABACCT_MM_BUF_KB:-1024}"
  cat "$TOP/tests/data/report-mm/guest-oom.sh"; } \
	>"$TEST_TMP/guest.sh"

# 192 MB: at 128 MB unpacking the initramfs already woke kswapd, which
# found nothing to reclaim, and after 16 such runs the kernel stops
# waking it (kswapd_failures): once (in CI) that happened before
# the recording began, and the trace had no kswapd activity to show.
guest_run "$flavour" "$TEST_TMP/guest.sh" -m 192 -t 240 "${KMOD_FILES[@]}" ||
	fail "guest run failed"
o=$TEST_TMP/out
[ -s "$o/trace.dat" ] || fail "no trace came back: $(cat "$o/record.log")"
[ -e "$o/hog" ] || fail "the memory hog was not killed"
pid=$(cat "$o/victim-pid")
comm=$(cat "$o/victim-comm")

"$SLABACCT" report --what reclaim,oom --json "$o/trace.dat" >"$TEST_TMP/r.json" ||
	fail "report --json failed"
j() { jq -r "$1" "$TEST_TMP/r.json"; }
[ "$(j '.sections.reclaim.direct.count')" -gt 0 ] || fail "no direct reclaim"
[ "$(j '.sections.reclaim.direct.sum_ns')" -gt 0 ] || fail "direct reclaim took no time"
[ "$(j '[.sections.reclaim.kswapd[].wakes] | add')" -gt 0 ] || fail "no kswapd wake"
assert_eq "OOM kills" 1 "$(j '.sections.oom.nr_kills')"
assert_eq "victim pid" "$pid" "$(j '.sections.oom.kills[0].victim_pid')"
assert_eq "victim comm" "$comm" "$(j '.sections.oom.kills[0].victim_comm')"
[ "$(j '.sections.oom.kills[0].top_live_callsites | length')" -gt 0 ] ||
	fail "no live call sites at the kill"

"$SLABACCT" report --width 80 --what all "$o/trace.dat" >"$TEST_TMP/r.txt" || fail "report failed"
grep -q "^kill 1 at .*: victim pid $pid ($comm)\$" "$TEST_TMP/r.txt" ||
	fail "text: no kill of $pid ($comm)"
grep -q '^kill 2 ' "$TEST_TMP/r.txt" && fail "text: more than one kill"
awk 'length > 80 { print; bad = 1 } END { exit bad }' "$TEST_TMP/r.txt" ||
	fail "text: lines over 80 columns"
"$SLABACCT" report --what oom --csv "$o/trace.dat" >"$TEST_TMP/r.csv" || fail "csv failed"
assert_eq "CSV kill rows" 1 "$(grep -c '^oom_kill,1,' "$TEST_TMP/r.csv")"
grep -q "^oom_kill,1,[0-9]*,[0-9]*,$pid,$comm," "$TEST_TMP/r.csv" ||
	fail "CSV: the victim is not $pid $comm"

# the referee: every figure against the kernel's counters or trace-cmd
"$SLABACCT" report --what reclaim,compaction,oom --json "$o/trace.dat" \
	>"$TEST_TMP/mm.json" || fail "report --json failed"
trace-cmd report -t "$o/trace.dat" >"$TEST_TMP/trace.txt" 2>/dev/null ||
	fail "trace-cmd report failed"
python3 "$TOP/tests/integration/mm-referee.py" "$TEST_TMP/mm.json" \
	"$TEST_TMP/trace.txt" "$o" || fail "figures differ from the referee"
exit 0
