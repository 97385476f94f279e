# slabacct budget on the small boards it is for: guests of kernel
# flavour $1 booted with 128 and 256 MB. The unexplained must stay under
# 1% of the RAM at both sizes (it was 3.2% and 1.6% on 6.1: owners
# allocated once at boot weigh most on small RAM). Booted with
# memblock=debug, the kernel logs each early allocation with its
# caller: the referee of the memory sections' root array is sparse_init's
# own memblock_alloc, and the log must show no swiotlb (none is set up
# below 4 GB), so that it cannot be hiding in the owners.
. "$(dirname "$0")/../../lib.sh"
flavour=${1:?kernel flavour}

cat >"$TEST_TMP/small.sh" <<'GUEST'
mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null
dmesg >$OUT/dmesg
cat /sys/kernel/tracing/dyn_ftrace_total_info >$OUT/ftrace
slabacct budget --json >$OUT/budget.json 2>$OUT/budget.err
echo $? >$OUT/rc
GUEST
for mb in 128 256; do
	guest_run "$flavour" "$TEST_TMP/small.sh" -t 300 -m $mb \
		-a "memblock=debug" || fail "guest run failed ($mb MB)"
	o=$TEST_TMP/out
	assert_eq "budget exit status ($mb MB)" 0 "$(cat "$o/rc")"
	python3 - "$o/budget.json" "$o/dmesg" "$o/ftrace" "$mb" <<'PY' ||
import json, re, sys
b = json.load(open(sys.argv[1]))
log = open(sys.argv[2]).read()
ftrace = open(sys.argv[3]).read()
mb = int(sys.argv[4])
rows = {r["key"]: r["kb"] for r in b["owners"]}
ram = b["ram_kb"]
assert ram // 1024 in (mb - 1, mb), f"RAM {ram} kB in a {mb} MB guest"
assert sum(r["kb"] for r in b["owners"] if r["leaf"]) == ram, "leaves != RAM"
# the section roots: the kernel's own allocation, to the kB
m = re.findall(r"memblock_alloc_try_nid: (\d+) bytes .* sparse_init\+", log)
assert len(m) == 1, f"sparse_init's allocations in the log: {m}"
assert rows.get("reserved.section_roots") == int(m[0]) // 1024, \
    (rows.get("reserved.section_roots"), m[0])
# the ftrace records: tracefs's pages, at most the log's at boot
pages = int(re.match(r"\d+ pages:(\d+) groups:", ftrace).group(1))
boot = int(re.search(r"ftrace: allocated (\d+) pages", log).group(1))
assert rows["ftrace_records"] == pages * 4 and pages <= boot, (pages, boot)
# the atomic DMA pools: what the pool code logged
dma = sum(int(k) for k in re.findall(r"DMA: preallocated (\d+) KiB", log))
assert dma > 0 and rows["dma_pools"] == dma, (rows.get("dma_pools"), dma)
assert "software IO TLB" not in log, "a swiotlb: not in the budget"
u = b["unexplained_kb"]
print(f"{mb} MB: unexplained {u} kB ({100.0 * u / ram:.2f}%): reserved "
      f"{rows['reserved.unexplained']} + page allocator "
      f"{rows['memtotal.unexplained']}; section roots "
      f"{rows['reserved.section_roots']}, ftrace {rows['ftrace_records']}, "
      f"DMA pools {rows['dma_pools']}")
assert abs(u) * 100 < ram, f"unexplained {u} kB is 1% or more of {ram} kB"
PY
		fail "budget at $mb MB"
	note "$flavour: $(python3 -c 'import json,sys; b=json.load(open(sys.argv[1])); print(sys.argv[2], "MB: unexplained", b["unexplained_kb"], "kB of", b["ram_kb"])' "$o/budget.json" $mb)"
done
exit 0
