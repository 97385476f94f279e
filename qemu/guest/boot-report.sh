# Guest side of `make demo`: runs right after boot, with kmem tracing
# started by the kernel command line (`slabacct boot cmdline`) and
# slab_account.ko preloaded. Saves the boot buffer as trace.dat with
# `slabacct boot collect`, and the module's accounting, to $OUT.
T=/sys/kernel/tracing
echo 0 > $T/tracing_on
for s in $T/per_cpu/cpu*/stats; do
	cpu=${s%/stats}
	echo "${cpu##*/} $(grep -E '^(entries|overrun):' $s | tr '\n' ' ')"
done > $OUT/boot-buffer-stats
cat /proc/cmdline > $OUT/cmdline
uname -r > $OUT/kernel
cat /proc/meminfo > $OUT/meminfo
cat /proc/slab_account > $OUT/slab_account
slabacct boot collect -o $OUT/boot.dat > $OUT/boot-collect.txt
# The second serial port carries about 90 KB/s under TCG: compress.
gzip -1 $OUT/boot.dat
