#!/bin/bash
# Cost of slab_account.ko per kmalloc+kfree pair, against the same loop
# with the module unloaded and against ftrace recording the same four kmem
# events, all in one guest boot per kernel. The load is sa_test.ko's
# "bench N S" (N kmalloc(S)+kfree pairs in a kernel loop, timed with
# ktime). Writes bench/RESULTS-module.md.
#
#   bench/module-overhead.sh [-k "6.1 6.12-cloud"] [-n PAIRS] [-r ROUNDS]
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
kernels="6.1 6.12-cloud" pairs=200000 rounds=5
while [ $# -gt 0 ]; do
	case "$1" in
	-k) kernels=$2; shift 2 ;;
	-n) pairs=$2; shift 2 ;;
	-r) rounds=$2; shift 2 ;;
	*) echo "usage: $0 [-k KERNELS] [-n PAIRS] [-r ROUNDS]" >&2; exit 2 ;;
	esac
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cat >"$work/guest.sh" <<GUEST
set -e
insmod \$MODDIR/sa_test.ko
# one round: the ns per pair of "bench $pairs 100"
one() { echo bench $pairs 100 > /proc/sa_test; sed -n 's/^bench_ns: //p' /proc/sa_test; }
one > /dev/null
T=/sys/kernel/tracing
E="kmalloc kfree kmem_cache_alloc kmem_cache_free"
r=0
while [ \$r -lt $rounds ]; do
	r=\$((r + 1))
	echo "unloaded \$(one)" >> \$OUT/ns
	insmod \$MODDIR/slab_account.ko
	echo "module \$(one)" >> \$OUT/ns
	rmmod slab_account
	echo 8192 > \$T/buffer_size_kb
	for e in \$E; do echo 1 > \$T/events/kmem/\$e/enable; done
	echo 1 > \$T/tracing_on
	echo "ftrace \$(one)" >> \$OUT/ns
	for e in \$E; do echo 0 > \$T/events/kmem/\$e/enable; done
	echo > \$T/trace
done
GUEST

results=$top/bench/RESULTS-module.md
{
	echo "# slab_account.ko overhead per kmalloc+kfree pair"
	echo
	echo "Written by \`bench/module-overhead.sh -k \"$kernels\" -n $pairs -r $rounds\`"
	echo "on $(date -u +%Y-%m-%d). Each round times $pairs kmalloc(100)+kfree pairs"
	echo "(sa_test.ko \`bench\`) three ways in the same boot: no tracing, with"
	echo "slab_account.ko loaded, and with ftrace recording kmem:kmalloc, kfree,"
	echo "kmem_cache_alloc and kmem_cache_free into its ring buffer. Figures are"
	echo "medians over $rounds rounds; the guest runs under QEMU TCG on one vCPU,"
	echo "so absolute times are emulated and only the ratios mean anything."
	echo
	echo "| kernel | unloaded ns/pair | module ns/pair | ftrace ns/pair | module ratio | ftrace ratio |"
	echo "|---|---|---|---|---|---|"
} >"$work/results"
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
for k in $kernels; do
	"$top/qemu/run" -k "$k" --smp 1 -q -t 600 -o "$work/out-$k" "$work/guest.sh" ||
		{ echo "module-overhead: guest run on $k failed" >&2; exit 1; }
	ns=$work/out-$k/ns
	u=$(awk '$1 == "unloaded" { print $2 }' "$ns" | median)
	m=$(awk '$1 == "module" { print $2 }' "$ns" | median)
	f=$(awk '$1 == "ftrace" { print $2 }' "$ns" | median)
	row=$(awk -v u="$u" -v m="$m" -v f="$f" -v n="$pairs" -v k="$k" 'BEGIN {
		printf "| %s | %.0f | %.0f | %.0f | %.2fx | %.2fx |", k, u / n, m / n, f / n, m / u, f / u }')
	echo "$row" | tee -a "$work/results"
done
cat >>"$work/results" <<'EOF2'

Targets (issue 3): under 1.5x the unloaded cost, and cheaper than ftrace.

For comparison, the kernel's memory allocation profiling
(CONFIG_MEM_ALLOC_PROFILING, 6.10+) is published with an overhead of about
+6-9% on kmalloc when enabled (the figure quoted in issue 3; not re-measured
here: neither Debian kernel has it). It is compiled into every call site and keeps only
per-site byte and call counters; slab_account.ko is a loadable module that
needs no kernel patch, reaches each event through a tracepoint, and also keeps
a live-object map (pointer -> call site, size) so that every free is
attributed, which costs a hash lookup and cmpxchg per allocation and per free.
A single-digit overhead is therefore not expected from it; the tracepoint
call alone is a measurable part of a kmalloc+kfree pair in the fast path.

The floor, measured once (2026-11-21, same command) with a temporary build
whose probes return at once: 1.09x on 6.1 and 1.28x on 6.12-cloud. So
under TCG the tracepoint dispatch alone takes most of the 1.5x budget on
6.12-cloud, whose kmalloc+kfree fast path is about three times shorter
than 6.1's; the accounting itself (site lookup, live-map insert/remove
with cmpxchg, three atomic adds per allocation and per free) adds about
0.1-0.2x on 6.1 and 0.7x on 6.12-cloud. Ratios vary by about 0.2x from
boot to boot on this shared machine, and TCG does not weigh atomics,
cache misses and indirect calls as hardware does: the figures have not
been checked on real hardware.
EOF2
cp "$work/results" "$results"
echo "module-overhead: wrote $results"
