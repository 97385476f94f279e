#!/bin/bash
# slabacct report and diff on the small recorded traces in
# tests/data/report/: every output format compared with its golden file,
# the same figures with one reader thread and with two, and the trace-cmd
# cross-check (the kmem figures recomputed from `trace-cmd report` text).
#
# Regenerate the golden files after an intended change with
#   UPDATE=1 tests/integration/host/report-golden.sh
. "$(dirname "$0")/../../lib.sh"

data=$TOP/tests/data/report
gold=$data/golden
# the sections this test owns (others have their own golden tests)
MINE=callsite,live,subsys,timeline
[ -x "$SLABACCT" ] || fail "build/slabacct is missing (make all)"
cd "$data" || fail "no $data"

# name | arguments (the trace file comes last)
cases=(
	"text|"
	"verbose|-v --what $MINE"
	"json|--json --what $MINE --objects"
	"csv|--csv --what $MINE --objects"
	"account|--format account"
	"bycache|--by cache --sort slack,bytes"
	"top|--sort hits --top 3 --min-bytes 64"
	"timeline|--what timeline --interval 1ms"
	"livetop|--what live --objects --top 2"
	"bywrapper|--by wrapper --width 0"
	"bystack|--by stack --stack-depth 2 --width 0 --json --what callsite"
	"folded|--folded --sort live"
)
n=0
for dat in *.dat; do
	base=${dat%.dat}
	for c in "${cases[@]}"; do
		name=${c%%|*} args=${c#*|}
		out=$TEST_TMP/$base.$name
		# shellcheck disable=SC2086
		"$SLABACCT" report $args "$dat" >"$out" 2>"$out.err" ||
			fail "report $args $dat exited $?: $(cat "$out.err")"
		if [ "${UPDATE:-0}" = 1 ]; then
			cp "$out" "$gold/$base.$name"
		else
			[ -f "$gold/$base.$name" ] || fail "no golden file $gold/$base.$name"
			diff -u "$gold/$base.$name" "$out" >&2 ||
				fail "$dat $args: output differs from golden/$base.$name"
		fi
		n=$((n + 1))
	done
	# --top keeps the first N live sites and objects and counts the rest
	"$SLABACCT" report --json --what live --objects --top 2 "$dat" |
		python3 -c '
import json, sys
l = json.load(sys.stdin)["sections"]["live"]
t = l["totals"]
assert len(l["rows"]) == min(2, t["sites"]), l["rows"]
assert len(l["rows"]) + l["rows_hidden"] == t["sites"]
assert len(l["objects"]) == min(2, t["live"])
assert len(l["objects"]) + l["objects_hidden"] == t["live"]
ages = [o["age_ns"] for o in l["objects"]]
assert ages == sorted(ages, reverse=True)' || fail "$dat: live --objects --top 2"

	# one reader thread and two give the same report
	"$SLABACCT" report --json --what $MINE --threads 1 "$dat" >"$TEST_TMP/t1"
	"$SLABACCT" report --json --what $MINE --threads 2 "$dat" >"$TEST_TMP/t2"
	cmp -s "$TEST_TMP/t1" "$TEST_TMP/t2" || fail "$dat: --threads 1 and 2 differ"
	# the pages walked in place and libtracecmd's iterator agree
	"$SLABACCT" report --json --what $MINE --threads 1 --libtracecmd "$dat" \
		>"$TEST_TMP/t3"
	cmp -s "$TEST_TMP/t1" "$TEST_TMP/t3" || fail "$dat: --libtracecmd differs"
	# and a compressed version 7 copy of the file reads the same
	if command -v trace-cmd >/dev/null; then
		trace-cmd convert --file-version 7 --compression any -i "$dat" \
			-o "$TEST_TMP/v7.dat" >/dev/null 2>&1 ||
			fail "trace-cmd convert of $dat failed"
		"$SLABACCT" report --json --what $MINE --threads 1 "$TEST_TMP/v7.dat" |
			grep -v '"file"' >"$TEST_TMP/t4"
		grep -v '"file"' "$TEST_TMP/t1" | cmp -s - "$TEST_TMP/t4" ||
			fail "$dat: its version 7 copy reads differently"
	fi

	# the JSON is valid and carries schema_version and lost events
	python3 - "$TEST_TMP/t1" <<'PY' || fail "$dat: JSON checks failed"
import json, sys
j = json.load(open(sys.argv[1]))
assert j["schema_version"] == 1
assert "lost" in j and "events" in j["lost"]
assert {"callsite", "live", "subsys", "timeline"} <= set(j["sections"])
PY

	# trace-cmd cross-check: per kind, allocs and bytes from its text
	if command -v trace-cmd >/dev/null; then
		want=$(trace-cmd report "$dat" 2>/dev/null | awk '
			/ kmalloc: / { k++; for (i = 1; i <= NF; i++) {
				if ($i ~ /^ptr=/ && $i == "ptr=(nil)") skipk = 1
				if ($i ~ /^bytes_alloc=/) { split($i, a, "="); kb_ = a[2] } }
				if (!skipk) { ka++; kb += kb_ } skipk = 0 }
			/ kmem_cache_alloc: / { for (i = 1; i <= NF; i++) {
				if ($i == "ptr=(nil)") skipc = 1
				if ($i ~ /^bytes_alloc=/) { split($i, a, "="); cb_ = a[2] } }
				if (!skipc) { ca++; cb += cb_ } skipc = 0 }
			END { printf "%d %d %d %d\n", ka, kb, ca, cb }')
		got=$(python3 -c '
import json, sys
t = json.load(open(sys.argv[1]))["sections"]["callsite"]["totals"]
print(t["kmalloc"]["allocs"], t["kmalloc"]["bytes_alloc"],
      t["cache"]["allocs"], t["cache"]["bytes_alloc"])' "$TEST_TMP/t1")
		assert_eq "$dat: kmalloc allocs, bytes, cache allocs, bytes vs trace-cmd" "$want" "$got"
		# memcg charges per site: the "accounted=" libtraceevent
		# prints (a field, or computed from gfp_flags by the format)
		trace-cmd report "$dat" 2>/dev/null | python3 -c '
import json, re, subprocess, sys
want = {}
for l in sys.stdin:
    m = re.search(r" (kmalloc|kmalloc_node|kmem_cache_alloc|kmem_cache_alloc_node): .*call_site=(\S+) ptr=(\S+).* bytes_alloc=(\d+).* accounted=(\w+)", l)
    if not m or m.group(3) == "(nil)":
        continue
    kind = "kmalloc" if m.group(1).startswith("kmalloc") else "cache"
    k = kind + " " + m.group(2).split("/")[0]
    n = want.setdefault(k, [0, 0])
    if m.group(5) == "true":
        n[0] += 1
        n[1] += int(m.group(4))
out = subprocess.run([sys.argv[1], "report", "--json", "--by", "wrapper",
                      sys.argv[2]], check=True, capture_output=True).stdout
c = json.loads(out)["sections"]["callsite"]
got = {r["kind"] + " " + re.sub(r" \[.*\]$", "", r["site"]):
       [r["accounted"], r["accounted_bytes"]] for r in c["rows"]}
assert set(got) == set(want), (set(got) ^ set(want))
bad = [(k, want[k], got[k]) for k in want if want[k] != got[k]]
assert not bad, bad
n = sum(v[0] for v in want.values())
assert n > 0, "no allocation charged to a memcg"
for kind in ("kmalloc", "cache"):
    t = c["totals"][kind]
    assert [t["accounted"], t["accounted_bytes"]] == [
        sum(v[i] for k, v in want.items() if k.startswith(kind + " "))
        for i in (0, 1)], kind
print("# %s: memcg charges = trace-cmd at %d sites (%d allocations)"
      % (sys.argv[2], len(want), n))' "$SLABACCT" "$dat" ||
			fail "$dat: memcg charges per site differ from trace-cmd"
	fi
done

# diff: a trace against its own /proc/slab_account rendering is all equal
first=$(ls ./tc-*.dat | head -n 1)
"$SLABACCT" report --format account "$first" >"$TEST_TMP/acc" || fail "account"
"$SLABACCT" diff --json "$TEST_TMP/acc" "$first" >"$TEST_TMP/d.json" ||
	fail "diff of a trace and its account rendering failed"
python3 - "$TEST_TMP/d.json" <<'PY' || fail "diff of equal inputs is not empty"
import json, sys
j = json.load(open(sys.argv[1]))
c = j["change"]
assert c["bytes_alloc"] == 0 and c["sites_new"] == 0 and c["sites_gone"] == 0
assert c["sites_changed"] == 0 and c["sites_unchanged"] > 0 and j["rows"] == []
PY
# report reads the /proc/slab_account rendering back: the same totals
"$SLABACCT" report --json "$TEST_TMP/acc" >"$TEST_TMP/acc.json" ||
	fail "report of a /proc/slab_account snapshot failed"
"$SLABACCT" report --json "$first" >"$TEST_TMP/first.json"
python3 - "$TEST_TMP/acc.json" "$TEST_TMP/first.json" <<'PY' || fail "snapshot report differs"
import json, sys
a, t = (json.load(open(p))["sections"]["callsite"]["totals"] for p in sys.argv[1:])
for k in ("kmalloc", "cache"):
    for f in ("sites", "allocs", "frees", "bytes_alloc", "bytes_req", "slack",
              "live", "live_bytes"):
        assert a[k][f] == t[k][f], (k, f, a[k][f], t[k][f])
PY
# a /proc/slab_account snapshot says what it is in every format (the
# module's format version, table sizes and overflow counters, as in the
# file), and none of a trace's fields (CPUs, clock, duration, records,
# lost events)
acc=$TOP/tests/data/slab_account/6.1.txt
key() { sed -n "s/^$1: //p" "$acc"; }
ver=$(head -n 1 "$acc" | cut -d' ' -f3)
"$SLABACCT" report "$acc" >"$TEST_TMP/a.txt" || fail "report of $acc"
for l in "# input: a /proc/slab_account snapshot, format $ver" \
	 "# tables: $(key sites) call-site slots, $(key objects) live-object slots" \
	 "# not counted: $(key dropped) allocations (site table full), $(key map_full) not tracked (map full)" \
	 "# frees of untracked objects: $(key untracked_frees), lost frees: $(key lost_frees)"; do
	grep -qxF "$l" "$TEST_TMP/a.txt" || fail "text of a snapshot: no '$l'"
done
"$SLABACCT" report --csv "$acc" >"$TEST_TMP/a.csv" || fail "csv of $acc"
for k in sites objects cache_slot_size dropped map_full untracked_frees \
	 lost_frees; do
	grep -qxF "# $k: $(key $k)" "$TEST_TMP/a.csv" || fail "CSV of a snapshot: no $k"
done
grep -qxF "# format_version: $ver" "$TEST_TMP/a.csv" || fail "CSV: no version"
"$SLABACCT" diff "$acc" "$first" >"$TEST_TMP/d.txt" || fail "diff of $acc"
grep -qxF "#    input: a /proc/slab_account snapshot, format $ver" \
	"$TEST_TMP/d.txt" || fail "diff text: no input line for A"
"$SLABACCT" diff --csv "$acc" "$first" >"$TEST_TMP/d.csv" || fail "diff csv"
grep -qxF "# a_sites: $(key sites)" "$TEST_TMP/d.csv" || fail "diff CSV: no a_sites"
"$SLABACCT" report --format account "$acc" >"$TEST_TMP/a.acc" || fail "account"
grep -qxF "objects: $(key objects)" "$TEST_TMP/a.acc" || fail "account: objects"
trace_keys='^(# )?(cpus|clock|nr_cpus|duration|lost.events|records|missed|trace_)'
for f in a.txt a.csv a.acc; do
	! grep -Eq "$trace_keys" "$TEST_TMP/$f" ||
		fail "$f of a snapshot has trace fields: $(grep -E "$trace_keys" "$TEST_TMP/$f")"
done
grep -c "lost events" "$TEST_TMP/d.txt" | grep -qx 1 ||
	fail "diff text: lost events for the snapshot side"
"$SLABACCT" report --json "$acc" | python3 -c '
import json, sys
j = json.load(sys.stdin)
i = j["input"]
assert i["kind"] == "/proc/slab_account" and i["format_version"] == int(sys.argv[1])
assert i["sites"] == int(sys.argv[2]) and i["untracked_frees"] == int(sys.argv[3])
assert not {"origin", "lost", "records"} & set(j), sorted(j)' \
	"$ver" "$(key sites)" "$(key untracked_frees)" || fail "JSON of a snapshot"
"$SLABACCT" diff --json "$acc" "$first" | python3 -c '
import json, sys
a = json.load(sys.stdin)["a"]
assert a["input"]["kind"] == "/proc/slab_account"
assert not {"lost_known", "lost_events", "kernel_release"} & set(a)' ||
	fail "diff JSON of a snapshot"

# the module's slower-path counters (newer modules, after unattributed):
# shown in every format when the file has them, exactly as in it, and
# through the JSON read back by diff; not at all when it has not (the
# outputs above and the goldens are those of a file without them)
slow=$TEST_TMP/slow.txt
sed 's/^lost_frees: .*/&\nkmalloc_repeats: 2\nunattributed: 1\nslow_sites: 9041\nslow_objects: 37\nslow_frees: 118/' \
	"$acc" >"$slow"
sl='slower path: 9041 allocations, 37 objects, 118 frees (slow_*)'
"$SLABACCT" report "$slow" >"$TEST_TMP/s.txt" || fail "report of the slow snapshot"
grep -qxF "# $sl" "$TEST_TMP/s.txt" || fail "text: no '# $sl'"
"$SLABACCT" account "$slow" | grep -qxF "$sl" || fail "account text: no '$sl'"
"$SLABACCT" report --csv "$slow" >"$TEST_TMP/s.csv" || fail "csv of the slow snapshot"
"$SLABACCT" diff --csv "$slow" "$first" >"$TEST_TMP/sd.csv" || fail "diff csv, slow"
for k in slow_sites:9041 slow_objects:37 slow_frees:118; do
	grep -qxF "# ${k%%:*}: ${k#*:}" "$TEST_TMP/s.csv" || fail "CSV: no ${k%%:*}"
	grep -qxF "# a_${k%%:*}: ${k#*:}" "$TEST_TMP/sd.csv" || fail "diff CSV: no a_${k%%:*}"
done
"$SLABACCT" diff "$slow" "$first" | grep -qxF "#    $sl" || fail "diff text: no '$sl'"
"$SLABACCT" report --json "$slow" >"$TEST_TMP/s.json" || fail "json, slow"
"$SLABACCT" account --json "$slow" >"$TEST_TMP/sa.json" || fail "account --json, slow"
"$SLABACCT" diff --json "$slow" "$first" >"$TEST_TMP/sd.json" || fail "diff --json, slow"
# read back: a report's JSON and account --json as diff inputs
"$SLABACCT" diff --json "$TEST_TMP/s.json" "$TEST_TMP/sa.json" >"$TEST_TMP/sdj.json" ||
	fail "diff of the JSON of the slow snapshot"
python3 - "$TEST_TMP" <<'PY' || fail "JSON of the slow snapshot"
import json, sys
t = sys.argv[1] + "/"
want = {"slow_sites": 9041, "slow_objects": 37, "slow_frees": 118}
def has(o, w):
    assert {k: o.get(k) for k in w} == w, {k: o.get(k) for k in w}
has(json.load(open(t + "s.json"))["input"], want)
has(json.load(open(t + "sa.json")), dict(want, kmalloc_repeats=2))
has(json.load(open(t + "sd.json"))["a"]["input"], want)
d = json.load(open(t + "sdj.json"))
has(d["a"]["input"], want)
has(d["b"]["input"], want)
PY
# none of it from a file without them
"$SLABACCT" account "$acc" >"$TEST_TMP/a.acct" || fail "account of $acc"
"$SLABACCT" account --json "$acc" >"$TEST_TMP/a.acct.json" || fail "account --json of $acc"
"$SLABACCT" report --json "$acc" >"$TEST_TMP/a.json" || fail "json of $acc"
for f in a.txt a.csv a.acc a.acct d.txt d.csv a.acct.json a.json; do
	! grep -Eq 'slow_|slower' "$TEST_TMP/$f" ||
		fail "$f of a file without slow_*: $(grep -E 'slow_|slower' "$TEST_TMP/$f")"
done

# diff between the two kernels' recordings, every format, golden
for fmt in text json csv; do
	set -- ./tc-*.dat
	[ $# -ge 2 ] || break
	"$SLABACCT" diff --by function --format $fmt "$1" "$2" >"$TEST_TMP/diff.$fmt" ||
		fail "diff --format $fmt failed"
	if [ "${UPDATE:-0}" = 1 ]; then
		cp "$TEST_TMP/diff.$fmt" "$gold/diff.$fmt"
	else
		diff -u "$gold/diff.$fmt" "$TEST_TMP/diff.$fmt" >&2 ||
			fail "diff --format $fmt differs from golden/diff.$fmt"
	fi
done
note "$n golden outputs checked"
