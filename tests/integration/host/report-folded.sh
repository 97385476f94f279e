# slabacct report --folded: the stacks folded for flame graphs, one line
# per stack, weighed by bytes, hits, live or slack (the --sort key). On
# the committed recording with kernel stacks (tests/data/report/
# wrappers-6.18.dat, record --stacks) and on one without (tc-6.12.dat:
# one-frame lines), for every key, the weights summed per leaf equal the
# report's call-site rows (--json, --by caller) of that key
# (tests/integration/folded-check.py); the lines with stacks run from
# the syscall entry to the row; wrong keys and formats are refused.
# guest/stacks-load checks the same on recordings made under load.
. "$(dirname "$0")/../../lib.sh"
data=$TOP/tests/data/report
check=$TOP/tests/integration/folded-check.py

for dat in wrappers-6.18 tc-6.12; do
	"$SLABACCT" report --json "$data/$dat.dat" >"$TEST_TMP/r.json" ||
		fail "report --json $dat failed"
	for key in bytes hits live slack; do
		"$SLABACCT" report --folded --sort "$key" "$data/$dat.dat" \
			>"$TEST_TMP/f" || fail "report --folded --sort $key $dat failed"
		out=$(python3 "$check" "$TEST_TMP/r.json" "$TEST_TMP/f" "$key") ||
			fail "$dat: --folded --sort $key against the rows"
		note "$dat: $out"
	done
	# bytes is the default weight
	"$SLABACCT" report --folded "$data/$dat.dat" >"$TEST_TMP/d" ||
		fail "report --folded $dat failed"
	"$SLABACCT" report --folded --sort bytes,hits "$data/$dat.dat" >"$TEST_TMP/b" ||
		fail "report --folded --sort bytes,hits $dat failed"
	cmp -s "$TEST_TMP/d" "$TEST_TMP/b" || fail "$dat: --folded's default is not bytes"
done
# with stacks: the wrapper's caller as a row, under its whole stack
# (a kobject name allocated while a network namespace is set up)
"$SLABACCT" report --folded --sort hits "$data/wrappers-6.18.dat" >"$TEST_TMP/f"
grep -q '^entry_SYSCALL_64_after_hwframe;do_syscall_64;__x64_sys_unshare;.*;dev_set_name;kobject_set_name_vargs <- dev_set_name+0x52 [1-9][0-9]*$' \
	"$TEST_TMP/f" || fail "no stack of kobject_set_name_vargs <- dev_set_name"
# without: one frame a line
"$SLABACCT" report --folded "$data/tc-6.12.dat" >"$TEST_TMP/f"
[ -s "$TEST_TMP/f" ] || fail "tc-6.12: no line"
! grep -q ';' "$TEST_TMP/f" || fail "tc-6.12 has no stacks, but a line has frames"

assert_refused "--folded --sort frag" 2 "--folded weighs by bytes, hits, live or slack" \
	"$SLABACCT" report --folded --sort frag "$data/tc-6.12.dat"
assert_refused "--folded --json" 2 "--folded is a format of its own" \
	"$SLABACCT" report --folded --json "$data/tc-6.12.dat"
assert_refused "--folded --by cache" 2 "--folded writes stacks: not --by cache" \
	"$SLABACCT" report --folded --by cache "$data/tc-6.12.dat"
