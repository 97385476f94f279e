# slabacct merge: the small traces and /proc/slab_account snapshots of
# tests/data, and their JSON, merged; every sum, min, median, max and
# run count recomputed here from each input's own report, with a run
# that lacks a site counting 0; text, JSON and CSV agree; each kind of
# input gives the same merge as its JSON; and a merge is a baseline for
# diff: three copies of one run are that run (no change, no limit
# crossed), and growth past the median run crosses --fail-on.
. "$(dirname "$0")/../../lib.sh"
[ -x "$SLABACCT" ] || fail "build/slabacct is missing (make all)"
cd "$TOP/tests/data" || fail "no tests/data"
t1=report/tc-6.1.dat t2=report/tc-6.12.dat
a1=slab_account/6.1.txt a2=slab_account/6.12-cloud.txt
runs=("$t1" "$t2" "$a1" "$t1" "$a2")

"$SLABACCT" merge --json "${runs[@]}" >"$TEST_TMP/m.json" ||
	fail "merge --json failed"
"$SLABACCT" merge --csv "${runs[@]}" >"$TEST_TMP/m.csv" || fail "merge --csv failed"
"$SLABACCT" merge --width 80 "${runs[@]}" >"$TEST_TMP/m.text" || fail "merge failed"
for r in "${runs[@]}"; do
	"$SLABACCT" report --json "$r"
done >"$TEST_TMP/reports.json" || fail "report --json of the runs failed"

python3 - "$TEST_TMP" <<'EOF' || fail "the merge differs from its recount"
import csv, json, sys
tmp = sys.argv[1]
m = json.load(open(tmp + '/m.json'))
dec = json.JSONDecoder()
text, runs, i = open(tmp + '/reports.json').read(), [], 0
while i < len(text.strip()):
    r, i = dec.raw_decode(text, i)
    while i < len(text) and text[i].isspace():
        i += 1
    runs.append(r)
n = len(runs)
assert m['tool'] == 'slabacct merge' and m['by'] == 'site'
assert len(m['runs']) == n, len(m['runs'])
keys = ['allocs', 'frees', 'bytes_alloc', 'bytes_req', 'slack', 'live',
        'live_bytes']
def key(site):              # as diff matches: the "/0xsize" dropped
    name, sep, mod = site.partition(' [')
    return name.split('/')[0] + (sep + mod if sep else '')
def spread(vals):
    v = sorted(vals)
    med = v[n // 2] if n % 2 else (v[n // 2 - 1] + v[n // 2]) // 2
    return {'sum': sum(v), 'min': v[0], 'median': med, 'max': v[-1]}
per = {}
tot = {k: [] for k in keys}
for i, r in enumerate(runs):
    rows = r['sections']['callsite']['rows']
    sums = dict.fromkeys(keys, 0)
    for x in rows:
        k = (x['kind'], key(x['site']))
        d = per.setdefault(k, [dict.fromkeys(keys, 0) for _ in range(n)])
        for f in keys:
            d[i][f] += max(x[f], 0)
            sums[f] += max(x[f], 0)
    for f in keys:
        tot[f].append(sums[f])
    run = m['runs'][i]
    assert run['totals'] == sums, (i, run['totals'], sums)
    assert run['sites'] == len({(x['kind'], key(x['site'])) for x in rows})
    lost = r.get('lost')
    assert run['lost_known'] == bool(lost and lost['known']), i
assert m['lost']['known'] and m['lost']['events'] == 0, m['lost']
for f in keys:
    assert m['totals'][f] == spread(tot[f]), (f, m['totals'][f])
assert len(m['rows']) == len(per), (len(m['rows']), len(per))
assert m['rows_hidden'] == 0
got = {(x['kind'], x['site']): x for x in m['rows']}
for k, d in per.items():
    x = got[k]
    for f in keys:
        assert x[f] == spread([run[f] for run in d]), (k, f, x[f])
# how many runs have each site: counted from the reports' rows
present = {}
for r in runs:
    for k in {(x['kind'], key(x['site'])) for x in r['sections']['callsite']['rows']}:
        present[k] = present.get(k, 0) + 1
for k, x in got.items():
    assert x['runs'] == present[k], (k, x['runs'], present[k])
# sorted by the sum of bytes allocated
b = [x['bytes_alloc']['sum'] for x in m['rows']]
assert b == sorted(b, reverse=True)
# the CSV has the same numbers
rows = [l for l in csv.reader(open(tmp + '/m.csv')) if l and not l[0].startswith('#')]
head = [l for l in rows if l[0] == 'merge' and l[1] == 'site'][0]
body = [dict(zip(head, l)) for l in rows if l[0] == 'merge' and l[1] != 'site']
assert len(body) == len(m['rows'])
for c, x in zip(body, m['rows']):
    assert (c['kind'], c['site']) == (x['kind'], x['site'])
    assert int(c['runs']) == x['runs']
    for f in keys:
        for s in ('sum', 'min', 'median', 'max'):
            assert int(c[f + '_' + s]) == x[f][s], (c['site'], f, s)
thead = [l for l in rows if l[0] == 'total' and l[1] == 'runs'][0]
tline = dict(zip(thead, [l for l in rows if l[0] == 'total' and l[1] != 'runs'][0]))
for f in keys:
    assert int(tline[f + '_median']) == m['totals'][f]['median']
# the text: one row per site, the sum of bytes in human units
lines = open(tmp + '/m.text').read().splitlines()
assert lines[0] == '# slabacct merge: 5 runs, by site', lines[0]
table = lines[lines.index(next(l for l in lines if l.lstrip().startswith('runs '))) + 1:]
assert len(table) == len(m['rows']), (len(table), len(m['rows']))
assert max(len(l) for l in lines) <= 80
EOF
note "5 runs, $(jq '.rows | length' "$TEST_TMP/m.json") sites: every figure as recounted"

# each kind of input merges as its own JSON does
"$SLABACCT" report --json "$t1" >"$TEST_TMP/t1.json"
"$SLABACCT" account --json "$a1" >"$TEST_TMP/a1.json"
strip() { jq 'del(.runs[].file)' "$1"; }
"$SLABACCT" merge --json "$t1" "$a1" >"$TEST_TMP/x.json" || fail "merge failed"
"$SLABACCT" merge --json "$TEST_TMP/t1.json" "$TEST_TMP/a1.json" >"$TEST_TMP/y.json" ||
	fail "merge of the JSON failed"
diff <(strip "$TEST_TMP/x.json") <(strip "$TEST_TMP/y.json") >&2 ||
	fail "a trace and a snapshot merge differently from their JSON"

# refused: a merge as input, a report cut by --top, a JSON of another tool
"$SLABACCT" report --json --top 2 "$t1" >"$TEST_TMP/top.json"
"$SLABACCT" diff --json "$t1" "$t2" >"$TEST_TMP/diff.json"
for bad in "$TEST_TMP/m.json|cannot be merged again" \
	   "$TEST_TMP/top.json|cut by --top" \
	   "$TEST_TMP/diff.json|not of slabacct report, merge or account"; do
	f=${bad%%|*}
	"$SLABACCT" merge "$t1" "$f" >/dev/null 2>"$TEST_TMP/err"
	assert_eq "merge with ${f##*/}: status" 1 "$?"
	grep -qF "${bad#*|}" "$TEST_TMP/err" || fail "$(cat "$TEST_TMP/err")"
done
"$SLABACCT" merge >/dev/null 2>&1
assert_eq "merge of nothing: status" 2 "$?"
"$SLABACCT" merge --format account "$t1" >/dev/null 2>&1
assert_eq "merge --format account: status" 2 "$?"

# a merge as diff's baseline: three copies of a run are that run
"$SLABACCT" merge --json -o "$TEST_TMP/base.json" "$t1" "$t1" "$t1" ||
	fail "merge -o failed"
"$SLABACCT" diff --fail-on 'total:+0,site:+0,new-site:0' \
	"$TEST_TMP/base.json" "$t1" >"$TEST_TMP/d" 2>"$TEST_TMP/err" ||
	fail "a run against the merge of its copies: $(cat "$TEST_TMP/err")"
grep -q '^# sites: 0 new, 0 gone, 0 changed, [1-9]' "$TEST_TMP/d" ||
	fail "not unchanged: $(grep '^# sites' "$TEST_TMP/d")"
grep -q '^#    the median of 3 runs, site by site$' "$TEST_TMP/d" ||
	fail "the diff does not say its A is a merge"
# the median run of (6.1.txt, grown, grown) is the grown one; of (6.1.txt,
# 6.1.txt, grown) the original: growth of 12800 bytes past it fails
sed 's/^    128000     28000     100000 /    140800     28000     112800 /' \
	"$a1" >"$TEST_TMP/grown.txt"
"$SLABACCT" merge --json -o "$TEST_TMP/b2.json" "$a1" "$a1" "$TEST_TMP/grown.txt"
"$SLABACCT" diff --fail-on 'site:+12799' "$TEST_TMP/b2.json" \
	"$TEST_TMP/grown.txt" >/dev/null 2>"$TEST_TMP/err"
assert_eq "grown against the median of (a, a, grown): status" 3 "$?"
grep -q 'sa_test_kmalloc_loop+0x31 \[sa_test\] +12800' "$TEST_TMP/err" ||
	fail "$(cat "$TEST_TMP/err")"
"$SLABACCT" merge --json -o "$TEST_TMP/b3.json" "$a1" "$TEST_TMP/grown.txt" \
	"$TEST_TMP/grown.txt"
"$SLABACCT" diff --fail-on 'site:+0,total:+0' "$TEST_TMP/b3.json" \
	"$TEST_TMP/grown.txt" >/dev/null 2>"$TEST_TMP/err"
assert_eq "grown against the median of (a, grown, grown): status" 0 "$?"
# merged by function: compared by function
"$SLABACCT" merge --by function --json -o "$TEST_TMP/f.json" "$t1" "$t2"
"$SLABACCT" diff "$TEST_TMP/f.json" "$t1" >/dev/null 2>"$TEST_TMP/err"
assert_eq "diff by site of a merge by function: status" 1 "$?"
grep -q 'compare it --by function' "$TEST_TMP/err" || fail "$(cat "$TEST_TMP/err")"
"$SLABACCT" diff --by function "$TEST_TMP/f.json" "$t1" >/dev/null ||
	fail "diff --by function of a merge by function failed"
exit 0
