# The boot phases of a boot trace of a guest of kernel flavour $1, against
# trace-cmd's decoding of the same file: boot with the parameters
# `slabacct boot cmdline` prints, save the boot buffer with `slabacct boot
# collect`, and on the host
#   - the phases' names and start times are those of the
#     initcall:initcall_level events trace-cmd shows, in order, then
#     "init" at the last initcall_finish of the thread that marked the
#     levels, before it execs init (or at that exec);
#   - each phase's allocations, bytes, frees and freed bytes are those a
#     count of trace-cmd's kmalloc/kmem_cache_alloc/kfree/kmem_cache_free
#     lines between those boundaries gives (a large kmalloc traced twice
#     is one allocation; a free counts when it matches an allocation);
#   - the text, CSV and JSON say the same, and the HTML page, in headless
#     Chromium, shades and labels those phases.
# Which level is the first traced depends on when the kernel enables
# boot-time events: the test prints it and requires "late" and "init".
. "$(dirname "$0")/../../lib.sh"
flavour=${1:?kernel flavour}
command -v trace-cmd >/dev/null || fail "trace-cmd is not installed (scripts/install-deps)"
command -v python3 >/dev/null || fail "python3 is not installed"

params=$("$SLABACCT" boot cmdline -q) || fail "boot cmdline failed"
for e in initcall:initcall_level initcall:initcall_finish \
	 sched:sched_process_exec; do
	echo "$params" | grep -q "$e" || fail "boot cmdline lacks $e: $params"
done

cat >"$TEST_TMP/guest.sh" <<'GUEST'
slabacct boot collect -o $OUT/boot.dat >$OUT/collect.out 2>$OUT/collect.err
echo $? >$OUT/collect.rc
gzip -1 $OUT/boot.dat
GUEST
guest_run "$flavour" "$TEST_TMP/guest.sh" -t 240 -a " $params" ||
	fail "guest run failed"
o=$TEST_TMP/out
assert_eq "boot collect status" 0 "$(cat "$o/collect.rc")"
gunzip "$o/boot.dat.gz" || fail "boot.dat did not come back"
dat=$o/boot.dat
logs=$TOP/build/test-logs
mkdir -p "$logs"

trace-cmd report -t "$dat" >"$TEST_TMP/tc.txt" 2>"$TEST_TMP/tc.err" ||
	fail "trace-cmd report failed: $(head -3 "$TEST_TMP/tc.err")"
"$SLABACCT" report --json --what timeline "$dat" >"$TEST_TMP/r.json" ||
	fail "report --json failed"

# The referee: phases from trace-cmd's text alone
cat >"$TEST_TMP/phases.py" <<'PY'
import json
import re
import sys

LINE = re.compile(r'^\s*(?P<comm>.*?)-(?P<pid>\d+)\s+\[(?P<cpu>\d+)\]\s+'
                  r'(?:\S+\s+)?(?P<ts>\d+)\.(?P<frac>\d+):\s+(?P<ev>\w+):'
                  r'\s*(?P<rest>.*)$')
FIELD = re.compile(r'(\w+)=(\S+)')
ALLOC = ('kmalloc', 'kmalloc_node', 'kmem_cache_alloc',
         'kmem_cache_alloc_node')
FREE = ('kfree', 'kmem_cache_free')


def num(s):
    return 0 if s == '(nil)' else int(s, 0)


recs = []
for line in open(sys.argv[1]):
    m = LINE.match(line)
    if not m:
        continue
    ts = int(m.group('ts')) * 10**9 + int(m.group('frac').ljust(9, '0')[:9])
    recs.append((ts, int(m.group('pid')), int(m.group('cpu')),
                 m.group('ev'), m.group('rest')))

# boundaries: each level event, then init (by index in the stream)
levels = [i for i, r in enumerate(recs) if r[3] == 'initcall_level']
bounds = []
for i in levels:
    name = re.match(r'level=(.*)$', recs[i][4]).group(1)
    bounds.append((i, name))
if levels:
    pid = recs[levels[-1]][1]
    cand = ex = None
    for i in range(levels[-1] + 1, len(recs)):
        if recs[i][1] != pid:
            continue
        if recs[i][3] == 'initcall_finish':
            cand = i
        elif recs[i][3] == 'sched_process_exec':
            ex = i
            break
    init = cand if cand is not None else ex
    if init is not None:
        bounds.append((init, 'init'))


def zero():
    return dict(allocs=0, alloc_bytes=0, frees=0, freed_bytes=0)


out = {'before': zero(), 'phases': []}
cur = out['before']
nb = 0
live = {}
last = {}   # cpu -> (ev, ptr, req, alloc, site) of its last kmem event
for i, (ts, pid, cpu, ev, rest) in enumerate(recs):
    while nb < len(bounds) and bounds[nb][0] == i:
        cur = zero()
        cur['name'] = bounds[nb][1]
        cur['start_ns'] = ts
        out['phases'].append(cur)
        nb += 1
    if ev not in ALLOC and ev not in FREE:
        continue
    f = dict(FIELD.findall(rest))
    ptr = num(f['ptr'])
    if ev in ALLOC:
        req, alloc = int(f['bytes_req']), int(f['bytes_alloc'])
        site = f['call_site']
        prev = last.get(cpu)
        last[cpu] = ('kmalloc' if ev.startswith('kmalloc') else 'cache',
                     ptr, req, alloc, site)
        if not ptr:
            continue
        # a large kmalloc traced twice (6.10+): one allocation
        if (ev.startswith('kmalloc') and prev and prev[0] == 'kmalloc' and
                prev[1:4] == (ptr, req, alloc) and prev[4] != site and
                live.get(ptr) == alloc):
            continue
        live[ptr] = alloc
        cur['allocs'] += 1
        cur['alloc_bytes'] += alloc
    else:
        last[cpu] = ('free', ptr, 0, 0, '')
        if ptr in live:
            cur['frees'] += 1
            cur['freed_bytes'] += live.pop(ptr)
json.dump(out, sys.stdout, sort_keys=True)
PY
python3 "$TEST_TMP/phases.py" "$TEST_TMP/tc.txt" | jq -S . >"$TEST_TMP/want.json" ||
	fail "the referee script failed"
jq -S '.sections.timeline.boot_phases | {before, phases}' "$TEST_TMP/r.json" \
	>"$TEST_TMP/got.json" || fail "no boot_phases in the JSON report"

names=$(jq -r '[.phases[].name] | join(" ")' "$TEST_TMP/got.json")
note "$flavour phases: $names (first traced: $(jq -r '.sections.timeline.boot_phases.first_level' "$TEST_TMP/r.json"); init from $(jq -r '.sections.timeline.boot_phases.init_from' "$TEST_TMP/r.json"))"
assert_eq "initcall_level events (trace-cmd)" \
	"$(grep -c ' initcall_level: ' "$TEST_TMP/tc.txt")" \
	"$(jq '.sections.timeline.boot_phases.levels' "$TEST_TMP/r.json")"
case " $names " in
*" late init ") ;;
*) fail "the phases do not end with late and init: $names" ;;
esac
if ! cmp -s "$TEST_TMP/want.json" "$TEST_TMP/got.json"; then
	diff "$TEST_TMP/want.json" "$TEST_TMP/got.json" | head -40
	fail "the phases differ from trace-cmd's decoding (< trace-cmd, > slabacct)"
fi
note "$(jq '.phases | length' "$TEST_TMP/got.json") phases agree with trace-cmd: names, start times, allocations, bytes, frees"

# text and CSV: the same phases
"$SLABACCT" report --what timeline "$dat" >"$TEST_TMP/r.txt" ||
	fail "report (text) failed"
"$SLABACCT" report --csv --what timeline "$dat" >"$TEST_TMP/r.csv" ||
	fail "report --csv failed"
grep -q -- '^-- boot phases: initcall levels' "$TEST_TMP/r.txt" ||
	fail "no boot phases in the text report"
assert_eq "text: phase names" "$names" \
	"$(sed -n '/^-- boot phases/,/^#/p' "$TEST_TMP/r.txt" |
	   awk 'NR > 3 && !/^#/ { printf "%s%s", s, $1; s = " " }')"
assert_eq "CSV: phases" \
	"$(jq -r '.phases[] | "\(.name),\(.start_ns),\(.allocs),\(.alloc_bytes),\(.frees),\(.freed_bytes)"' "$TEST_TMP/got.json")" \
	"$(grep '^phase,' "$TEST_TMP/r.csv" | grep -v '^phase,name,' |
	   grep -v '^phase,(before),' | cut -d, -f2-)"

# the page: the real phases shaded and labelled, in Chromium
command -v chromium >/dev/null ||
	fail "chromium is not installed (scripts/install-deps installs it)"
"$SLABACCT" report --html "$TEST_TMP/boot.html" "$dat" ||
	fail "report --html failed"
n=$(jq '.phases | length' "$TEST_TMP/got.json")
cp "$TEST_TMP/boot.html" "$logs/html-boot-$flavour.html"
rm -rf "$logs/html-boot-$flavour"
node "$TOP/tests/browser/check-page.mjs" --html "$TEST_TMP/boot.html" \
	--shot "$logs/html-boot-$flavour.png" --sections timeline \
	--shots "$logs/html-boot-$flavour" \
	--expect "boot phases (initcall levels)|$(echo "$names" | tr ' ' '|')" \
	--count "#timeline-svg rect.phase.boot=$n|#timeline-svg text.phase-lbl=$n|#boot-phases tbody tr=$((n + 1))" ||
	fail "the boot page failed in Chromium"
note "the page shades and labels the $n phases: $logs/html-boot-$flavour.png"
