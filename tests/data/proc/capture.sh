#!/bin/sh
# Capture the /proc and /sys files `slabacct snapshot` reads, into
# $OUT/tree/ (same layout as the live system), then drive the machine into
# an OOM kill and capture the kernel log with it.  Run inside a guest:
#
#   qemu/run -k 6.1 -o DIR tests/data/proc/capture.sh
#
# and copy DIR/tree to tests/data/proc/<name>/.  busybox sh.
T=$OUT/tree
mkdir -p $T/proc/pressure $T/sys/kernel/slab $T/sys/kernel/debug/extfrag
# buddyinfo and the kernel's own unusable_index back to back, so that the
# unit tests can compare our index with the kernel's on the same free lists
cat /proc/buddyinfo >$T/proc/buddyinfo
cat /sys/kernel/debug/extfrag/unusable_index \
	>$T/sys/kernel/debug/extfrag/unusable_index 2>/dev/null
for f in meminfo vmstat slabinfo pagetypeinfo zoneinfo swaps uptime; do
	cat /proc/$f >$T/proc/$f 2>/dev/null || rm -f $T/proc/$f
done
cat /proc/sys/kernel/osrelease >$T/proc/osrelease
[ -r /proc/pressure/memory ] && cat /proc/pressure/memory >$T/proc/pressure/memory
rmdir $T/proc/pressure 2>/dev/null
for d in /sys/kernel/slab/*; do
	[ -L "$d" ] && continue
	n=${d##*/}
	mkdir -p $T/sys/kernel/slab/$n
	for a in object_size slab_size order objects slabs total_objects \
		objs_per_slab aliases; do
		cat $d/$a >$T/sys/kernel/slab/$n/$a 2>/dev/null
	done
done
for p in /proc/[0-9]*; do
	n=${p##*/}
	mkdir -p $T/proc/$n
	cat $p/status >$T/proc/$n/status 2>/dev/null
	cat $p/smaps_rollup >$T/proc/$n/smaps_rollup 2>/dev/null
	[ -s $T/proc/$n/status ] || rm -rf $T/proc/$n
done
# An OOM kill: awk doubles a string until the OOM killer ends it.
awk 'BEGIN { s = "xxxxxxxxxxxxxxxx"; while (1) s = s s }' >/dev/null 2>&1
sleep 1
dmesg >$OUT/dmesg.txt
dd if=/dev/kmsg bs=8192 iflag=nonblock 2>/dev/null >$OUT/kmsg.txt || \
	timeout 1 cat /dev/kmsg >$OUT/kmsg.txt
[ -r /proc/pressure/memory ] && cat /proc/pressure/memory >$OUT/pressure-after
cat /proc/vmstat >$OUT/vmstat-after
cat /proc/meminfo >$OUT/meminfo-after
echo captured
