#!/bin/bash
# Every text output stays within 80 columns on an 80-column terminal
# (--width 80, as a terminal of 80 columns sets it); into a pipe or a
# file the lines are whole, as with --width 0, on the recorded
# traces and snapshots of tests/data/: report (every section, -v,
# --objects, --by cache, a /proc/slab_account input, a /proc/allocinfo
# input), diff (traces, snapshots, one of each, allocinfo), account,
# snapshot and budget (the captured /proc trees of the guests and the host,
# --compare) and every command's --help. The
# data formats are not text: JSON, CSV, and --format account, which is
# /proc/slab_account's own layout (its caller runs to the end of the
# line, as the module writes it).
. "$(dirname "$0")/../../lib.sh"
[ -x "$SLABACCT" ] || fail "build/slabacct is missing (make all)"
cd "$TEST_TMP" || fail "no workspace"
d=$TOP/tests/data
n=0 bad=0
# check LABEL CMD...: CMD's standard output and error within 80 columns
check() {
	local label=$1
	shift
	"$@" >out.txt 2>err.txt || fail "$label: '$*' exited $?: $(head -c 300 err.txt)"
	n=$((n + 1))
	if ! LC_ALL=C.UTF-8 awk -v l="$label" 'length > 80 {
		printf "%s: %d columns: %s\n", l, length, $0; bad = 1 }
		END { exit bad }' out.txt err.txt >&2; then
		bad=$((bad + 1))
	fi
}

for t in "$d"/report-mm/*.dat.gz; do
	b=${t##*/}
	zcat "$t" >"${b%.gz}"
done
traces=("$d"/report/*.dat ./*.dat)
for t in "${traces[@]}"; do
	b=${t##*/}
	check "$b all" "$SLABACCT" report --width 80 --what all "$t"
	check "$b all -v --objects" "$SLABACCT" report --width 80 --what all -v --objects "$t"
	check "$b by cache" "$SLABACCT" report --width 80 --by cache --what all "$t"
	check "$b timeline" "$SLABACCT" report --width 80 --what timeline --interval 1ms "$t"
done
for a in "$d"/slab_account/*.txt; do
	b=${a##*/}
	check "$b report" "$SLABACCT" report --width 80 --what all "$a"
	check "$b account" "$SLABACCT" account "$a"
done
check "diff" "$SLABACCT" diff --width 80 "${traces[0]}" "${traces[1]}"
check "diff --all" "$SLABACCT" diff --width 80 --all "${traces[0]}" "${traces[1]}"
check "diff --by function" "$SLABACCT" diff --width 80 --by function ./*.dat
check "diff snapshots" "$SLABACCT" diff --width 80 "$d"/slab_account/*.txt
for a in "$d"/allocinfo/*.txt; do
	b=${a##*/}
	check "$b report" "$SLABACCT" report --width 80 "$a"
	check "$b account" "$SLABACCT" account "$a"
done
check "diff allocinfo" "$SLABACCT" diff --width 80 "$d"/allocinfo/*.txt
check "diff snapshot, trace" "$SLABACCT" diff --width 80 "$d/slab_account/6.1.txt" "${traces[0]}"
for r in "$d"/proc/*/; do
	b=$(basename "$r")
	[ -d "$r/proc" ] || continue
	check "budget $b" "$SLABACCT" budget --root "$r"
	# a budget's tree has no slab files: the snapshot's is the others'
	[ -f "$r/proc/slabinfo" ] || continue
	check "snapshot $b" "$SLABACCT" snapshot --root "$r"
	"$SLABACCT" snapshot --root "$r" --save "snap-$b.json" >/dev/null ||
		fail "snapshot --save of $b"
done
set -- snap-*.json
[ $# -ge 2 ] || fail "fewer than two saved snapshots"
check "snapshot --compare" "$SLABACCT" snapshot --compare "$1" "$2"
check "snapshot --compare, reversed" "$SLABACCT" snapshot --compare "$2" "$1"
check "slabacct --help" "$SLABACCT" --help
for c in $("$SLABACCT" --help | awk '/^commands:/ { on = 1; next }
		on && /^  [a-z]/ { print $1 }'); do
	check "$c --help" "$SLABACCT" "$c" --help
done
note "$n text outputs checked"
[ $bad = 0 ] || fail "$bad text outputs go past 80 columns"

# A site's name is never cut. Planted: a caller of 69 characters. At 80
# columns the numbers give way (frag%, frees, live_b, pp go; alloc,
# slack and allocs stay) and the name is whole on the next line; with
# --width 0 every column is there and the line is as long as it is.
long=a_very_long_function_name_that_no_line_of_80_columns_holds
{
	sed '/^#    total/q' "$d/slab_account/6.1.txt"
	printf '%10d %9d %10d %10d %7d %11s kmalloc %s+0x10/0x40\n' \
		999999 99 999900 0 0 3/3 "$long"
} >long.txt
"$SLABACCT" report --width 80 long.txt >w80.txt || fail "report --width 80 of the long name"
# 23 columns of numbers and a name of 69: the row folds before the name,
# which is whole on the next line
grep -A1 '^ *977K  *99  *3$' w80.txt | tail -n 1 | grep -q "^ *$long+0x10/0x40\$" ||
	fail "at 80 columns the long name is not whole after alloc, slack, allocs: $(grep -B1 -F "$long" w80.txt)"
grep -q '^  alloc   slack allocs site$' w80.txt ||
	fail "at 80 columns the kmalloc table kept columns: $(grep -A1 '^kmalloc (' w80.txt)"
"$SLABACCT" report --width 0 long.txt >full.txt || fail "report --width 0 of the long name"
grep -q "^ *977K  *99  *0.0  *3  *3  *0  *0 $long+0x10/0x40\$" full.txt ||
	fail "at --width 0 the line is not whole: $(grep -F "$long" full.txt)"
grep -q '~' full.txt w80.txt && fail "a name was cut with '~': $(grep -h '~' full.txt w80.txt)"
# the "most slack" line names it whole too
grep -q "^# most slack: $long+0x10/0x40," full.txt ||
	fail "the most-slack line: $(grep 'most slack' full.txt)"
note "a 69-character caller: whole at 80 columns (numbers gave way) and unlimited"

# Not a terminal (a pipe, a file, -o FILE): full lines, as --width 0
"$SLABACCT" report long.txt | cmp -s - full.txt ||
	fail "report into a pipe is not --width 0's full lines"
"$SLABACCT" report -o default.txt long.txt || fail "report -o"
cmp -s default.txt full.txt || fail "report -o FILE is not --width 0's full lines"
{
	sed '/^#    total/q' "$d/slab_account/6.1.txt"
	printf '%10d %9d %10d %10d %7d %11s kmalloc %s+0x10/0x40\n' \
		999000 99 998901 0 0 3/3 "$long"
} >long2.txt
"$SLABACCT" diff --width 0 long.txt long2.txt >dfull.txt || fail "diff --width 0"
grep -q -F "$long" dfull.txt || fail "diff --width 0 lacks the long site: $(cat dfull.txt)"
"$SLABACCT" diff long.txt long2.txt | cmp -s - dfull.txt ||
	fail "diff into a pipe is not --width 0's full lines"
"$SLABACCT" merge --width 0 long.txt long2.txt >mfull.txt || fail "merge --width 0"
"$SLABACCT" merge long.txt long2.txt | cmp -s - mfull.txt ||
	fail "merge into a pipe is not --width 0's full lines"
[ "$(awk '{ if (length > m) m = length } END { print m + 0 }' dfull.txt)" -gt 80 ] ||
	fail "diff's full lines are all within 80 columns: the test proves nothing"
note "into a pipe or a file: full lines (report, diff, merge)"
exit 0
