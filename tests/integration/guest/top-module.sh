# slabacct top against slab_account.ko in a guest of kernel flavour $1:
# auto picks /proc/slab_account, and a known load (sa_test.ko: 1000
# kmalloc(100) in 128-byte slots, 300 freed) shows as that call site's
# exact slack and live bytes, and as its allocations over the interval.
. "$(dirname "$0")/../../lib.sh"
flavour=${1:?kernel flavour}
N=1000 S=100 M=300

cat >"$TEST_TMP/guest.sh" <<GUEST
set -e
insmod \$MODDIR/slab_account.ko
insmod \$MODDIR/sa_test.ko
# the load must fall inside top's interval: after its first sample,
# its second read of the file (the first checks it), which ftrace counts
# (a read takes a snapshot, sa_view_take); with no function tracer, a
# second's wait as before
tr=/sys/kernel/tracing
if [ -e \$tr/set_ftrace_filter ]; then
	echo sa_view_take > \$tr/set_ftrace_filter
	echo function > \$tr/current_tracer
fi
slabacct top -n 1 -d 3 -t 0 > \$OUT/top 2> \$OUT/top.err &
pid=\$!
if [ -e \$tr/set_ftrace_filter ]; then
	i=0
	while [ \$(grep -c ' sa_view_take <-' \$tr/trace) -lt 2 ] && [ \$i -lt 600 ]; do
		sleep 0.1; i=\$((i + 1))
	done
else
	sleep 1
fi
echo kmalloc $N $S $M > /proc/sa_test
wait \$pid
echo \$? > \$OUT/status
if [ -e \$tr/set_ftrace_filter ]; then
	echo nop > \$tr/current_tracer
	echo > \$tr/set_ftrace_filter
fi
slabacct top -n 1 -d 0.2 --sort live -t 3 > \$OUT/top-live
echo free > /proc/sa_test
GUEST
guest_run "$flavour" "$TEST_TMP/guest.sh" -t 120 || fail "guest run failed"
o=$TEST_TMP/out
cat "$o/top" "$o/top.err"

assert_eq "exit status" 0 "$(cat "$o/status")"
head -n 1 "$o/top" | grep -q '^slabacct top: /proc/slab_account, sort: rate' ||
	fail "auto did not pick /proc/slab_account: $(head -n 1 "$o/top")"
row=$(grep -E ' kmalloc +sa_test_kmalloc_loop' "$o/top") ||
	fail "no sa_test_kmalloc_loop row"
read -r rate bytes slack live kind site <<<"$row"
assert_eq "slack of $N kmalloc($S) in 128-byte slots" $((N * (128 - S))) "$slack"
assert_eq "live bytes after $M frees" $(((N - M) * 128)) "$live"
# allocations over the interval: rate x interval = N, to the rounding
interval=$(sed -n 's/.*every \([0-9.]*\)s$/\1/p' "$o/top")
awk -v r="$rate" -v i="$interval" -v n=$N \
	'BEGIN { d = r * i - n; exit !(d < n * 0.05 && d > -n * 0.05) }' ||
	fail "rate $rate/s over ${interval}s is not $N allocations"
note "rate $rate/s over ${interval}s: $N allocations"
# --sort live: the first row is the one with the most live bytes
first=$(awk '/^ ALLOCS/ { getline; print $4; exit }' "$o/top-live")
max=$(awk '/^ ALLOCS/ { on = 1; next } on { print $4 }' "$o/top-live" | sort -h | tail -n 1)
assert_eq "--sort live puts the most live bytes first" "$max" "$first"
