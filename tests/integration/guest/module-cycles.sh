# 100 load/unload cycles of slab_account.ko in a guest of kernel flavour
# $1, under an allocation storm (sa_test's kthread, and its timer in
# softirq context), reading the /proc files while loaded. The test bed fails
# the run on any oops or warning; the guest's Slab and VmallocUsed must
# come back to where they were.
. "$(dirname "$0")/../../lib.sh"
flavour=${1:?kernel flavour}
GUEST_FOREIGN_OK=1
CYCLES=${SA_CYCLES:-100}

# mem: Slab and VmallocUsed, after the caches have given back what they
# can: dropped page caches, then every slab cache shrunk, which also
# empties KASAN's quarantine of it (kasan_cache_shrink), twice, a second
# apart, for what the first freed through RCU (kmemleak's objects).
# Without the shrink, under the debug kernel, the storm's caches ended
# with up to 6 MB more slabs (quarantined objects and empty slabs), and
# Slab ended 1.1 MB above its start in 1 run of 2 with no leak.
cat >"$TEST_TMP/guest.sh" <<GUEST
shrink() { for f in /sys/kernel/slab/*/shrink; do echo 1 > \$f; done 2>/dev/null; }
mem() { sync; echo 3 > /proc/sys/vm/drop_caches; shrink; sleep 1; shrink; grep -E '^(Slab|VmallocUsed):' /proc/meminfo | tr -s ' ' | tr '\n' ' '; echo; }
insmod \$MODDIR/sa_test.ko || exit 1
# settle the caches once with the module loaded and unloaded
insmod \$MODDIR/slab_account.ko && cat /proc/slab_account > /dev/null && rmmod slab_account
mem > \$OUT/before
grep -m1 '^KernelPageSize:' /proc/self/smaps > \$OUT/pagesize
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
# the caches that grew most, in kB of their slabs (slabinfo's num_slabs
# * pagesperslab pages), shown whatever the verdict
read -r _ pkb _ <"$o/pagesize"
[[ $pkb =~ ^[0-9]+$ ]] || fail "no page size from the guest: $(cat "$o/pagesize")"
awk -v p="$pkb" 'FNR == 1 { f++ } f <= 2 && $1 !~ /^(#|slabinfo)/ {
	kb = $15 * $6 * p; if (f == 1) a[$1] = kb; else b[$1] = kb }
	END { for (c in b) if (b[c] - a[c] != 0) printf "%d %s %d %d\n", b[c] - a[c], c, a[c], b[c] }' \
	"$o/slabinfo-before" "$o/slabinfo-after" | sort -rn | head -n 8 |
	while read -r d c a b; do note "  $c: $a kB -> $b kB ($d)"; done
# one leaked table would be MBs, and a leak of 5 kB a cycle reaches this
# limit; with the caches shrunk, what moves is the allocator's own churn,
# at most 116 kB in 8 runs on five kernels (the debug one among them)
[ $((slab1 - slab0)) -lt 512 ] || fail "Slab grew by $((slab1 - slab0)) kB"
[ $((vm1 - vm0)) -lt 1024 ] || fail "VmallocUsed grew by $((vm1 - vm0)) kB"
exit 0
