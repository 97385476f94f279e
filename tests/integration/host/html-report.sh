# slabacct report --html: the pages of the memory-pressure traces of
# tests/data/report-mm (recorded in guests: pages, reclaim, compaction,
# an OOM kill, the system snapshots), of two live recordings of this host
# and of their diff. The page must embed exactly the --json model;
# headless Chromium (no network) must load it with no JavaScript error or
# console error, show one treemap tile and one table row per call site,
# zoom when a tile is clicked, and draw every section, each not empty and
# with its view (the timeline's bars, heat maps of pages, reclaim's
# latency histogram, the OOM kill, the system's tables, a diff's change
# coloured by growth; a timeline without initcall levels labels its
# shaded runs "activity runs, not boot phases"); a section the trace has no events for must fail
# that check. Screenshots of each page and of each of its sections go to
# build/test-logs/html-*/ for people to see.
. "$(dirname "$0")/../../lib.sh"
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

# the page's script is real files: they must at least parse
for js in "$TOP"/userspace/lib/emit/html/*.js; do
	node --check "$js" || fail "$js does not parse"
done

# 0. the memory-pressure traces: every section drawn
MM="timeline,live,subsys,pages,reclaim,compaction,oom,system"
for k in 6.1 6.12-cloud; do
	dat=$TEST_TMP/mm-$k.dat
	gzip -dc "$TOP/tests/data/report-mm/$k.dat.gz" >"$dat" ||
		fail "no tests/data/report-mm/$k.dat.gz"
	"$SLABACCT" report --json --what all "$dat" | jq -S . >"$TEST_TMP/mm.json" ||
		fail "report --json $k failed"
	"$SLABACCT" report --html "$TEST_TMP/mm.html" "$dat" ||
		fail "report --html $k failed"
	cmp -s "$TEST_TMP/mm.json" <(page_model "$TEST_TMP/mm.html") ||
		fail "$k: the page's model differs from --json"
	sites=$(jq '.sections.callsite.rows | map(select(.bytes_alloc > 0)) | length' \
		"$TEST_TMP/mm.json")
	cp "$TEST_TMP/mm.html" "$logs/html-mm-$k.html"
	rm -rf "$logs/html-mm-$k"
	# no initcall levels in these traces: the timeline's shaded runs
	# say they are activity runs, not boot phases
	check_page --html "$TEST_TMP/mm.html" --shot "$logs/html-mm-$k.png" \
		--tiles "$sites" --sections "$MM" --shots "$logs/html-mm-$k" \
		--expect 'activity runs, not boot phases' \
		--count '#timeline-svg rect.phase.boot=0' ||
		fail "the $k memory-pressure page failed in Chromium"
	n=$(ls "$logs/html-mm-$k"/*.png | wc -l)
	[ "$n" -ge 11 ] || fail "$k: $n section screenshots, not 11"
done
note "memory-pressure pages: every section drawn; screenshots in $logs/html-mm-*/"

# a /proc/slab_account snapshot's header: the slower-path counters of a
# newer module are shown; a file without them shows none
acc=$TOP/tests/data/slab_account/6.1.txt
sed 's/^lost_frees: .*/&\nslow_sites: 9041\nslow_objects: 37\nslow_frees: 118/' \
	"$acc" >"$TEST_TMP/slow.txt"
sl='slower path: 9,041 allocations, 37 objects, 118 frees'
"$SLABACCT" report --html "$TEST_TMP/slow.html" "$TEST_TMP/slow.txt" ||
	fail "report --html of a snapshot failed"
check_page --html "$TEST_TMP/slow.html" --shot "$TEST_TMP/slow.png" \
	--expect "$sl" >"$TEST_TMP/slow.log" ||
	fail "the snapshot's page: $(grep '^not ok' "$TEST_TMP/slow.log")"
"$SLABACCT" report --html "$TEST_TMP/acc.html" "$acc" ||
	fail "report --html of $acc failed"
check_page --html "$TEST_TMP/acc.html" --shot "$TEST_TMP/acc.png" \
	--expect 'slower path' >"$TEST_TMP/acc.log" &&
	fail "a snapshot without slow_* shows a slower path"
grep -q '^not ok the page shows "slower path"' "$TEST_TMP/acc.log" ||
	fail "the page of $acc: $(grep '^not ok' "$TEST_TMP/acc.log")"
note "a snapshot's page shows the slower path only when the file has it"

need_root

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

# 1. the page embeds the same numbers as the JSON report (every section,
# and the budget: a recording of slabacct stores its sources)
"$SLABACCT" report --json --what all,budget "$a" | jq -S . >"$TEST_TMP/a.json" ||
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
rm -rf "$logs/html-report"
# the sections this kmem-only recording has nothing for are named in one
# collapsed line, not a heading each; Subsystems too, when every group
# (by symbol, without --vmlinux) is one call site
empty=pages,reclaim,compaction,oom,vmalloc,percpu
subsys_groups=$(jq '[.sections.subsys.rows[] | select(.sites > 1)] | length' \
	"$TEST_TMP/a.json")
if [ "$subsys_groups" = 0 ]; then
	empty=$empty,subsys drawn=timeline,live
else
	drawn=timeline,live,subsys
fi
check_page --html "$TEST_TMP/a.html" --shot "$logs/html-report.png" \
	--tiles "$sites" --sections "$drawn" --empty "$empty" \
	--shots "$logs/html-report" || fail "the report page failed in Chromium"
note "sections drawn: $drawn; in the one 'Not shown' line: $empty"
# the check can fail: this recording has no page events (-e kmem)
check_page --html "$TEST_TMP/a.html" --shot "$TEST_TMP/x.png" \
	--sections pages >"$TEST_TMP/x.log" &&
	fail "a pages section without page events passed as drawn"
grep -q '^not ok section pages is drawn, not empty: not in this trace' \
	"$TEST_TMP/x.log" || fail "no page events: $(grep '^not ok' "$TEST_TMP/x.log")"

# 3. the diff of A and B: the same model as slabacct diff --all --json,
# and the two recordings' stacks for the page's differential flame graph
# (checked by host/html-flame)
"$SLABACCT" report --html "$TEST_TMP/d.html" "$a" "$b" ||
	fail "report --html OUT A B failed"
"$SLABACCT" diff --all --json "$a" "$b" | jq -S . >"$TEST_TMP/d.json"
page_model "$TEST_TMP/d.html" | jq -S 'del(.stacks)' >"$TEST_TMP/d.model.json"
cmp -s "$TEST_TMP/d.json" "$TEST_TMP/d.model.json" ||
	fail "the diff page's model differs from diff --all --json"
rows=$(jq '.rows | length' "$TEST_TMP/d.json")
cp "$TEST_TMP/d.html" "$logs/html-diff.html"
rm -rf "$logs/html-diff"
check_page --html "$TEST_TMP/d.html" --shot "$logs/html-diff.png" \
	--tiles "$rows" --sections change --shots "$logs/html-diff" ||
	fail "the diff page failed in Chromium"

# 4. one call site holding most of the bytes (a planted 683 MiB row
# in a /proc/slab_account snapshot): the treemap picks the log scale by
# itself and says why, so every site keeps a tile; the linear scale is
# one choice away
{
	sed '/^#    total/q' "$acc"
	printf '%10d %9d %10d %10d %7d %11s kmalloc huge_alloc+0x10/0x40\n' \
		716177408 0 716177408 0 0 1/1
	sed '1,/^#    total/d' "$acc"
} >"$TEST_TMP/dom.txt"
"$SLABACCT" report --html "$TEST_TMP/dom.html" "$TEST_TMP/dom.txt" ||
	fail "report --html of the dominated snapshot failed"
dsites=$("$SLABACCT" report --json "$TEST_TMP/dom.txt" |
	jq '.sections.callsite.rows | map(select(.bytes_alloc > 0)) | length')
cp "$TEST_TMP/dom.html" "$logs/html-dominant.html"
check_page --html "$TEST_TMP/dom.html" --shot "$logs/html-dominant.png" \
	--tiles "$dsites" --scale log \
	--expect 'huge_alloc+0x10/0x40 holds 99.95% of the total bytes|log2(1 + value)' ||
	fail "the page of one dominant site failed in Chromium"
"$SLABACCT" report --html "$TEST_TMP/acc2.html" "$acc" >/dev/null ||
	fail "report --html $acc"
check_page --html "$TEST_TMP/acc2.html" --shot "$TEST_TMP/acc2.png" \
	--scale linear >"$TEST_TMP/acc2.log" ||
	fail "a page without a dominant site is not on the linear scale: $(grep '^not ok' "$TEST_TMP/acc2.log")"
note "one site at 9x% of the bytes: log scale, $dsites tiles; screenshot $logs/html-dominant.png"

# 5. errors: an unwritable output, three inputs
assert_status 1 "$SLABACCT" report --html /nonexistent/x.html "$a" 2>/dev/null
assert_status 2 "$SLABACCT" report --html "$TEST_TMP/x.html" "$a" "$b" "$a" \
	2>/dev/null
note "screenshots: $logs/html-{report,diff,mm-*}.png, their sections in $logs/html-*/ (pages beside them)"
