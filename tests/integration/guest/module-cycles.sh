# 100 load/unload cycles of slab_account.ko in a guest of kernel flavour
# $1, under an allocation storm (sa_test's kthread, and its timer in
# softirq context), reading the /proc files while loaded. The test bed fails
# the run on any oops or warning; the guest's Slab and VmallocUsed must
# come back to where they were.
. "$(dirname "$0")/../../lib.sh"
flavour=${1:?kernel flavour}
GUEST_FOREIGN_OK=1
CYCLES=${SA_CYCLES:-100}

cat >"$TEST_TMP/guest.sh" <<GUEST
mem() { sync; echo 3 > /proc/sys/vm/drop_caches; grep -E '^(Slab|VmallocUsed):' /proc/meminfo | tr -s ' ' | tr '\n' ' '; echo; }
insmod \$MODDIR/sa_test.ko || exit 1
# settle the caches once with the module loaded and unloaded
insmod \$MODDIR/slab_account.ko && cat /proc/slab_account > /dev/null && rmmod slab_account
mem > \$OUT/before
cat /proc/slabinfo > \$OUT/slabinfo-before
echo storm 1 > /proc/sa_test
ok=0
i=0
while [ \$i -lt $CYCLES ]; do
	i=\$((i + 1))
	insmod \$MODDIR/slab_account.ko || break
	cat /proc/slab_account /proc/slab_account_reclaim /proc/slab_account_oom > /dev/null || break
	[ \$((i % 10)) = 0 ] && echo reset > /proc/slab_account
	rmmod slab_account || break
	ok=\$i
done
echo \$ok > \$OUT/cycles
cat /proc/slabinfo > \$OUT/slabinfo-storm
echo storm 0 > /proc/sa_test
mem > \$OUT/after
cat /proc/slabinfo > \$OUT/slabinfo-after
rmmod sa_test
GUEST
# Two vCPUs, so loads and unloads race with the storm on the other CPU.
# This needs qemu/run's single-threaded TCG (its default): with
# multi-threaded TCG, patching a static key while another vCPU runs
# through it leaves that vCPU on the int3 of text_poke_bp ("Oops: int3"
# in kfree), with or without this module.
guest_run "$flavour" "$TEST_TMP/guest.sh" --smp 2 -t 600 || fail "guest run failed (see above)"
o=$TEST_TMP/out
assert_eq "cycles completed" $CYCLES "$(cat "$o/cycles")"
read -r _ slab0 _ _ vm0 _ <"$o/before"
read -r _ slab1 _ _ vm1 _ <"$o/after"
note "Slab ${slab0} kB -> ${slab1} kB, VmallocUsed ${vm0} kB -> ${vm1} kB"
# one leaked table would be MBs; allow the allocator's own churn
[ $((slab1 - slab0)) -lt 1024 ] || fail "Slab grew by $((slab1 - slab0)) kB"
[ $((vm1 - vm0)) -lt 1024 ] || fail "VmallocUsed grew by $((vm1 - vm0)) kB"
exit 0
