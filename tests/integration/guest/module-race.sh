# Rows of /proc/slab_account read while the probes update them, and while
# a reset clears them, in a guest of kernel flavour $1. The test build's
# test_read_gap_us widens the window between the reads of one row's
# counters, so that what a busy machine does now and then happens on
# every read:
#  1. sa_test makes N kmalloc(128) (a size class: slack 0) while the file
#     is read again and again; a read that catches the row mid-loop must
#     still show req <= total, never a slack wrapped around 2^64;
#  2. resets race the reads under an allocation storm: a row can then
#     show req > total, and its slack must be printed as 0.
# `slabacct account` must accept every read.
. "$(dirname "$0")/../../lib.sh"
flavour=${1:?kernel flavour}
N=200000

cat >"$TEST_TMP/guest.sh" <<GUEST
set -e
insmod \$MODDIR/test/slab_account.ko test_read_gap_us=200
insmod \$MODDIR/sa_test.ko
mkdir \$OUT/loop \$OUT/reset
# reads the file into DIR/1, DIR/2... while process PID runs (at least twice)
reads() {
	local i=0
	while kill -0 \$2 2>/dev/null || [ \$i -lt 2 ]; do
		i=\$((i + 1))
		cat /proc/slab_account > \$1/\$i
		slabacct account \$1/\$i > /dev/null 2>> \$1/rejected || true
	done
}
echo kmalloc $N 128 $N > /proc/sa_test &
reads \$OUT/loop \$!
wait
echo free > /proc/sa_test
echo storm 1 > /proc/sa_test
(j=0; while [ \$j -lt 16 ]; do j=\$((j + 1)); echo reset > /proc/slab_account; sleep 0.05; done) &
reads \$OUT/reset \$!
wait
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
[ "$1" -ge 2 ] || fail "only $1 reads during the loop"
# the reads did catch the sa_test row mid-loop, or this proved nothing
mid=$(awk -v n=$N '/ sa_test_kmalloc_loop\+/ { split($6, af, "/")
	if (af[1] > 0 && af[1] < n) m++ } END { print m + 0 }' "$o"/loop/[0-9]*)
note "reads that caught sa_test_kmalloc_loop mid-loop: $mid"
[ "$mid" -gt 0 ] || fail "no read caught the sa_test row mid-loop"

res=$(check "$o/reset") || fail "a row read during a reset has a wrong slack"
set -- $res
note "reset: $1 reads, $2 rows with req > total (slack printed 0)"
# 16 resets during the reads: some must have cleared a row mid-read
[ "$2" -gt 0 ] || fail "no read caught a reset: the race was not exercised"

for d in loop reset; do
	[ -s "$o/$d/rejected" ] &&
		fail "slabacct account rejected a read ($d): $(head -n 3 "$o/$d/rejected")"
done
exit 0
