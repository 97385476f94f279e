#!/bin/bash
# Cost of slab_account.ko's attribution through allocation wrappers, in
# instructions (qemu/run --icount), per allocation+free pair: an
# allocation at a wrapper's call site (kvmalloc(5000), whose kmalloc is
# at kvmalloc_node's call site: a stack trace per allocation) against one
# at a plain call site (kmalloc(5000) from sa_wrap.ko), with nothing
# attached and with the module loaded. tests/kmod/sa_wrap.ko's "bench N"
# is the load (qemu/guest/wrap-cost.sh).
#
#   bench/module-wrappers.sh [-k KERNELS] [-n PAIRS] [-r ROUNDS]
#
# Prints a markdown table: instructions per pair, the medians of the
# rounds, and what the module adds to each kind of pair.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
kernels="6.1 6.12-cloud" pairs=20000 rounds=3
while [ $# -gt 0 ]; do
	case $1 in
	-k) kernels=$2; shift 2 ;;
	-n) pairs=$2; shift 2 ;;
	-r) rounds=$2; shift 2 ;;
	*) echo "usage: bench/module-wrappers.sh [-k KERNELS] [-n PAIRS] [-r ROUNDS]" >&2
	   exit 2 ;;
	esac
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

echo "| kernel | pair | unloaded | module | added |"
echo "|---|---|---|---|---|"
for k in $kernels; do
	"$top/qemu/run" -k "$k" --smp 1 --icount -q -t $((300 + pairs * rounds / 200)) \
		-o "$work/$k" "$top/qemu/guest/wrap-cost.sh" -- "$pairs" "$rounds" ||
		{ echo "module-wrappers: guest run on $k failed" >&2
		  cat "$work/$k/script.log" >&2 2>/dev/null; exit 1; }
	python3 - "$work/$k/pairs" "$k ($(cat "$work/$k/kernel"))" "$pairs" <<'PY'
import statistics, sys
path, kernel, pairs = sys.argv[1], sys.argv[2], int(sys.argv[3])
t = {}
for l in open(path):
    mode, _, kv, km = l.split()
    t.setdefault(mode, ([], []))
    t[mode][0].append(int(kv) / pairs)
    t[mode][1].append(int(km) / pairs)
for i, name in enumerate(("kvmalloc(5000) (wrapper's site)",
                          "kmalloc(5000) (plain site)")):
    u = statistics.median(t["unloaded"][i])
    m = statistics.median(t["module"][i])
    print("| %s | %s | %.0f | %.0f | %.0f |" % (kernel, name, u, m, m - u))
PY
done
