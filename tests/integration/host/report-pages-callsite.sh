# Pages by call site, from kernel stacks, against an independent count:
# a recording made here with a stack after every event (record
# --stacks=all -e page) of a workload that faults in memory and builds
# page tables; tests/integration/pages-site-referee.py pairs trace-cmd
# report's mm_page_alloc events with their <stack trace> and applies the
# rule (the first frame past the page allocator, the large kmalloc and
# the allocation wrappers) itself. Every row of the report equals the
# referee's: blocks and pages allocated, blocks and pages live at the
# end, summed by entry point and caller function (the report's rows are
# per caller frame). Without stacks the section says it is not available.
. "$(dirname "$0")/../../lib.sh"
command -v trace-cmd >/dev/null || fail "trace-cmd is not installed (scripts/install-deps)"
[ -x "$SLABACCT" ] || fail "build/slabacct is missing (make all)"

cat >"$TEST_TMP/work.sh" <<'W'
for i in 1 2 3 4 5 6 7 8; do
	dd if=/dev/zero of=/dev/null bs=1M count=8 2>/dev/null
	sh -c 'x=$(seq 1 2000); echo ${#x}' >/dev/null
done
W
"$SLABACCT" record --stacks=all -e page -o "$TEST_TMP/p.dat" -- \
	bash "$TEST_TMP/work.sh" >"$TEST_TMP/rec.out" 2>&1 ||
	fail "record --stacks=all -e page failed: $(tail -n 3 "$TEST_TMP/rec.out")"
export PYTHONPATH=$TOP/tests/integration
# compare NAME [lossy]: the report's pages by call site of NAME.dat
# (NAME.json) against the referee's, row by row; a recording that lost
# nothing has no allocation without its stack
compare() {
	"$SLABACCT" report --json --what pages "$TEST_TMP/$1.dat" >"$TEST_TMP/$1.json" ||
		fail "report --what pages of $1.dat failed"
	python3 "$TOP/tests/integration/pages-site-referee.py" "$TEST_TMP/$1.dat" \
		>"$TEST_TMP/$1.ref.json" || fail "the referee failed on $1.dat"
	python3 - "$TEST_TMP/$1.json" "$TEST_TMP/$1.ref.json" "${2:-}" <<'PY' ||
import json, sys
from jsonfind import section
rep, ref = (json.load(open(p)) for p in sys.argv[1:3])
p = section(rep, 'by_callsite', 'pages_alloc')
rows = p['by_callsite']
assert isinstance(rows, list), rows
ours = {}
for r in rows:
    k = ('%s <- %s' % (r['via'], r['function'])) if 'via' in r else r['site']
    o = ours.setdefault(k, [0, 0, 0, 0])
    for i, f in enumerate(('blocks', 'pages', 'live_blocks', 'live_pages')):
        o[i] += r[f]
assert sum(v[0] for v in ours.values()) == p['allocs'], (p['allocs'], ours)
assert p['allocs'] > 100, p['allocs']
bad = {k: (ours.get(k), ref.get(k)) for k in set(ours) | set(ref)
       if ours.get(k) != ref.get(k)}
print('%d allocations, %d sites; first: %s' % (p['allocs'], len(ours),
      max(ours.items(), key=lambda kv: kv[1][1])))
assert not bad, bad
if sys.argv[3] != 'lossy':
    assert ours.get('(no kernel stack)') is None, ours.get('(no kernel stack)')
PY
		fail "pages by call site of $1.dat differ from the referee"
}
compare p
note "$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))), "sites, the referee agrees")' "$TEST_TMP/p.ref.json")"

# CSV and text show the same rows
"$SLABACCT" report --csv --what pages "$TEST_TMP/p.dat" >"$TEST_TMP/p.csv" ||
	fail "report --csv failed"
n=$(grep -c '^pages_callsite,' "$TEST_TMP/p.csv")
want=$(python3 -c 'import json, sys
from jsonfind import section
print(len(section(json.load(open(sys.argv[1])), "by_callsite")["by_callsite"]) + 1)' "$TEST_TMP/p.json")
assert_eq "CSV pages_callsite lines (header and rows)" "$want" "$n"
"$SLABACCT" report --what pages "$TEST_TMP/p.dat" >"$TEST_TMP/p.txt" ||
	fail "report (text) failed"
grep -q '^By call site (kernel stacks):' "$TEST_TMP/p.txt" ||
	fail "no 'By call site' in the text report"

# without stacks: not available, and said why
"$SLABACCT" record -e page -o "$TEST_TMP/n.dat" -- true >/dev/null 2>&1 ||
	fail "record -e page failed"
"$SLABACCT" report --json --what pages "$TEST_TMP/n.dat" >"$TEST_TMP/n.json" ||
	fail "report of a trace without stacks failed"
grep -q '"by_callsite" *: *"not available' "$TEST_TMP/n.json" ||
	fail "a trace without stacks has pages by call site"
grep -q 'pages: by task, not by call site' "$TEST_TMP/n.json" ||
	fail "no note that pages are not by call site"

# A full buffer: 8 KB per CPU against faults on every CPU at once
cat >"$TEST_TMP/burst.sh" <<'W'
for c in $(seq $(nproc)); do
	(for i in $(seq 100); do
		cat /proc/self/status >/dev/null
		dd if=/dev/zero of=/dev/null bs=1M count=1 2>/dev/null
	done) &
done
wait
W
"$SLABACCT" record --stacks=all -e page -b 8 -o "$TEST_TMP/l.dat" -- \
	bash "$TEST_TMP/burst.sh" >"$TEST_TMP/lrec.out" 2>&1 ||
	fail "record -b 8 failed: $(tail -n 3 "$TEST_TMP/lrec.out")"
compare l lossy
lost=$(jq .lost.events "$TEST_TMP/l.json")
[ "$lost" -gt 0 ] 2>/dev/null || fail "no events lost with an 8 KB buffer ($lost)"
"$SLABACCT" report --what pages "$TEST_TMP/l.dat" 2>/dev/null | grep -q "^# lost events: $lost " ||
	fail "the text report does not say $lost events were lost"
"$SLABACCT" report --csv --what pages "$TEST_TMP/l.dat" 2>/dev/null | grep -qx "# lost_events: $lost" ||
	fail "the CSV report does not say $lost events were lost"
note "a full buffer: $lost events lost, every row as the referee's"
exit 0
