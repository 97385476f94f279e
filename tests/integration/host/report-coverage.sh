# The coverage section of a recording made on this host: every figure,
# in total and per cache, equals tests/integration/coverage-referee.py,
# which sums the raw /proc/slabinfo the trace stores at its end itself
# (active_objs x objsize) and replays the live objects of trace-cmd's
# decoding of the same file. Text, CSV and the HTML page's model carry
# the same totals as JSON, every report's header too (whatever its
# sections), and so do diff and merge (of the trace and of
# its JSON report, whose rest must add up); without the snapshot
# (--no-snapshot) the section says why it is not available.
. "$(dirname "$0")/../../lib.sh"
need_root
command -v trace-cmd >/dev/null || fail "trace-cmd is not installed (scripts/install-deps)"
command -v jq >/dev/null || fail "jq is not installed (scripts/install-deps)"
head -1 /proc/slabinfo >/dev/null 2>&1 || skip "/proc/slabinfo is not readable on this host"

dat=$TEST_TMP/cov.dat
"$SLABACCT" record -o "$dat" -- sh -c 'ls -R /proc/self >/dev/null; sleep 0.2' \
	>"$TEST_TMP/record.out" 2>&1 || fail "record failed: $(cat "$TEST_TMP/record.out")"
"$SLABACCT" report --json --what coverage "$dat" >"$TEST_TMP/r.json" ||
	fail "report failed"
jq -S '.sections.coverage | del(.sizes) | .rows |= sort_by(.cache)' \
	"$TEST_TMP/r.json" >"$TEST_TMP/ours"
trace-cmd report "$dat" 2>/dev/null |
	python3 "$TOP/tests/integration/coverage-referee.py" "$dat" |
	jq -S . >"$TEST_TMP/want" || fail "the referee failed"
diff -u "$TEST_TMP/want" "$TEST_TMP/ours" >"$TEST_TMP/diff" ||
	fail "coverage differs from the referee's: $(head -40 "$TEST_TMP/diff")"
read -r traced slab rest rows per <<<"$(jq -r '"\(.totals.traced_bytes) \(.totals.slab_bytes) \(.totals.rest_bytes) \(.rows | length) \(.per_cache)"' "$TEST_TMP/ours")"
[ "$traced" -gt 0 ] || fail "no live slab traced"
[ "$slab" -gt "$traced" ] || fail "slabinfo ($slab) is not above the traced ($traced)"
note "traced $traced bytes of $slab in slabinfo, rest $rest; $rows rows (per cache: $per)"
# a kernel whose kmem_cache_alloc names its cache has rows
if grep -q 'field:.*name' /sys/kernel/tracing/events/kmem/kmem_cache_alloc/format 2>/dev/null; then
	[ "$per" = true ] && [ "$rows" -gt 0 ] || fail "no rows per cache on a kernel with names"
fi

# every report's header: the same totals, whatever its sections
got=$("$SLABACCT" report --json "$dat" | jq -r '.slab_coverage | "\(.traced_bytes) \(.slab_bytes) \(.rest_bytes)"')
assert_eq "JSON header (default sections): traced, slabinfo, rest bytes" "$traced $slab $rest" "$got"
got=$("$SLABACCT" report --csv --what live "$dat" | sed -n 's/^# slab_coverage_[a-z]*_bytes: //p' | tr '\n' ' ')
assert_eq "CSV header (--what live): traced, slabinfo, rest bytes" "$traced $slab $rest " "$got"
"$SLABACCT" report --what subsys "$dat" | grep -q '^# slab coverage: the trace explains ' ||
	fail "no slab coverage line in the text header"

# the other formats: the same totals
"$SLABACCT" report --csv --what coverage "$dat" >"$TEST_TMP/r.csv" || fail "csv failed"
got=$(awk -F, '$1 == "coverage" && $2 == "total" { print $6, $8, $10 }' "$TEST_TMP/r.csv")
assert_eq "CSV total traced, slabinfo, rest bytes" "$traced $slab $rest" "$got"
"$SLABACCT" report --what coverage "$dat" >"$TEST_TMP/r.txt" || fail "text failed"
got=$(awk '/^# traced / { t = $3 } /^# slabinfo / { s = $3 } /^# rest / { r = $3 }
	END { print t, s, r }' "$TEST_TMP/r.txt")
assert_eq "text total traced, slabinfo, rest bytes" "$traced $slab $rest" "$got"
"$SLABACCT" report --html "$TEST_TMP/r.html" --what coverage "$dat" ||
	fail "html failed"
grep -q "\"slab_bytes\":$slab" "$TEST_TMP/r.html" ||
	grep -q "\"slab_bytes\" *: *$slab" "$TEST_TMP/r.html" ||
	fail "the HTML page's model lacks the slabinfo total"

# the page draws the section, in Chromium, with no error
if command -v chromium >/dev/null && command -v node >/dev/null; then
	"$SLABACCT" report --html "$TEST_TMP/cov.html" --what callsite,coverage "$dat" ||
		fail "report --html failed"
	tiles=$("$SLABACCT" report --json --what callsite "$dat" |
		jq '.sections.callsite.rows | map(select(.bytes_alloc > 0)) | length')
	node "$TOP/tests/browser/check-page.mjs" --html "$TEST_TMP/cov.html" \
		--shot "$TEST_TMP/cov.png" \
		--tiles "$tiles" --sections coverage \
		--expect "rest: before tracing, or untraced|in /proc/slabinfo" \
		>"$TEST_TMP/page.out" 2>&1 ||
		fail "the coverage page failed in Chromium: $(grep -v '^ok' "$TEST_TMP/page.out")"
else
	note "no chromium or node: the page is not drawn here"
fi

# diff and merge keep the totals: of the trace and of its JSON report
"$SLABACCT" report --json --what callsite,coverage "$dat" >"$TEST_TMP/both.json" ||
	fail "report --json failed"
got=$("$SLABACCT" diff --json "$dat" "$TEST_TMP/both.json" |
	jq -r '"\(.a.coverage.traced_bytes) \(.a.coverage.slab_bytes) \(.a.coverage.rest_bytes) \(.b.coverage.rest_bytes) \(.change.coverage.rest_bytes)"')
assert_eq "diff JSON: a's traced, slabinfo, rest; b's rest; change" \
	"$traced $slab $rest $rest 0" "$got"
got=$("$SLABACCT" diff --csv "$dat" "$TEST_TMP/both.json" |
	awk -F, '$1 == "coverage" && $2 == "a" { print $3, $4, $5 }')
assert_eq "diff CSV: a's traced, slabinfo, rest" "$traced $slab $rest" "$got"
"$SLABACCT" diff "$dat" "$TEST_TMP/both.json" | grep -q '^# B - A, coverage: 0 traced, 0 slabinfo, 0 rest' ||
	fail "diff text has no coverage change"
got=$("$SLABACCT" merge --json "$dat" "$TEST_TMP/both.json" |
	jq -r '.coverage | "\(.runs) \(.traced_bytes.median) \(.slab_bytes.sum) \(.rest_bytes.max)"')
assert_eq "merge JSON: runs, traced median, slabinfo sum, rest max" \
	"2 $traced $((slab * 2)) $rest" "$got"
got=$("$SLABACCT" merge --csv "$dat" "$TEST_TMP/both.json" |
	awk -F, '$1 == "coverage" && $2 == 2 { print $5, $9, $13 }')
assert_eq "merge CSV: traced, slabinfo, rest medians" "$traced $slab $rest" "$got"
# a JSON whose rest is not slabinfo - traced is refused
jq '.sections.coverage.totals.rest_bytes += 1' "$TEST_TMP/both.json" >"$TEST_TMP/bad.json"
"$SLABACCT" diff "$dat" "$TEST_TMP/bad.json" >/dev/null 2>"$TEST_TMP/bad.err" &&
	fail "diff took a coverage whose rest does not add up"
grep -q "coverage section's totals" "$TEST_TMP/bad.err" ||
	fail "diff's error: $(cat "$TEST_TMP/bad.err")"

# without a snapshot: not available, and why
"$SLABACCT" record --no-snapshot -o "$TEST_TMP/nosnap.dat" -- true \
	>"$TEST_TMP/record2.out" 2>&1 || fail "record failed: $(cat "$TEST_TMP/record2.out")"
got=$("$SLABACCT" report --json --what coverage "$TEST_TMP/nosnap.dat" |
	jq -r '.sections.coverage | "\(.slabinfo) \(.why)"')
case $got in "false the trace carries no system snapshot"*) ;;
	*) fail "--no-snapshot: $got" ;; esac
exit 0
