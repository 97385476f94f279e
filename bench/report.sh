#!/bin/bash
# Benchmark: slabacct report against perf kmem stat and trace-cmd report,
# side by side in one run, on the same workload at three sizes.
#
#   bench/report.sh [DIR:REPS...]   default: /usr/share/doc:1 /usr:1 /usr:2 /usr:4
#   SA_BEFORE=OLD/slabacct bench/report.sh ...   also time an older build
#   (SA_BEFORE_LABEL names it in the results)
#   SA_ICOUNT=N (default 2): count instructions with callgrind at the Nth
#   size, for slabacct and perf kmem (0: not)
#
# The workload is `ls -laR DIR`, REPS times, on this machine (root); the
# defaults give about 0.1, 3.5, 7 and 13 million kmem events. It is
# recorded twice per size: by `slabacct record` (a trace.dat) and by
# `perf kmem record` (a perf.data). Then, timed with /usr/bin/time:
#   slabacct report FILE.dat            (reader threads: one per core)
#   slabacct report --threads 1 FILE.dat
#   $SA_BEFORE report FILE.dat          (when set)
#   perf kmem stat --caller --alloc     (on its own recording)
#   trace-cmd report FILE.dat           (on the same trace.dat)
# Events/s are each tool's events divided by its wall time; the ratios
# are what counts (other work shares this machine). Peak memory is the
# maximum RSS. Instruction counts (callgrind, every process of the run)
# are less sensitive to the machine's load than times. Results go to
# bench/RESULTS-report.md; what follows its KEEP line is kept.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
sa=$top/build/slabacct
reps=("$@")
[ ${#reps[@]} -gt 0 ] || reps=(/usr/share/doc:1 /usr:1 /usr:2 /usr:4)
[ "$(id -u)" = 0 ] || { echo "bench/report.sh: needs root (recording)" >&2; exit 2; }
for t in perf trace-cmd /usr/bin/time; do
	command -v $t >/dev/null || { echo "bench/report.sh: $t is missing" >&2; exit 2; }
done
[ -x "$sa" ] || { echo "bench/report.sh: build/slabacct is missing (make)" >&2; exit 2; }
work=$(mktemp -d /var/tmp/sa-bench-report.XXXXXX)
trap 'rm -rf "$work"' EXIT
out=$top/bench/RESULTS-report.md
before=${SA_BEFORE:-}
icount_at=${SA_ICOUNT:-2}
[ -z "$before" ] || [ -x "$before" ] ||
	{ echo "bench/report.sh: SA_BEFORE=$before is not executable" >&2; exit 2; }
[ "$icount_at" = 0 ] || command -v valgrind >/dev/null ||
	{ echo "bench/report.sh: valgrind is missing (SA_ICOUNT=0 skips)" >&2; exit 2; }
rows=() brows=() irows=()
KEEP='<!-- bench/report.sh keeps what follows -->'

# timed CMD...: "wall cpu maxrss_kb" of one run (cpu = user + sys), output dropped
timed1() {
	/usr/bin/time -f '%e %U %S %M' -o "$work/time" "$@" >/dev/null 2>"$work/err" ||
		{ echo "bench: '$*' failed:" >&2; tail -n 5 "$work/err" >&2; exit 1; }
	awk '{ printf "%s %.2f %s\n", $1, $2 + $3, $4 }' "$work/time"
}

# icount CMD...: instructions of CMD and its children, by callgrind
icount() {
	valgrind --tool=callgrind --trace-children=yes \
		--callgrind-out-file=/dev/null "$@" >/dev/null 2>"$work/cg" ||
		{ echo "bench: callgrind '$*' failed" >&2; exit 1; }
	sed -n 's/.*I *refs: *//p' "$work/cg" | tr -d , |
		awk '{ n += $1 } END { print n }'
}

# timed N CMD...: the run with the median wall time of N
timed() {
	local n=$1 i
	shift
	for i in $(seq "$n"); do timed1 "$@"; done | sort -n |
		sed -n "$(( (n + 1) / 2 ))p"
}

nspec=0
for spec in "${reps[@]}"; do
	nspec=$((nspec + 1))
	dir=${spec%%:*} r=${spec##*:}
	w="i=0; while [ \$i -lt $r ]; do ls -laR $dir >/dev/null 2>&1; i=\$((i+1)); done"
	echo "== $r x ls -laR $dir"
	"$sa" record -b 65536 -o "$work/t.dat" -- sh -c "$w" 2>"$work/rec.log"
	grep -q 'no events lost' "$work/rec.log" ||
		echo "bench: slabacct record lost events: $(tail -n 1 "$work/rec.log")" >&2
	perf kmem record -o "$work/p.data" -- sh -c "$w" 2>"$work/perf.log" >/dev/null
	ev_sa=$("$sa" report --json "$work/t.dat" | python3 -c \
		'import json,sys; print(json.load(sys.stdin)["records"]["used"])')
	ev_perf=$(sed -n 's/.*(\([0-9]*\) samples).*/\1/p' "$work/perf.log" | tail -n 1)
	sz_sa=$(stat -c %s "$work/t.dat")
	sz_perf=$(stat -c %s "$work/p.data")
	read -r w2 c2 m2 <<<"$(timed 3 "$sa" report "$work/t.dat")"
	read -r w1 c1 m1 <<<"$(timed 3 "$sa" report --threads 1 "$work/t.dat")"
	read -r wp cp mp <<<"$(timed 3 perf kmem -i "$work/p.data" stat --caller --alloc)"
	read -r wt ct mt <<<"$(timed 1 trace-cmd report "$work/t.dat")"
	row=$(python3 - "$ev_sa" "$ev_perf" "$sz_sa" "$sz_perf" \
		"$w2" "$c2" "$m2" "$w1" "$c1" "$m1" "$wp" "$cp" "$mp" \
		"$wt" "$ct" "$mt" <<'PY'
import sys
a = sys.argv[1:]
ev, evp = int(a[0]), int(a[1])
sz, szp = int(a[2]), int(a[3])
t = [tuple(map(float, a[i:i + 3])) for i in range(4, 16, 3)]
(w2, c2, m2), (w1, c1, m1), (wp, cp, mp), (wt, ct, mt) = t
M = 1e6
def cell(e, w, c, m):
    return "%.2f / %.2f (%.2f s, %.0f MB)" % (e / w / M, e / c / M, w, m / 1024)
print("| %.2fM / %.2fM | %.0f / %.0f MB | %s | %s | %s | %s | **%.1fx** / %.1fx "
      "| **%.2f** | %.0fx |" % (
      ev / M, evp / M, sz / M, szp / M,
      cell(ev, w2, c2, m2), cell(ev, w1, c1, m1), cell(evp, wp, cp, mp),
      cell(ev, wt, ct, mt), (ev / w2) / (evp / wp), (ev / c2) / (evp / cp),
      m2 / mp, (ev / w2) / (ev / wt)))
PY
)
	echo "$row"
	rows+=("$row")
	if [ -n "$before" ]; then
		read -r wb cb mb <<<"$(timed 3 "$before" report "$work/t.dat")"
		brow=$(awk -v e="$ev_sa" -v ep="$ev_perf" -v wb="$wb" -v cb="$cb" \
			-v mb="$mb" -v w2="$w2" -v c2="$c2" -v wp="$wp" 'BEGIN {
			printf "| %.2fM | %.2f / %.2f (%.2f s, %.0f MB) | " \
			       "%.2f / %.2f (%.2f s) | **%.2fx** | %.1fx | %.1fx |\n",
			       e / 1e6, e / wb / 1e6, e / cb / 1e6, wb, mb / 1024,
			       e / w2 / 1e6, e / c2 / 1e6, w2, wb / w2,
			       (e / wb) / (ep / wp), (e / w2) / (ep / wp) }')
		echo "$brow"
		brows+=("$brow")
	fi
	if [ "$nspec" = "$icount_at" ]; then
		i_sa=$(icount "$sa" report "$work/t.dat")
		i_p=$(icount perf kmem -i "$work/p.data" stat --caller --alloc)
		i_b=
		[ -z "$before" ] || i_b=$(icount "$before" report "$work/t.dat")
		irow=$(awk -v e="$ev_sa" -v ep="$ev_perf" -v s="$i_sa" -v p="$i_p" \
			-v b="$i_b" 'BEGIN {
			printf "| %.2fM / %.2fM | %.2f G (%.0f per event) | " \
			       "%.2f G (%.0f per event) | **%.1fx** |",
			       e / 1e6, ep / 1e6, s / 1e9, s / e, p / 1e9, p / ep,
			       (p / ep) / (s / e)
			if (b != "")
				printf " %.2f G (%.0f per event), %.1fx |", b / 1e9,
				       b / e, (p / ep) / (b / e)
			else
				printf " - |"
			print "" }')
		echo "$irow"
		irows+=("$irow")
	fi
	rm -f "$work/t.dat" "$work/p.data"
done

kept=
[ -f "$out" ] && grep -qF "$KEEP" "$out" &&
	kept=$(awk -v k="$KEEP" 'index($0, k) { p = 1 } p' "$out")
{
	cat <<HEAD
# slabacct report: benchmark

Produced by \`bench/report.sh ${reps[*]}\` on $(date -u +%Y-%m-%d) ($(uname -r),
$(nproc) cores; other work was running on the machine, so compare the
ratios, which were measured side by side, not the absolute times).

The workload is \`ls -laR DIR\`, repeated N times (${reps[*]}), recorded by
\`slabacct record -b 65536\` (trace.dat) and by \`perf kmem record\`
(perf.data). Each cell: million events per second of wall time / of CPU
time (user + sys), then the wall time and the peak RSS; the median of 3
runs (trace-cmd report: 1 run). Commands:

    slabacct report FILE.dat                       # reader threads: one per core
    slabacct report --threads 1 FILE.dat
    perf kmem -i FILE.perf stat --caller --alloc
    trace-cmd report FILE.dat

| events (ours / perf) | file (ours / perf) | slabacct report | slabacct --threads 1 | perf kmem stat | trace-cmd report | events/s vs perf (wall / CPU) | RSS vs perf | vs trace-cmd (wall) |
|---|---|---|---|---|---|---|---|---|
HEAD
	printf '%s\n' "${rows[@]}"
	cat <<'TAIL'

Targets: at least 3x perf kmem's events/s, at most its peak memory,
linear growth with trace size, and both cores used where that helps.
Peak RSS includes the file pages a tool has mapped: slabacct walks the
trace's pages in place and gives them back as it goes (report-raw.c);
perf maps its perf.data in windows.
TAIL
	if [ ${#brows[@]} -gt 0 ]; then
		cat <<HEAD

Side by side with an older build (${SA_BEFORE_LABEL:-\`$before\`}), same runs:
events/s of wall / of CPU time for the old and the new build, the
speed-up, and each one's events/s against perf kmem's (wall).

| events | before | after | after vs before (wall) | before vs perf | after vs perf |
|---|---|---|---|---|---|
HEAD
		printf '%s\n' "${brows[@]}"
	fi
	if [ ${#irows[@]} -gt 0 ]; then
		cat <<'HEAD'

Instructions (callgrind, `--trace-children=yes`, every process of the
run, start-up included), at one size: slabacct report against perf kmem
stat --caller --alloc, and perf's instructions per event over ours.

| events (ours / perf) | slabacct report | perf kmem stat | perf / ours per event | before |
|---|---|---|---|---|
HEAD
		printf '%s\n' "${irows[@]}"
	fi
	if [ -n "$kept" ]; then
		echo
		printf '%s\n' "$kept"
	fi
} >"$out"
echo "bench: results in $out"
