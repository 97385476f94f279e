# slabacct merge --html: the page of a merge of the small traces and
# /proc/slab_account snapshots of tests/data (one trace with 9 lost
# events) must embed exactly the model of merge --json, be what
# --format html -o writes, mode 0600; headless Chromium (no network) must
# load it with no JavaScript or console error and draw every section of
# a merge (runs, totals, spread, sites), each not empty and with its
# view: one table row per run and per site, the lost events' sum, the
# model's figures in the cells, min-median-max bars. A site and a file
# name that carry "</script>" and "<img onerror>" must reach the page as
# text, never as markup; the same page with its '<' left unescaped must
# fail that check. Screenshots of the page and of each section go to
# build/test-logs/html-merge*/ for people to see.
. "$(dirname "$0")/../../lib.sh"
[ -x "$SLABACCT" ] || fail "build/slabacct is missing (make all)"
command -v chromium >/dev/null ||
	fail "chromium is not installed (scripts/install-deps installs it)"
command -v node >/dev/null || fail "node is not installed"
command -v jq >/dev/null || fail "jq is not installed"
logs=$TOP/build/test-logs
mkdir -p "$logs"
check_page() {
	node "$TOP/tests/browser/check-page.mjs" "$@"
}
# The model embedded in a page, as sorted JSON
page_model() {
	node -e '
		const s = require("fs").readFileSync(process.argv[1], "utf8");
		const m = /<script type="application\/json" id="sa-model">([^]*?)<\/script>/.exec(s);
		if (!m) { console.error("no model in the page"); process.exit(1); }
		process.stdout.write(JSON.stringify(JSON.parse(m[1])));
	' "$1" | jq -S .
}
# A number as the page shows it exactly (a cell's title): 1,234,567
commas() {
	python3 -c 'import sys; print(f"{int(sys.argv[1]):,}")' "$1"
}
cd "$TOP/tests/data" || fail "no tests/data"
t1=report/tc-6.1.dat t2=report/tc-6.12.dat small=tracedat/small.dat
a1=slab_account/6.1.txt a2=slab_account/6.12-cloud.txt
runs=("$t1" "$t2" "$a1" "$small" "$a2" "$t1")

# 1. the page embeds merge --json's model, value for value
"$SLABACCT" merge --json "${runs[@]}" | jq -S . >"$TEST_TMP/m.json" ||
	fail "merge --json failed"
"$SLABACCT" merge --html "$TEST_TMP/m.html" "${runs[@]}" 2>"$TEST_TMP/err" ||
	fail "merge --html failed: $(cat "$TEST_TMP/err")"
[ -s "$TEST_TMP/err" ] && fail "merge --html wrote to stderr: $(cat "$TEST_TMP/err")"
page_model "$TEST_TMP/m.html" >"$TEST_TMP/m.model.json" ||
	fail "no JSON model in the page"
cmp -s "$TEST_TMP/m.json" "$TEST_TMP/m.model.json" ||
	fail "the page's model differs from merge --json: $(diff "$TEST_TMP/m.json" "$TEST_TMP/m.model.json" | head -20)"
assert_eq "the page's lost events" 9 "$(jq '.lost.events' "$TEST_TMP/m.model.json")"
assert_eq "mode of the page" 600 "$(stat -c %a "$TEST_TMP/m.html")"
"$SLABACCT" merge --format html -o "$TEST_TMP/f.html" "${runs[@]}" ||
	fail "merge --format html -o failed"
cmp -s "$TEST_TMP/m.html" "$TEST_TMP/f.html" ||
	fail "--format html -o and --html write different pages"
grep -Eq '<(script|link|img|iframe)[^>]* (src|href)=' "$TEST_TMP/m.html" &&
	fail "the page references an external resource"
grep -q '<title>slabacct merge</title>' "$TEST_TMP/m.html" ||
	fail "the page's title is not slabacct merge"
# by function and cut by --top: still the model of --json
"$SLABACCT" merge --by function --top 5 --json "${runs[@]}" |
	jq -S . >"$TEST_TMP/t.json"
"$SLABACCT" merge --by function --top 5 --html "$TEST_TMP/t.html" "${runs[@]}" ||
	fail "merge --by function --top 5 --html failed"
cmp -s "$TEST_TMP/t.json" <(page_model "$TEST_TMP/t.html") ||
	fail "--by function --top 5: the page's model differs from --json"
[ "$(jq .rows_hidden "$TEST_TMP/t.json")" -gt 0 ] || fail "--top 5 hid no row"
note "the pages embed merge --json's model ($(jq '.rows | length' "$TEST_TMP/m.json") sites, 6 runs)"

# 2. Chromium: every section of a merge drawn, with the model's figures
nruns=${#runs[@]}
rows=$(jq '.rows | length' "$TEST_TMP/m.json")
top=$(jq '[.rows[] | select(.bytes_alloc.max > 0)] | length | if . > 20 then 20 else . end' \
	"$TEST_TMP/m.json")
bsum=$(commas "$(jq '.totals.bytes_alloc.sum' "$TEST_TMP/m.json")")
bmed=$(commas "$(jq '.totals.bytes_alloc.median' "$TEST_TMP/m.json")")
site0=$(jq -r '.rows[0].site' "$TEST_TMP/m.json")
s0sum=$(commas "$(jq '.rows[0].bytes_alloc.sum' "$TEST_TMP/m.json")")
s0max=$(commas "$(jq '.rows[0].bytes_alloc.max' "$TEST_TMP/m.json")")
s0runs=$(jq '.rows[0].runs' "$TEST_TMP/m.json")
count="#merge-runs tbody tr=$nruns|#merge-sites tbody tr=$rows"
count+="|.spreads .spread=$top|#merge-totals tbody tr=7"
count+="|#merge-runs td.lost=1"
count+="|#merge-totals tbody tr:first-child td:nth-child(2)[title=\"$bsum\"]=1"
count+="|#merge-totals tbody tr:first-child td:nth-child(4)[title=\"$bmed\"]=1"
count+="|#merge-sites tbody tr:first-child td:nth-child(4)[title=\"$s0sum\"]=1"
count+="|#merge-sites tbody tr:first-child td:nth-child(7)[title=\"$s0max\"]=1"
count+="|#sec-treemap:not([hidden])=0|#sec-table:not([hidden])=0"
cp "$TEST_TMP/m.html" "$logs/html-merge.html"
rm -rf "$logs/html-merge"
check_page --html "$TEST_TMP/m.html" --shot "$logs/html-merge.png" \
	--tiles 0 --sections runs,totals,spread,sites --count "$count" \
	--expect "slabacct merge: 6 runs|lost events: 9 over the runs|$site0|$s0runs of 6|9 (the sum over the runs)" \
	--shots "$logs/html-merge" || fail "the merge page failed in Chromium"
n=$(ls "$logs/html-merge"/*.png | wc -l)
[ "$n" -eq 5 ] || fail "$n section screenshots, not 5 (the header and 4)"
# the check can fail: a page whose model is not a merge draws none of it
"$SLABACCT" report --html "$TEST_TMP/r.html" "$t1" || fail "report --html failed"
check_page --html "$TEST_TMP/r.html" --shot "$TEST_TMP/x.png" \
	--sections runs >"$TEST_TMP/x.log" &&
	fail "a report's page passed as a merge's"
grep -q '^not ok section runs is on the page' "$TEST_TMP/x.log" ||
	fail "a report's page: $(grep '^not ok' "$TEST_TMP/x.log")"

# A merge of 4 runs of one machine: spreads are drawn relative to each
# site's own median, so a 10% swing of one site shows as -10%..+10%
# whatever its size, and the sites that did not move show no bar width
row='sa_test_kmalloc_loop+0x31/0x60 \[sa_test\]'
sed "s|^ *128000 *28000 *100000 \(.*$row\)|    140800     30800     110000 \1|" \
	"$a1" >"$TEST_TMP/up.txt"
sed "s|^ *128000 *28000 *100000 \(.*$row\)|    115200     25200      90000 \1|" \
	"$a1" >"$TEST_TMP/down.txt"
cmp -s "$a1" "$TEST_TMP/up.txt" && fail "the +10% run is not changed"
"$SLABACCT" merge --html "$TEST_TMP/m4.html" "$a1" "$TEST_TMP/up.txt" "$a1" \
	"$TEST_TMP/down.txt" || fail "merge --html of 4 runs failed"
"$SLABACCT" merge --json "$a1" "$TEST_TMP/up.txt" "$a1" "$TEST_TMP/down.txt" \
	>"$TEST_TMP/m4.json" || fail "merge --json of 4 runs failed"
moved=$(jq '[.rows[] | select(.bytes_alloc.min != .bytes_alloc.max)] | length' \
	"$TEST_TMP/m4.json")
assert_eq "sites that moved over the 4 runs" 1 "$moved"
n4=$(jq '[.rows[] | select(.bytes_alloc.max > 0)] | length | if . > 20 then 20 else . end' \
	"$TEST_TMP/m4.json")
sp='.spreads .spread .range'
count4="$sp[data-lo=\"-0.1\"][data-hi=\"0.1\"]=1|$sp[data-lo=\"0\"][data-hi=\"0\"]=$((n4 - 1))"
count4+="|#merge-sites .spread .range[data-lo=\"-0.1\"][data-hi=\"0.1\"]=1"
check_page --html "$TEST_TMP/m4.html" --shot "$logs/html-merge4.png" \
	--tiles 0 --sections runs,totals,spread,sites --count "$count4" \
	--expect $'\u221210%|+10%|median' --shots "$logs/html-merge4" \
	>"$TEST_TMP/m4.log" ||
	fail "the 4-run merge page: $(grep '^not ok' "$TEST_TMP/m4.log")"
note "4 runs: the site that moved 10% spans -10%..+10% of its median; $((n4 - 1)) others none"

# 3. hostile strings: a caller whose module is markup, a file named so
evil_mod='</script><img src=x onerror=console.error("site-ran")>'
evil_file='<img src=y onerror=console.error("file-ran")>.txt'
{
	sed -n '1,/^#  *total/p' "$a1"
	printf '    128000     28000     100000      89600     700      1000/300       kmalloc evil+0x1/0x2 [%s]\n' \
		"$evil_mod"
} >"$TEST_TMP/$evil_file"
"$SLABACCT" merge --json "$t1" "$TEST_TMP/$evil_file" | jq -S . >"$TEST_TMP/e.json" ||
	fail "merge --json of the hostile snapshot failed"
evil_site="evil+0x1 [$evil_mod]"
[ "$(jq -r --arg s "$evil_site" '[.rows[] | select(.site == $s)] | length' \
	"$TEST_TMP/e.json")" = 1 ] || fail "the hostile site is not in the merge"
"$SLABACCT" merge --html "$TEST_TMP/e.html" "$t1" "$TEST_TMP/$evil_file" ||
	fail "merge --html of the hostile snapshot failed"
cmp -s "$TEST_TMP/e.json" <(page_model "$TEST_TMP/e.html") ||
	fail "hostile: the page's model differs from --json"
# in the file: no markup of the data, only its escaped text
grep -qF '</script><img' "$TEST_TMP/e.html" && fail "the site ends the model element"
grep -qiF '<img' "$TEST_TMP/e.html" && fail "an <img> tag is in the page"
cp "$TEST_TMP/e.html" "$logs/html-merge-hostile.html"
check_page --html "$TEST_TMP/e.html" --shot "$logs/html-merge-hostile.png" \
	--tiles 0 --sections runs,sites --count 'img=0|script=2' \
	--expect "$evil_site|$TEST_TMP/$evil_file" >"$TEST_TMP/e.log" ||
	fail "the hostile page failed in Chromium: $(grep '^not ok' "$TEST_TMP/e.log")"
# the check can fail: the same page with the model's '<' left raw
sed 's/\\u003c/</g' "$TEST_TMP/e.html" >"$TEST_TMP/raw.html"
check_page --html "$TEST_TMP/raw.html" --shot "$TEST_TMP/raw.png" \
	--tiles 0 --sections runs,sites --count 'img=0|script=2' \
	--expect "$evil_site" >"$TEST_TMP/raw.log" &&
	fail "a page with the site's markup raw passed"
grep -q '^not ok' "$TEST_TMP/raw.log" || fail "the raw page: no check failed"
note "hostile site and file name: shown as text; raw, the check fails ($(grep -c '^not ok' "$TEST_TMP/raw.log") checks)"

# 4. errors: --html with another output or format, a bad format, an
# unwritable output
for bad in "-o $TEST_TMP/x" "--json" "--csv" "--format text"; do
	# shellcheck disable=SC2086
	"$SLABACCT" merge --html "$TEST_TMP/x.html" $bad "$t1" >/dev/null 2>"$TEST_TMP/err"
	assert_eq "merge --html with $bad: status" 2 "$?"
	grep -q 'not with -o, --json, --csv or another --format' "$TEST_TMP/err" ||
		fail "$(cat "$TEST_TMP/err")"
done
[ -e "$TEST_TMP/x.html" ] && fail "a refused merge --html wrote its page"
"$SLABACCT" merge --html "$TEST_TMP/x.html" --format html "$t1" ||
	fail "merge --html with --format html failed"
assert_status 2 "$SLABACCT" merge --format bogus "$t1" 2>/dev/null
assert_status 1 "$SLABACCT" merge --html /nonexistent/x.html "$t1" 2>/dev/null
note "screenshots: $logs/html-merge.png, its sections in $logs/html-merge/"
exit 0
