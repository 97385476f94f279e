#!/bin/bash
# How often a load takes slab_account.ko's slower path: a guest loads the
# module, then runs find over its root, reads every /proc/PID/status,
# makes 200 rounds of `ls -l` and a pipe between two processes, and tars
# /usr; it prints /proc/slab_account's allocs, callers and slow_* counts
# (README, "the probes' slower path"). Counts, not times: the same
# kinds of numbers from any machine, though not the same numbers.
#
#   bench/slow-path.sh [-k KERNELS]     (default "6.1 6.12-cloud";
#                                        make module builds the modules)
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
kernels="6.1 6.12-cloud"
case ${1:-} in
-k) [ $# = 2 ] || { echo "usage: bench/slow-path.sh [-k KERNELS]" >&2; exit 2; }; kernels=$2 ;;
"") ;;
*) echo "usage: bench/slow-path.sh [-k KERNELS]" >&2; exit 2 ;;
esac
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat >"$work/load.sh" <<'GUEST'
insmod $MODDIR/slab_account.ko || exit 1
find / -xdev >/dev/null 2>&1
cat /proc/[0-9]*/status >/dev/null 2>&1
i=0
while [ $i -lt 200 ]; do
	ls -l /proc/self/fd /dev >/dev/null
	sh -c 'echo x | cat >/dev/null'
	i=$((i + 1))
done
tar -cf - /bin /sbin /usr 2>/dev/null | cat >/dev/null
grep -E '^(allocs|callers|kmalloc_repeats|unattributed|slow_sites|slow_objects|slow_frees):' \
	/proc/slab_account >$OUT/header
GUEST
echo "| kernel | allocs | callers | kmalloc_repeats | unattributed | slow_sites | slow_objects | slow_frees |"
echo "|---|---|---|---|---|---|---|---|"
for k in $kernels; do
	"$top/qemu/run" -k "$k" -q -t 600 -o "$work/$k" "$work/load.sh" >&2 ||
		{ echo "slow-path: the guest run on $k failed" >&2; exit 1; }
	awk -v k="$k" -F': ' '{ v[$1] = $2 } END {
		printf "| %s | %s | %s | %s | %s | %s | %s | %s |\n", k, v["allocs"],
			v["callers"], v["kmalloc_repeats"], v["unattributed"],
			v["slow_sites"], v["slow_objects"], v["slow_frees"] }' "$work/$k/header"
done
