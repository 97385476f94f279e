#!/bin/bash
# slabacct reads /proc/allocinfo as the kernel wrote it, in every format:
# on two captures of the 6.12 allocation-profiling kernel
# (tests/data/allocinfo/: after slab_account.ko and sa_test.ko were
# loaded, and after sa_test's known load), the rows of report --json,
# --csv and text, account --json and the HTML page's model must equal an
# awk reading of the file itself (sites summed, nothing-live sites left
# out), and diff of the two must equal the difference of those readings.
# Damaged input fails with its line and column; an allocinfo snapshot is
# not compared with a trace or a /proc/slab_account snapshot.
. "$(dirname "$0")/../../lib.sh"
[ -x "$SLABACCT" ] || fail "build/slabacct is missing (make all)"
export LC_ALL=C
d=$TOP/tests/data/allocinfo
A=$d/6.12-slabacct.before.txt B=$d/6.12-slabacct.after.txt
[ -f "$A" ] && [ -f "$B" ] || fail "no captures in $d"

# awk_sites FILE: "function module file line calls bytes" per site with
# something live, repeated tags summed, sorted: the referee
awk_sites() {
	awk 'NR > 2 && NF {
		mod = "-"; f = $4
		if ($4 ~ /^\[.*\]$/) { mod = substr($4, 2, length($4) - 2); f = $5 }
		fn = substr(f, 6); loc = $3; sub(/:[0-9]+$/, "", loc)
		line = substr($3, length(loc) + 2)
		k = fn " " mod " " loc " " line; c[k] += $2; b[k] += $1
	} END { for (k in c) if (c[k] || b[k]) print k, c[k], b[k] }' "$1" | sort
}
# json_sites: the same from report --json (or a page's model) on stdin
json_sites() {
	jq -r '.sections.callsite.rows[] | [.function, (.module // "-"), .file,
		.line, .live, .live_bytes] | map(tostring) | join(" ")' | sort
}
for f in "$A" "$B"; do
	b=${f##*/}
	awk_sites "$f" >"$TEST_TMP/$b.want"
	[ -s "$TEST_TMP/$b.want" ] || fail "$b: no live site read"
	"$SLABACCT" report --json "$f" | json_sites >"$TEST_TMP/$b.json" ||
		fail "$b: report --json failed"
	cmp -s "$TEST_TMP/$b.want" "$TEST_TMP/$b.json" ||
		fail "$b: report --json differs from the file: $(diff "$TEST_TMP/$b.want" "$TEST_TMP/$b.json" | head -5)"
	"$SLABACCT" report --csv "$f" | python3 -c '
import csv, sys
rows = list(csv.reader(l for l in sys.stdin if not l.startswith("#")))
head = next(r for r in rows if r[:2] == ["callsite", "kind"])
for r in rows:
    if r and r[0] == "callsite" and r != head:
        d = dict(zip(head, r))
        assert d["kind"] == "any" and d["allocs"] == "" and d["bytes_req"] == "", d
        print(d["function"], d["module"] or "-", d["file"], d["line"],
              d["live"], d["live_bytes"])
' | sort >"$TEST_TMP/$b.csv" || fail "$b: report --csv failed"
	cmp -s "$TEST_TMP/$b.want" "$TEST_TMP/$b.csv" ||
		fail "$b: report --csv differs from the file"
	"$SLABACCT" account --json "$f" | jq -r '.rows[] |
		[.function, (.module // "-"), .file, .line, .calls, .bytes] |
		map(tostring) | join(" ")' | awk '$5 != 0 || $6 != 0' |
		sort >"$TEST_TMP/$b.acct"
	# account keeps every tag: sum the repeated ones as the report does
	awk '{ k = $1 " " $2 " " $3 " " $4; c[k] += $5; b[k] += $6 }
		END { for (k in c) if (c[k] || b[k]) print k, c[k], b[k] }' \
		"$TEST_TMP/$b.acct" | sort >"$TEST_TMP/$b.acct.sum"
	cmp -s "$TEST_TMP/$b.want" "$TEST_TMP/$b.acct.sum" ||
		fail "$b: account --json differs from the file"
	# text: the totals line
	want_total=$(awk '{ c += $5 } END { print c }' "$TEST_TMP/$b.want")
	"$SLABACCT" report "$f" >"$TEST_TMP/$b.txt" || fail "$b: report failed"
	grep -q "^# live .* in $want_total allocations at $(wc -l <"$TEST_TMP/$b.want") sites$" \
		"$TEST_TMP/$b.txt" || fail "$b: text totals: $(grep '^# live' "$TEST_TMP/$b.txt")"
	note "$b: $(wc -l <"$TEST_TMP/$b.want") live sites read as written, in JSON, CSV, text and account"
done

# diff: the change of each site, as the two readings say
join -a1 -a2 -e 0 -o 0,1.2,1.3,2.2,2.3 \
	<(awk '{ print $1 "|" $2 "|" $3 "|" $4, $5, $6 }' "$TEST_TMP/${A##*/}.want" | sort) \
	<(awk '{ print $1 "|" $2 "|" $3 "|" $4, $5, $6 }' "$TEST_TMP/${B##*/}.want" | sort) |
	awk '$2 != $4 || $3 != $5 { split($1, k, "|")
		site = k[1] " " k[3] ":" k[4] (k[2] == "-" ? "" : " [" k[2] "]")
		print site "|" $4 - $2 "|" $5 - $3 }' | sort >"$TEST_TMP/diff.want"
"$SLABACCT" diff --json "$A" "$B" | jq -r '.rows[] |
	"\(.site)|\(.d_live)|\(.d_live_bytes)"' | sort >"$TEST_TMP/diff.got" ||
	fail "diff --json failed"
cmp -s "$TEST_TMP/diff.want" "$TEST_TMP/diff.got" ||
	fail "diff differs from the files: $(diff "$TEST_TMP/diff.want" "$TEST_TMP/diff.got" | head -5)"
grep -q '^sa_test_kmalloc_loop .*\[sa_test\]|700|' "$TEST_TMP/diff.got" ||
	fail "the diff has no sa_test_kmalloc_loop row of 700 allocations"
note "diff: $(wc -l <"$TEST_TMP/diff.got") changed sites, as the files say"

# the HTML page embeds the same rows, and loads in Chromium
if command -v chromium >/dev/null && command -v node >/dev/null; then
	logs=$TOP/build/test-logs
	mkdir -p "$logs"
	"$SLABACCT" report --html "$TEST_TMP/b.html" "$B" || fail "report --html failed"
	node -e '
		const s = require("fs").readFileSync(process.argv[1], "utf8");
		const m = /<script type="application\/json" id="sa-model">([^]*?)<\/script>/.exec(s);
		process.stdout.write(m[1]);
	' "$TEST_TMP/b.html" | json_sites >"$TEST_TMP/b.model"
	cmp -s "$TEST_TMP/${B##*/}.want" "$TEST_TMP/b.model" ||
		fail "the page's model differs from the file"
	node "$TOP/tests/browser/check-page.mjs" --html "$TEST_TMP/b.html" \
		--shot "$logs/html-allocinfo.png" \
		--tiles "$(wc -l <"$TEST_TMP/${B##*/}.want")" \
		--expect 'a /proc/allocinfo snapshot|sa_test_kmalloc_loop' \
		--column 'live allocations' >"$TEST_TMP/page.log" 2>&1 ||
		{ cat "$TEST_TMP/page.log"; fail "the allocinfo page did not check out"; }
	"$SLABACCT" diff --format html -o "$TEST_TMP/d.html" "$A" "$B" ||
		fail "diff --format html failed"
	node "$TOP/tests/browser/check-page.mjs" --html "$TEST_TMP/d.html" \
		--shot "$logs/html-allocinfo-diff.png" --diff 1 \
		--tiles "$(wc -l <"$TEST_TMP/diff.got")" \
		--expect 'live allocations|sa_test_kmalloc_loop' \
		>"$TEST_TMP/page.log" 2>&1 ||
		{ cat "$TEST_TMP/page.log"; fail "the allocinfo diff page did not check out"; }
	note "the report's and the diff's pages load, one tile per site"
else
	fail "chromium and node are needed (scripts/install-deps installs them)"
fi

# the /proc/slab_account layout needs totals allocinfo does not have
"$SLABACCT" report --format account "$B" >/dev/null 2>"$TEST_TMP/err"
assert_eq "exit status of --format account of allocinfo" 2 $?
grep -q "live figures only" "$TEST_TMP/err" || fail "--format account: $(cat "$TEST_TMP/err")"

# nor do the metrics formats, merge, or the JSON of an allocinfo report
# read as a diff side: each says so
for f in openmetrics prometheus; do
	"$SLABACCT" report --format $f "$B" >/dev/null 2>"$TEST_TMP/err"
	assert_eq "exit status of report --format $f of allocinfo" 2 $?
	"$SLABACCT" account --format $f "$B" >/dev/null 2>"$TEST_TMP/err"
	assert_eq "exit status of account --format $f of allocinfo" 2 $?
done
"$SLABACCT" merge "$A" "$B" >/dev/null 2>"$TEST_TMP/err"
assert_eq "exit status of merge of allocinfo" 1 $?
grep -q "live bytes and allocations only" "$TEST_TMP/err" || fail "merge: $(cat "$TEST_TMP/err")"
"$SLABACCT" report --json "$B" >"$TEST_TMP/b.json"
"$SLABACCT" account --json "$B" >"$TEST_TMP/b.acct.json"
for j in b.json b.acct.json; do
	"$SLABACCT" diff "$TEST_TMP/$j" "$TOP/tests/data/slab_account/6.1.txt" \
		>/dev/null 2>"$TEST_TMP/err"
	assert_eq "exit status of diff of allocinfo's $j" 1 $?
	grep -q "the JSON of a /proc/allocinfo snapshot" "$TEST_TMP/err" ||
		fail "diff of $j: $(cat "$TEST_TMP/err")"
done

# damaged input: the error names the file, line and column; exit 1
sed '5s/func:/fnc:/' "$B" >"$TEST_TMP/bad.txt"
"$SLABACCT" report "$TEST_TMP/bad.txt" >/dev/null 2>"$TEST_TMP/err"
assert_eq "exit status of a damaged allocinfo" 1 $?
grep -q "bad.txt: line 5, column [0-9]*: expected func:FUNCTION" "$TEST_TMP/err" ||
	fail "damaged allocinfo: $(cat "$TEST_TMP/err")"
"$SLABACCT" diff "$B" "$TOP/tests/data/slab_account/6.12-cloud.txt" \
	>/dev/null 2>"$TEST_TMP/err"
assert_eq "exit status of allocinfo against slab_account" 1 $?
grep -q "is a /proc/allocinfo snapshot and .* is not" "$TEST_TMP/err" ||
	fail "mixed diff: $(cat "$TEST_TMP/err")"
note "damage and mixed inputs are refused, saying where and why"
