#!/bin/bash
# What `slabacct record --stacks` costs: the same workloads recorded with
# no stacks, with --stacks (a stacktrace trigger on the wrappers' call
# sites) and with --stacks=all (the stacktrace option: a stack after
# every event), in turn, in one run, on this machine (root, tracefs).
#
#   bench/stacks.sh [--reps N] [--rounds M]
#
# Workloads (their programs are copied under one name and the
# recordings take the events of that name only, --comm, so that other
# work on the machine is not recorded; the stacks are taken in the
# workload's own context, so their cost is its slowdown):
#   wrappers  M rounds of `unshare -m -u -i -n true`: new namespaces,
#             whose kobject names and mount strings go through wrappers
#             (kobject_set_name_vargs, strndup_user)
#   plain     M*20 rounds of `cat /proc/self/status; ls /`: allocations
#             that are not a wrapper's
# Columns: the workload's wall time and CPU time (user + system of its
# processes, from bash's `times`) and their ratio to no stacks (medians
# of N runs), the events recorded (the stacks among them), the stacks,
# the file's size and the events lost.
set -euo pipefail
reps=5 rounds=20
while [ $# -gt 0 ]; do
	case $1 in
	--reps) reps=$2; shift 2 ;;
	--rounds) rounds=$2; shift 2 ;;
	*) echo "usage: bench/stacks.sh [--reps N] [--rounds M]" >&2; exit 2 ;;
	esac
done
top=$(cd "$(dirname "$0")/.." && pwd)
sa=$top/build/slabacct
[ -x "$sa" ] || { echo "build/slabacct is missing (make all)" >&2; exit 2; }
[ "$(id -u)" = 0 ] || { echo "needs root (tracefs)" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# every program of the workloads under one command name, for --comm
mkdir -p "$tmp/sh" "$tmp/unshare" "$tmp/cat" "$tmp/ls"
for p in sh:bash unshare:unshare cat:cat ls:ls; do
	cp "$(command -v "${p#*:}")" "$tmp/${p%%:*}/sa-bench-load"
done
load=$tmp/sh/sa-bench-load

workload() {
	case $1 in
	wrappers) echo "for i in \$(seq $rounds); do $tmp/unshare/sa-bench-load -m -u -i -n true; done" ;;
	plain) echo "for i in \$(seq $((rounds * 20))); do $tmp/cat/sa-bench-load /proc/self/status >/dev/null; $tmp/ls/sa-bench-load / >/dev/null; done" ;;
	esac
}

# one run: MODE WORKLOAD -> "wall cpu events stacks bytes lost"
run() {
	local mode=$1 w=$2 args=() out=$tmp/t.dat
	case $mode in
	wrappers) args=(--stacks) ;;
	all) args=(--stacks=all) ;;
	esac
	local script="s=\$(date +%s%N); $(workload "$w"); e=\$(date +%s%N); echo \$(( (e - s) / 1000 )) >$tmp/wall; times >$tmp/times"
	"$sa" record "${args[@]}" --no-snapshot -b 8192 --comm sa-bench-load \
		-o "$out" -- "$load" -c "$script" \
		>"$tmp/rec" 2>&1 || { cat "$tmp/rec" >&2; exit 1; }
	local cpu events stacks lost
	# the second line of times: the children's user and system
	cpu=$(sed -n 2p "$tmp/times" | awk '{
		s = 0; for (i = 1; i <= 2; i++) { split($i, a, "m"); sub(/s/, "", a[2]); s += a[1] * 60 + a[2] } print s }')
	events=$(sed -n 's/.*: \([0-9]*\) events,.*/\1/p' "$tmp/rec")
	stacks=$(awk '$1 == "ftrace:kernel_stack" { print $2 }' "$tmp/rec")
	lost=$(sed -n 's/.*: \([0-9]*\) events lost .*/\1/p' "$tmp/rec")
	echo "$(awk -v u="$(cat "$tmp/wall")" 'BEGIN { printf "%.3f", u / 1e6 }') $cpu ${events:-0} ${stacks:-0} $(stat -c %s "$out") ${lost:-0}"
}

median() { sort -g | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }

echo "# bench/stacks.sh --reps $reps --rounds $rounds ($(uname -r), $(nproc) CPUs, $(date -u +%F))"
for w in wrappers plain; do
	: >"$tmp/raw.$w"
	for r in $(seq "$reps"); do
		for mode in none wrappers all; do
			echo "$mode $(run "$mode" "$w")" >>"$tmp/raw.$w"
		done
	done
done
for w in wrappers plain; do
	echo
	echo "workload $w: $(workload "$w" | sed "s|$tmp/\([a-z]*\)/sa-bench-load|\1|g")"
	echo
	echo "| --stacks | wall s | vs none | CPU s | vs none | events | stacks | file MB | lost |"
	echo "|---|---|---|---|---|---|---|---|---|"
	base_wall=$(awk '$1 == "none" { print $2 }' "$tmp/raw.$w" | median)
	base_cpu=$(awk '$1 == "none" { print $3 }' "$tmp/raw.$w" | median)
	for mode in none wrappers all; do
		m() { awk -v m="$mode" -v c="$1" '$1 == m { print $c }' "$tmp/raw.$w" | median; }
		wall=$(m 2) cpu=$(m 3) ev=$(m 4) st=$(m 5) by=$(m 6) lo=$(m 7)
		awk -v mo="$mode" -v w="$wall" -v bw="$base_wall" -v c="$cpu" \
		    -v bc="$base_cpu" -v e="$ev" -v s="$st" -v b="$by" \
		    -v l="$lo" 'BEGIN {
			printf "| %s | %.3f | %.2fx | %.2f | %.2fx | %d | %d | %.1f | %d |\n",
			       mo == "wrappers" ? "wrappers (default)" : mo,
			       w, w / bw, c, (bc > 0 ? c / bc : 0), e, s, b / 1048576, l }'
	done
	echo
	echo "raw (mode wall_s cpu_s events stacks bytes lost):"
	echo '```'
	cat "$tmp/raw.$w"
	echo '```'
done
