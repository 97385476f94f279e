# Guest side of tests/integration/guest/report-mm.sh, and how the traces in
# this directory were recorded (see README; they were recorded without
# swap): `slabacct record -e all` runs while compaction is requested and
# a memory hog grows until the OOM killer takes it. With ZRAM_SWAP=1
# (zram built into the kernel, or loaded from KMODS: zram and what it
# needs, in /kmod-extra/), 16 MB of swap on zram first, so that reclaim
# has anonymous pages to swap out.
#
# Leaves in $OUT the trace, the victim's pid and comm, and what the
# referee (tests/integration/mm-referee.py) compares the trace with:
# /proc/vmstat before the recorder starts (vmstat-pre), once tracing is on
# (vmstat-start), before it stops (vmstat-end) and after (vmstat-post), the
# kernel log at the start and end, and whether MGLRU is on (lru-gen).
set -e
T=/sys/kernel/tracing
for m in $KMODS; do insmod /kmod-extra/$m.ko; done
if [ "$ZRAM_SWAP" = 1 ]; then
	echo 16M > /sys/block/zram0/disksize
	mkswap /dev/zram0 > /dev/null
	swapon /dev/zram0
fi
cat /sys/kernel/mm/lru_gen/enabled > $OUT/lru-gen 2>/dev/null ||
	echo none > $OUT/lru-gen
# the counters reclaim and compaction move, which must stand still at
# the recording's edges: wait until a second passes without a change
# (kswapd's short nap before it sleeps is a tenth of one)
moving() {
	grep -E '^(allocstall|pgsteal|pgscan|pgrefill|pageoutrun|kswapd|slabs_scanned|pgmigrate|compact|nr_vmscan_write|oom_kill)' /proc/vmstat
}
i=0
while [ "$(moving)" != "$(sleep 1; moving)" ]; do
	i=$((i + 1))
	[ $i -lt 30 ] || { echo "memory counters never settled" >&2; exit 1; }
done
cat /proc/vmstat > $OUT/vmstat-pre
# --trace-self: /proc/vmstat counts every task's reclaim, the recorder's
# own threads' too (they reclaim as the guest runs out of memory), so the
# recording must not leave them out
slabacct record -e all --trace-self -b ${BUF_KB:-1024} -o $OUT/trace.dat \
	>$OUT/record.log 2>&1 &
rec=$!
echo -1000 > /proc/$rec/oom_score_adj
# recording has begun once its instance's tracing_on is set
i=0
while ! grep -qx 1 $T/instances/slabacct-$rec-*/tracing_on 2>/dev/null; do
	i=$((i + 1))
	[ $i -lt 300 ] || { echo "record did not start" >&2; exit 1; }
	sleep 0.1
done
sleep 0.5
cat /proc/vmstat > $OUT/vmstat-start
dmesg > $OUT/dmesg-start
echo 1 > /proc/sys/vm/compact_memory
# tail keeps every byte of a stream with no newline: it grows until killed
tail /dev/zero &
hog=$!
echo 1000 > /proc/$hog/oom_score_adj
echo $hog > $OUT/victim-pid
# its comm once it has exec'd tail (before, it is the shell's)
i=0
while [ "$(cat /proc/$hog/comm)" != tail ] && [ $i -lt 100 ]; do
	i=$((i + 1))
	sleep 0.05
done
cat /proc/$hog/comm > $OUT/victim-comm
wait $hog || echo "hog exited $?" > $OUT/hog
# let kswapd finish and fall asleep before the window closes
i=0
while [ "$(moving)" != "$(sleep 1; moving)" ] && [ $i -lt 30 ]; do
	i=$((i + 1))
done
cat /proc/vmstat > $OUT/vmstat-end
dmesg > $OUT/dmesg-end
kill -INT $rec
wait $rec
cat /proc/vmstat > $OUT/vmstat-post
