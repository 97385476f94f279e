#!/bin/bash
# report --what budget: the budget of the sources record stores in the
# trace's system snapshot at its end, on this host. The stored sources
# are read from the trace.dat by this script (its snapshot_end option,
# not through slabacct), and must be those the report shows as "raw";
# a tree of files is rebuilt from them (plus this host's BTF and
# firmware memmap, which do not move), and `slabacct budget --root` of
# that tree must give the same budget, owner for owner, in JSON, text
# and CSV; budget-referee.py must agree with the report's figures. Then
# old traces (no sources): the section says so, report exits 1, and
# --what all is as before. diff of two recordings shows their budgets
# owner by owner, each equal to its report's. The HTML page draws the
# budget as a treemap.
. "$(dirname "$0")/../../lib.sh"
need_root
[ -x "$SLABACCT" ] || fail "build/slabacct is missing (run make)"
command -v bpftool >/dev/null || fail "bpftool is missing (scripts/install-deps)"
command -v jq >/dev/null || fail "jq is missing (scripts/install-deps)"

T=$TEST_TMP/t.dat
"$SLABACCT" record -o "$T" -- true >"$TEST_TMP/rec" 2>&1 ||
	fail "record failed: $(tail -5 "$TEST_TMP/rec")"
"$SLABACCT" report --what budget --json "$T" >"$TEST_TMP/r.json" ||
	fail "report --what budget --json failed"
jq '.sections.budget' "$TEST_TMP/r.json" >"$TEST_TMP/b.json"
assert_eq "the section's kind" slabacct-budget "$(jq -r .kind "$TEST_TMP/b.json")"

# the stored sources, read from the file: the option's tag, its size
# (u64, little-endian) and the snapshot's JSON; rebuild a tree of them
R=$TEST_TMP/tree
python3 - "$T" "$TEST_TMP/b.json" "$R" <<'PY' || fail "stored sources"
import json, os, struct, sys
d = open(sys.argv[1], "rb").read()
tag = b"snapshot_end\0"
i = d.rfind(tag)
assert i >= 0, "no snapshot_end in the trace"
j = i + len(tag)
size = struct.unpack("<Q", d[j:j + 8])[0]
snap = json.loads(d[j + 8:j + 8 + size].rstrip(b"\0"))
src = snap["budget"]["sources"]
raw = json.load(open(sys.argv[2]))["raw"]
for k, v in raw.items():
    assert src.get(k) == v, f"{k}: stored and shown differ"
assert set(src) == {k for k, v in raw.items() if v is not None}
assert snap["budget"]["page_size"] == json.load(open(sys.argv[2]))["page_size"]
root = sys.argv[3]
def put(rel, text):
    p = os.path.join(root, rel)
    os.makedirs(os.path.dirname(p), exist_ok=True)
    open(p, "w").write(text)
for k in ("meminfo", "zoneinfo", "buddyinfo", "iomem", "vmallocinfo"):
    if k in src:
        put(f"proc/{k}", src[k])
if "kmsg" in src:
    put("dev/kmsg", src["kmsg"])
if "memblock" in src:
    put("sys/kernel/debug/memblock/reserved", src["memblock"])
for line in src.get("tracefs", "").splitlines():
    name, size = line.split(" ", 1)
    top = "sys/kernel/tracing"
    put(f"{top}/buffer_total_size_kb" if name == "." else
        f"{top}/instances/{name}/buffer_total_size_kb", size + "\n")
if "ftrace" in src:
    put("sys/kernel/tracing/dyn_ftrace_total_info", src["ftrace"])
if "vmcoreinfo" in src:
    # a kcore of one note: ELF64 header, one PT_NOTE, the note
    name, desc = b"VMCOREINFO\0", src["vmcoreinfo"].encode()
    pad = lambda b: b + b"\0" * (-len(b) % 4)
    note = struct.pack("<III", len(name), len(desc), 0) + pad(name) + pad(desc)
    eh = (b"\x7fELF\x02\x01\x01" + b"\0" * 9 +
          struct.pack("<HHIQQQIHHHHHH", 4, 62, 1, 0, 64, 0, 0, 64, 56, 1,
                      0, 0, 0))
    ph = struct.pack("<IIQQQQQQ", 4, 0, 120, 0, 0, len(note), 0, 4)
    p = os.path.join(root, "proc/kcore")
    os.makedirs(os.path.dirname(p), exist_ok=True)
    open(p, "wb").write(eh + ph + note)
assert "devicetree" not in src, "a device tree: not rebuilt here"
print(" ".join(sorted(src)))
PY
note "stored: $(python3 -c 'import json,sys; print(" ".join(k for k, v in json.load(open(sys.argv[1]))["raw"].items() if v is not None))' "$TEST_TMP/b.json")"
# what does not move since the recording: this host's own files
if [ "$(jq -r '.raw.memmap != null' "$TEST_TMP/b.json")" = true ]; then
	for d in /sys/firmware/memmap/*; do
		mkdir -p "$R/sys/firmware/memmap/${d##*/}"
		for a in start end type; do
			cat "$d/$a" >"$R/sys/firmware/memmap/${d##*/}/$a"
		done
	done
fi
if [ "$(jq -r '.raw.btf != null' "$TEST_TMP/b.json")" = true ]; then
	mkdir -p "$R/sys/kernel/btf"
	cat /sys/kernel/btf/vmlinux >"$R/sys/kernel/btf/vmlinux"
fi

# the live command on the same sources: the same budget, and the same
# sources re-read (raw); the notes name the tree where record read /
"$SLABACCT" budget --json --raw --root "$R" >"$TEST_TMP/live.json" ||
	fail "budget --root of the rebuilt tree failed"
python3 - "$TEST_TMP/b.json" "$TEST_TMP/live.json" "$R" <<'PY' || fail "report and budget differ"
import json, sys
rep, live = (json.load(open(p)) for p in sys.argv[1:3])
live["notes"] = [n.replace(sys.argv[3], "") for n in live["notes"]]
for k in sorted(set(rep) | set(live)):
    assert rep.get(k) == live.get(k), f"{k}: report {rep.get(k)!r:.300}, budget {live.get(k)!r:.300}"
PY
python3 "$TOP/tests/integration/budget-referee.py" "$R" "$TEST_TMP/b.json" \
	>"$TEST_TMP/ref" 2>&1 || fail "referee: $(cat "$TEST_TMP/ref")"
note "referee on the stored sources: $(cat "$TEST_TMP/ref")"

# text and CSV: the section is the command's output on the same tree
"$SLABACCT" report --what budget "$T" >"$TEST_TMP/r.txt" || fail "report (text) failed"
sed -n '/^== budget /,$p' "$TEST_TMP/r.txt" | sed 1d |
	sed '/^== /,$d' | sed 's|'"$R"'||g' >"$TEST_TMP/sec.txt"
"$SLABACCT" budget --root "$R" | sed 's|'"$R"'||g' >"$TEST_TMP/live.txt" ||
	fail "budget (text) failed"
# the notes fold at 80 columns: compare the tree and the totals above
sed -n '1,/^Free pages/p' "$TEST_TMP/live.txt" >"$TEST_TMP/live.head"
sed -n '1,/^Free pages/p' "$TEST_TMP/sec.txt" >"$TEST_TMP/sec.head"
[ -s "$TEST_TMP/sec.head" ] || fail "no budget section in the text report"
diff -u "$TEST_TMP/live.head" "$TEST_TMP/sec.head" >&2 ||
	fail "the text section differs from budget's text"
"$SLABACCT" report --what budget --csv "$T" >"$TEST_TMP/r.csv" || fail "report (CSV) failed"
grep '^budget,' "$TEST_TMP/r.csv" | sed 's/^budget,//' >"$TEST_TMP/sec.csv"
"$SLABACCT" budget --csv --root "$R" >"$TEST_TMP/live.csv" || fail "budget --csv failed"
python3 - "$TEST_TMP/sec.csv" "$TEST_TMP/live.csv" <<'PY' || fail "CSV differs"
import csv, sys
a, b = ([r for r in csv.DictReader(open(p)) if r["section"] != "note"] for p in sys.argv[1:3])
key = lambda rows: [(r["section"], r["key"], r["kb"], r["source"]) for r in rows]
assert key(a) == key(b), "owners differ"
assert len(a) > 10
PY

# diff of two recordings: each owner's A and B are the two reports'
# figures, B - A their difference; against an old trace, A is said
"$SLABACCT" record -o "$TEST_TMP/t2.dat" -- true >/dev/null 2>&1 ||
	fail "second record failed"
"$SLABACCT" report --what budget --json "$TEST_TMP/t2.dat" >"$TEST_TMP/r2.json" ||
	fail "report of the second trace failed"
"$SLABACCT" diff --json "$T" "$TEST_TMP/t2.dat" >"$TEST_TMP/d.json" || fail "diff --json failed"
python3 - "$TEST_TMP/r.json" "$TEST_TMP/r2.json" "$TEST_TMP/d.json" <<'PY' || fail "diff of budgets"
import json, sys
a, b = (json.load(open(p))["sections"]["budget"] for p in sys.argv[1:3])
d = json.load(open(sys.argv[3]))["budget"]
kb = lambda x: {r["key"]: r["kb"] for r in x["owners"]}
ka, kb_ = kb(a), kb(b)
keys = [r["key"] for r in d["owners"]]
assert keys[-1] == "unexplained"
assert set(keys[:-1]) == set(ka) | set(kb_), "owners differ"
for r in d["owners"][:-1]:
    k = r["key"]
    assert r["a_kb"] == ka.get(k) and r["b_kb"] == kb_.get(k), k
    assert r["d_kb"] == kb_.get(k, 0) - ka.get(k, 0), k
u = d["owners"][-1]
assert (u["a_kb"], u["b_kb"]) == (a["unexplained_kb"], b["unexplained_kb"])
assert d["a"]["ram_kb"] == a["ram_kb"] and d["b"]["ram_kb"] == b["ram_kb"]
PY
"$SLABACCT" diff --width 80 "$T" "$TEST_TMP/t2.dat" >"$TEST_TMP/d.txt" || fail "diff failed"
grep -q '^trace buffers \|^    trace buffers ' "$TEST_TMP/d.txt" || fail "diff: no budget table"
awk 'length > 80 { print; bad = 1 } END { exit bad }' "$TEST_TMP/d.txt" ||
	fail "diff: wider than 80 columns"
"$SLABACCT" diff --csv "$T" "$TEST_TMP/t2.dat" >"$TEST_TMP/d.csv" || fail "diff --csv failed"
assert_eq "diff --csv: budget rows" \
	"$(jq '.budget.owners | length' "$TEST_TMP/d.json")" \
	"$(grep -c '^budget,' "$TEST_TMP/d.csv" | awk '{ print $1 - 1 }')"
"$SLABACCT" diff "$TOP/tests/data/tracedat/small.dat" "$T" >"$TEST_TMP/d2.txt" ||
	fail "diff with an old trace failed"
grep -q '^# A: not available: no system snapshot at its end' "$TEST_TMP/d2.txt" ||
	fail "diff with an old trace: A not said"

# the HTML page (report --html, every section): the budget's treemap,
# one tile per drawn owner (a leaf, or a group whose owners are all 0,
# under groups above 0), the slab's tiles linking to the call sites, in
# headless Chromium with no network and no script error
"$SLABACCT" report --html "$TEST_TMP/t.html" "$T" || fail "report --html failed"
tiles=$(python3 - "$TEST_TMP/b.json" <<'PY'
import json, sys
rows = json.load(open(sys.argv[1]))["owners"]
n = 0
for i, r in enumerate(rows):
    if r["depth"] == 0 or r["kb"] <= 0:
        continue
    up, d = [], r["depth"]
    for q in reversed(rows[:i]):
        if q["depth"] < d:
            up.append(q)
            d = q["depth"]
    kids = []
    for q in rows[i + 1:]:
        if q["depth"] <= r["depth"]:
            break
        if q["depth"] == r["depth"] + 1:
            kids.append(q)
    if all(q["kb"] > 0 for q in up) and not any(q["kb"] > 0 for q in kids):
        n += 1
print(n)
PY
)
slab=$(jq '[.owners[] | select(.depth == 3 and (.key | startswith("slab.")) and .kb > 0)] | length' "$TEST_TMP/b.json")
node "$TOP/tests/browser/check-page.mjs" --html "$TEST_TMP/t.html" \
	--shot "$TOP/build/test-logs/budget-report.png" --sections budget \
	--count ".budget-tm .tile=$tiles|.budget-tm .tile.link=$slab" \
	--expect "Budget: where every page of RAM went|unexplained" \
	>"$TEST_TMP/page" 2>&1 || fail "the page: $(grep -v '^ok' "$TEST_TMP/page" | head -5)"
note "page: $tiles owner tiles, $slab of the slab"
"$SLABACCT" report --html "$TEST_TMP/old.html" "$TOP/tests/data/tracedat/small.dat" ||
	fail "report --html of an old trace failed"
! grep -q '"budget":' "$TEST_TMP/old.html" || fail "an old trace's page has a budget"

# an old trace (no snapshot), one without the budget's sources is said
# the same way: not available, exit 1, no figures
old=$TOP/tests/data/tracedat/small.dat
for f in text json csv; do
	"$SLABACCT" report --what budget --format $f "$old" >"$TEST_TMP/o.$f" 2>"$TEST_TMP/o.err"
	assert_eq "old trace, $f: exit status" 1 $?
	grep -q "no budget: the trace carries no system snapshot" "$TEST_TMP/o.err" ||
		fail "old trace, $f: $(cat "$TEST_TMP/o.err")"
	grep -q "not available\|\"available\" : false" "$TEST_TMP/o.$f" ||
		fail "old trace, $f: not said"
	! grep -q "ram_kb\|^RAM \|,owner," "$TEST_TMP/o.$f" || fail "old trace, $f: figures"
done
"$SLABACCT" record --no-snapshot -o "$TEST_TMP/n.dat" -- true >/dev/null 2>&1 ||
	fail "record --no-snapshot failed"
"$SLABACCT" report --what budget "$TEST_TMP/n.dat" >/dev/null 2>"$TEST_TMP/n.err"
assert_eq "--no-snapshot: exit status" 1 $?
grep -q "no system snapshot" "$TEST_TMP/n.err" || fail "--no-snapshot: $(cat "$TEST_TMP/n.err")"
# --what all is every event section, not the budget: as before
"$SLABACCT" report --what all "$T" >"$TEST_TMP/all.txt" || fail "--what all failed"
! grep -q '^== budget' "$TEST_TMP/all.txt" || fail "--what all shows the budget"
"$SLABACCT" report --what all "$old" >/dev/null || fail "--what all of an old trace failed"
exit 0
