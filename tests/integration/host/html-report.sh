# slabacct report --html: two live recordings of this host, their pages
# and their diff's page. The page must embed exactly the --json model;
# headless Chromium (no network) must load it with no JavaScript error,
# show one treemap tile and one table row per call site, and zoom when a
# tile is clicked. Screenshots go to build/test-logs/ for people to see.
. "$(dirname "$0")/../../lib.sh"
need_root
command -v chromium >/dev/null ||
	fail "chromium is not installed (scripts/install-deps installs it)"
command -v node >/dev/null || fail "node is not installed"
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

# the page's script is a real file: it must at least parse
node --check "$TOP/userspace/lib/emit/html/report.js" ||
	fail "userspace/lib/emit/html/report.js does not parse"

a=$TEST_TMP/a.dat b=$TEST_TMP/b.dat
# a workload of its own: the recorder leaves its own threads out, and an
# idle host may allocate nothing in a second
"$SLABACCT" record -o "$a" -- sh -c \
	'for i in $(seq 100); do ls -la /proc/self/ >/dev/null; done' \
	>"$TEST_TMP/rec.log" 2>&1 ||
	fail "recording A: $(cat "$TEST_TMP/rec.log")"
"$SLABACCT" record -o "$b" -- sh -c \
	'for i in $(seq 300); do cat /proc/self/status >/dev/null; done' \
	>"$TEST_TMP/rec.log" 2>&1 || fail "recording B: $(cat "$TEST_TMP/rec.log")"

# 1. the page embeds the same numbers as the JSON report
"$SLABACCT" report --json --what all "$a" | jq -S . >"$TEST_TMP/a.json" ||
	fail "report --json failed"
"$SLABACCT" report --html "$TEST_TMP/a.html" "$a" 2>"$TEST_TMP/a.err" ||
	fail "report --html failed: $(cat "$TEST_TMP/a.err")"
# stderr is no terminal here: no progress bar, nothing at all
[ -s "$TEST_TMP/a.err" ] && fail "report wrote to stderr: $(cat "$TEST_TMP/a.err")"
page_model "$TEST_TMP/a.html" >"$TEST_TMP/a.model.json" ||
	fail "no JSON model in the page"
cmp -s "$TEST_TMP/a.json" "$TEST_TMP/a.model.json" ||
	fail "the page's model differs from --json: $(diff "$TEST_TMP/a.json" "$TEST_TMP/a.model.json" | head -20)"
note "the page embeds the --json model ($(wc -c <"$TEST_TMP/a.json") bytes)"
grep -Eq '<(script|link|img|iframe)[^>]* (src|href)=' "$TEST_TMP/a.html" &&
	fail "the page references an external resource"

# 2. Chromium: no errors, one tile per call site, a click zooms
sites=$(jq '.sections.callsite.rows | map(select(.bytes_alloc > 0)) | length' \
	"$TEST_TMP/a.json")
[ "$sites" -gt 1 ] || fail "the recording has $sites call sites"
cp "$TEST_TMP/a.html" "$logs/html-report.html"
check_page --html "$TEST_TMP/a.html" --shot "$logs/html-report.png" \
	--tiles "$sites" || fail "the report page failed in Chromium"

# 3. the diff of A and B: the same model as slabacct diff --all --json
"$SLABACCT" report --html "$TEST_TMP/d.html" "$a" "$b" ||
	fail "report --html OUT A B failed"
"$SLABACCT" diff --all --json "$a" "$b" | jq -S . >"$TEST_TMP/d.json"
page_model "$TEST_TMP/d.html" >"$TEST_TMP/d.model.json"
cmp -s "$TEST_TMP/d.json" "$TEST_TMP/d.model.json" ||
	fail "the diff page's model differs from diff --all --json"
rows=$(jq '.rows | length' "$TEST_TMP/d.json")
cp "$TEST_TMP/d.html" "$logs/html-diff.html"
check_page --html "$TEST_TMP/d.html" --shot "$logs/html-diff.png" \
	--tiles "$rows" || fail "the diff page failed in Chromium"

# 4. errors: an unwritable output, three inputs
assert_status 1 "$SLABACCT" report --html /nonexistent/x.html "$a" 2>/dev/null
assert_status 2 "$SLABACCT" report --html "$TEST_TMP/x.html" "$a" "$b" "$a" \
	2>/dev/null
note "screenshots: $logs/html-report.png $logs/html-diff.png (pages beside them)"
