#!/bin/bash
# Cost of slab_account.ko's attribution through allocation wrappers, in
# instructions (qemu/run --icount), per allocation+free pair: an
# allocation at a wrapper's call site (kvmalloc(5000), whose kmalloc is
# at kvmalloc_node's call site: a stack trace per allocation) against one
# at a plain call site (kmalloc(5000) from sa_wrap.ko), with nothing
# attached and with the module loaded. tests/kmod/sa_wrap.ko's "bench N"
# is the load (qemu/guest/wrap-cost.sh).
#
#   bench/module-wrappers.sh [-k KERNELS] [-n PAIRS] [-r ROUNDS] [--check]
#
# KERNELS are qemu/run flavours, and 6.12-allocinfo: the kernel of
# scripts/allocinfo-kernel, measured with profiling off and on.
#
# Prints a markdown table: instructions per pair, the medians of the
# rounds, and what the module adds to each kind of pair.
#
# --check (make check: guest/overhead-icount): exit 1 if what the module
# adds to the wrapper's pair is more than 3% above the figure of
# bench/module-wrappers.ref for that kernel (the hook at the wrappers'
# entries lost: thousands more, a stack walk), 4 with 'SKIP:' when the
# reference has no line for it. Under icount the count is the same from
# boot to boot whatever the host's load.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
kernels="6.1 6.12-cloud" pairs=20000 rounds=3 check=0
ref=$top/bench/module-wrappers.ref
while [ $# -gt 0 ]; do
	case $1 in
	--check) check=1; shift ;;
	-k) kernels=$2; shift 2 ;;
	-n) pairs=$2; shift 2 ;;
	-r) rounds=$2; shift 2 ;;
	*) echo "usage: bench/module-wrappers.sh [-k KERNELS] [-n PAIRS] [-r ROUNDS] [--check]" >&2
	   exit 2 ;;
	esac
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The allocation-profiling kernel, measured with profiling off and on
. "$top/bench/allocinfo.bash"
kernels=$(for k in $kernels; do variants "$k"; done | paste -sd' ')
allocinfo_prepare module-wrappers "$kernels" || exit 1

echo "| kernel | pair | unloaded | module | added |"
echo "|---|---|---|---|---|"
status=0
for k in $kernels; do
	refline=
	if [ $check = 1 ]; then
		refline=$(awk -v k="$k" '$1 == k { print $3, $4; exit }' "$ref")
		if [ -z "$refline" ]; then
			echo "SKIP: no reference for kernel '$k' in bench/module-wrappers.ref"
			[ $status = 0 ] && status=4
			continue
		fi
		read -r pairs _ <<<"$refline"
	fi
	# shellcheck disable=SC2046
	"$top/qemu/run" $(qemu_kernel "$k") --smp 1 --icount -q -t $((300 + pairs * rounds / 200)) \
		-o "$work/$k" "$top/qemu/guest/wrap-cost.sh" -- "$pairs" "$rounds" ||
		{ echo "module-wrappers: guest run on $k failed" >&2
		  cat "$work/$k/script.log" >&2 2>/dev/null; exit 1; }
	python3 - "$work/$k/pairs" "$k ($(cat "$work/$k/kernel"))" "$pairs" \
		"$refline" <<'PY' || status=1
import statistics, sys
path, kernel, pairs = sys.argv[1], sys.argv[2], int(sys.argv[3])
ref = sys.argv[4].split()
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
    if ref and i == 0:
        limit = float(ref[1]) * 1.03
        ok = m - u <= limit
        print("# %s: the module adds %.1f to the wrapper's pair, reference %s,"
              " limit %.1f: %s" % (kernel, m - u, ref[1], limit,
                                  "ok" if ok else "FAIL"))
        if not ok:
            print("FAIL: %s: an allocation at a wrapper's call site costs more"
                  " than bench/module-wrappers.ref says" % kernel,
                  file=sys.stderr)
            sys.exit(1)
PY
done
exit $status
