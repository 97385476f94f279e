# The vmalloc and percpu sections against an independent count:
# tests/integration/area-referee.py recounts every row (allocations,
# bytes, frees, freed bytes, live objects and bytes, failed attempts)
# from `trace-cmd report` of the same file, pairing alloc_vmap_area with
# the kernel stack printed after it and applying the rule "first caller
# outside vmalloc's machinery" itself. Recordings made here of a workload
# with known allocations (tests/integration/vmpcpu-load.c: N times a BPF
# per-CPU array of 16 elements, one percpu allocation each, and a BPF
# array of 256 KB, which bpf_map_area_alloc takes from vmalloc):
# - with --comm: exactly 16 N percpu allocations at bpf_map_alloc_percpu
#   and N vmap areas attributed to the BPF map code, and every row as the
#   referee counts it;
# - without a filter (the frees of the maps run in a kworker): every row,
#   frees and live included, as the referee counts it, whatever the other
#   users of the machine did meanwhile; every reader path the same;
# - without --stacks: vmalloc's one honest row, '(no kernel stack)'.
# And the committed trace tests/data/report/areas/vmpcpu-6.18.dat in
# every format against golden files, and a trace without these events.
. "$(dirname "$0")/../../lib.sh"
command -v trace-cmd >/dev/null || fail "trace-cmd is not installed (scripts/install-deps)"
command -v python3 >/dev/null || fail "python3 is missing"
command -v cc >/dev/null || fail "cc is missing (scripts/install-deps)"
referee=$TOP/tests/integration/area-referee.py
[ -x "$SLABACCT" ] || fail "build/slabacct is missing (make all)"

# compare FILE [REPORT ARGS...]: ours and the referee's agree
compare() {
	local f=$1 want got
	shift
	want=$(python3 "$referee" "$f") || fail "the referee failed on $f"
	got=$("$SLABACCT" report --json --what vmalloc,percpu "$@" "$f" |
	      python3 "$TOP/tests/integration/area-ours.py") ||
		fail "report --what vmalloc,percpu $* $f failed"
	assert_eq "$(basename "$f") $*: rows (allocs, bytes, frees, freed, live, live bytes, failed)" \
		"$want" "$got"
}

# diff_totals A B: diff's vmalloc and percpu totals (each side's, and
# B - A) in JSON and CSV are the sums of the referee's rows of A and B,
# exactly; the slab's total is apart. A side without the events is 'not
# traced', never a side of zeros that looks measured.
diff_totals() {
	local a=$1 b=$2 ra rb
	ra=$(python3 "$referee" "$a") || fail "the referee failed on $a"
	rb=$(python3 "$referee" "$b") || fail "the referee failed on $b"
	"$SLABACCT" diff --json "$a" "$b" >"$TEST_TMP/tot.json" ||
		fail "diff --json $a $b failed"
	"$SLABACCT" diff --csv "$a" "$b" >"$TEST_TMP/tot.csv" ||
		fail "diff --csv $a $b failed"
	python3 - "$ra" "$rb" "$TEST_TMP/tot.json" "$TEST_TMP/tot.csv" <<'PY' ||
import csv, json, sys
ref = [json.loads(sys.argv[1]), json.loads(sys.argv[2])]
d = json.load(open(sys.argv[3]))
tot = {r[1]: r for r in csv.reader(open(sys.argv[4])) if r and r[0] == "total"}
hdr = tot.pop("kind")
F = ("allocs", "bytes_alloc", "frees", "live", "live_bytes")
IDX = (0, 1, 2, 4, 5)       # the referee's columns of F
for k in ("vmalloc", "percpu"):
    sums = [{f: sum(v[i] for v in r[k].values()) for f, i in zip(F, IDX)}
            for r in ref]
    for side, s in zip("ab", sums):
        got = d[side][k]
        # a side the referee saw no event of is not traced
        if not ref["ab".index(side)][k]:
            assert not got["traced"], (side, k, got)
        assert got["totals"] == s, (side, k, got["totals"], s)
        row = dict(zip(hdr, tot[k]))
        for f in F:
            assert int(row[side + "_" + f]) == s[f], (k, side, f, row)
    change = {f: sums[1][f] - sums[0][f] for f in F}
    assert d["change"][k] == change, (k, d["change"][k], change)
    row = dict(zip(hdr, tot[k]))
    assert int(row["d_bytes"]) == change["bytes_alloc"], (k, row)
    assert int(row["d_allocs"]) == change["allocs"], (k, row)
    assert int(row["d_live_bytes"]) == change["live_bytes"], (k, row)
    assert int(row["d_slack"]) == 0, (k, row)
# the slab's total has no vmalloc or percpu row in it
for side in "ab":
    rows = [r[side] for r in d["rows"] if r["kind"] in ("kmalloc", "cache")]
    if d["rows_hidden"] == 0:
        assert d[side]["totals"]["bytes_alloc"] == sum(
            r["bytes_alloc"] for r in rows), (side, d[side]["totals"])
print("# %s -> %s: vmalloc %+d bytes, percpu %+d bytes, as the referee" % (
    d["a"]["file"], d["b"]["file"], d["change"]["vmalloc"]["bytes_alloc"],
    d["change"]["percpu"]["bytes_alloc"]))
PY
		fail "diff $a $b: vmalloc or percpu totals are not the referee's"
}

# json_same A B [DIFF ARGS]: diff of the two report JSONs (callsite,
# vmalloc, percpu) is diff of the two traces: every row, the slab's
# totals and the vmalloc and percpu ones, in JSON and CSV; only the
# files' names, and the end snapshots JSON does not carry, differ.
json_same() {
	local a=$1 b=$2 f
	shift 2
	for f in "$a" "$b"; do
		"$SLABACCT" report --json --what callsite,vmalloc,percpu \
			"$f" >"$TEST_TMP/$(basename "$f").json" 2>/dev/null ||
			fail "report --json of $f failed"
	done
	"$SLABACCT" diff --all --json "$@" "$a" "$b" >"$TEST_TMP/dt.json" ||
		fail "diff --json $* $a $b failed"
	"$SLABACCT" diff --all --json "$@" "$TEST_TMP/$(basename "$a").json" \
		"$TEST_TMP/$(basename "$b").json" >"$TEST_TMP/dj.json" ||
		fail "diff --json $* of the JSONs of $a $b failed"
	python3 - "$TEST_TMP/dt.json" "$TEST_TMP/dj.json" <<'PY' ||
import json, sys
t, j = (json.load(open(f)) for f in sys.argv[1:3])
for d in (t, j):
    d.pop("system", None)
    for k in "ab":
        d[k].pop("file")
kinds = {r["kind"] for r in t["rows"]}
assert {"vmalloc", "percpu"} & kinds, ("no area rows", kinds)
assert t == j, "\n%s\n%s" % (json.dumps(t, sort_keys=True),
                               json.dumps(j, sort_keys=True))
print("# %d rows (%s), the totals and the changes the same" % (
    len(t["rows"]), ", ".join(sorted(kinds))))
PY
		fail "diff $* of the report JSONs of $a and $b is not the traces' diff"
	"$SLABACCT" diff --csv "$@" "$a" "$b" | grep -v '^#' >"$TEST_TMP/dt.csv"
	"$SLABACCT" diff --csv "$@" "$TEST_TMP/$(basename "$a").json" \
		"$TEST_TMP/$(basename "$b").json" | grep -v '^#' >"$TEST_TMP/dj.csv"
	cmp -s "$TEST_TMP/dt.csv" "$TEST_TMP/dj.csv" || {
		diff -u "$TEST_TMP/dt.csv" "$TEST_TMP/dj.csv" >&2
		fail "diff --csv $* of the report JSONs of $a and $b is not the traces'"
	}
}

# The committed trace (tests/data/report/areas/README.md): every format
# against its golden file (UPDATE=1 rewrites them), the referee, and a
# trace without these events (the sections say so, no rows).
data=$TOP/tests/data/report
gold=$data/areas/golden
cases=(
	"text|--what vmalloc,percpu areas/vmpcpu-6.18.dat"
	"json|--json --what vmalloc,percpu areas/vmpcpu-6.18.dat"
	"csv|--csv --what vmalloc,percpu areas/vmpcpu-6.18.dat"
	"bywrapper|--by wrapper --width 0 --what vmalloc,percpu areas/vmpcpu-6.18.dat"
	"absent.text|--what vmalloc,percpu tc-6.1.dat"
	"absent.json|--json --what vmalloc,percpu tc-6.1.dat"
	"absent.csv|--csv --what vmalloc,percpu tc-6.1.dat"
	"nokmem.text|areas/vmpcpu-6.18.dat"
	"nokmem.json|--json areas/vmpcpu-6.18.dat"
)
cd "$data" || fail "no $data"
for c in "${cases[@]}"; do
	name=${c%%|*} args=${c#*|}
	out=$TEST_TMP/areas.$name
	# shellcheck disable=SC2086
	"$SLABACCT" report $args >"$out" 2>"$out.err" ||
		fail "report $args exited $?: $(cat "$out.err")"
	if [ "${UPDATE:-0}" = 1 ]; then
		cp "$out" "$gold/$name"
	else
		diff -u "$gold/$name" "$out" >&2 ||
			fail "report $args: output differs from areas/golden/$name"
	fi
done
# records_referee FILE HEADER: the header's records by kind, as
# `trace-cmd report` of FILE counts them by event name (its kmem, vmalloc
# and percpu events; kernel stacks apart)
records_referee() {
	local f=$1 header=$2 want
	want=$(trace-cmd report "$f" 2>/dev/null | python3 -c '
import re, sys
KMEM = {"kmalloc", "kmalloc_node", "kfree", "kmem_cache_alloc",
        "kmem_cache_alloc_node", "kmem_cache_free", "mm_page_alloc",
        "mm_page_free", "mm_page_free_batched", "mm_page_alloc_extfrag"}
VM = {"alloc_vmap_area", "free_vmap_area_noflush"}
PC = {"percpu_alloc_percpu", "percpu_free_percpu",
      "percpu_alloc_percpu_fail"}
n = {"kmem": 0, "vmalloc": 0, "percpu": 0, "other": 0}
total = 0
for line in sys.stdin:
    m = re.match(r"^\s*.*?-\d+\s+\[\d+\]\s+[\d.]+:\s+(\w+):", line)
    if not m:
        continue
    e = m.group(1)
    total += 1
    if e == "kernel_stack":
        continue
    n["kmem" if e in KMEM else "vmalloc" if e in VM else
      "percpu" if e in PC else "other"] += 1
parts = ["%d kmem" % n["kmem"]] + ["%d %s" % (n[k], k) for k in
         ("vmalloc", "percpu", "other") if n[k]]
print("# records: %d (%s)" % (total, ", ".join(parts)))') ||
		fail "trace-cmd report of $f failed"
	assert_eq "$(basename "$f"): records by kind, as trace-cmd counts them" \
		"$want" "$(grep '^# records: ' "$header")"
}
records_referee areas/vmpcpu-6.18.dat "$gold/text"
records_referee areas/vmpcpu-6.18.dat "$gold/nokmem.text"
records_referee tc-6.1.dat "$gold/absent.text"

# A trace of vmalloc and percpu events only, no kmem: the header counts
# its records by kind (0 kmem, 4 vmalloc, 68 percpu: 2 + 2 and 34 + 34,
# its README), and report warns (exit 0) that the slab's sections are
# empty only when they are asked for; asked for its vmalloc and percpu
# sections alone, nothing is missing and it does not warn.
grep -qx '# records: 74 (0 kmem, 4 vmalloc, 68 percpu)' "$gold/text" ||
	fail "areas/golden/text: the records are not counted by kind"
python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))["records"]
assert (r["alloc_vmap_area"], r["free_vmap_area_noflush"],
        r["percpu_alloc_percpu"], r["percpu_free_percpu"], r["kmalloc"],
        r["kfree"], r["total"], r["used"]) == (2, 2, 34, 34, 0, 0, 74, 72), r
' "$gold/nokmem.json" || fail "areas/golden/nokmem.json: not the trace's records"
while IFS='|' read -r args says; do
	# shellcheck disable=SC2086
	"$SLABACCT" report $args areas/vmpcpu-6.18.dat >/dev/null 2>"$TEST_TMP/err"
	rc=$?
	assert_eq "report $args of a trace without kmem: exit status" 0 "$rc"
	assert_eq "report $args of a trace without kmem: stderr" "$says" \
		"$(cat "$TEST_TMP/err")"
done <<'EOF'
--what vmalloc,percpu|
--what vmalloc --csv|
|slabacct report: warning: areas/vmpcpu-6.18.dat: the trace has no kmem events, only vmalloc and percpu ones (report --what vmalloc,percpu): the slab's sections are empty
--what callsite,percpu --json|slabacct report: warning: areas/vmpcpu-6.18.dat: the trace has no kmem events, only vmalloc and percpu ones (report --what vmalloc,percpu): the slab's sections are empty
EOF
# a trace with kmem events and none of these: no such warning
"$SLABACCT" report --what vmalloc,percpu tc-6.1.dat >/dev/null 2>"$TEST_TMP/err" ||
	fail "report of tc-6.1.dat failed"
[ -s "$TEST_TMP/err" ] && fail "report of tc-6.1.dat warned: $(cat "$TEST_TMP/err")"
grep -qx '# records: 516 (516 kmem)' "$gold/absent.text" ||
	fail "areas/golden/absent.text: a kmem trace's records are not all kmem"

# diff: the kmem rows of one trace, the vmalloc and percpu rows of the other
for f in text csv json; do
	"$SLABACCT" diff --top 6 --width 0 --format $f wrappers-6.18.dat \
		areas/vmpcpu-6.18.dat >"$TEST_TMP/diff.$f" ||
		fail "diff --format $f of the committed traces failed"
	if [ "${UPDATE:-0}" = 1 ]; then
		cp "$TEST_TMP/diff.$f" "$gold/diff.$f"
	else
		diff -u "$gold/diff.$f" "$TEST_TMP/diff.$f" >&2 ||
			fail "diff --format $f: output differs from areas/golden/diff.$f"
	fi
done
grep -q '^diff,vmalloc_node_range <- __bpf_map_area_alloc+0x7d,vmalloc,new,' \
	"$TEST_TMP/diff.csv" || fail "diff: no new vmalloc row"
"$SLABACCT" diff --csv wrappers-6.18.dat areas/vmpcpu-6.18.dat |
	grep -q '^diff,bpf_map_alloc_percpu+0x59,percpu,new,' ||
	fail "diff: no new percpu row"
# the HTML page carries both sections
"$SLABACCT" report --html "$TEST_TMP/r.html" areas/vmpcpu-6.18.dat ||
	fail "--html failed"
grep -qF 'vmalloc_node_range \u003c- __bpf_map_area_alloc+0x7d' "$TEST_TMP/r.html" ||
	fail "HTML: no 'vmalloc_node_range <- __bpf_map_area_alloc+0x7d' row"
grep -qF '"bpf_map_alloc_percpu+0x59"' "$TEST_TMP/r.html" ||
	fail "HTML: no percpu row"
grep -q 'function viewAreas' "$TEST_TMP/r.html" || fail "HTML: no view of the sections"
# a diff's page: a table of vmalloc's and of percpu's totals beside the
# slab's, drawn in Chromium (where the host has it and node)
if command -v chromium >/dev/null && command -v node >/dev/null; then
	"$SLABACCT" report --html "$TEST_TMP/d.html" wrappers-6.18.dat \
		areas/vmpcpu-6.18.dat || fail "report --html of a diff failed"
	rows=$("$SLABACCT" diff --all --json wrappers-6.18.dat areas/vmpcpu-6.18.dat |
	       python3 -c 'import json, sys; print(len(json.load(sys.stdin)["rows"]))')
	node "$TOP/tests/browser/check-page.mjs" --html "$TEST_TMP/d.html" \
		--shot "$TEST_TMP/d.png" --tiles "$rows" --sections change \
		--count '#diff-totals=1|#diff-totals-vmalloc=1|#diff-totals-percpu=1' \
		--expect 'not traced|528K|slab' >"$TEST_TMP/d.log" 2>&1 ||
		fail "the diff page's vmalloc and percpu totals: $(grep -v '^ok' "$TEST_TMP/d.log")"
fi
compare "$data/areas/vmpcpu-6.18.dat"
diff_totals wrappers-6.18.dat areas/vmpcpu-6.18.dat
diff_totals areas/vmpcpu-6.18.dat wrappers-6.18.dat
diff_totals areas/vmpcpu-6.18.dat areas/vmpcpu-6.18.dat
json_same wrappers-6.18.dat areas/vmpcpu-6.18.dat
json_same areas/vmpcpu-6.18.dat wrappers-6.18.dat --by function
json_same areas/vmpcpu-6.18.dat areas/vmpcpu-6.18.dat
# a report JSON whose section was altered, or is not one: exit 1, saying
# so, and no diff
j=$TEST_TMP/vmpcpu-6.18.dat.json
while IFS='|' read -r edit says; do
	python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
s = d['sections']
$edit
json.dump(d, open(sys.argv[2], 'w'))" "$j" "$TEST_TMP/bad.json" ||
		fail "cannot edit the JSON: $edit"
	assert_refused "diff of a JSON edited by '$edit'" 1 "$says" \
		"$SLABACCT" diff "$j" "$TEST_TMP/bad.json"
done <<'EOF'
s['percpu']['rows'][0]['bytes'] += 1|the percpu section's rows do not add up to its totals
s['vmalloc']['rows'].pop()|the vmalloc section's rows do not add up to its totals
s['vmalloc'] = 'x'|the vmalloc section: an object with present, totals and rows expected
s['percpu']['rows'][1]['live'] = -1|percpu row 1: a site
s['percpu']['present'] = False|the percpu section has rows but not its events
EOF
# the committed trace's known counts (its README): 2 vmap areas of
# 264 KB, 34 percpu allocations of 3200 bytes in all, 2 of them live
grep -qx '#    vmalloc: 528K alloc, 2 allocs, 2 frees, 0 live' \
	"$gold/diff.text" || fail "diff.text: B's vmalloc total is not 2 areas, 528K"
grep -qx 'total,percpu,0,1,3200,0,34,128,0,0,0,0,0,0,0,34,32,3200,0,0,2,128' \
	"$gold/diff.csv" || fail "diff.csv: B's percpu total is not 34 allocations, 3200 bytes"
cd "$TOP" || fail "no $TOP"

need_root
for e in vmalloc/alloc_vmap_area vmalloc/free_vmap_area_noflush \
	 percpu/percpu_alloc_percpu percpu/percpu_free_percpu \
	 ftrace/kernel_stack; do
	[ -d "/sys/kernel/tracing/events/$e" ] ||
		skip "no $e event on this kernel"
done
load=$TEST_TMP/sa-vmp-load
cc -O2 -o "$load" "$TOP/tests/integration/vmpcpu-load.c" ||
	fail "cannot build the workload"
"$load" 1 2>"$TEST_TMP/load.err" ||
	skip "cannot create BPF maps here: $(cat "$TEST_TMP/load.err")"
N=4

# 1. the workload's own allocations: exact
"$SLABACCT" record -e vmalloc,percpu --stacks --no-snapshot --comm sa-vmp-load \
	-o "$TEST_TMP/comm.dat" -- "$load" $N >"$TEST_TMP/comm.out" 2>&1 ||
	fail "record --comm failed: $(cat "$TEST_TMP/comm.out")"
compare "$TEST_TMP/comm.dat"
"$SLABACCT" report --json --what vmalloc,percpu "$TEST_TMP/comm.dat" |
	python3 -c '
import json, sys
n = int(sys.argv[1])
s = json.load(sys.stdin)["sections"]
pc = [r for r in s["percpu"]["rows"]
      if (r.get("function") or "").startswith("bpf_map_alloc_percpu")]
got = sum(r["allocs"] for r in pc)
assert got == 16 * n, ("percpu at bpf_map_alloc_percpu", got, 16 * n)
vm = [r for r in s["vmalloc"]["rows"] if r["how"] == "caller" and
      "bpf_map_area_alloc" in r["function"]]
got = sum(r["allocs"] for r in vm)
assert got == n, ("vmap areas of bpf_map_area_alloc", got, n, s["vmalloc"])
assert all(r["bytes"] >= 256 * 1024 * r["allocs"] for r in vm), vm
assert s["vmalloc"]["totals"]["no_stack"] == 0, s["vmalloc"]["totals"]
print("# %d percpu allocations at bpf_map_alloc_percpu, %d vmap areas "
      "via %s" % (16 * n, n, vm[0]["via"]))' $N ||
	fail "the workload's allocations are not those it made"

# 2. unfiltered: frees and live as the referee counts them
"$SLABACCT" record -e vmalloc,percpu --stacks --no-snapshot \
	-o "$TEST_TMP/all.dat" -- sh -c "$load $N; $load $N" \
	>"$TEST_TMP/all.out" 2>&1 ||
	fail "record failed: $(cat "$TEST_TMP/all.out")"
compare "$TEST_TMP/all.dat"
compare "$TEST_TMP/all.dat" --threads 1
compare "$TEST_TMP/all.dat" --threads 2
compare "$TEST_TMP/all.dat" --libtracecmd
diff_totals "$TEST_TMP/comm.dat" "$TEST_TMP/all.dat"
json_same "$TEST_TMP/comm.dat" "$TEST_TMP/all.dat"
json_same "$TEST_TMP/all.dat" "$TEST_TMP/comm.dat" --by function
python3 "$referee" "$TEST_TMP/all.dat" | python3 -c '
import json, sys
r = json.load(sys.stdin)
print("# unfiltered: %d percpu frees, %d vmalloc frees matched" % (
    sum(v[2] for v in r["percpu"].values()),
    sum(v[2] for v in r["vmalloc"].values())))'

# 3. without --stacks: one row says why
"$SLABACCT" record -e vmalloc,percpu --no-snapshot --comm sa-vmp-load \
	-o "$TEST_TMP/nostk.dat" -- "$load" $N >"$TEST_TMP/nostk.out" 2>&1 ||
	fail "record without --stacks failed: $(cat "$TEST_TMP/nostk.out")"
compare "$TEST_TMP/nostk.dat"
"$SLABACCT" report --what vmalloc "$TEST_TMP/nostk.dat" >"$TEST_TMP/nostk.txt" ||
	fail "report of a trace without stacks failed"
grep -q "^ *$N .*(no kernel stack)$" "$TEST_TMP/nostk.txt" ||
	fail "no '(no kernel stack)' row of $N: $(cat "$TEST_TMP/nostk.txt")"
grep -q 'record with --stacks' "$TEST_TMP/nostk.txt" ||
	fail "no hint to record with --stacks"

# diff matches the rows of two traces, outside the slab's totals
"$SLABACCT" diff --all --width 0 --csv "$TEST_TMP/comm.dat" "$TEST_TMP/nostk.dat" \
	>"$TEST_TMP/diff.csv" || fail "diff of two traces failed"
grep -q '^diff,(no kernel stack),vmalloc,new,' "$TEST_TMP/diff.csv" ||
	fail "diff: no new '(no kernel stack)' vmalloc row: $(cat "$TEST_TMP/diff.csv")"
grep -q '^diff,vmalloc_node_range <- .*,vmalloc,gone,' "$TEST_TMP/diff.csv" ||
	fail "diff: the attributed vmalloc row is not gone"
grep -q '^diff,bpf_map_alloc_percpu+0x[0-9a-f]*,percpu,' "$TEST_TMP/diff.csv" ||
	fail "diff: no percpu row"
"$SLABACCT" diff --json "$TEST_TMP/comm.dat" "$TEST_TMP/nostk.dat" |
	python3 -c '
import json, sys
d = json.load(sys.stdin)
assert d["a"]["totals"]["bytes_alloc"] == 0, d["a"]
assert {r["kind"] for r in d["rows"]} >= {"vmalloc"}, d["rows"]' ||
	fail "diff --json: vmalloc rows, or totals that are not the slab's"

# --stacks takes one stack per vmap area, none for a percpu allocation
# whose call site is its caller
stacks=$(trace-cmd report "$TEST_TMP/comm.dat" 2>/dev/null |
	 grep -c ' kernel_stack: ')
assert_eq "--stacks: one stack per vmap area" "$N" "$stacks"
