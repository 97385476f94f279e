# slabacct boot cmdline sizes a board's boot trace within its budget,
# computed here by hand: (MB - 108) / 2 for all CPUs' buffers, at most
# 192 MB, each CPU a whole-MB share; a typical boot's estimate (24M
# without stacks, 149M with a stack after every event) when it fits
# (exit 0), the CPU's share when it does not (exit 4, with what to
# drop, --until init among it); --until init sizes for the kernel's boot
# to /init (5M); --maxcpus N adds maxcpus=N and shares the budget by N; a board
# too small, a --buffer-size over the budget and a symbol file that is
# not one are refused (exit 2). --hist adds the kernel's histograms of
# the allocations to trace_trigger= where the symbols have both
# setup_trace_triggers and event_hist_trigger_parse, and is refused
# (exit 2, nothing printed) where either is missing (6.1's shape: hist
# triggers but no boot triggers). Per architecture (--arch, or the
# symbols'): ARM's typical boot and arm64's 48 MB cap. No root, no
# tracefs.
. "$(dirname "$0")/../../lib.sh"

# run EXPECTED_STATUS ARGS...: stdout in $TEST_TMP/out, stderr in err
run() {
	local want=$1 rc
	shift
	"$SLABACCT" boot cmdline "$@" >"$TEST_TMP/out" 2>"$TEST_TMP/err"
	rc=$?
	[ "$rc" = "$want" ] || fail "boot cmdline $* exited $rc, expected $want: $(cat "$TEST_TMP/err")"
}
size() { sed -n 's/.*trace_buf_size=\([0-9]*M\).*/\1/p' "$TEST_TMP/out"; }

run 0 -q --mem 1024 --cpus 2
assert_eq "1 GB, 2 CPUs" 24M "$(size)"
run 4 --mem 128 --cpus 2
assert_eq "128 MB, 2 CPUs: (128 - 108) / 2 / 2" 5M "$(size)"
grep -q 'needs 24 MB on its busiest CPU, and the budget gives 5 MB per CPU' "$TEST_TMP/err" ||
	fail "no budget said: $(cat "$TEST_TMP/err")"
grep -q -- '--maxcpus 1: the boot runs on one CPU, maxcpus=1): one buffer of 10 MB$' "$TEST_TMP/err" ||
	fail "no CPU to drop said: $(cat "$TEST_TMP/err")"
grep -q -- '^  user space (--until init: /init stops tracing first thing): 5 MB, fits$' "$TEST_TMP/err" ||
	fail "no user space to drop said: $(cat "$TEST_TMP/err")"
# the kernel's boot to /init: 72,000 x 56 bytes + 1,000 x 24, + 25%
run 0 --mem 128 --cpus 2 --until init
assert_eq "128 MB, 2 CPUs, until /init" 5M "$(size)"
grep -q '^#   kmem           72000 events' "$TEST_TMP/err" || fail "$(cat "$TEST_TMP/err")"
run 2 -q --mem 128 --cpus 2 --until login
grep -q "unknown --until 'login'" "$TEST_TMP/err" || fail "$(cat "$TEST_TMP/err")"
run 0 -q --mem 256 --cpus 2 -e all
assert_eq "256 MB, 2 CPUs, every group: fits" 33M "$(size)"
run 4 -q --mem 200 --cpus 2 -e all
assert_eq "200 MB, 2 CPUs, every group: (200 - 108) / 2 / 2" 23M "$(size)"
run 0 -q --mem 256 --cpus 3 --maxcpus 1
assert_eq "256 MB, 1 of 3 CPUs" 24M "$(size)"
case $(cat "$TEST_TMP/out") in *" maxcpus=1") ;; *) fail "no maxcpus=1: $(cat "$TEST_TMP/out")" ;; esac
run 0 -q --mem 4096 --cpus 4 --budget 200
assert_eq "--budget 200, 4 CPUs" 24M "$(size)"
run 4 -q --mem 4096 --cpus 16
assert_eq "4 GB, 16 CPUs: the 192 MB cap / 16" 12M "$(size)"

# a stack after every event where the kernel has no boot triggers
printf '%s\n' 'ffffffff81000000 T _text' 'ffffffff81001000 T kstrdup' >"$TEST_TMP/syms"
run 4 --mem 1024 --cpus 2 --stacks --kernel-symbols "$TEST_TMP/syms"
assert_eq "1 GB, 2 CPUs, stacks: the cap / 2" 96M "$(size)"
grep -q 'slab_account.ko' "$TEST_TMP/err" || fail "no module offered: $(cat "$TEST_TMP/err")"
grep -q 'stacks (no --stacks): 24 MB, fits' "$TEST_TMP/err" || fail "no stacks to drop: $(cat "$TEST_TMP/err")"
run 0 -q --mem 1024 --cpus 1 --stacks --kernel-symbols "$TEST_TMP/syms"
assert_eq "1 GB, 1 CPU, stacks (kmem and boot)" 149M "$(size)"

# per architecture: an ARM boot is 80,000 kmem events (x 56 bytes, +
# 25%: 6M), and arm64's buffers take at most 48 MB in all (the 96 MB its
# kernel has when it allocates them); the architecture is that of the
# symbols (__arm64_sys_read, vector_swi), or --arch, which must agree
run 0 --mem 1024 --cpus 2 --arch arm64
assert_eq "arm64, 1 GB, 2 CPUs" 6M "$(size)"
grep -q '^#   kmem           80000 events' "$TEST_TMP/err" || fail "$(cat "$TEST_TMP/err")"
grep -q 'the most the early boot can allocate on arm64; 24 MB per CPU' "$TEST_TMP/err" ||
	fail "no arm64 cap said: $(cat "$TEST_TMP/err")"
run 0 -q --mem 128 --cpus 1 --arch armhf
assert_eq "armhf, 128 MB, 1 CPU: 80,000 events fit its 10 MB" 6M "$(size)"
printf '%s\n' 'ffff800008010000 T _text' 'ffff8000080a0000 T __arm64_sys_read' >"$TEST_TMP/arm64syms"
# 80,000 x (56 + 296) + 3,000 x (24 + 296) bytes, + 25%: 35M, within 48
run 0 -q --mem 1024 --cpus 2 --maxcpus 1 --stacks --kernel-symbols "$TEST_TMP/arm64syms"
assert_eq "arm64 symbols, 1 GB, 1 CPU, stacks" 35M "$(size)"
# two CPUs: 48 / 2 each, under it
run 4 --mem 1024 --cpus 2 --stacks --kernel-symbols "$TEST_TMP/arm64syms"
assert_eq "arm64 symbols, 1 GB, 2 CPUs, stacks: 48 / 2" 24M "$(size)"
run 0 -q --mem 1024 --cpus 2 --arch arm64 --budget 90
assert_eq "arm64, --budget 90, 2 CPUs" 6M "$(size)"
run 2 -q --arch x86_64 --kernel-symbols "$TEST_TMP/arm64syms"
grep -q 'is an arm64 kernel' "$TEST_TMP/err" || fail "$(cat "$TEST_TMP/err")"
run 2 -q --arch sparc
grep -q "unknown --arch 'sparc'" "$TEST_TMP/err" || fail "$(cat "$TEST_TMP/err")"

run 2 -q --mem 100 --cpus 2
grep -q 'leave no buffer' "$TEST_TMP/err" || fail "$(cat "$TEST_TMP/err")"
run 2 -q --mem 128 --cpus 2 --buffer-size 8192
grep -q 'over the budget of 5120 KB per CPU' "$TEST_TMP/err" || fail "$(cat "$TEST_TMP/err")"
run 2 -q --stacks --kernel-symbols /nonexistent/System.map
echo 'hello' >"$TEST_TMP/notsyms"
run 2 -q --stacks --kernel-symbols "$TEST_TMP/notsyms"
grep -q 'not a symbol file' "$TEST_TMP/err" || fail "$(cat "$TEST_TMP/err")"
run 2 -q --mem -1

# --hist
h='kmalloc.hist:keys=call_site.sym-offset:vals=bytes_alloc:size=2048,kmalloc.hist:keys=call_site.sym-offset:vals=bytes_req:size=2048,kmem_cache_alloc.hist:keys=call_site.sym-offset:vals=bytes_alloc:size=2048,kmem_cache_alloc.hist:keys=call_site.sym-offset:vals=bytes_req:size=2048'
printf '%s\n' 'ffffffff81000000 T _text' 'ffffffff81000100 t setup_trace_triggers' \
	'ffffffff81000200 t event_hist_trigger_parse' 'ffffffff81001000 T kstrdup' >"$TEST_TMP/hsyms"
run 0 --mem 128 --cpus 2 -e boot --hist --kernel-symbols "$TEST_TMP/hsyms"
assert_eq "--hist -e boot, 128 MB" "trace_event=initcall:initcall_level,initcall:initcall_finish,sched:sched_process_exec trace_buf_size=1M trace_clock=global trace_trigger=\"$h\"" "$(cat "$TEST_TMP/out")"
grep -q '4 histograms of 2048 call sites' "$TEST_TMP/err" || fail "no cost said: $(cat "$TEST_TMP/err")"
run 0 -q --mem 128 --cpus 2 -e boot --hist --hist-size 128 --kernel-symbols "$TEST_TMP/hsyms"
assert_eq "--hist-size 128: four maps of 128" 4 "$(grep -o 'size=128\b' "$TEST_TMP/out" | wc -l)"
# with --stacks: one trace_trigger, the stack triggers first
run 0 -q --mem 1024 --cpus 2 --stacks --hist --kernel-symbols "$TEST_TMP/hsyms"
grep -qF " trace_trigger=\"kmalloc.stacktrace if call_site.function == kstrdup,$h\"" "$TEST_TMP/out" ||
	fail "--stacks --hist: $(cat "$TEST_TMP/out")"
for n in 1000 64 262144; do
	run 2 -q --hist --hist-size $n --kernel-symbols "$TEST_TMP/hsyms"
	grep -q "bad --hist-size $n (a power of two, 128 to 131072)" "$TEST_TMP/err" || fail "$(cat "$TEST_TMP/err")"
done
# 6.1's shape: hist triggers, no boot triggers
printf '%s\n' 'ffffffff81000000 T _text' 'ffffffff81000200 t event_hist_trigger_parse' >"$TEST_TMP/61syms"
run 2 -q --hist --kernel-symbols "$TEST_TMP/61syms"
grep -q 'takes no trigger on its command line (no setup_trace_triggers in' "$TEST_TMP/err" || fail "$(cat "$TEST_TMP/err")"
[ -s "$TEST_TMP/out" ] && fail "parameters printed where --hist is refused: $(cat "$TEST_TMP/out")"
printf '%s\n' 'ffffffff81000000 T _text' 'ffffffff81000100 t setup_trace_triggers' >"$TEST_TMP/nohist"
run 2 -q --hist --kernel-symbols "$TEST_TMP/nohist"
grep -q 'built without CONFIG_HIST_TRIGGERS' "$TEST_TMP/err" || fail "$(cat "$TEST_TMP/err")"
run 2 -q --hist --kernel-symbols /nonexistent/System.map
grep -q -- '--hist needs the kernel' "$TEST_TMP/err" || fail "$(cat "$TEST_TMP/err")"
exit 0
