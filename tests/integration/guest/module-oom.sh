# slab_account.ko under memory pressure in a small guest of kernel flavour
# $1: a memory hog runs until the OOM killer fires. The notifier's tagged
# block must be in the kernel log with sa_test's call site in it, the
# snapshot must be readable afterwards, each snapshot must have read the
# table once (ftrace counts the slots read), and the reclaim counters must
# have moved. A second OOM with the test build's reclaim pending table
# full (test_pending_slots=0) counts every begin as pending_full.
. "$(dirname "$0")/../../lib.sh"
. "$(dirname "$0")/module-lib.bash"
flavour=${1:?kernel flavour}
GUEST_FOREIGN_OK=1

# Swap on zram where the kernel has it, as a module (Debian's kernels) or
# built in (a custom kernel with kconfig-fragments/pressure.config), so
# that reclaim really frees anonymous pages and pages_reclaimed moves; with
# no swap and no page cache there is nothing for the LRU to reclaim.
swap=0
krel=$("$TOP/scripts/kernels" --flavour "$flavour" 2>/dev/null | cut -d' ' -f1)
zram_swap "$flavour" && swap=1
note "zram swap in the guest: $swap"

{ echo "KMODS='$KMOD_ORDER' ZRAM_SWAP=$swap"; cat; } >"$TEST_TMP/guest.sh" <<'GUEST'
set -e
for m in $KMODS; do insmod /kmod-extra/$m.ko; done
if [ "$ZRAM_SWAP" = 1 ]; then
	echo 16M > /sys/block/zram0/disksize
	mkswap /dev/zram0 > /dev/null
	swapon /dev/zram0
fi
insmod $MODDIR/slab_account.ko oom_top=5 sites=1024
insmod $MODDIR/sa_test.ko
# 8 MB held by one known call site, so it heads the OOM list
echo kmalloc 2048 4096 0 > /proc/sa_test
cat /sys/kernel/slab/kmalloc-4k/slab_size > $OUT/kmalloc_slot
cat /proc/slab_account_oom > $OUT/oom-before
# ftrace counts the reads of table slots (sa_site_read) while the OOM
# notifier runs: one walk of the table per snapshot
# (a kernel with no function tracer, as the debug kernel, says so)
tr=/sys/kernel/tracing
ftrace=0
if [ -e $tr/set_ftrace_filter ]; then
	ftrace=1
	echo 2048 > $tr/buffer_size_kb
	echo sa_site_read > $tr/set_ftrace_filter
	echo function > $tr/current_tracer
fi
# tail keeps every byte of a stream with no newline: it grows until killed
tail /dev/zero || echo "hog exited $?" > $OUT/hog
cat /proc/slab_account_oom > $OUT/oom
if [ $ftrace = 1 ]; then
	echo 0 > $tr/tracing_on
	grep -c ' sa_site_read <-' $tr/trace > $OUT/slot-reads || true
	cat $tr/per_cpu/cpu*/stats | grep '^overrun' > $OUT/overrun
	echo nop > $tr/current_tracer
	echo > $tr/set_ftrace_filter
	echo 1 > $tr/tracing_on
else
	echo "no function tracer" > $OUT/slot-reads
fi
cat /proc/slab_account_reclaim > $OUT/reclaim
cat /proc/slab_account > $OUT/account
echo free > /proc/sa_test
rmmod sa_test
rmmod slab_account
# again with the test build, its reclaim pending table full on purpose
insmod $MODDIR/test/slab_account.ko test_pending_slots=0
tail /dev/zero || echo "hog exited $?" > $OUT/hog-full
cat /proc/slab_account_reclaim > $OUT/reclaim-full
rmmod slab_account
GUEST
guest_run "$flavour" "$TEST_TMP/guest.sh" -m 256 -t 240 "${KMOD_FILES[@]}" ||
	fail "guest run failed"
o=$TEST_TMP/out
value() { sed -n "s/^$1: //p" "$2"; }

[ -e "$o/hog" ] || fail "the memory hog was not killed"
assert_eq "OOM events before" 0 "$(value oom_events "$o/oom-before")"
[ "$(value oom_events "$o/oom")" -gt 0 ] || fail "no OOM event seen"
[ "$(value snapshots "$o/oom")" -gt 0 ] || fail "no OOM snapshot taken"
head -n 1 "$o/oom" | grep -qx '# slab_account_oom 2' || fail "bad OOM header"
assert_eq "OOM snapshot rows" 5 "$(value top "$o/oom")"
sed '1,/^# *total/d' "$o/oom" | head -n 1 | grep -q ' sa_test_kmalloc_loop+.*\[sa_test\]' ||
	fail "sa_test is not the top holder: $(sed '1,/^# *total/d' "$o/oom" | head -n 1)"

# one walk of the table (1024 call-site slots and 256 pair rows, one for
# every fourth site) per snapshot, not two (Debian's
# kernels have the function tracer; a custom kernel may not)
if [ "$(cat "$o/slot-reads")" = "no function tracer" ] && [ -z "$krel" ]; then
	note "no function tracer in this kernel: slot reads not counted"
else
	[ "$(awk '$2 != 0' "$o/overrun")" = "" ] ||
		fail "ftrace lost events: $(cat "$o/overrun")"
	assert_eq "slots read by the OOM notifier" \
		$(((1024 + 256) * $(value snapshots "$o/oom"))) \
		"$(cat "$o/slot-reads")"
fi

grep -q 'slab_account: OOM begin: top 5 call sites' "$o/dmesg" || fail "no OOM block in the log"
sed -n '/slab_account: OOM begin/,/slab_account: OOM end/p' "$o/dmesg" >"$TEST_TMP/block"
# 2048 slots of kmalloc-4k: 8388608 bytes (16777216 under KASAN)
kmalloc_slot "$flavour" 4096 "$o/kmalloc_slot"
grep -q "OOM  1: $((2048 * SLOT)) bytes in 2048 objects, kmalloc sa_test_kmalloc_loop+" "$TEST_TMP/block" ||
	fail "the OOM block does not name sa_test first: $(cat "$TEST_TMP/block")"
grep -q 'slab_account: OOM end' "$TEST_TMP/block" || fail "the OOM block is not closed"
grep -q 'Out of memory: Killed process' "$o/dmesg" || fail "the OOM killer did not run"

cat "$o/reclaim"
for k in direct_reclaim_entries direct_reclaim_ns_total kswapd_wakeups \
	 shrink_slab_calls shrink_slab_ns_total; do
	[ "$(value $k "$o/reclaim")" -gt 0 ] || fail "reclaim: $k is 0"
done
if [ $swap = 1 ]; then
	[ "$(value pages_reclaimed "$o/reclaim")" -gt 0 ] ||
		fail "reclaim: pages_reclaimed is 0 with zram swap"
else
	note "no zram in this kernel: pages_reclaimed not required"
fi
[ "$(value direct_reclaim_ns_max "$o/reclaim")" -le \
  "$(value direct_reclaim_ns_total "$o/reclaim")" ] || fail "max > total"
assert_eq "reclaim: pending_full with 256 pending slots" 0 \
	"$(value pending_full "$o/reclaim")"

# with the pending table full, every begin is counted as pending_full,
# none is timed, and the ends find no begin
r=$o/reclaim-full
[ -e "$o/hog-full" ] || fail "the second memory hog was not killed"
cat "$r"
[ "$(value direct_reclaim_entries "$r")" -gt 0 ] || fail "full table: no direct reclaim"
assert_eq "full table: pending_full = direct reclaims + shrink_slab calls" \
	$(($(value direct_reclaim_entries "$r") + $(value shrink_slab_calls "$r"))) \
	"$(value pending_full "$r")"
for k in direct_reclaim_ns_total shrink_slab_ns_total; do
	assert_eq "full table: $k" 0 "$(value $k "$r")"
done
[ "$(value unmatched_ends "$r")" -gt 0 ] || fail "full table: no unmatched end"
exit 0
