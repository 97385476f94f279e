# Guest side of bench/module-wrappers.sh: the cost of an allocation at an
# allocation wrapper's call site, against one at a plain call site, with
# nothing attached and with slab_account.ko loaded (tests/kmod/sa_wrap.ko's
# "bench N": N kvmalloc(5000)+kvfree pairs, through kvmalloc_node, then N
# kmalloc(5000)+kfree pairs, each loop timed with ktime).
#
#   sh wrap-cost.sh PAIRS ROUNDS
#
# Writes $OUT/pairs, one "MODE ROUND KVMALLOC_NS KMALLOC_NS" line per
# round, and $OUT/kernel. Under qemu/run --icount a nanosecond of guest
# time is one instruction.
pairs=$1 rounds=$2
insmod $MODDIR/sa_wrap.ko || exit 1
uname -r >$OUT/kernel

# 6.12's crypto self-tests run for a while after init starts: wait for
# them (at most 60 s of guest time), as pair-cost.sh does.
i=0
while grep -q '^cryptomgr_' /proc/[0-9]*/comm 2>/dev/null; do
	i=$((i + 1))
	[ $i -gt 600 ] && { echo "wrap-cost: cryptomgr threads never ended"; exit 1; }
	sleep 0.1
done

one() {
	echo bench $pairs >/proc/sa_wrap || exit 1
	sed -n 's/^bench [0-9]* //p' /proc/sa_wrap
}

one >/dev/null	# warm up
r=0
while [ $r -lt $rounds ]; do
	r=$((r + 1))
	echo "unloaded $r $(one)" >>$OUT/pairs
	insmod $MODDIR/slab_account.ko || exit 1
	one >/dev/null	# the call sites' first events: classified, stacks
	echo "module $r $(one)" >>$OUT/pairs
	rmmod slab_account || exit 1
done
