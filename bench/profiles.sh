#!/bin/bash
# Benchmark: what `slabacct report --folded` and `--pprof` cost against
# the report itself, side by side in one run, on a recording with a
# kernel stack after every event (`record --stacks=all`, as `trace-cmd
# record -T` would take them), and trace-cmd report's decoding of the
# same file for scale.
#
#   bench/profiles.sh [DIR:REPS]   default: /usr/share:1
#
# The workload is `ls -laR DIR`, REPS times, recorded once by `slabacct
# record --stacks=all`. Then, each timed 3 times with /usr/bin/time
# (the median kept):
#   slabacct report --json FILE.dat                  the call sites
#   slabacct report --json --by stack FILE.dat       with their stacks
#   slabacct report --folded FILE.dat                 flame-graph lines
#   slabacct report --pprof OUT FILE.dat              a gzipped profile
#   trace-cmd report FILE.dat                         (once)
# Each cost is a ratio to `report --json` of the same run, in wall and
# CPU time (other work shares this machine: the ratios count, not the
# times), with the peak RSS. Results go to bench/RESULTS-profiles.md.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
sa=$top/build/slabacct
spec=${1:-/usr/share:1}
dir=${spec%:*} reps=${spec##*:}
[ "$(id -u)" = 0 ] || { echo "bench/profiles.sh: needs root (recording)" >&2; exit 2; }
for t in trace-cmd /usr/bin/time; do
	command -v $t >/dev/null || { echo "bench/profiles.sh: $t is missing" >&2; exit 2; }
done
[ -x "$sa" ] || { echo "bench/profiles.sh: build/slabacct is missing (make)" >&2; exit 2; }
"$sa" report --help | grep -- '--pprof' >/dev/null ||
	{ echo "bench/profiles.sh: this slabacct has no --pprof (protobuf-c)" >&2; exit 2; }
work=$(mktemp -d /var/tmp/sa-bench-profiles.XXXXXX)
trap 'rm -rf "$work"' EXIT
out=$top/bench/RESULTS-profiles.md

# timed CMD...: "wall cpu maxrss_kb" of one run, output dropped
timed1() {
	/usr/bin/time -f '%e %U %S %M' -o "$work/time" "$@" >/dev/null 2>"$work/err" ||
		{ echo "bench: '$*' failed:" >&2; tail -n 5 "$work/err" >&2; exit 1; }
	awk '{ printf "%s %.2f %s\n", $1, $2 + $3, $4 }' "$work/time"
}
# median3 CMD...: the run of median wall time of three
median3() {
	{ timed1 "$@"; timed1 "$@"; timed1 "$@"; } | sort -n | sed -n 2p
}

dat=$work/w.dat
"$sa" record --stacks=all -b 262144 -o "$dat" -- \
	sh -c "for i in \$(seq $reps); do ls -laR $dir >/dev/null 2>&1; done" \
	>"$work/rec.log" 2>&1 || { cat "$work/rec.log" >&2; exit 1; }
events=$("$sa" report --json "$dat" | jq '.records.total')
stacks=$("$sa" report --json "$dat" | jq '.records.stacks // 0')
lost=$("$sa" report --json "$dat" | jq '.lost.events')
size=$(du -m "$dat" | cut -f1)

base=$(median3 "$sa" report --json "$dat")
bystack=$(median3 "$sa" report --json --by stack "$dat")
folded=$(median3 "$sa" report --folded "$dat")
pprof=$(median3 "$sa" report --pprof "$work/p.pb.gz" "$dat")
tc=$(timed1 trace-cmd report "$dat")
"$sa" report --folded "$dat" >"$work/folded"
lines=$(wc -l <"$work/folded")
psize=$(du -k "$work/p.pb.gz" | cut -f1)

# row LABEL "wall cpu rss": the cell and its ratios to the report's
row() {
	read -r w c m <<<"$2"
	read -r bw bc _ <<<"$base"
	awk -v l="$1" -v w="$w" -v c="$c" -v m="$m" -v bw="$bw" -v bc="$bc" 'BEGIN {
		rw = bw > 0 ? w / bw : 0; rc = bc > 0 ? c / bc : 0
		printf "| %s | %.2f s | %.2f s | %d MB | %.2fx | %.2fx |\n", l, w, c,
			m / 1024, rw, rc }'
}
{
	echo "# report --folded and --pprof: benchmark"
	echo
	echo "Produced by \`bench/profiles.sh $spec\` on $(date -u +%Y-%m-%d)" \
		"($(uname -r), $(nproc) cores; other work was running on the" \
		"machine, so compare the ratios, measured side by side, not the" \
		"times)."
	echo
	echo "The recording: \`ls -laR $dir\` $reps time(s) under \`slabacct record" \
		"--stacks=all\`: $events records (kernel stacks: $stacks), $size MB," \
		"$lost events lost. Each row: the median of 3 runs (trace-cmd: 1)," \
		"wall and CPU time (user + sys), peak RSS, and the ratio to" \
		"\`report --json\` of the same file."
	echo
	echo "| command | wall | CPU | RSS | wall vs report | CPU vs report |"
	echo "|---|---|---|---|---|---|"
	row "slabacct report --json" "$base"
	row "slabacct report --json --by stack" "$bystack"
	row "slabacct report --folded ($lines lines)" "$folded"
	row "slabacct report --pprof (${psize} KB gzipped)" "$pprof"
	row "trace-cmd report" "$tc"
} >"$out"
cat "$out"
