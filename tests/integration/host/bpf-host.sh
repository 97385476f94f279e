# The BPF tools live on this machine: exact counts from the test programs
# (memleak, brkstack, mmapsnoop, shmsnoop, faults), memleak's --older and
# --sample-rate, folded stacks, pmc's hardware path or its fallback
# (whichever this CPU allows), kprobe tools' clear refusal where the
# kernel has no kprobes, and the usage errors.
. "$(dirname "$0")/../../lib.sh"
need_root
command -v jq >/dev/null || fail "jq is missing (scripts/install-deps)"
B=$TOP/build/tests/bpf
S=$SLABACCT
for p in leaker memops mallocbench prefixed; do
	[ -x "$B/$p" ] || fail "$B/$p is missing (make all)"
done
[ -e /sys/kernel/btf/vmlinux ] || fail "this kernel has no BTF; the BPF tools need it"
cd "$TEST_TMP" || exit 1

# memleak: 40 of each kind, each from its own function
$S memleak --json -c "$B/leaker 40" >ml.json 2>ml.err || fail "memleak: $(cat ml.err)"
m=$(tail -n 1 ml.json)
for f in leak_malloc leak_calloc leak_realloc leak_memalign leak_aligned; do
	assert_eq "memleak $f" 40 "$(jq --arg f $f '[.stacks[] |
		select(.frames[0] | startswith($f + "+")) | .allocations] |
		add // 0' <<<"$m")"
done
assert_eq "memleak churn" 0 "$(jq '[.stacks[] | select(any(.frames[];
	startswith("churn+")))] | length' <<<"$m")"
# 1 MiB blocks, which glibc's allocators get by mmap from inside
# themselves: each still at its own function, with its exact bytes, and
# its whole stack (the probed mmap nested in malloc is the same
# allocation, not one of libc's own)
$S memleak --json -c "$B/leaker 5 large" >mlb.json 2>mlb.err ||
	fail "memleak, large: $(cat mlb.err)"
m=$(tail -n 1 mlb.json)
big=1048576
for fb in "leak_malloc $((5 * (big + 100) + 10))" \
	  "leak_calloc $((5 * 2 * (big / 2 + 50)))" \
	  "leak_realloc $((5 * (big + 4000)))" \
	  "leak_memalign $((5 * (big + 300)))" \
	  "leak_aligned $((5 * 256 * (big / 256 + 1)))"; do
	set -- $fb
	assert_eq "memleak large $1: allocations, bytes, cut" "5 $2 false" \
		"$(jq -r --arg f $1 '[.stacks[] | select(.frames[0] |
		startswith($f + "+"))] | "\(map(.allocations) | add // 0) \(
		map(.bytes) | add // 0) \(map(.stack_cut) | any)"' <<<"$m")"
done
assert_eq "memleak large: stacks inside libc's allocator" 0 \
	"$(jq '[.stacks[] | select(.frames[0] | test("libc"))] | length' <<<"$m")"
# a stack deeper than the stack map keeps is marked cut
$S memleak --json -c "$B/leaker 3 deep" >mld.json 2>mld.err ||
	fail "memleak, deep: $(cat mld.err)"
assert_eq "memleak deep: allocations, frames kept, cut" "3 127 true" \
	"$(tail -n 1 mld.json | jq -r '[.stacks[] | select(.frames[0] |
	startswith("leak_malloc+"))][0] | "\(.allocations) \(.frames |
	length) \(.stack_cut)"')"
$S memleak -c "$B/leaker 3 deep" >mld.txt 2>&1 || fail "memleak deep text: $(cat mld.txt)"
grep -q '^		\[stack cut: ' mld.txt || fail "memleak text: the cut stack is not marked"
# the text report says the same
$S memleak -c "$B/leaker 40" >ml.txt 2>&1 || fail "memleak text: $(cat ml.txt)"
grep -Eq '^	[0-9]+ bytes in 40 allocations, oldest [0-9]+ ms, pid [0-9]+ \(leaker\):$' ml.txt ||
	fail "memleak text: no '... in 40 allocations' line: $(head -n 20 ml.txt)"
grep -q '^		leak_malloc+0x[0-9a-f]* \[leaker\]$' ml.txt ||
	fail "memleak text: leak_malloc not symbolised"
# -p: a running process, which leaks once the probes are attached
"$B/leaker" 30 wait &
lp=$!
$S memleak --json -p $lp 3 1 >lp.json 2>lp.err &
mp=$!
for i in $(seq 300); do grep -q 'probes attached' lp.err && break; sleep 0.1; done
kill -USR1 $lp
wait $mp || fail "memleak -p: $(cat lp.err)"
kill $lp
assert_eq "memleak -p leak_malloc" 30 "$(tail -n 1 lp.json | jq '[.stacks[] |
	select(.frames[0] | startswith("leak_malloc+")) | .allocations] | add // 0')"

# -c with COUNT reached first: one report, then the command is killed
$S memleak --json -c "$B/leaker 7 wait" 1 1 >early.json 2>early.err ||
	fail "memleak -c, ended early: $(cat early.err)"
assert_eq "memleak -c ended early: reports" 1 "$(grep -c schema_version early.json)"
pgrep -f "leaker 7 wait" >/dev/null && fail "memleak -c left its command running"

# --lib: another allocator (jemalloc, preloaded), the same exact counts
J=/usr/lib/x86_64-linux-gnu/libjemalloc.so.2
[ -f $J ] || fail "$J is missing (scripts/install-deps)"
$S memleak --json --lib $J -c "env LD_PRELOAD=$J $B/leaker 40" >je.json 2>je.err ||
	fail "memleak --lib jemalloc: $(cat je.err)"
for f in leak_malloc leak_calloc leak_realloc leak_memalign leak_aligned; do
	assert_eq "memleak --lib jemalloc $f" 40 "$(tail -n 1 je.json | jq --arg f $f \
		'[.stacks[] | select(.frames[0] | startswith($f + "+")) |
		.allocations] | add // 0')"
done
# --symbol-prefix: an allocator whose functions are xx_malloc, xx_free
$S memleak --json --lib $B/prefixed --symbol-prefix xx_ -c "$B/prefixed 12" >pre.json 2>pre.err ||
	fail "memleak --symbol-prefix: $(cat pre.err)"
assert_eq "memleak --symbol-prefix leak_prefixed" 12 "$(tail -n 1 pre.json | jq \
	'[.stacks[] | select(.frames[0] | startswith("leak_prefixed+")) | .allocations] | add // 0')"
assert_eq "memleak --symbol-prefix outstanding" 12 "$(tail -n 1 pre.json | jq .outstanding)"
grep -q 'has no xx_calloc, .*: not traced' pre.err || fail "memleak: missing functions not named: $(cat pre.err)"

# --older hides them all (they are younger than 10 minutes)
$S memleak --json --older 600000 -c "$B/leaker 40" >old.json 2>old.err || fail "memleak --older: $(cat old.err)"
assert_eq "memleak --older outstanding" 0 "$(tail -n 1 old.json | jq .outstanding)"
# sampling records fewer than all 5*40, and says so
$S memleak --json --sample-rate 1000 -c "$B/leaker 40" >smp.json 2>smp.err || fail "memleak -s: $(cat smp.err)"
[ "$(tail -n 1 smp.json | jq '.outstanding < 200 and .sample_rate == 1000')" = true ] ||
	fail "memleak --sample-rate 1000: $(tail -n 1 smp.json | head -c 300)"

# brkstack, mmapsnoop, shmsnoop and faults: memops does 23 of each
$S brkstack --json -c "$B/memops 23" >brk.json 2>brk.err || fail "brkstack: $(cat brk.err)"
assert_eq "brkstack do_brks" 23 "$(tail -n 1 brk.json | jq '[.rows[] |
	select(any(.frames[]; startswith("do_brks+"))) | .count] | add')"
$S brkstack --folded -c "$B/memops 23" >brk.folded 2>brk.err || fail "brkstack -f: $(cat brk.err)"
grep -Eq '^memops;(.*;)?main;do_brks 23$' brk.folded ||
	fail "brkstack --folded: no 'memops;...;main;do_brks 23' line: $(cat brk.folded)"
$S mmapsnoop --json -c "$B/memops 23" >mmap.json 2>mmap.err || fail "mmapsnoop: $(cat mmap.err)"
assert_eq "mmapsnoop MARK_LEN" 23 "$(jq -s '[.[] | select(.len == 53249 and
	.comm == "memops" and .prot == "r--")] | length' mmap.json)"
assert_eq "mmapsnoop summary lost" 0 "$(tail -n 1 mmap.json | jq .lost)"
$S shmsnoop --json -c "$B/memops 23" >shm.json 2>shm.err || fail "shmsnoop: $(cat shm.err)"
for c in shmget shmat shmdt shmctl; do
	assert_eq "shmsnoop $c" 23 "$(jq -s --arg c $c '[.[] |
		select(.call == $c and .ret >= 0)] | length' shm.json)"
done
$S faults --json -c "$B/memops 23" >flt.json 2>flt.err || fail "faults: $(cat flt.err)"
assert_eq "faults do_touch" 23 "$(tail -n 1 flt.json | jq '[.rows[] |
	select(.frames[0] | startswith("do_touch+")) | .count] | add')"

# pmc: the hardware path where this CPU has counters, else the fallback
if [ -d /sys/bus/event_source/devices/cpu ] ||
	[ -d /sys/bus/event_source/devices/cpu_core ]; then
	$S pmc --json -e cycles,instructions -c "$B/memops 100" >pmc.json 2>pmc.err ||
		fail "pmc (hardware counters present): $(cat pmc.err)"
	assert_eq "pmc fallback" false "$(tail -n 1 pmc.json | jq .fallback)"
else
	note "no CPU PMU here: testing pmc's fallback"
	$S pmc --json -e LLC-loads,LLC-load-misses -c "$B/memops 100" >pmc.json 2>pmc.err ||
		fail "pmc fallback: $(cat pmc.err)"
	grep -q 'LLC-loads: this CPU exposes no hardware counter' pmc.err ||
		fail "pmc: unclear fallback message: $(cat pmc.err)"
	assert_eq "pmc fallback" true "$(tail -n 1 pmc.json | jq .fallback)"
	[ "$(tail -n 1 pmc.json | jq '[.rows[] | select(.comm == "memops") |
		.samples["page-faults"]] | add // 0')" -ge 100 ] ||
		fail "pmc: memops's 100 page faults not sampled: $(tail -n 1 pmc.json)"
	$S pmc -e dTLB-load-misses --no-fallback 1 1 2>strict.err
	assert_eq "pmc -e dTLB-load-misses --no-fallback 1 1: status" 2 $?
	grep -q 'perf_event_open: .*software events page-faults,cpu-clock work here' strict.err ||
		fail "pmc --no-fallback: unclear message: $(cat strict.err)"
fi
$S pmc -e cpu-clock --folded -c "$B/memops 2000" >cpu.folded 2>cpu.err || fail "pmc --folded: $(cat cpu.err)"
grep -Eq '^[^ ;]+(;[^ ;]+)* [0-9]+$' cpu.folded || fail "pmc --folded: not folded: $(head -n 3 cpu.folded)"
# the system-wide tools load, attach and report on this kernel
for t in vmscan drsnoop oomkill; do
	$S $t --json 1 1 >$t.json 2>$t.err || fail "$t: $(cat $t.err)"
	assert_eq "$t final report" true "$(tail -n 1 $t.json | jq .final)"
done
assert_eq "vmscan fields" 13 "$(tail -n 1 vmscan.json | jq '[keys[] |
	select(test("^(shrink_slab|direct_reclaim|memcg_reclaim|kswapd_wake|wakeup_kswapd|writepage|lost)"))] | length')"
$S memleak --kernel --json -T 2 1 1 >kml.json 2>kml.err || fail "memleak --kernel: $(cat kml.err)"
[ "$(tail -n 1 kml.json | jq .outstanding)" -gt 0 ] ||
	fail "memleak --kernel: nothing outstanding: $(tail -n 1 kml.json | head -c 300)"

# --by function: the sampled functions, named from their objects
$S pmc -e cpu-clock --by function --json -c "$B/mallocbench 5000000" >fn.json 2>fn.err ||
	fail "pmc --by function: $(cat fn.err)"
tail -n 1 fn.json | jq -e 'any(.rows[]; .function | test("malloc.* \\[libc\\.so"))' >/dev/null ||
	fail "pmc --by function: no malloc function in libc: $(tail -n 1 fn.json | head -c 500)"

# kprobe tools: run where kprobes exist, refuse clearly where not
if [ -e /sys/bus/event_source/devices/kprobe ] || [ -e /sys/kernel/tracing/kprobe_events ]; then
	$S swapin --json 1 1 >swapin.json 2>swapin.err || fail "swapin: $(cat swapin.err)"
else
	note "this kernel has no kprobes: checking the refusal"
	$S swapin 1 1 2>swapin.err
	assert_eq "swapin 1 1: status" 2 $?
	grep -q 'this kernel has no kprobes' swapin.err || fail "swapin: unclear error: $(cat swapin.err)"
fi

# usage errors and requirements: exit 2 with a message
$S memleak -p 1 -c true 2>/dev/null
assert_eq "memleak -p 1 -c true: status" 2 $?
$S memleak 0 2>/dev/null
assert_eq "memleak 0: status" 2 $?
$S vmscan 1 2 3 2>/dev/null
assert_eq "vmscan 1 2 3: status" 2 $?
$S pmc -e bogus 2>bogus.err
assert_eq "pmc -e bogus: status" 2 $?
grep -q "unknown event 'bogus'" bogus.err || fail "pmc -e bogus: $(cat bogus.err)"
$S faults --stack sideways 2>/dev/null
assert_eq "faults --stack sideways: status" 2 $?
setpriv --reuid=65534 --regid=65534 --clear-groups $S brkstack 1 1 2>nonroot.err
assert_eq "brkstack as nobody: status" 2 $?
grep -q 'need root' nonroot.err || fail "non-root: $(cat nonroot.err)"
