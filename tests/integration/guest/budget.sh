# slabacct budget in a guest of kernel flavour $1 with 256 MB: the
# guest copies the files the budget reads (each read once), runs
# `slabacct budget --root` on that copy and live, and brings both back.
# Here tests/integration/budget-referee.py computes every owner from the
# copied files on its own and compares each with the budget, exactly,
# and the owners with the RAM, to the page. The live budget must add up
# the same way and agree with the copy where the kernel's figures do not
# move (RAM, MemTotal, the kernel image).
. "$(dirname "$0")/../../lib.sh"
flavour=${1:?kernel flavour}
command -v bpftool >/dev/null || fail "bpftool is missing (scripts/install-deps)"

cat >"$TEST_TMP/budget.sh" <<'GUEST'
T=/sys/kernel/tracing
mount -t tracefs nodev $T 2>/dev/null
R=$OUT/tree
mkdir -p $R/proc $R/dev $R/sys/kernel/tracing
for f in meminfo zoneinfo buddyinfo iomem vmallocinfo; do
	cat /proc/$f >$R/proc/$f
done
for d in /sys/firmware/memmap/*; do
	[ -d "$d" ] || continue
	n=${d##*/}
	mkdir -p $R/sys/firmware/memmap/$n
	for a in start end type; do cat $d/$a >$R/sys/firmware/memmap/$n/$a; done
done
cat $T/buffer_total_size_kb >$R/sys/kernel/tracing/buffer_total_size_kb
cat $T/dyn_ftrace_total_info >$R/sys/kernel/tracing/dyn_ftrace_total_info
dmesg >$R/dev/kmsg
# kcore's first pages: its ELF header and notes (VMCOREINFO)
head -c 262144 /proc/kcore >$R/proc/kcore
if [ -r /sys/kernel/btf/vmlinux ]; then
	mkdir -p $R/sys/kernel/btf
	cat /sys/kernel/btf/vmlinux >$R/sys/kernel/btf/vmlinux
fi
slabacct budget --json --root $R >$OUT/root.json 2>$OUT/root.err
echo $? >$OUT/root.rc
slabacct budget --json >$OUT/live.json 2>$OUT/live.err
echo $? >$OUT/live.rc
slabacct budget >$OUT/live.txt 2>&1
slabacct budget --csv >$OUT/live.csv 2>&1
# 4 MB a CPU more of trace buffers, in an instance: taken from the page
# allocator, they must show under trace buffers and not as unexplained
slabacct budget --json >$OUT/before.json 2>&1
mkdir $T/instances/budget-test
echo 4096 >$T/instances/budget-test/buffer_size_kb
cat $T/instances/budget-test/buffer_total_size_kb >$OUT/instance_kb
slabacct budget --json >$OUT/after.json 2>&1
GUEST
# memblock=debug: the log names each boot allocation and its caller,
# the kernel's own figure for the section roots (sparse_init)
guest_run "$flavour" "$TEST_TMP/budget.sh" -t 300 -m 256 -a memblock=debug ||
	fail "guest run failed"
o=$TEST_TMP/out
assert_eq "budget --root exit status" 0 "$(cat "$o/root.rc")"
assert_eq "budget live exit status" 0 "$(cat "$o/live.rc")"

# every owner against the guest's own files, and the sum
python3 "$TOP/tests/integration/budget-referee.py" "$o/tree" "$o/root.json" \
	>"$TEST_TMP/ref" 2>&1 || fail "$(cat "$TEST_TMP/ref")"
note "$flavour: $(cat "$TEST_TMP/ref")"

# live: the arithmetic, and the figures that do not move
python3 - "$o/live.json" "$o/root.json" <<'PY' || fail "live budget"
import json, sys
live, root = (json.load(open(p)) for p in sys.argv[1:3])
rows = live["owners"]
leaves = sum(r["kb"] for r in rows if r["leaf"])
assert leaves == live["ram_kb"], f"leaves {leaves} != RAM {live['ram_kb']}"
assert live["ram_kb"] % (live["page_size"] // 1024) == 0
assert live["unexplained_kb"] == sum(r["kb"] for r in rows if r["unexplained"])
kb = lambda b, k: next(r["kb"] for r in b["owners"] if r["key"] == k)
for k in ("ram", "memtotal", "reserved", "reserved.kernel_image",
          "reserved.struct_pages", "reserved.section_roots",
          "reserved.percpu_first_chunk", "reserved.unexplained"):
    assert kb(live, k) == kb(root, k), f"{k}: live {kb(live, k)}, copy {kb(root, k)}"
PY
# the section roots against the kernel's own log of the allocation
python3 - "$o/tree/dev/kmsg" "$o/root.json" <<'PY' || fail "section roots"
import json, re, sys
log, b = open(sys.argv[1]).read(), json.load(open(sys.argv[2]))
m = re.search(r"memblock_alloc\w*: (\d+) bytes .* sparse_init\+", log)
assert m, "no memblock allocation from sparse_init in the log"
got = {r["key"]: r["kb"] for r in b["owners"]}.get("reserved.section_roots")
print(f"sparse_init allocated {m.group(1)} bytes; budget {got} kB")
assert got is not None and got * 1024 == int(m.group(1)), (got, m.group(1))
PY
# the instance's buffers: all of them under trace buffers, MemFree
# gives them, and the page allocator's unexplained does not take them
python3 - "$o/before.json" "$o/after.json" "$(cat "$o/instance_kb")" <<'PY' ||
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
inst = int(sys.argv[3].split()[0])
kb = lambda j, k: next(r["kb"] for r in j["owners"] if r["key"] == k)
d = {k: kb(b, k) - kb(a, k) for k in
     ("trace_buffers", "free", "memtotal.unexplained", "slab")}
print(f"instance {inst} kB; changes: {d}")
assert inst >= 4096 and d["trace_buffers"] == inst, d
assert -d["free"] >= inst, d
# the reader page of each CPU and the instance's own pages are not in
# buffer_total_size_kb: a few pages, far below the buffers' size
assert abs(d["memtotal.unexplained"]) < inst // 4, d
PY
	fail "trace buffers of a new instance"

# the text stays under 80 columns and shows the unexplained line
awk 'length > 80 { print FILENAME ": " $0; bad = 1 } END { exit bad }' \
	"$o/live.txt" || fail "text wider than 80 columns"
grep -q '^unexplained ' "$o/live.txt" || fail "no unexplained line in the text"
# CSV (another moment): the same owners as the JSON, adding up the same
python3 - "$o/live.csv" "$o/live.json" <<'PY' || fail "CSV and JSON differ"
import csv, json, sys
rows = [r for r in csv.DictReader(open(sys.argv[1])) if r["section"] == "owner"]
j = json.load(open(sys.argv[2]))["owners"]
assert [r["key"] for r in rows] == [r["key"] for r in j]
ram = int(rows[0]["kb"])
assert sum(int(r["kb"]) for r in rows if r["leaf"] == "1") == ram
PY
exit 0
