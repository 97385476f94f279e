# record --call-site F keeps the allocations made at F, and every free:
# a free carries the call site of the function that frees, so filtering
# frees by F would drop them all and leave the report with 0 frees. The
# report's allocs and frees for F must equal a recount from trace-cmd's
# decoding of the same file (allocations at F; frees of a pointer F
# allocated and not yet freed), and the origin and notes say what the
# filter implies.
. "$(dirname "$0")/../../lib.sh"
need_root
command -v trace-cmd >/dev/null || fail "trace-cmd is not installed (scripts/install-deps)"
command -v jq >/dev/null || fail "jq is not installed (scripts/install-deps)"

work='for i in $(seq 200); do cat /proc/self/status /proc/meminfo >/dev/null; done'

# fields: "alloc|free FUNC PTR" per kmalloc/kmem_cache_* event
events() {
	trace-cmd report "$1" 2>/dev/null | awk '
	/ (kmalloc|kmem_cache_alloc|kfree|kmem_cache_free): / {
		site = ""; ptr = ""
		for (i = 1; i <= NF; i++) {
			if ($i ~ /^call_site=/) site = substr($i, 11)
			if ($i ~ /^ptr=/) ptr = substr($i, 5)
		}
		sub(/\+.*/, "", site)
		kind = /(kfree|kmem_cache_free): / ? "free" : "alloc"
		print kind, site, ptr
	}'
}

# A kmem_cache site whose objects another function frees, found in an
# unfiltered recording of the workload (the exact symbol must be in
# kallsyms, as --call-site looks it up there)
"$SLABACCT" record --no-snapshot -o "$TEST_TMP/all.dat" -- bash -c "$work" \
	>"$TEST_TMP/all.out" 2>&1 || fail "record failed: $(cat "$TEST_TMP/all.out")"
site=$(events "$TEST_TMP/all.dat" | awk '
	$1 == "alloc" { owner[$3] = $2; next }
	($3 in owner) { if (owner[$3] != $2) n[owner[$3]]++; delete owner[$3] }
	END { for (f in n) if (n[f] >= 50) print n[f], f }' | sort -rn |
	while read -r n f; do
		grep -q " [tT] $f\$" /proc/kallsyms && { echo "$f"; break; }
	done)
[ -n "$site" ] || fail "no call site with 50 frees by another function in the workload"
note "call site: $site"

"$SLABACCT" record --no-snapshot --call-site "$site" -o "$TEST_TMP/site.dat" -- \
	bash -c "$work" >"$TEST_TMP/site.out" 2>&1 ||
	fail "record --call-site failed: $(cat "$TEST_TMP/site.out")"
events "$TEST_TMP/site.dat" >"$TEST_TMP/site.ev"
bad=$(awk -v f="$site" '$1 == "alloc" && $2 != f' "$TEST_TMP/site.ev" | head -3)
[ -z "$bad" ] || fail "--call-site let through allocations of other sites: $bad"
read -r allocs frees <<<"$(awk -v f="$site" '
	$1 == "alloc" { a++; live[$3] = 1; next }
	($3 in live) { fr++; delete live[$3] }
	END { print a + 0, fr + 0 }' "$TEST_TMP/site.ev")"
note "trace-cmd: $allocs allocations at $site, $frees of them freed"
[ "$frees" -gt 0 ] || fail "no free of $site's objects was recorded"

"$SLABACCT" report --json "$TEST_TMP/site.dat" >"$TEST_TMP/site.json" ||
	fail "report failed"
got=$(jq -r --arg f "$site" '[.sections.callsite.rows[] | select(.function == $f)] |
	"\(map(.allocs) | add // 0) \(map(.frees) | add // 0)"' "$TEST_TMP/site.json")
assert_eq "report allocs and frees of $site" "$allocs $frees" "$got"

# The origin says how the trace was filtered, and a note what it implies,
# in every format
"$SLABACCT" report "$TEST_TMP/site.dat" >"$TEST_TMP/site.txt"
grep -q "^# filter: .*call site $site" "$TEST_TMP/site.txt" ||
	fail "the text origin does not name the filter: $(grep '^#' "$TEST_TMP/site.txt")"
grep -q "^# note: .*--call-site" "$TEST_TMP/site.txt" ||
	fail "no note on what --call-site implies"
jq -e '.origin.filter | test("call site")' "$TEST_TMP/site.json" >/dev/null ||
	fail "the JSON origin does not name the filter"
jq -e '[.notes[] | select(test("--call-site"))] | length == 1' "$TEST_TMP/site.json" >/dev/null ||
	fail "no JSON note on what --call-site implies"
"$SLABACCT" report --csv "$TEST_TMP/site.dat" >"$TEST_TMP/site.csv"
grep -q "^# filter: .*call site $site" "$TEST_TMP/site.csv" &&
	grep -q "^# note: .*--call-site" "$TEST_TMP/site.csv" ||
	fail "the CSV origin does not name the filter and its note"
"$SLABACCT" report --html "$TEST_TMP/site.html" "$TEST_TMP/site.dat" >/dev/null &&
	grep -q "'filter'" "$TEST_TMP/site.html" ||
	fail "the HTML page does not show the filter"
