#!/bin/bash
# Benchmark: the cost of recording kmem events with `slabacct record`,
# against `trace-cmd record` of the same events and `perf kmem record`,
# on the same workload in one guest boot (trace-cmd record is refused on
# the host, so all three run in a QEMU guest). For each recorder, REPS
# times, in turn: the workload's wall time against no tracing, the
# recorder's own CPU time (its process and children, less the workload's),
# the events it recorded and the events it lost.
#
#   bench/record.sh [-k FLAVOUR] [--reps N] [--iterations N]
#
# Writes bench/RESULTS-record.md. Timings under TCG are noisy; the ratios
# are taken side by side in one boot.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
flavour=6.1 reps=3 iters=300 bufkb=4096
while [ $# -gt 0 ]; do
	case "$1" in
	-k) flavour=$2; shift 2 ;;
	--reps) reps=$2; shift 2 ;;
	--iterations) iters=$2; shift 2 ;;
	*) echo "usage: bench/record.sh [-k FLAVOUR] [--reps N] [--iterations N]" >&2
	   exit 2 ;;
	esac
done
for t in trace-cmd perf; do
	command -v $t >/dev/null || { echo "bench/record.sh: $t is missing (scripts/install-deps)" >&2; exit 2; }
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cat >"$work/guest.sh" <<'GUEST'
ITERS=$1 REPS=$2 BUFKB=$3
EVENTS="-e kmem:kmalloc -e kmem:kfree -e kmem:kmem_cache_alloc -e kmem:kmem_cache_free"
# /tmp/iters: 0 measures a recorder's fixed cost, $ITERS the workload
cat >/tmp/work.sh <<'EOF'
i=0 n=$(cat /tmp/iters)
while [ $i -lt $n ]; do
	cat /proc/self/status >/dev/null; ls / >/dev/null; i=$((i + 1))
done
EOF
# CPU seconds in a `times` output file: FIELDS 1 (self) or 2 (children),
# or both. `times` itself must not run in a command substitution, which
# is a fresh process with no children of its own.
cpu_of() {
	awk -v lines="$2" '{ if (index(lines, NR)) for (i = 1; i <= 2; i++) {
		split($i, p, "m"); sub("s", "", p[2]); s += p[1] * 60 + p[2] } }
		END { printf "%.3f\n", s }' "$1"
}
# The workload as a command: it writes its own wall time (from
# /proc/uptime) and CPU time (itself and its children) to /tmp/work.*
cat >/tmp/run-work.sh <<'EOF'
s=$(cut -d" " -f1 /proc/uptime)
. /tmp/work.sh
e=$(cut -d" " -f1 /proc/uptime)
times >/tmp/work.times
echo "$s $e" >/tmp/work.wall
EOF
# bench TOOL [CMD...]: run the workload under the recorder CMD (which runs
# it as its command and stops when it ends); print "TOOL wall cpu", cpu
# being the recorder's own: all reaped children less the workload
bench() {
	tool=$1; shift
	times >/tmp/t0
	"$@" sh /tmp/run-work.sh >/tmp/$tool.out 2>/tmp/$tool.err
	times >/tmp/t1
	wall=$(awk '{ printf "%.3f", $2 - $1 }' /tmp/work.wall)
	wcpu=$(cpu_of /tmp/work.times 12)
	echo "$tool $wall $(echo "$(cpu_of /tmp/t0 2) $(cpu_of /tmp/t1 2) $wcpu" |
		awk '{ c = $2 - $1 - $3; printf "%.3f", c < 0 ? 0 : c }')"
}
lost_and_events() {
	case $1 in
	slabacct*)
		ev=$(sed -n 's/^[^ ]*: \([0-9]*\) events, .*/\1/p' /tmp/$1.out)
		lost=$(sed -n 's/.*warning: \([0-9]*\) events lost.*/\1/p' /tmp/$1.err)
		;;
	trace-cmd)
		ev=$(trace-cmd report /tmp/t.dat 2>/dev/null |
			grep -cE '^ *.+ \[[0-9]+\] +[0-9.]+: [a-z_]+: ')
		lost=$(trace-cmd report --stat /tmp/t.dat 2>/dev/null |
			awk '/^(overrun|commit overrun|dropped events):/ { n += $NF }
			END { print n + 0 }')
		;;
	perf)
		ev=$(sed -n 's/.*(\([0-9]*\) samples).*/\1/p' /tmp/perf.err)
		lost=$(perf report -i /tmp/perf.data --stats 2>/dev/null |
			awk '/LOST / { n += $NF } END { print n + 0 }')
		;;
	*) ev=0 lost=0 ;;
	esac
	echo "${ev:-0} ${lost:-0}"
}
r=0
while [ $r -lt $REPS ]; do
	for tool in none slabacct slabacct-nosnap trace-cmd perf; do
		for n in 0 $ITERS; do
			echo $n >/tmp/iters
			case $tool in
			none) line=$(bench none env) ;;
			slabacct) line=$(bench slabacct slabacct record -b $BUFKB -o /tmp/s.dat --) ;;
			slabacct-nosnap) line=$(bench slabacct-nosnap slabacct record --no-snapshot -b $BUFKB -o /tmp/s.dat --) ;;
			trace-cmd) line=$(bench trace-cmd trace-cmd record -b $BUFKB $EVENTS -o /tmp/t.dat) ;;
			perf) line=$(bench perf perf kmem record -o /tmp/perf.data) ;;
			esac
			echo "$n $line $(lost_and_events $tool)" >>$OUT/results
			rm -f /tmp/s.dat /tmp/t.dat /tmp/t.dat.cpu* /tmp/perf.data
		done
	done
	r=$((r + 1))
done
tail -n 30 /tmp/*.out /tmp/*.err >$OUT/recorder-output 2>/dev/null
uname -r >$OUT/kernel
GUEST

"$top/qemu/run" -q -k "$flavour" -m 1024 -t 1500 -o "$work/out" \
	-f /usr/bin/trace-cmd:/bin/trace-cmd -f /usr/bin/perf:/bin/perf \
	"$work/guest.sh" -- "$iters" "$reps" "$bufkb"
res=$work/out/results
[ -s "$res" ] || { echo "bench/record.sh: no results" >&2; exit 1; }

# Per tool: medians over the runs of the workload's wall time, the
# recorder's fixed CPU (empty workload), its CPU on the workload, and its
# marginal CPU (the difference, per run); ratios against no tracing and
# against trace-cmd.
summary=$(awk -v iters="$iters" '
	$1 == 0 { k = $2; f[k, ++nf[k]] = $4; next }
	{ k = $2; i = ++n[k]; w[k, i] = $3; c[k, i] = $4; ev[k] += $5; lost[k] += $6 }
	function median(a, t, m,   v, i, j, x) {
		for (i = 1; i <= m; i++) v[i] = a[t, i]
		for (i = 1; i <= m; i++) for (j = i + 1; j <= m; j++)
			if (v[j] < v[i]) { x = v[i]; v[i] = v[j]; v[j] = x }
		return v[int((m + 1) / 2)]
	}
	END {
		for (k in n) for (i = 1; i <= n[k]; i++) d[k, i] = c[k, i] - f[k, i]
		base = median(w, "none", n["none"])
		tcm = median(d, "trace-cmd", n["trace-cmd"])
		tct = median(c, "trace-cmd", n["trace-cmd"])
		split("none slabacct slabacct-nosnap trace-cmd perf", order, " ")
		for (o = 1; o <= 5; o++) {
			t = order[o]
			if (!n[t]) continue
			mw = median(w, t, n[t]); mf = median(f, t, nf[t])
			mc = median(c, t, n[t]); md = median(d, t, n[t])
			printf "| %s | %.2f | %.2fx | %.2f | %.2f | %s | %.2f | %s | %d | %d |\n",
				t, mw, mw / base, mf, mc,
				t == "none" ? "-" : sprintf("%.2fx", mc / tct), md,
				t == "none" ? "-" : sprintf("%.2fx", md / tcm),
				ev[t] / n[t], lost[t] / n[t]
		}
	}' "$res")

cat >"$top/bench/RESULTS-record.md" <<EOF
# Recording cost: slabacct record vs trace-cmd record vs perf kmem record

Command: \`bench/record.sh -k $flavour --reps $reps --iterations $iters\`
(run $(date -u +%Y-%m-%d), guest kernel $(cat "$work/out/kernel"), QEMU TCG,
2 vCPUs, 1024 MB; the host had $(nproc) cores shared with other work).

Workload: $iters times \`cat /proc/self/status; ls /\` (fork, exec and
file I/O: kmalloc, kfree, kmem_cache_alloc and kmem_cache_free). Each
recorder runs the workload as its command, records system-wide while it
runs, and writes its file when it ends. slabacct and trace-cmd record
kmem:kmalloc, kfree, kmem_cache_alloc and kmem_cache_free with a
$bufkb KB buffer per CPU; \`perf kmem record\` records its own slab event
set with its default buffers. Medians of $reps runs, taken in turn in
one boot.

- workload s: the workload's wall time; slowdown: against no tracing;
- fixed CPU s: user + system time of the recorder and its reaped
  children (trace-cmd's per-CPU readers) around an empty workload: setup,
  kallsyms, formats, snapshots, writing the file. (The guest's
  /proc/stat busy time was tried instead: under TCG it undercounts, less
  than the workload's own times.)
- CPU s: the same around the workload, less the workload's own CPU
  (its \`times\`); vs trace-cmd: its ratio to trace-cmd's;
- marginal CPU s: CPU less fixed CPU, run by run: the cost of the events;
- events, lost: per run (slabacct: its summary; trace-cmd: the events
  \`trace-cmd report\` shows, and the overruns of the CPUSTAT in its file;
  perf: samples, LOST records).
- slabacct-nosnap: \`slabacct record --no-snapshot\`, without the system
  snapshots (every process's smaps_rollup, slabinfo, ...) at start and end.

| recorder | workload s | slowdown | fixed CPU s | CPU s | vs trace-cmd | marginal CPU s | vs trace-cmd | events | lost |
|---|---|---|---|---|---|---|---|---|---|
$summary

Raw lines (iterations, tool, workload s, recorder CPU s, events, lost):

\`\`\`
$(cat "$res")
\`\`\`
EOF
cat "$top/bench/RESULTS-record.md"
