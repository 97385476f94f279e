#!/bin/bash
# slabacct budget on this host. Its files are copied once (each read
# once, as a referee's own reading), `slabacct budget --root` reads the
# copy, and tests/integration/budget-referee.py computes every owner
# from the same files on its own: each must be equal, and the owners
# must add up to the RAM to the page. The live budget (read a moment
# later) must add up the same way and agree on what does not move (RAM,
# MemTotal, the kernel image). Then golden outputs of a captured guest,
# and the error paths.
. "$(dirname "$0")/../../lib.sh"
need_root
[ -x "$SLABACCT" ] || fail "build/slabacct is missing (run make)"
command -v dmesg >/dev/null || fail "dmesg is missing"
command -v bpftool >/dev/null || fail "bpftool is missing (scripts/install-deps)"

R=$TEST_TMP/tree
mkdir -p "$R/proc" "$R/dev" "$R/sys/firmware/memmap"
for f in meminfo zoneinfo buddyinfo iomem vmallocinfo; do
	cat /proc/$f >"$R/proc/$f" || fail "cannot read /proc/$f"
done
for d in /sys/firmware/memmap/*; do
	[ -d "$d" ] || continue
	mkdir -p "$R/sys/firmware/memmap/${d##*/}"
	for a in start end type; do
		cat "$d/$a" >"$R/sys/firmware/memmap/${d##*/}/$a"
	done
done
for t in /sys/kernel/tracing /sys/kernel/debug/tracing; do
	[ -r $t/buffer_total_size_kb ] || continue
	mkdir -p "$R$t"
	cat $t/buffer_total_size_kb >"$R$t/buffer_total_size_kb"
	for i in $t/instances/*/; do
		[ -r "$i/buffer_total_size_kb" ] || continue
		mkdir -p "$R$i"
		cat "$i/buffer_total_size_kb" >"$R$i/buffer_total_size_kb"
	done
	break
done
dmesg >"$R/dev/kmsg" || fail "dmesg failed"
if [ -r /sys/kernel/btf/vmlinux ]; then
	mkdir -p "$R/sys/kernel/btf"
	cat /sys/kernel/btf/vmlinux >"$R/sys/kernel/btf/vmlinux"
fi

"$SLABACCT" budget --json --root "$R" >"$TEST_TMP/root.json" ||
	fail "budget --root failed"
python3 "$TOP/tests/integration/budget-referee.py" "$R" "$TEST_TMP/root.json" \
	>"$TEST_TMP/ref" 2>&1 || fail "$(cat "$TEST_TMP/ref")"
note "host $(uname -r): $(cat "$TEST_TMP/ref")"

"$SLABACCT" budget --json >"$TEST_TMP/live.json" || fail "budget failed"
python3 - "$TEST_TMP/live.json" "$TEST_TMP/root.json" <<'PY' || fail "live budget"
import json, sys
live, root = (json.load(open(p)) for p in sys.argv[1:3])
rows = live["owners"]
leaves = sum(r["kb"] for r in rows if r["leaf"])
assert leaves == live["ram_kb"], f"leaves {leaves} != RAM {live['ram_kb']}"
assert live["ram_kb"] % (live["page_size"] // 1024) == 0
assert live["unexplained_kb"] == sum(r["kb"] for r in rows if r["unexplained"])
assert live["schema_version"] == 1 and live["kind"] == "slabacct-budget"
kb = lambda b, k: next((r["kb"] for r in b["owners"] if r["key"] == k), None)
for k in ("ram", "memtotal", "reserved", "reserved.kernel_image",
          "reserved.struct_pages",
          "reserved.unexplained"):
    # the kernel image comes from the log's "Memory:" line, which a
    # long-running host's log may have dropped: then from neither
    if k == "reserved.kernel_image" and kb(root, k) is None:
        assert kb(live, k) is None, "kernel image live, not in the copy"
        print("# the kernel log has no 'Memory:' line any more: no "
              "kernel image owner (live and copy alike)")
        continue
    assert kb(live, k) is not None, f"{k}: not in the live budget"
    assert kb(live, k) == kb(root, k), f"{k}: live {kb(live, k)}, copy {kb(root, k)}"
PY

# text: a tree within 80 columns with the unexplained line; CSV: the
# owners of the JSON, adding up the same
"$SLABACCT" budget --root "$R" >"$TEST_TMP/b.txt" || fail "budget (text) failed"
awk 'length > 80 { print; bad = 1 } END { exit bad }' "$TEST_TMP/b.txt" ||
	fail "text wider than 80 columns"
grep -q '^unexplained ' "$TEST_TMP/b.txt" || fail "no unexplained line"
"$SLABACCT" budget --csv --root "$R" >"$TEST_TMP/b.csv" || fail "budget --csv failed"
python3 - "$TEST_TMP/b.csv" "$TEST_TMP/root.json" <<'PY' || fail "CSV and JSON differ"
import csv, json, sys
rows = [r for r in csv.DictReader(open(sys.argv[1])) if r["section"] == "owner"]
j = json.load(open(sys.argv[2]))["owners"]
assert [(r["key"], int(r["kb"])) for r in rows] == [(r["key"], r["kb"]) for r in j]
PY

# the RAM from the firmware's map when iomem is not readable, and from
# the zones without either; without the kernel log its lines are said
mv "$R/proc/iomem" "$TEST_TMP/iomem"
"$SLABACCT" budget --json --root "$R" >"$TEST_TMP/memmap.json" || fail "budget (memmap) failed"
python3 "$TOP/tests/integration/budget-referee.py" "$R" "$TEST_TMP/memmap.json" \
	>"$TEST_TMP/ref" 2>&1 || fail "memmap: $(cat "$TEST_TMP/ref")"
rm -rf "$R/sys/firmware/memmap" "$R/dev/kmsg" "$R/sys/kernel/btf"
"$SLABACCT" budget --json --root "$R" >"$TEST_TMP/zones.json" || fail "budget (zones) failed"
python3 "$TOP/tests/integration/budget-referee.py" "$R" "$TEST_TMP/zones.json" \
	>"$TEST_TMP/ref" 2>&1 || fail "zoneinfo: $(cat "$TEST_TMP/ref")"
assert_eq "notes without the log" 1,1 \
	"$(jq -r '[([.notes[] | select(startswith("kmsg not available"))] | length),
		([.notes[] | select(startswith("percpu: the first chunk"))] | length)] | join(",")' \
		"$TEST_TMP/zones.json")"

# the captured 6.1 guest (tests/data/proc/6.1-budget) in each format,
# against its golden file (UPDATE=1 rewrites them after an intended
# change); read from inside the tree, so that the notes' paths are too
gold=$TOP/tests/data/budget
for f in text json csv; do
	(cd "$TOP/tests/data/proc/6.1-budget" && "$SLABACCT" budget --format $f --root .) \
		>"$TEST_TMP/6.1.$f" || fail "budget --format $f of the 6.1 tree"
	if [ "${UPDATE:-0}" = 1 ]; then
		cp "$TEST_TMP/6.1.$f" "$gold/6.1.$f"
	else
		diff -u "$gold/6.1.$f" "$TEST_TMP/6.1.$f" >&2 ||
			fail "budget --format $f differs from tests/data/budget/6.1.$f"
	fi
done

# errors: no meminfo is a failure (1), bad usage is 2
rm "$R/proc/meminfo"
"$SLABACCT" budget --root "$R" >/dev/null 2>"$TEST_TMP/err"
assert_eq "no meminfo: exit status" 1 $?
grep -q 'meminfo' "$TEST_TMP/err" || fail "no meminfo: $(cat "$TEST_TMP/err")"
"$SLABACCT" budget --csv --raw >/dev/null 2>&1
assert_eq "--raw with --csv: exit status" 2 $?
"$SLABACCT" budget --format xml >/dev/null 2>&1
assert_eq "--format xml: exit status" 2 $?
"$SLABACCT" budget extra >/dev/null 2>&1
assert_eq "an argument: exit status" 2 $?
exit 0
