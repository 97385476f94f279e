# The metrics export: `report` and `account` --format prometheus (the
# text format of node_exporter's textfile collector) and openmetrics, on
# the small traces and /proc/slab_account snapshots of tests/data.
# promtool check metrics (Prometheus's own parser and linter, the
# parser node_exporter uses) accepts the prometheus format with no
# complaint; it parses only that format, so the openmetrics one is
# checked with prometheus_client's strict OpenMetrics parser, and both
# must carry the same samples. Every value is compared with the report's
# JSON (or the snapshot's rows): the --top sites of each kind by bytes, and one
# site="other" per kind holding the rest, so that every family sums to
# the totals. Label values are escaped (a planted caller with a quote, a
# backslash, a control character and a byte that is not UTF-8).
. "$(dirname "$0")/../../lib.sh"
[ -x "$SLABACCT" ] || fail "build/slabacct is missing (make all)"
command -v promtool >/dev/null || fail "promtool is not installed (scripts/install-deps: prometheus)"
/usr/bin/python3 -c 'import prometheus_client' 2>/dev/null ||
	fail "prometheus_client is not installed (scripts/install-deps: python3-prometheus-client)"
cd "$TOP/tests/data" || fail "no tests/data"

# promtool_ok FILE: parsed and linted without a word
promtool_ok() {
	local out
	out=$(promtool check metrics <"$1" 2>&1) ||
		fail "promtool check metrics $1: $out"
	[ -z "$out" ] || fail "promtool check metrics $1 complains: $out"
}

# check KIND SOURCE TOP PROM OM: the values of PROM (and OM) against
# SOURCE (a report --json, or a /proc/slab_account file)
check() {
	/usr/bin/python3 - "$@" <<'EOF'
import json, re, sys
from prometheus_client.parser import text_string_to_metric_families as prom
from prometheus_client.openmetrics.parser import \
    text_string_to_metric_families as om
kind, src, top, pfile, ofile = sys.argv[1:6]
top = int(top)
if kind == 'report':
    rep = json.load(open(src))
    rows = [dict(site=r['site'], kind=r['kind'], allocated=r['bytes_alloc'],
                 requested=r['bytes_req'], slack=r['slack'],
                 allocations=r['allocs'], frees=r['frees'],
                 live_bytes=r['live_bytes'], live_objects=r['live'])
            for r in rep['sections']['callsite']['rows']]
else:
    rows = []
    for l in open(src):
        m = re.match(r' *(\d+) +(\d+) +(\d+) +(-?\d+) +(-?\d+) +(\d+)/(\d+) +(\w+) +(.*)$', l)
        if not m or l.startswith('#'):
            continue
        t, sl, rq, lv, ob, a, f, k, c = m.groups()
        name, sep, mod = c.partition(' [')
        rows.append(dict(site=name.split('/')[0] + (sep + mod if sep else ''),
                         kind=k, allocated=int(t), requested=int(rq),
                         slack=int(sl), allocations=int(a), frees=int(f),
                         live_bytes=max(int(lv), 0),
                         live_objects=max(int(ob), 0)))
# the view: by bytes allocated, then name, then kind
rows.sort(key=lambda r: (-r['allocated'], r['site'], r['kind']))
# --top N: the first N of each kind
shown = [r for k in ('kmalloc', 'cache')
         for r in [x for x in rows if x['kind'] == k][:top]] if top else rows
rest = [r for r in rows if not any(r is x for x in shown)]
fam = {'allocated': 'slabacct_site_allocated_bytes_total',
       'requested': 'slabacct_site_requested_bytes_total',
       'slack': 'slabacct_site_slack_bytes_total',
       'allocations': 'slabacct_site_allocations_total',
       'frees': 'slabacct_site_frees_total',
       'live_bytes': 'slabacct_site_live_bytes',
       'live_objects': 'slabacct_site_live_objects'}
want = {}
for f, name in fam.items():
    for r in shown:
        want[(name, r['site'], r['kind'])] = r[f]
    for k in ('kmalloc', 'cache'):
        o = [r for r in rest if r['kind'] == k]
        if o:
            want[(name, 'other', k)] = sum(r[f] for r in o)
def samples(families):
    got, meta = {}, {}
    for m in families:
        meta[m.name] = (m.type, getattr(m, 'unit', ''))
        for s in m.samples:
            if s.name.startswith('slabacct_site_'):
                key = (s.name, s.labels['site'], s.labels['kind'])
                assert key not in got, ('duplicate', key)
                got[key] = s.value
            else:
                got[(s.name, tuple(sorted(s.labels.items())))] = s.value
    return got, meta
pgot, pmeta = samples(prom(open(pfile).read()))
otext = open(ofile).read()
assert otext.endswith('# EOF\n'), 'no # EOF'
ogot, ometa = samples(om(otext))
assert pgot == ogot, set(pgot.items()) ^ set(ogot.items())
site = {k: v for k, v in pgot.items() if len(k) == 3}
assert site == want, (set(site.items()) ^ set(want.items()))
# every family sums to the totals, per kind
for f, name in fam.items():
    for k in ('kmalloc', 'cache'):
        assert sum(v for (n, s, kk), v in site.items()
                   if n == name and kk == k) == \
            sum(r[f] for r in rows if r['kind'] == k)
# bounded: at most top sites of each kind and an "other" per kind
sites = {(s, k) for (n, s, k) in site if s != 'other'}
assert len(sites) == len(shown), (len(sites), len(shown))
for k in ('kmalloc', 'cache'):
    assert len([1 for s, kk in sites if kk == k]) <= (top or len(rows))
# the conventions: counters end in _total, OpenMetrics units
for name, (t, u) in ometa.items():
    if name.endswith('_bytes'):
        assert u == 'bytes', (name, u)
    assert not name.endswith('_total'), name
for name in fam.values():
    fam_name = name[:-6] if name.endswith('_total') else name
    assert ometa[fam_name][0] == ('counter' if name.endswith('_total') else 'gauge')
sites_k = {k: v for k, v in pgot.items() if k[0] == 'slabacct_sites'}
for k in ('kmalloc', 'cache'):
    assert sites_k[('slabacct_sites', (('kind', k),))] == \
        sum(1 for r in rows if r['kind'] == k), k
if kind == 'report':
    assert pgot[('slabacct_lost_events_total', ())] == rep['lost']['events']
    info = [k for k in pgot if k[0] == 'slabacct_info'][0]
    assert dict(info[1]) == {'source': 'trace', 'kernel_release':
                             rep['origin']['kernel_release']}, info
else:
    assert ('slabacct_module_untracked_frees_total', ()) in pgot
    head = dict(l.rstrip('\n').split(': ', 1) for l in open(src)
                if re.match(r'^\w+: ', l))
    # the slower-path counters: exactly the file's, or none without them
    slow = {'slabacct_module_slow_allocations_total': 'slow_sites',
            'slabacct_module_slow_objects_total': 'slow_objects',
            'slabacct_module_slow_frees_total': 'slow_frees'}
    for name, key in slow.items():
        if key in head:
            assert pgot[(name, ())] == int(head[key]), (name, head[key])
            assert ometa[name[:-6]][0] == 'counter', name
        else:
            assert (name, ()) not in pgot, name
print('# %s %s --top %d: %d samples, %d sites shown of %d' %
      (kind, src, top, len(pgot), len(shown), len(rows)))
EOF
}

for dat in report/tc-6.1.dat report/tc-6.12.dat; do
	"$SLABACCT" report --json "$dat" >"$TEST_TMP/r.json" || fail "report --json $dat"
	for top in 3 0 ""; do
		"$SLABACCT" report --format prometheus ${top:+--top $top} "$dat" \
			>"$TEST_TMP/p" || fail "report --format prometheus $dat"
		"$SLABACCT" report --format openmetrics ${top:+--top $top} "$dat" \
			>"$TEST_TMP/o" || fail "report --format openmetrics $dat"
		promtool_ok "$TEST_TMP/p"
		check report "$TEST_TMP/r.json" "${top:-10}" "$TEST_TMP/p" "$TEST_TMP/o" ||
			fail "$dat --top ${top:-default}: the metrics differ from the report"
	done
done
# a newer module's snapshot: the slower-path counters after unattributed
sed 's/^lost_frees: .*/&\nkmalloc_repeats: 2\nunattributed: 1\nslow_sites: 9041\nslow_objects: 37\nslow_frees: 118/' \
	slab_account/6.12-cloud.txt >"$TEST_TMP/slow.txt"
for snap in slab_account/6.1.txt slab_account/6.12-cloud.txt "$TEST_TMP/slow.txt"; do
	for top in 2 0 ""; do
		"$SLABACCT" account --format prometheus ${top:+--top $top} "$snap" \
			>"$TEST_TMP/p" || fail "account --format prometheus $snap"
		"$SLABACCT" account --format openmetrics ${top:+--top $top} "$snap" \
			>"$TEST_TMP/o" || fail "account --format openmetrics $snap"
		promtool_ok "$TEST_TMP/p"
		check account "$snap" "${top:-10}" "$TEST_TMP/p" "$TEST_TMP/o" ||
			fail "$snap --top ${top:-default}: the metrics differ from the snapshot"
	done
done
# the same snapshot read by report gives the same call-site samples
"$SLABACCT" report --format prometheus slab_account/6.1.txt |
	grep '^slabacct_site' >"$TEST_TMP/r"
"$SLABACCT" account --format prometheus slab_account/6.1.txt |
	grep '^slabacct_site' | cmp -s - "$TEST_TMP/r" ||
	fail "report and account export a snapshot differently"

# escaping: a caller with a quote, a backslash, \x01 and \xff
{
	sed '/^#    total/q' slab_account/6.1.txt
	printf '      4096         0       4096          0       0         1/1         kmalloc ev"il\\x\001\377+0x1/0x8\n'
} >"$TEST_TMP/evil.txt"
"$SLABACCT" account --format prometheus --top 0 "$TEST_TMP/evil.txt" >"$TEST_TMP/p" ||
	fail "account --format prometheus of the planted caller"
"$SLABACCT" account --format openmetrics --top 0 "$TEST_TMP/evil.txt" >"$TEST_TMP/o"
promtool_ok "$TEST_TMP/p"
for f in p o; do
	/usr/bin/python3 - "$TEST_TMP/$f" "$f" <<'EOF' || fail "the planted caller's label ($f)"
import sys
from prometheus_client.parser import text_string_to_metric_families as prom
from prometheus_client.openmetrics.parser import \
    text_string_to_metric_families as om
fams = (prom if sys.argv[2] == 'p' else om)(open(sys.argv[1]).read())
sites = {s.labels.get('site') for m in fams for s in m.samples}
# as every text output prints it: \\ for the backslash, \xNN for bytes
assert 'ev"il\\\\x\\x01\\xff+0x1' in sites, sites
EOF
done

# merge as metrics: a fleet's runs, each measure of each site a summary
# over the runs (quantile 0, 0.5, 1: min, median, max; _sum, _count),
# against a recount from each run's own report --json (a run without
# the site counts 0; the median of an even count is the mean of the two
# middle values, rounded down), in both formats, promtool clean
merge_check() {
	local top=$1
	shift
	local args=() f
	[ "$top" = default ] || args=(--top "$top")
	"$SLABACCT" merge --format prometheus "${args[@]}" "$@" >"$TEST_TMP/mp" ||
		fail "merge --format prometheus $*"
	"$SLABACCT" merge --format openmetrics "${args[@]}" "$@" >"$TEST_TMP/mo" ||
		fail "merge --format openmetrics $*"
	promtool_ok "$TEST_TMP/mp"
	for f in "$@"; do
		"$SLABACCT" report --json --top 0 "$f"
	done >"$TEST_TMP/runs.jsonl" || fail "report --json of the runs"
	/usr/bin/python3 - "$TEST_TMP/runs.jsonl" "$TEST_TMP/mp" "$TEST_TMP/mo" \
		"$top" <<'EOF' || fail "merge metrics of $* (--top $top)"
import json, sys
from prometheus_client.parser import text_string_to_metric_families as prom
from prometheus_client.openmetrics.parser import \
    text_string_to_metric_families as om
dec = json.JSONDecoder()
text = open(sys.argv[1]).read()
runs, i = [], 0
while i < len(text):
    while i < len(text) and text[i].isspace():
        i += 1
    if i < len(text):
        r, i = dec.raw_decode(text, i)
        runs.append(r)
top = 10 if sys.argv[4] == 'default' else int(sys.argv[4])
meas = {'allocated_bytes': 'bytes_alloc', 'requested_bytes': 'bytes_req',
        'slack_bytes': 'slack', 'allocations': 'allocs', 'frees': 'frees',
        'live_bytes': 'live_bytes', 'live_objects': 'live'}
n = len(runs)
def spread(v):
    v = sorted(v)
    med = v[n // 2] if n % 2 else (v[n // 2 - 1] + v[n // 2]) // 2
    return {'0': v[0], '0.5': med, '1': v[-1], 'sum': sum(v), 'count': n}
sites = {}
for k, r in enumerate(runs):
    for row in r['sections']['callsite']['rows']:
        key = (row['site'], row['kind'])
        sites.setdefault(key, [{m: 0 for m in meas.values()} for _ in runs])
        for m in meas.values():
            sites[key][k][m] += max(row[m], 0)
want = {}
for key, vals in sites.items():
    for name, m in meas.items():
        want[(name,) + key] = spread([v[m] for v in vals])
for name, m in meas.items():
    want[(name, None, None)] = spread(
        [sum(max(row[m], 0) for row in r['sections']['callsite']['rows'])
         for r in runs])
order = sorted(sites, key=lambda k: -sum(v['bytes_alloc'] for v in sites[k]))
shown = set(order[:top] if top else order)
for fmt, parse in (('prometheus', prom), ('openmetrics', om)):
    got, runs_seen, hidden = {}, None, None
    for fam in parse(open(sys.argv[2 if fmt == 'prometheus' else 3]).read()):
        for s in fam.samples:
            if s.name == 'slabacct_merge_runs':
                runs_seen = s.value
                continue
            if s.name == 'slabacct_merge_sites_hidden':
                hidden = s.value
                continue
            if not s.name.startswith(('slabacct_merge_site_',
                                      'slabacct_merge_total_')):
                continue
            base = fam.name.split('_', 3)[3]
            key = (base, s.labels.get('site'), s.labels.get('kind'))
            q = s.labels.get('quantile') or s.name.rsplit('_', 1)[1]
            got.setdefault(key, {})[q] = int(s.value)
    assert runs_seen == n, (fmt, runs_seen, n)
    assert hidden == len(sites) - len(shown), (fmt, hidden)
    exp = {k: v for k, v in want.items() if k[1] is None or k[1:] in shown}
    bad = [(k, got.get(k), v) for k, v in exp.items() if got.get(k) != v]
    assert not bad and set(got) == set(exp), (fmt, bad[:3],
                                               set(got) ^ set(exp))
print("# merge of %d runs, --top %s: %d sites shown of %d, every quantile, "
      "sum and count equal the runs' own reports" % (n, sys.argv[4],
                                                    len(shown), len(sites)))
EOF
}
merge_check 0 report/tc-6.1.dat report/tc-6.12.dat report/wrappers-6.18.dat
merge_check default report/tc-6.1.dat report/tc-6.12.dat report/tc-6.1.dat \
	report/wrappers-6.18.dat
merge_check 3 report/tc-6.12.dat report/tc-6.1.dat

# usage errors
"$SLABACCT" merge --top -1 report/tc-6.1.dat >/dev/null 2>&1
assert_eq "merge --top -1: status" 2 "$?"
"$SLABACCT" report --format prometheus --by cache report/tc-6.1.dat >/dev/null 2>&1
assert_eq "report --format prometheus --by cache: status" 2 "$?"
"$SLABACCT" diff --format openmetrics report/tc-6.1.dat report/tc-6.12.dat >/dev/null 2>&1
assert_eq "diff --format openmetrics: status" 2 "$?"
"$SLABACCT" account --format csv slab_account/6.1.txt >/dev/null 2>&1
assert_eq "account --format csv: status" 2 "$?"
exit 0
