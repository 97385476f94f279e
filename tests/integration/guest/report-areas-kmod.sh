# The report's vmalloc and percpu sections in one guest of kernel flavour
# $1, against a test module with known allocations (tests/kmod/sa_area.c):
# sa_area_vmalloc makes 7 vmalloc(10000), sa_area_vzalloc 5
# vzalloc(30000), sa_area_alloc_percpu 9 alloc_percpu of a 40-byte
# struct aligned to 8, sa_area_pcpu_aligned 11 __alloc_percpu(100, 32).
# `slabacct record -e vmalloc,percpu --stacks` records three windows:
# "part" (alloc, then the first M of each function freed), "whole"
# (alloc, M freed, then the rest) and "unload" (alloc, then rmmod, which
# frees what the module holds). For each of the four functions, the
# report's one row whose function it is, in JSON and in CSV, must have
# exactly: allocations = its count, frees = M (whole, unload: the
# count), live = the difference, and bytes, freed bytes and live bytes =
# those counts times the bytes of one allocation, no failure; and every
# row of both sections, ours and others', must equal
# tests/integration/area-referee.py's count from `trace-cmd report` of
# the same file. The module's own count of what it holds, and the
# kernel's /proc/vmallocinfo, must agree after part and whole.
#
# The bytes of one allocation, as the kernel's events give them (what is
# compared):
# - percpu: the event's bytes_alloc when its format has one, else its
#   size. The event's size and align (checked on each of the module's
#   events in trace-cmd's decoding) are the request rounded up to 4
#   bytes (PCPU_MIN_ALLOC_SIZE) and at least 4; bytes_alloc is that size
#   times the possible CPUs, plus, when the kernel charges percpu memory
#   to memory cgroups, a pointer per 4 bytes of it (its obj_cgroup
#   array). Which of the two is taken from the events, and must be the
#   same for both functions.
# - vmalloc: alloc_vmap_area's size, that of the whole vmap area: the
#   request rounded up to pages, plus a guard page when the kernel puts
#   one in the area. The kernel's own /proc/vmallocinfo shows each live
#   area with its size and caller: the module's live areas there must be
#   as many as the report's live count, all of one size, the rounded
#   request with or without a guard page (the same for both functions),
#   and that size is the bytes of one allocation.
#
# Attribution. percpu_alloc_percpu's call_site is the return address of
# the percpu allocator, which __alloc_percpu (6.1) reaches by a tail call
# and pcpu_alloc_noprof (6.12) is called directly: the module's function
# either way, a row "site" (were it percpu's own entry point, the stack
# would make it a row "caller"; either is taken, and the row's function
# must be the module's). alloc_vmap_area has no call site: the report
# attributes it through the kernel stack that --stacks takes after each,
# to the first frame past vmalloc's machinery, the module's function,
# with the outermost machinery frame kept as its entry point (a row
# "caller", "VIA <- FUNC"; VIA is whatever the stack shows, compared with
# the referee's). A kernel without vmalloc's events (6.1 has none): the
# section must say so and have no row, the referee none, and the
# module's areas are still checked in /proc/vmallocinfo.
. "$(dirname "$0")/../../lib.sh"
flavour=${1:?kernel flavour}
command -v trace-cmd >/dev/null || fail "trace-cmd is not installed (scripts/install-deps)"
M=2
# the known load: NAME KIND COUNT SIZE ALIGN (vmalloc's: the page size)
want_load="sa_area_vmalloc vmalloc 7 10000 PAGE
sa_area_vzalloc vmalloc 5 30000 PAGE
sa_area_alloc_percpu percpu 9 40 8
sa_area_pcpu_aligned percpu 11 100 32"

cat >"$TEST_TMP/guest.sh" <<GUEST
set -e
insmod \$MODDIR/sa_area.ko
rec() {
	slabacct record -e vmalloc,percpu --stacks --no-snapshot -o \$OUT/\$1.dat \
		-- sh -c "\$2" >\$OUT/\$1.log 2>&1
}
rec part 'echo alloc > /proc/sa_area; echo free $M > /proc/sa_area'
cat /proc/sa_area > \$OUT/sa_area
# /proc/vmallocinfo is read a page at a time, and the list it walks can
# lose an entry between two reads (a task's vmap stack freed meanwhile):
# a reading may skip one of the module's areas. The union of five
# readings, by address, does not (measured: one skipped area in CI).
for i in 1 2 3 4 5; do grep ' sa_area_' /proc/vmallocinfo || true; done |
	sort -u > \$OUT/vmallocinfo
echo free > /proc/sa_area
rec whole 'echo alloc > /proc/sa_area; echo free $M > /proc/sa_area; echo free > /proc/sa_area'
cat /proc/sa_area > \$OUT/sa_area.whole
for i in 1 2 3 4 5; do grep ' sa_area_' /proc/vmallocinfo || true; done |
	sort -u | wc -l > \$OUT/vmallocinfo.whole
rec unload 'echo alloc > /proc/sa_area; rmmod sa_area'
GUEST
guest_run "$flavour" "$TEST_TMP/guest.sh" -t 300 ||
	fail "guest run failed: $(cat "$TEST_TMP/out/"{part,whole,unload}.log 2>/dev/null)"
o=$TEST_TMP/out
page=$(sed -n 's/^page_size //p' "$o/sa_area")
[ -n "$page" ] || fail "sa_area.ko reported nothing"
assert_eq "the module's load (name kind count size align)" \
	"${want_load//PAGE/$page}" \
	"$(awk 'NF == 6 { print $1, $2, $3, $4, $5 }' "$o/sa_area")"
assert_eq "objects the module held after part" \
	"$(awk -v m=$M 'NF == 6 { print $1, $3 - m }' "$o/sa_area")" \
	"$(awk 'NF == 6 { print $1, $6 }' "$o/sa_area")"
assert_eq "objects the module held after whole" \
	"$(awk 'NF == 6 { print $1, 0 }' "$o/sa_area")" \
	"$(awk 'NF == 6 { print $1, $6 }' "$o/sa_area.whole")"
assert_eq "the module's areas in /proc/vmallocinfo after freeing them" \
	0 "$(cat "$o/vmallocinfo.whole")"

# check NAME FREED: the report's rows of the module's functions in
# NAME.dat, where FREED (a number, or all) of each function's
# allocations were freed
check() {
	local name=$1 freed=$2 f=$o/$1.dat want got
	[ -s "$f" ] || fail "no $name.dat came back: $(cat "$o/$name.log")"
	"$SLABACCT" report --json --what vmalloc,percpu "$f" \
		>"$TEST_TMP/$name.json" 2>"$TEST_TMP/$name.err" ||
		fail "report --json $name.dat: $(cat "$TEST_TMP/$name.err")"
	"$SLABACCT" report --csv --what vmalloc,percpu "$f" \
		>"$TEST_TMP/$name.csv" 2>"$TEST_TMP/$name.err" ||
		fail "report --csv $name.dat: $(cat "$TEST_TMP/$name.err")"
	trace-cmd report "$f" >"$TEST_TMP/$name.txt" 2>/dev/null ||
		fail "trace-cmd report cannot read $name.dat"
	trace-cmd report --events "$f" >"$TEST_TMP/$name.events" 2>/dev/null ||
		fail "trace-cmd report --events cannot read $name.dat"

	# every row, as the referee counts them from trace-cmd's decoding
	want=$(python3 "$TOP/tests/integration/area-referee.py" "$f") ||
		fail "the referee failed on $name.dat"
	got=$(python3 "$TOP/tests/integration/area-ours.py" "$TEST_TMP/$name.json") ||
		fail "cannot read the report of $name.dat"
	assert_eq "$name: rows (allocs, bytes, frees, freed, live, live bytes, failed), ours and trace-cmd's" \
		"$want" "$got"

	# the module's functions: the known load
	python3 - "$o/sa_area" "$o/vmallocinfo" "$M" "$freed" \
		"$TEST_TMP/$name".{json,csv,txt,events} <<'PY' ||
import csv
import json
import re
import sys

load, vmi, vmi_freed, freed, rjson, rcsv, text, events = sys.argv[1:]
vmi_freed = int(vmi_freed)
facts, fns = {}, []
for line in open(load):
    w = line.split()
    if len(w) == 2:
        facts[w[0]] = int(w[1])
    elif len(w) == 6:
        fns.append((w[0], w[1], int(w[2]), int(w[3]), int(w[4])))
page, cpus, ptr = (facts["page_size"], facts["possible_cpus"],
                   facts["pointer_size"])
rep = json.load(open(rjson))
assert rep["lost"]["events"] == 0, ("lost events", rep["lost"])
sec = rep["sections"]

# the events' formats (trace-cmd's)
formats, cur = {}, None
for line in open(events):
    m = re.match(r'^name: (\S+)', line)
    if m:
        cur = formats.setdefault(m.group(1), set())
    m = re.search(r'field:.*\b(\w+);\toffset', line)
    if m and cur is not None:
        cur.add(m.group(1))
has_vmalloc = "alloc_vmap_area" in formats
has_bytes = "bytes_alloc" in formats.get("percpu_alloc_percpu", ())
assert "percpu_alloc_percpu" in formats, "no percpu_alloc_percpu event"

# trace-cmd's decoding of the module's percpu events
pevents = {}
for line in open(text):
    if "percpu_alloc_percpu:" not in line:
        continue
    f = dict(kv.split("=", 1) for kv in
             line.split("percpu_alloc_percpu:", 1)[1].split() if "=" in kv)
    pevents.setdefault(f["call_site"].split("+")[0], []).append(f)

# the kernel's live areas of the module (/proc/vmallocinfo, after "part")
areas = {}
for line in open(vmi):
    w = line.split()
    areas.setdefault(w[2].split("+")[0], []).append(int(w[1]))


def align(x, a):
    return (x + a - 1) // a * a


csv_rows = {}
table = None
for r in csv.reader(l for l in open(rcsv) if not l.startswith("#")):
    if not r:
        continue
    if r[1] == "site":
        table = r
        continue
    csv_rows.setdefault((r[0], r[3]), []).append(dict(zip(table, r)))

FIELDS = ("allocs", "frees", "live", "bytes", "freed_bytes", "live_bytes",
          "failed")
memcg, guard = set(), set()
out = []
for name, kind, count, size, al in fns:
    nfreed = count if freed == "all" else int(freed)
    live = count - nfreed
    if kind == "percpu":
        # percpu_alloc_percpu: size and align rounded up to 4 bytes
        evs = pevents.get(name, [])
        assert len(evs) == count, (name, "percpu events", len(evs), count)
        psize, palign = align(size, 4), max(al, 4)
        assert all(int(e["size"]) == psize and int(e["align"]) == palign
                   for e in evs), (name, psize, palign, evs[0])
        if has_bytes:
            got = {int(e["bytes_alloc"]) for e in evs}
            assert len(got) == 1, (name, "bytes_alloc", got)
            one = got.pop()
            extra = one - psize * cpus
            assert extra in (0, psize // 4 * ptr), (name, one, psize, cpus)
            memcg.add(extra != 0)
        else:
            one = psize
    else:
        sizes = areas.get(name, [])
        assert len(sizes) == count - vmi_freed, (name, "vmallocinfo", sizes)
        assert len(set(sizes)) == 1, (name, "vmallocinfo sizes", sizes)
        one = sizes[0]
        assert one - align(size, page) in (0, page), (name, one, size)
        guard.add(one != align(size, page))
        if not has_vmalloc:
            continue
    want = {"allocs": count, "frees": nfreed, "live": live,
            "bytes": count * one, "freed_bytes": nfreed * one,
            "live_bytes": live * one, "failed": 0}
    rows = [r for r in sec[kind]["rows"] if r.get("function") == name]
    assert len(rows) == 1, (name, "JSON rows", rows)
    r = rows[0]
    assert r["module"] == "sa_area", (name, r)
    if kind == "vmalloc":
        assert r["how"] == "caller" and r["via"], (name, "attribution", r)
    else:
        assert r["how"] in ("site", "caller"), (name, r)
    got = {k: r[k] for k in FIELDS}
    assert got == want, (name, "JSON", got, "want", want)
    crows = csv_rows.get((kind, name), [])
    assert len(crows) == 1, (name, "CSV rows", crows)
    got = {k: int(crows[0][k]) for k in FIELDS}
    assert got == want, (name, "CSV", got, "want", want)
    out.append("%s %s: %d allocs, %d frees, %d live, %d bytes each (%s)" % (
        kind, r["site"], count, nfreed, live, one,
        r.get("via") and "via " + r["via"] or "its call site"))
assert len(memcg) <= 1 and len(guard) == 1, (memcg, guard)
if not has_vmalloc:
    v = sec["vmalloc"]
    assert not v["present"] and not v["rows"], ("vmalloc without events", v)
    out.append("vmalloc: no alloc_vmap_area event on this kernel: no rows;"
               " the module's areas in /proc/vmallocinfo")
out.append("vmap areas %s a guard page; percpu bytes_alloc %s" % (
    "with" if guard.pop() else "without",
    "absent" if not has_bytes else
    "with memcg's pointers" if memcg.pop() else "size x CPUs"))
print("\n".join("# " + l for l in out))
PY
		fail "$name: the module's rows are not its known load"
}
check part "$M"
check whole all
check unload all
note "the report's rows equal the known load and trace-cmd's decoding"
