# Guest side of `make demo`: runs right after boot, with kmem tracing
# started by the kernel command line and slab_account.ko preloaded.
# Saves the boot buffer's statistics and the module's accounting to $OUT.
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
cat $T/trace > $OUT/boot-trace.txt
