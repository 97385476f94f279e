# Rows of /proc/slab_account read while the probes update them, and while
# a reset clears them, in a guest of kernel flavour $1, with the test
# build's knobs that make what a busy machine does now and then happen on
# every read:
#  1. sa_test makes kmalloc(128) (a size class: slack 0) while the file
#     is read again and again, test_read_gap_us widening the window
#     between the reads of a row's counters; a read that catches the row
#     mid-loop must still show req <= total, never a slack wrapped around
#     2^64;
#  2. a reset lands between the reads of a row's counters (the test
#     build's test_reset_in_read does it there, once): the row then shows
#     req > total, and its slack must be printed as 0.
# Phase 1 repeats (at most 5 times, each loop twice as long) until a read
# has caught the row mid-loop, or the test fails for not having exercised
# it.
# `slabacct account` must accept every read (in the guest, or here on
# the host for a guest of another architecture, where it does not run).
. "$(dirname "$0")/../../lib.sh"
flavour=${1:?kernel flavour}
GUEST_FOREIGN_OK=1
# kmallocs in sa_test's loop: N in the first round, twice as many in
# each next one, until a read catches the loop running (how long a read
# and a loop take depends on the kernel: KASAN under TCG is slow)
N=25000

{ echo "N=$N"; cat; } >"$TEST_TMP/guest.sh" <<'GUEST'
set -e
insmod $MODDIR/test/slab_account.ko test_read_gap_us=200
insmod $MODDIR/sa_test.ko
sys=/sys/module/slab_account/parameters
mkdir $OUT/loop $OUT/reset
SA=$(command -v slabacct || true)
n=0
# read_file DIR: one more read of the file, into DIR/1, DIR/2...
read_file() {
	n=$((n + 1))
	cat /proc/slab_account > $1/$n
	[ -z "$SA" ] || slabacct account $1/$n > /dev/null 2>> $1/rejected || true
}
# 1. reads while sa_test's loop runs, until one catches the row mid-loop
# (its allocs between the rounds' totals): at most 5 rounds, N, 2N, 4N...
round=0 k=$N total=0
while [ $round -lt 5 ] && [ ! -e $OUT/loop/caught ]; do
	round=$((round + 1))
	echo kmalloc $k 128 $k > /proc/sa_test &
	pid=$!
	while kill -0 $pid 2>/dev/null; do
		read_file $OUT/loop
		if awk -v lo=$total -v hi=$((total + k)) '
			/ sa_test_kmalloc_loop\+/ { split($6, af, "/")
			if (af[1] > lo && af[1] < hi) f = 1 } END { exit !f }' \
			$OUT/loop/$n; then
			echo "$round $n" > $OUT/loop/caught
		fi
	done
	wait
	echo free > /proc/sa_test
	total=$((total + k)) k=$((k * 2))
done
# 2. a reset between the reads of a row's counters (test_reset_in_read:
# the next row read resets the tables after reading its req), under an
# allocation storm so that rows fill again: until three reads have shown
# a row read across the reset, at most 10 (another reader of the rows,
# such as the OOM notifier, can take an armed reset before a read does)
echo 0 > $sys/test_read_gap_us
echo storm 1 > /proc/sa_test
n=0 caught=0
while [ $caught -lt 3 ] && [ $n -lt 10 ]; do
	echo 1 > $sys/test_reset_in_read
	read_file $OUT/reset
	cat $sys/test_reset_in_read >> $OUT/reset/armed
	if awk '/^# *total/ { r = 1; next } r && $3 > $1 { f = 1 }
		END { exit !f }' $OUT/reset/$n; then
		caught=$((caught + 1))
	fi
	sleep 0.2
done
echo storm 0 > /proc/sa_test
rmmod sa_test
rmmod slab_account
GUEST
guest_run "$flavour" "$TEST_TMP/guest.sh" -t 600 || fail "guest run failed"
o=$TEST_TMP/out

# check DIR: every row of every read consistent; prints "READS CLAMPED"
check() {
	awk '
	FNR == 1 { reads++; r = 0 }
	/^# *total/ { r = 1; next }
	r {
		# total slack req: slack is total - req, or 0 when req > total
		if ($3 > $1 ? $2 != 0 : $2 != $1 - $3) {
			print FILENAME ": bad slack: " $0 > "/dev/stderr"; bad = 1
		}
		if ($3 > $1) clamped++
	}
	END { print reads + 0, clamped + 0; exit bad }' "$1"/[0-9]*
}
res=$(check "$o/loop") || fail "a row read mid-loop has a wrong slack"
set -- $res
note "loop: $1 reads, $2 rows with req > total"
# the reads did catch the sa_test row mid-loop, or this proved nothing
[ -e "$o/loop/caught" ] || fail "no read caught the sa_test row mid-loop in 5 rounds"
note "round and read that caught sa_test_kmalloc_loop mid-loop: $(cat "$o/loop/caught")"
# a row that only grows is read req first: never req > total
over=$(awk '/ sa_test_kmalloc_loop\+/ && $3 > $1' "$o"/loop/[0-9]*)
[ -z "$over" ] || fail "sa_test's growing row read with req > total: $over"

res=$(check "$o/reset") || fail "a row read during a reset has a wrong slack"
set -- $res
reads=$1
note "reset: $1 reads, $2 rows with req > total (slack printed 0)"
# every armed reset was done (by a read, or by another reader of the rows)
assert_eq "resets done" "$(yes N | head -n "$reads" | tr '\n' ' ' | sed 's/ $//')" \
	"$(tr '\n' ' ' <"$o/reset/armed" | sed 's/ $//')"
# three reads had a row cleared between its req and its alloc
with=$(awk '/^# *total/ { r = 1; next } r && $3 > $1 { f[FILENAME] = 1 }
	END { print length(f) }' "$o"/reset/[0-9]*)
note "reads with a row read across the reset: $with of $reads"
[ "$with" -ge 3 ] || fail "only $with of $reads reads had a row with req > total"

for d in loop reset; do
	if foreign_guest "$flavour"; then
		for f in "$o/$d"/[0-9]*; do
			"$SLABACCT" account "$f" >/dev/null 2>>"$o/$d/rejected"
		done
	fi
	[ -s "$o/$d/rejected" ] &&
		fail "slabacct account rejected a read ($d): $(head -n 3 "$o/$d/rejected")"
done
exit 0
