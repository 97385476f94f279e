#!/bin/bash
# slabacct report --html --by stack: the page draws a flame graph of the
# call sites' stacks from the model's new callsite "stacks" key (every
# row with its frames, outermost first, and its weights). On the
# committed recording with kernel stacks (wrappers-6.18.dat), headless
# Chromium (no network, tests/browser/check-page.mjs --flame) checks
# that under each weight of its menu (bytes allocated, allocations, live
# bytes, slack) the graph's root weighs the report's totals, that a
# real click on a frame zooms into it and the path zooms out, with no
# JavaScript error. The stacks of the model sum to the totals, and one
# runs from the syscall entry to "kobject_set_name_vargs <-
# dev_set_name+0x52"; the default page (--by caller) has no "stacks"
# and no flame graph. The diff page of two recordings draws the
# differential one (red grew, blue shrank) with the diff's changes.
# Screenshots go to build/test-logs/html-flame*/.
. "$(dirname "$0")/../../lib.sh"
command -v chromium >/dev/null ||
	fail "chromium is not installed (scripts/install-deps installs it)"
for t in node python3; do
	command -v $t >/dev/null || fail "$t is missing (scripts/install-deps)"
done
data=$TOP/tests/data/report
logs=$TOP/build/test-logs
mkdir -p "$logs/html-flame"

"$SLABACCT" report --json --by stack --stack-depth 32 \
	"$data/wrappers-6.18.dat" >"$TEST_TMP/s.json" || fail "report --json --by stack"
want=$(python3 - "$TEST_TMP/s.json" <<'PY'
import json, sys
cs = json.load(open(sys.argv[1]))["sections"]["callsite"]
tot = {k: sum(t[k] for t in cs["totals"].values() if isinstance(t, dict))
       for k in ("allocs", "bytes_alloc", "live_bytes", "slack")}
st = cs["stacks"]
for k, v in tot.items():
    got = sum(s[k] for s in st)
    if got != v:
        sys.exit("stacks' %s sum to %d, the totals %d" % (k, got, v))
if not any(s["frames"][0] == "entry_SYSCALL_64_after_hwframe" and
           s["frames"][-1] == "kobject_set_name_vargs <- dev_set_name+0x52"
           for s in st):
    sys.exit("no stack from the syscall entry to kobject_set_name_vargs")
print(",".join("%s=%d" % kv for kv in tot.items()))
PY
) || fail "the model's stacks: $want"
note "totals: $want"

"$SLABACCT" report --html "$TEST_TMP/flame.html" --by stack --stack-depth 32 \
	"$data/wrappers-6.18.dat" || fail "report --html --by stack failed"
out=$(node "$TOP/tests/browser/check-page.mjs" --html "$TEST_TMP/flame.html" \
	--shot "$logs/html-flame.png" --shots "$logs/html-flame" \
	--flame "$want" --count '#sec-flame=1' 2>&1)
status=$?
echo "$out" | sed 's/^/# /'
[ $status = 0 ] || fail "the flame graph page: $(echo "$out" | grep '^not ok')"
echo "$out" | grep -q '^ok clicking a frame zooms into it' ||
	fail "the flame graph's click was not checked"

# the default page: no stacks in the model, no flame graph
"$SLABACCT" report --json "$data/wrappers-6.18.dat" | python3 -c '
import json, sys
sys.exit("stacks" in json.load(sys.stdin)["sections"]["callsite"])' ||
	fail "--json --by caller has a stacks key"
"$SLABACCT" report --html "$TEST_TMP/plain.html" "$data/wrappers-6.18.dat" ||
	fail "report --html failed"
node "$TOP/tests/browser/check-page.mjs" --html "$TEST_TMP/plain.html" \
	--shot "$TEST_TMP/plain.png" --count '#sec-flame=0' >"$TEST_TMP/out" 2>&1 ||
	fail "the default page: $(grep '^not ok' "$TEST_TMP/out")"
# the diff page (report --html OUT A B): the differential flame graph of
# tc-6.12 -> wrappers-6.18; its root's change under each weight is the
# change of the diff's own totals (the model's "change"), its width the
# sum over the stacks of the larger side, frames red as they grew, blue
# as they shrank
"$SLABACCT" report --html "$TEST_TMP/diff.html" "$data/tc-6.12.dat" \
	"$data/wrappers-6.18.dat" || fail "report --html A B failed"
node -e '
	const s = require("fs").readFileSync(process.argv[1], "utf8");
	const m = /<script type="application\/json" id="sa-model">([^]*?)<\/script>/.exec(s);
	process.stdout.write(m[1]);' "$TEST_TMP/diff.html" >"$TEST_TMP/diff.json" ||
	fail "no model in the diff page"
read -r wmax wdelta < <(python3 - "$TEST_TMP/diff.json" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
st = m["stacks"]
keys = ("bytes_alloc", "allocs", "live_bytes", "slack")
print(",".join("%s=%d" % (k, sum(max(x["a"][k], x["b"][k]) for x in st))
               for k in keys),
      ",".join("%s=%d" % (k, m["change"][k]) for k in keys))
PY
) || fail "the diff model's stacks"
note "diff: widths $wmax, changes $wdelta"
out=$(node "$TOP/tests/browser/check-page.mjs" --html "$TEST_TMP/diff.html" \
	--shot "$logs/html-flame-diff.png" --shots "$logs/html-flame-diff" \
	--flame "$wmax" --flame-delta "$wdelta" --count '#sec-flame=1' 2>&1)
status=$?
echo "$out" | sed 's/^/# /'
[ $status = 0 ] || fail "the diff page's flame graph: $(echo "$out" | grep '^not ok')"
[ "$(echo "$out" | grep -c '^ok differential flame graph by')" = 4 ] ||
	fail "the differential flame graph's changes were not checked"

note "screenshots: $logs/html-flame.png, $logs/html-flame/flame.png, $logs/html-flame-diff/flame.png"
exit 0
