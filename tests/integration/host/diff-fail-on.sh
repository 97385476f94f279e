# slabacct diff --fail-on, the CI gate: on a /proc/slab_account snapshot
# and a copy with known growth (one site +12800 bytes, exactly +10%; one
# new site of 20480 bytes), each limit is crossed just past its value and
# not at it, the exit status is 3 with one line saying what crossed,
# the diff itself is the same as without the gate, rows left out of the
# view are judged too, and bad rules are usage errors. On the two small
# traces, what crossed is recomputed from `diff --json --all` here.
. "$(dirname "$0")/../../lib.sh"
[ -x "$SLABACCT" ] || fail "build/slabacct is missing (make all)"
A=$TOP/tests/data/slab_account/6.1.txt
B=$TEST_TMP/grown.txt
sed 's/^    128000     28000     100000 /    140800     28000     112800 /' \
	"$A" >"$B"
echo '     20480         0      20480          0       0         5/5         kmalloc new_site_fn+0x10/0x40' >>"$B"
[ "$(diff "$A" "$B" | grep -c '^>')" = 2 ] || fail "the grown copy is not as planned"

# gate RULES EXPECTED-STATUS [diff options]: run, keep stdout and stderr
gate() {
	local rules=$1 want=$2 rc
	shift 2
	"$SLABACCT" diff "$@" --fail-on "$rules" "$A" "$B" \
		>"$TEST_TMP/out" 2>"$TEST_TMP/err"
	rc=$?
	[ "$rc" = "$want" ] ||
		fail "--fail-on '$rules' $*: exit $rc, expected $want: $(cat "$TEST_TMP/err")"
	note "--fail-on '$rules' $*: exit $rc: $(cat "$TEST_TMP/err")"
}
said() {
	[ "$(wc -l <"$TEST_TMP/err")" = 1 ] ||
		fail "not one line on stderr: $(cat "$TEST_TMP/err")"
	assert_eq "summary" "slabacct diff: --fail-on: $1" "$(cat "$TEST_TMP/err")"
}

# the issue's example: only the new site crosses
gate 'total:+64K,site:+10%,new-site:16K' 3
said "1 of 3 limits crossed: new-site:16K (1 site: kmalloc new_site_fn+0x10 +20480)"
# the gate does not change the diff
"$SLABACCT" diff "$A" "$B" >"$TEST_TMP/plain" || fail "plain diff failed"
cmp -s "$TEST_TMP/plain" "$TEST_TMP/out" || fail "--fail-on changed the diff's output"
gate 'new-site:16K' 3 --json
"$SLABACCT" diff --json "$A" "$B" | cmp -s - "$TEST_TMP/out" ||
	fail "--fail-on changed the diff's JSON"

# at the limit nothing crosses; just past it, each does
gate 'total:+33280,site:+10%,new-site:20K,site:+12800' 0
said "within every limit (total:+33280,site:+10%,new-site:20K,site:+12800)"
gate 'total:+33279,site:+9.99%' 3
said "2 of 2 limits crossed: total:+33279 (total bytes +33280, +10.2%); site:+9.99% (1 site: kmalloc sa_test_kmalloc_loop+0x31 [sa_test] +12800, +10.0%)"
gate 'new-site:+20479' 3
gate 'site:+12799' 3
# both limits of a rule must be exceeded
gate 'site:+5%&+16K' 0
gate 'site:+5%&+12K' 3
# other measures: the grown site's slack, allocs and live did not change
gate 'site/slack:+0,site/live:+0,site/allocs:+0,total/slack:+0' 0
gate 'new-site/allocs:+4' 3
said "1 of 1 limits crossed: new-site/allocs:+4 (1 site: kmalloc new_site_fn+0x10 +5)"
# a row the view leaves out (past --top 1) is judged all the same
gate 'site:+9%' 3 --top 1
[ "$(grep -c '^ *+' "$TEST_TMP/out")" = 1 ] || fail "--top 1 did not show one row"
# shrinking never fails: B to A
"$SLABACCT" diff --fail-on 'total:+0,site:+0,new-site:0' "$B" "$A" >/dev/null \
	2>"$TEST_TMP/err" || fail "shrinking crossed a limit: $(cat "$TEST_TMP/err")"

# bad rules: usage errors that say what is wrong, before reading anything
while IFS='|' read -r rules says; do
	assert_refused "--fail-on '$rules'" 2 "$says" \
		"$SLABACCT" diff --fail-on "$rules" "$A" "$B"
done <<'EOF'
total|expected SCOPE:LIMIT
site:10x|unknown unit 'x'
bogus:+1K|unknown scope 'bogus' (total, vmalloc-total, percpu-total, site, new-site)
vmalloc-total/slack:+1K|vmalloc-total has no slack
percpu-total/slack:0|percpu-total has no slack
site/size:1K|unknown measure 'size' (bytes, slack, allocs, live)
new-site:10%|not a percentage
total:+1K,|rule 2 is empty
EOF

# a failed write is exit 1, whatever the limits
"$SLABACCT" diff --fail-on new-site:0 -o "$TEST_TMP/no/such/dir" "$A" "$B" \
	>/dev/null 2>&1
assert_eq "exit status of a failed write" 1 "$?"

# the traces: what crossed, recomputed from the diff's JSON of every row
cd "$TOP/tests/data/report" || fail "no test traces"

# vmalloc-total and percpu-total: an input without the events cannot be
# judged (exit 1, naming it, no diff written), whichever side it is
V=areas/vmpcpu-6.18.dat
for rules in vmalloc-total:+0 percpu-total/allocs:+0 'total:+1M,percpu-total:0'; do
	for ab in "wrappers-6.18.dat $V" "$V wrappers-6.18.dat" "$V $A"; do
		# shellcheck disable=SC2086
		"$SLABACCT" diff --fail-on "$rules" $ab >"$TEST_TMP/out" \
			2>"$TEST_TMP/err"
		rc=$?
		[ $rc = 1 ] || fail "--fail-on '$rules' $ab: exit $rc, expected 1"
		grep -q "rule '[a-z]*-total[^']*': .* has no [a-z]* figures (record -e [a-z]*): nothing to judge" \
			"$TEST_TMP/err" ||
			fail "--fail-on '$rules' $ab: $(cat "$TEST_TMP/err")"
		[ -s "$TEST_TMP/out" ] && fail "--fail-on '$rules' $ab wrote a diff"
	done
done
note "an input without vmalloc or percpu events: $(cat "$TEST_TMP/err")"
# known growth: A is the trace's report JSON with one vmap area (264K)
# and half the BPF map's percpu allocations (16, 1536 bytes, all freed)
# taken out, B the trace: vmalloc grew by exactly 270336 bytes and 1
# area, percpu by 1536 bytes and 16 allocations, nothing live changed
"$SLABACCT" report --json --what callsite,vmalloc,percpu "$V" 2>/dev/null |
	python3 -c '
import json, sys
d = json.load(sys.stdin)
def take(sec, site, allocs, nbytes, frees, freed):
    r = [r for r in sec["rows"] if r["site"] == site][0]
    for x in (r, sec["totals"]):
        x["allocs"] -= allocs; x["bytes"] -= nbytes
        x["frees"] -= frees; x["freed_bytes"] -= freed
s = d["sections"]
take(s["vmalloc"], "vmalloc_node_range <- __bpf_map_area_alloc+0x7d",
     1, 270336, 1, 270336)
take(s["percpu"], "bpf_map_alloc_percpu+0x59", 16, 1536, 16, 1536)
json.dump(d, sys.stdout)' >"$TEST_TMP/less.json" ||
	fail "cannot write the smaller report JSON"
vgate() {
	local rules=$1 want=$2 rc
	"$SLABACCT" diff --fail-on "$rules" "$TEST_TMP/less.json" "$V" \
		>"$TEST_TMP/out" 2>"$TEST_TMP/err"
	rc=$?
	[ "$rc" = "$want" ] ||
		fail "--fail-on '$rules' less.json $V: exit $rc, expected $want: $(cat "$TEST_TMP/err")"
	note "--fail-on '$rules': exit $rc: $(cat "$TEST_TMP/err")"
}
vgate 'vmalloc-total:+270336,vmalloc-total:100%,vmalloc-total/allocs:+1' 0
vgate 'vmalloc-total:+270335' 3
said "1 of 1 limits crossed: vmalloc-total:+270335 (vmalloc-total bytes +264K, +100.0%)"
vgate 'vmalloc-total/allocs:+0,vmalloc-total:99.9%' 3
said "2 of 2 limits crossed: vmalloc-total/allocs:+0 (vmalloc-total allocs +1, +100.0%); vmalloc-total:99.9% (vmalloc-total bytes +264K, +100.0%)"
vgate 'percpu-total:+1536,percpu-total/allocs:+16,percpu-total/live:+0' 0
vgate 'percpu-total/allocs:+15' 3
said "1 of 1 limits crossed: percpu-total/allocs:+15 (percpu-total allocs +16, +88.9%)"
vgate 'percpu-total:+1535' 3
# the slab's total is apart: neither input has kmem events
vgate 'total:+0,total/allocs:+0' 0
# the same trace on both sides: no growth
"$SLABACCT" diff --fail-on 'vmalloc-total:+0,percpu-total:+0,vmalloc-total/allocs:0,percpu-total/live:0' \
	"$V" "$V" >/dev/null 2>"$TEST_TMP/err" ||
	fail "a trace against itself crossed: $(cat "$TEST_TMP/err")"
for by in site function; do
"$SLABACCT" diff --by $by --json --all tc-6.1.dat tc-6.12.dat \
	>"$TEST_TMP/all.json" || fail "diff --json --all failed"
for rules in 'site:+10%' 'site:+10%&+1K' 'new-site:1K' 'total:+1K' \
	     'site/allocs:+2' 'new-site/live:0' 'total/slack:+1%' 'site:+0'; do
	"$SLABACCT" diff --by $by --fail-on "$rules" tc-6.1.dat tc-6.12.dat \
		>/dev/null 2>"$TEST_TMP/err"
	rc=$?
	want=$(python3 - "$rules" "$TEST_TMP/all.json" <<'EOF'
import json, sys
rule, d = sys.argv[1], json.load(open(sys.argv[2]))
scope, lims = rule.split(':')
scope, _, m = scope.partition('/')
key = {'': 'bytes_alloc', 'slack': 'slack', 'allocs': 'allocs',
       'live': 'live_bytes'}[m]
def over(a, b):
    for l in lims.split('&'):
        l = l.lstrip('+')
        g = b - a
        if g <= 0:
            return False
        if l.endswith('%'):
            if g * 100 <= float(l[:-1]) * a:
                return False
        elif g <= float(l[:-1]) * 1024 if l.endswith('K') else g <= float(l):
            return False
    return True
if scope == 'total':
    n = int(over(d['a']['totals'][key], d['b']['totals'][key]))
    print(3 if n else 0, n)
else:
    hits = [r for r in d['rows']
            if (r['status'] == 'new') == (scope == 'new-site')
            and r['status'] != 'gone'
            and over(0 if r['status'] == 'new' else max(r['a'][key], 0),
                     max(r['b'][key], 0))]
    print(3 if hits else 0, len(hits))
EOF
)
	assert_eq "'$rules' by $by on the traces: status" "${want% *}" "$rc"
	n=${want#* }
	if [ "${rules%%[:/]*}" = total ]; then
		continue
	elif [ "$n" -gt 1 ]; then
		grep -q "($n sites, most " "$TEST_TMP/err" ||
			fail "'$rules': not $n sites in: $(cat "$TEST_TMP/err")"
	elif [ "$n" = 1 ]; then
		grep -q "(1 site: " "$TEST_TMP/err" ||
			fail "'$rules': not 1 site in: $(cat "$TEST_TMP/err")"
	fi
done
done
exit 0
