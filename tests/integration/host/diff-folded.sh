#!/bin/bash
# slabacct diff --folded A B: the stacks of two recordings folded, each
# line weighed by its change from A to B (signed). For every key (bytes,
# allocs, live, slack) and pairs of the committed traces (one with
# kernel stacks), each line's weight must be the line's weight in
# `report --folded B` minus that in `report --folded A` (Python here,
# lines of no change left out), and the weights must sum to the change
# of the report's totals (--json); a recording against itself gives no
# line; other formats are refused.
. "$(dirname "$0")/../../lib.sh"
data=$TOP/tests/data/report
command -v python3 >/dev/null || fail "python3 is missing (scripts/install-deps)"

check() {	# A B KEY
	local a=$data/$1.dat b=$data/$2.dat key=$3 rk=$3 out
	[ "$key" = allocs ] && rk=hits
	"$SLABACCT" diff --folded --sort "$key" "$a" "$b" >"$TEST_TMP/d" ||
		fail "diff --folded --sort $key $1 $2 failed"
	"$SLABACCT" report --folded --sort "$rk" "$a" >"$TEST_TMP/a" || fail "report --folded $1"
	"$SLABACCT" report --folded --sort "$rk" "$b" >"$TEST_TMP/b" || fail "report --folded $2"
	"$SLABACCT" report --json "$a" >"$TEST_TMP/a.json" || fail "report --json $1"
	"$SLABACCT" report --json "$b" >"$TEST_TMP/b.json" || fail "report --json $2"
	out=$(python3 - "$TEST_TMP" "$key" <<'PY'
import json, re, sys
d, key = sys.argv[1:3]
def folded(p):
    w = {}
    for line in open(p):
        m = re.match(r"^(.+) (-?[0-9]+)$", line.rstrip("\n"))
        if not m:
            sys.exit("not a folded line in %s: %r" % (p, line))
        w[m.group(1)] = w.get(m.group(1), 0) + int(m.group(2))
    return w
a, b, got = folded(d + "/a"), folded(d + "/b"), folded(d + "/d")
want = {k: b.get(k, 0) - a.get(k, 0) for k in set(a) | set(b)}
want = {k: v for k, v in want.items() if v}
bad = ["%s: diff %s, B-A %s" % (k, got.get(k), want.get(k))
       for k in sorted(set(want) | set(got)) if got.get(k) != want.get(k)]
if bad:
    sys.exit("%d lines differ:\n  %s" % (len(bad), "\n  ".join(bad[:10])))
lines = [l.rsplit(" ", 1)[0] for l in open(d + "/d")]
if lines != sorted(lines):
    sys.exit("lines not sorted")
field = {"bytes": "bytes_alloc", "allocs": "allocs", "live": "live_bytes",
         "slack": "slack"}[key]
def total(p):
    t = json.load(open(p))["sections"]["callsite"]["totals"]
    return sum(v[field] for v in t.values() if isinstance(v, dict))
change = total(d + "/b.json") - total(d + "/a.json")
if sum(got.values()) != change:
    sys.exit("weights sum to %d, the totals changed by %d" %
             (sum(got.values()), change))
print("%d lines (%d grew, %d shrank), change %d" % (
    len(got), sum(v > 0 for v in got.values()),
    sum(v < 0 for v in got.values()), change))
PY
) || fail "diff --folded --sort $key $1 $2: $out"
	note "$1 -> $2 by $key: $out"
}

for key in bytes allocs live slack; do
	check tc-6.1 tc-6.12 "$key"
	check tc-6.12 wrappers-6.18 "$key"
done
# bytes is the default
"$SLABACCT" diff --folded "$data/tc-6.12.dat" "$data/wrappers-6.18.dat" >"$TEST_TMP/def" ||
	fail "diff --folded failed"
"$SLABACCT" diff --folded --sort bytes "$data/tc-6.12.dat" "$data/wrappers-6.18.dat" |
	cmp -s - "$TEST_TMP/def" || fail "diff --folded's default is not bytes"
# a whole stack that only B has grew
grep -q '^entry_SYSCALL_64_after_hwframe;.*;dev_set_name;kobject_set_name_vargs <- dev_set_name+0x52 [1-9][0-9]*$' \
	"$TEST_TMP/def" || fail "no grown stack of kobject_set_name_vargs <- dev_set_name"
# ... and shrank the other way
"$SLABACCT" diff --folded "$data/wrappers-6.18.dat" "$data/tc-6.12.dat" |
	grep -q '^entry_SYSCALL_64_after_hwframe;.*;dev_set_name;kobject_set_name_vargs <- dev_set_name+0x52 -[1-9][0-9]*$' ||
	fail "no shrunk stack of kobject_set_name_vargs <- dev_set_name"
# no change, no line
"$SLABACCT" diff --folded "$data/wrappers-6.18.dat" "$data/wrappers-6.18.dat" >"$TEST_TMP/same" ||
	fail "diff --folded A A failed"
[ ! -s "$TEST_TMP/same" ] || fail "a recording against itself has lines"

assert_refused "diff --folded --sort frag" 2 "--folded weighs by bytes, allocs, live or slack" \
	"$SLABACCT" diff --folded --sort frag "$data/tc-6.1.dat" "$data/tc-6.12.dat"
assert_refused "diff --folded --json" 2 "--folded is a format of its own" \
	"$SLABACCT" diff --folded --json "$data/tc-6.1.dat" "$data/tc-6.12.dat"
exit 0
