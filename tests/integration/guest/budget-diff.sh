# `slabacct diff` of two budgets: the same kernel of flavour $1 booted
# twice in 256 MB, with trace_buf_size=1024K and =4096K (and a boot-time
# event, so that the buffers are allocated at that size at boot), each
# recording a moment of kmem events. The budgets stored in the two traces
# must differ under trace buffers by at least what tracefs says the top
# buffer grew, with the free memory giving it (MemFree, the kernel's
# count, is the referee: it falls by that, less at most the 256 kB of
# noise two boots have, and by no more than a tenth more); in slab by
# the ring buffer's page descriptors (one small object a page, 1/64 of
# the growth: at most 1/16 with the noise); and nowhere else beyond the
# noise (256 kB an owner). The RAM does not move at all, and what else
# is fixed at boot (reserved, MemTotal) by at most the page or two that
# moves between boots (4 kB seen on 6.12-cloud).
. "$(dirname "$0")/../../lib.sh"
flavour=${1:?kernel flavour}

cat >"$TEST_TMP/bd.sh" <<'GUEST'
mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null
cat /sys/kernel/tracing/buffer_total_size_kb >$OUT/total_kb
slabacct record -e kmem -o $OUT/t.dat -- sleep 0.2 >$OUT/rec.log 2>&1
echo $? >$OUT/rc
GUEST
for s in 1024 4096; do
	guest_run "$flavour" "$TEST_TMP/bd.sh" -t 300 -m 256 \
		-a "trace_buf_size=${s}K trace_event=kmem:kmalloc" ||
		fail "guest run failed (trace_buf_size=${s}K)"
	assert_eq "record exit status (trace_buf_size=${s}K)" 0 \
		"$(cat "$TEST_TMP/out/rc")"
	cp "$TEST_TMP/out/t.dat" "$TEST_TMP/$s.dat"
	cp "$TEST_TMP/out/total_kb" "$TEST_TMP/$s.total"
done
"$SLABACCT" diff --json "$TEST_TMP/1024.dat" "$TEST_TMP/4096.dat" \
	>"$TEST_TMP/d.json" || fail "slabacct diff failed"
"$SLABACCT" diff "$TEST_TMP/1024.dat" "$TEST_TMP/4096.dat" \
	>"$TEST_TMP/d.txt" || fail "slabacct diff (text) failed"
grep -q '^    trace buffers ' "$TEST_TMP/d.txt" ||
	fail "no trace buffers line in the text diff"
python3 - "$TEST_TMP/d.json" "$(cat "$TEST_TMP/1024.total")" \
	"$(cat "$TEST_TMP/4096.total")" <<'PY' || fail "the budgets' diff"
import json, sys
d = json.load(open(sys.argv[1]))["budget"]
grew = int(sys.argv[3].split()[0]) - int(sys.argv[2].split()[0])
assert d["a"]["available"] and d["b"]["available"], d["a"]
rows = {r["key"]: r for r in d["owners"]}
dk = {k: r["d_kb"] for k, r in rows.items()}
print(f"top buffer grew {grew} kB; trace buffers {dk['trace_buffers']:+}, "
      f"free {dk['free']:+}, slab {dk['slab']:+}, "
      f"unexplained {dk['memtotal.unexplained']:+}")
assert grew > 0 and dk["trace_buffers"] >= grew, (grew, dk["trace_buffers"])
t = dk["trace_buffers"]
assert t - 256 <= -dk["free"] <= t + t // 10, (t, dk["free"])
assert -256 <= dk["slab"] <= t // 16, (t, dk["slab"])
assert dk["ram"] == 0, dk["ram"]
# fixed at boot, but for a page or two that moves between boots
fixed = [k for k in dk if k in ("ram", "reserved", "memtotal")
         or k.startswith("reserved.")]
for k in fixed:
    assert abs(dk[k]) <= 16, (k, dk[k])
skip = {"trace_buffers", "free", "free.buddy", "free.pcp", "slab",
        "slab.reclaimable", "slab.unreclaimable"}
for k, v in dk.items():
    if k not in skip and k not in fixed and rows[k]["leaf"]:
        assert abs(v) <= 256, (k, v)
PY
note "$flavour: $(python3 -c 'import json,sys; d={r["key"]: r["d_kb"] for r in json.load(open(sys.argv[1]))["budget"]["owners"]}; print("trace buffers", d["trace_buffers"], "free", d["free"], "slab", d["slab"])' "$TEST_TMP/d.json")"
exit 0
