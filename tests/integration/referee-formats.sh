# referee_formats TRACE RECOUNT.json (bash, after lib.sh): the figures the
# referee tests compared in JSON appear the same in text, CSV and HTML:
# the large-kmalloc repeats in every header, the page frees that came in
# batches in the pages section, and the objects freed without a trace
# event per call site (CSV column, text -v rows, a note naming sites, and
# a column of the HTML page's call-site table, as headless Chromium shows
# it).
referee_formats() {
	local dat=$1 rc=$2 t=$TEST_TMP/fmt rep bat n
	mkdir -p "$t"
	rep=$(jq -r '.repeats.n' "$rc")
	bat=$(jq -r '.pages.batched' "$rc")
	"$SLABACCT" report --what all -v "$dat" >"$t/r.txt" || fail "text report failed"
	"$SLABACCT" report --what all --csv "$dat" >"$t/r.csv" || fail "CSV report failed"
	"$SLABACCT" report --what all --html "$t/r.html" "$dat" >/dev/null ||
		fail "HTML report failed"
	assert_eq "text: large kmalloc repeats" "$rep" \
		"$(sed -n 's/^# large kmalloc traced twice: \([0-9]*\) .*/\1/p' "$t/r.txt")"
	assert_eq "CSV: large kmalloc repeats" "$rep" \
		"$(sed -n 's/^# kmalloc_repeats: //p' "$t/r.csv")"
	assert_eq "HTML: large kmalloc repeats in its model" "$rep" \
		"$(sed -n 's/.*"kmalloc_repeats" *: *\([0-9]*\).*/\1/p' "$t/r.html" | head -n 1)"
	# the page as Chromium shows it (tests/browser/check-page.mjs)
	n=$(python3 -c "print(f'{$rep:,}')")
	node "$TOP/tests/browser/check-page.mjs" --html "$t/r.html" \
		--shot "$t/r.png" --column "freed untraced" \
		--expect "large kmalloc traced twice: $n (counted once" ||
		fail "HTML: the page does not show the repeats or the column"
	if [ "$bat" != null ]; then
		assert_eq "text: page frees in batches" "$bat" \
			"$(sed -n 's/^# freed: .*, \([0-9]*\) of them in batches.*/\1/p' "$t/r.txt")"
		assert_eq "CSV: page frees in batches" "$bat" "$(python3 - "$t/r.csv" <<'PY'
import csv, sys
rows = [r for r in csv.reader(open(sys.argv[1])) if r and r[0] == 'pages_summary']
print(dict(zip(rows[0], rows[1]))['frees_batched'])
PY
)"
	fi
	# per site: the CSV column equals trace-cmd's recount
	python3 - "$t/r.csv" "$rc" <<'PY' || fail "CSV: freed_untraced per site differs from trace-cmd"
import csv, json, re, sys
rows = [r for r in csv.reader(l for l in open(sys.argv[1]) if not l.startswith('#'))
        if r and r[0] == 'callsite']
h = rows[0]
got = {}
for r in rows[1:]:
    d = dict(zip(h, r))
    got[d['kind'] + ' ' + re.sub(r' \[.*\]$', '', d['site'])] = int(d['freed_untraced'])
rc = json.load(open(sys.argv[2]))['sites']
want = {k: v['untraced'] for k, v in rc.items() if v['allocs'] > 0}
bad = [k for k in want if got.get(k) != want[k]]
if bad:
    sys.exit('freed_untraced differs: %s' % [(k, want[k], got.get(k)) for k in bad])
print('# CSV freed_untraced = trace-cmd recount at %d sites' % len(want))
PY
	n=$(jq '[.sites[] | select(.allocs > 0 and .untraced > 0)] | length' "$rc")
	if [ "$n" -gt 0 ]; then
		grep -q '^# note: .*freed without a trace event' "$t/r.txt" ||
			fail "text: no note names the sites with untraced frees"
		grep -q '^ *untraced frees [1-9]' "$t/r.txt" ||
			grep -q ', untraced frees [1-9]' "$t/r.txt" ||
			fail "text -v: no row shows its untraced frees"
	fi
}
