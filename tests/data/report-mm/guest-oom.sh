# Guest side of tests/integration/guest/report-mm.sh, and how the traces in
# this directory were recorded (see README): `slabacct record -e all` runs
# while compaction is requested and a memory hog grows until the OOM
# killer takes it. Leaves trace.dat and the victim's pid and comm in $OUT.
set -e
T=/sys/kernel/tracing
slabacct record -e all -b ${BUF_KB:-1024} -o $OUT/trace.dat >$OUT/record.log 2>&1 &
rec=$!
echo -1000 > /proc/$rec/oom_score_adj
# recording has begun once its instance's tracing_on is set
i=0
while ! grep -qx 1 $T/instances/slabacct-$rec/tracing_on 2>/dev/null; do
	i=$((i + 1))
	[ $i -lt 300 ] || { echo "record did not start" >&2; exit 1; }
	sleep 0.1
done
sleep 0.5
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
sleep 0.5
kill -INT $rec
wait $rec
