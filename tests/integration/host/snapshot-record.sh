#!/bin/bash
# The system snapshots slabacct record stores at the start and end of a
# recording, as report and diff show them (text, JSON, CSV); a trace
# written by trace-cmd carries none and shows no system section.
. "$(dirname "$0")/../../lib.sh"
need_root
[ -x "$SLABACCT" ] || fail "build/slabacct is missing (run make)"

for n in a b; do
	"$SLABACCT" record -o "$TEST_TMP/$n.dat" -- sleep 0.2 \
		>"$TEST_TMP/$n.log" 2>&1 || { cat "$TEST_TMP/$n.log"; fail "record $n failed"; }
done
total=$(awk '/^MemTotal:/ {print $2}' /proc/meminfo)

"$SLABACCT" report --width 80 "$TEST_TMP/a.dat" >"$TEST_TMP/a.txt" || fail "report failed"
grep -q '^== system (slabacct snapshot) ==$' "$TEST_TMP/a.txt" ||
	fail "report has no system section"
# the answer first: the call sites, then the snapshot, last
sys_at=$(grep -n '^== system' "$TEST_TMP/a.txt" | cut -d: -f1)
cs_at=$(grep -n '^== call sites' "$TEST_TMP/a.txt" | cut -d: -f1)
[ -n "$cs_at" ] && [ "$sys_at" -gt "$cs_at" ] ||
	fail "the system snapshot (line $sys_at) comes before the call sites (line $cs_at)"
[ -z "$(sed -n '/^== system/,$p' "$TEST_TMP/a.txt" | sed 1d | grep '^== ')" ] ||
	fail "a section follows the system snapshot"
for w in 'at start:' 'at end:' 'changes, start (A) -> end (B):'; do
	grep -qF "$w" "$TEST_TMP/a.txt" || fail "system section lacks '$w'"
done
[ "$(grep -c "memory  total $total kB" "$TEST_TMP/a.txt")" = 2 ] ||
	fail "MemTotal $total not shown at start and end"
awk 'length > 80 { bad = 1 } END { exit bad }' \
	<(sed -n '/^== system/,$p' "$TEST_TMP/a.txt") ||
	fail "the system section is wider than 80 columns"

"$SLABACCT" report --json "$TEST_TMP/a.dat" >"$TEST_TMP/a.json" || fail "report --json failed"
# "system": { "start": { ... "memory": { "total_kb": N
tr -d ' \n' <"$TEST_TMP/a.json" | grep -q "\"system\":{\"start\":{\"schema_version\":1" ||
	fail "report --json has no system.start"
[ "$(tr -d ' \n' <"$TEST_TMP/a.json" | grep -o "\"total_kb\":$total" | wc -l)" = 2 ] ||
	fail "report --json: memory.total_kb $total not at start and end"
"$SLABACCT" report --csv "$TEST_TMP/a.dat" >"$TEST_TMP/a.csv" || fail "report --csv failed"
assert_eq "CSV system_start_mem_total_kb" "# system_start_mem_total_kb: $total" \
	"$(grep '^# system_start_mem_total_kb:' "$TEST_TMP/a.csv")"
grep -q '^# system_end_slab_space: [1-9]' "$TEST_TMP/a.csv" || fail "CSV: no end slab space"

"$SLABACCT" diff "$TEST_TMP/a.dat" "$TEST_TMP/b.dat" >"$TEST_TMP/d.txt" || fail "diff failed"
grep -q '^== system (slabacct snapshot at the end of each) ==$' "$TEST_TMP/d.txt" ||
	fail "diff has no system section"
grep -q '^changes, A -> B:$' "$TEST_TMP/d.txt" || fail "diff: no system changes"
"$SLABACCT" diff --json "$TEST_TMP/a.dat" "$TEST_TMP/b.dat" | tr -d ' \n' |
	grep -q '"system":{"a":{' || fail "diff --json has no system.a"
"$SLABACCT" diff --csv "$TEST_TMP/a.dat" "$TEST_TMP/b.dat" |
	grep -q "^# system_b_mem_total_kb: $total$" || fail "diff --csv has no system_b"

# trace-cmd's file: no snapshots, no system section
tc=$TOP/tests/data/report/tc-6.12.dat
if [ -f "$tc" ]; then
	"$SLABACCT" report "$tc" >"$TEST_TMP/tc.txt" 2>/dev/null || fail "report $tc failed"
	! grep -q '^== system' "$TEST_TMP/tc.txt" || fail "a trace-cmd file shows a system section"
	"$SLABACCT" report --json "$tc" 2>/dev/null | grep -q '"system"' &&
		fail "a trace-cmd file has a JSON system member"
fi
echo "snapshot-record: report and diff show the recordings' system snapshots"
