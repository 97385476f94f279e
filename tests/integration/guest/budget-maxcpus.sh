# The trace buffers of a CPU that never came up: a guest of kernel flavour
# $1 with 2 CPUs booted on one (maxcpus=1, as the demos boot) grows its
# top buffer to 32 MB a CPU (at 256 MB; 16 MB at 128 MB, where about 35
# MB are free). tracefs's buffer_total_size_kb then counts the second
# CPU too (64 MB), but the kernel allocated only the first's.
# The referee is the kernel's own free memory: the budget's trace buffers
# must grow by what MemFree lost to them, one CPU's worth, and the page
# allocator's unexplained line must not take the difference (it took
# -32 MB when the budget summed buffer_total_size_kb).
. "$(dirname "$0")/../../lib.sh"
flavour=${1:?kernel flavour}

cat >"$TEST_TMP/budget.sh" <<'GUEST'
T=/sys/kernel/tracing
mount -t tracefs nodev $T 2>/dev/null
cat /sys/devices/system/cpu/online >$OUT/online
slabacct budget --json >$OUT/before.json 2>&1
echo $(cat /size_kb) >$T/buffer_size_kb
cat $T/buffer_total_size_kb >$OUT/total_kb
cat $T/per_cpu/cpu0/buffer_size_kb >$OUT/cpu0_kb
slabacct budget --json >$OUT/after.json 2>&1
echo $? >$OUT/rc
echo 7 >$T/buffer_size_kb
GUEST
for m in "256 32768" "128 16384"; do
	set -- $m
	mb=$1 size=$2
	echo $size >"$TEST_TMP/size_kb"
	guest_run "$flavour" "$TEST_TMP/budget.sh" -t 300 -m $mb --smp 2 \
		-f "$TEST_TMP/size_kb:/size_kb" -a "maxcpus=1" ||
		fail "guest run failed ($mb MB)"
	o=$TEST_TMP/out
	assert_eq "CPUs online" 0 "$(cat "$o/online")"
	assert_eq "budget exit status" 0 "$(cat "$o/rc")"
	python3 - "$o/before.json" "$o/after.json" "$(cat "$o/total_kb")" \
		"$(cat "$o/cpu0_kb")" $size <<'PY' || fail "trace buffers of a CPU that never came up ($mb MB)"
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
total, cpu0 = int(sys.argv[3].split()[0]), int(sys.argv[4].split()[0])
size = int(sys.argv[5])
kb = lambda j, k: next(r["kb"] for r in j["owners"] if r["key"] == k)
d = {k: kb(b, k) - kb(a, k) for k in
     ("trace_buffers", "free", "memtotal.unexplained")}
print(f"buffer_total_size_kb {total}, cpu0 {cpu0}; changes: {d}")
# the case is the one meant: the total counts a CPU with no buffer
assert cpu0 >= size and total == 2 * cpu0, (total, cpu0)
assert kb(b, "trace_buffers") == cpu0, kb(b, "trace_buffers")
# MemFree gave one CPU's buffer (its pages, and a few of bookkeeping)
assert cpu0 <= -d["free"] < cpu0 + cpu0 // 4, d
assert abs(d["memtotal.unexplained"]) < cpu0 // 4, d
PY
	note "$flavour, $mb MB: one CPU of two up; trace buffers = its $((size / 1024)) MB, not $((size / 512))"
done
