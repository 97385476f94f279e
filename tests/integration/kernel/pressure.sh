#!/bin/bash
# The memory-pressure and page-owner fragments at work, in the kernel of
# make check-kernel (built with kconfig-fragments/pressure.config and
# pageowner.config besides debug.config):
#  - the reclaim and OOM guest test guest/report-mm passes under it:
#    swap on its built-in zram, direct reclaim and kswapd activity, one
#    OOM kill of the known hog, every figure of the reclaim, compaction
#    and oom sections against /proc/vmstat, the kernel log and
#    trace-cmd. (The module's OOM test, guest/module-oom, runs under the
#    same kernel in kernel/module-suite, with swap on zram as well.)
#  - what the pressure fragment enables is there at run time: PSI's
#    /proc/pressure/memory, the memory controller in cgroup v2, THP,
#    hugetlbfs and /dev/zram0;
#  - booted with page_owner=on, /sys/kernel/debug/page_owner lists
#    exactly the pages sa_test holds at its call site: none before, 60
#    order-2 pages (3-page kmallocs) after 100 allocated and 40 freed,
#    none after the rest are freed.
. "$(dirname "$0")/../../lib.sh"
. "$(dirname "$0")/kernel-lib.bash"

debug_kernel
for opt in SWAP ZRAM MEMCG PSI TRANSPARENT_HUGEPAGE HUGETLBFS PAGE_OWNER; do
	grep -qx "CONFIG_$opt=y" "$KREL_DIR/config" ||
		fail "the kernel has no CONFIG_$opt"
done
# KASAN under TCG: the hang guards (-t) of guest tests are stretched,
# and the recording gets a bigger ring buffer: the guest drains it more
# slowly, and kmemleak adds a kmem event per object (1024 KB per CPU
# lost 835 events here)
export SLABACCT_TIMEOUT_FACTOR=4 SLABACCT_MM_BUF_KB=4096

bash "$TOP/tests/integration/guest/report-mm.sh" "$KREL_DIR/bzImage" \
	>"$TEST_TMP/report-mm.log" 2>&1
rc=$?
if [ $rc != 0 ]; then
	tail -n 40 "$TEST_TMP/report-mm.log" >&2
	fail "guest/report-mm exited $rc under $(basename "$KREL_DIR")"
fi
grep '^# ' "$TEST_TMP/report-mm.log"
note "guest/report-mm passed under $(basename "$KREL_DIR")"

cat >"$TEST_TMP/guest.sh" <<'GUEST'
set -e
cat /proc/pressure/memory > $OUT/psi
mkdir -p /sys/fs/cgroup
mount -t cgroup2 none /sys/fs/cgroup
cat /sys/fs/cgroup/cgroup.controllers > $OUT/controllers
cat /sys/kernel/mm/transparent_hugepage/enabled > $OUT/thp
grep -w hugetlbfs /proc/filesystems > $OUT/hugetlbfs
[ -b /dev/zram0 ] && echo yes > $OUT/zram
insmod $MODDIR/sa_test.ko
# order-2 records whose stack holds sa_test_large_loop. The file is
# copied with cat first: a read() too short for a whole record gets
# ENOMEM, and awk's reads can be.
held() {
	cat /sys/kernel/debug/page_owner > /tmp/page_owner
	awk '/^Page allocated via order/ { o = $5; sub(/,$/, "", o); seen = 0 }
	     /sa_test_large_loop/ && !seen { seen = 1; if (o == 2) n++ }
	     END { print n + 0 }' /tmp/page_owner
}
held > $OUT/held-before
grep -c '^Page allocated via order' /tmp/page_owner > $OUT/records
echo large 100 40 > /proc/sa_test
held > $OUT/held
echo free > /proc/sa_test
held > $OUT/held-after
GUEST
# 256 MB: each read of page_owner walks every page frame (under KASAN
# and TCG, three reads of a 512 MB guest took minutes)
guest_run "$KREL_DIR/bzImage" "$TEST_TMP/guest.sh" -t 300 -m 256 \
	-a page_owner=on ||
	fail "the page_owner guest run failed"
o=$TEST_TMP/out
grep -q '^some avg10=' "$o/psi" || fail "no PSI: $(cat "$o/psi")"
grep -qw memory "$o/controllers" ||
	fail "no memory controller in cgroup v2: $(cat "$o/controllers")"
[ -s "$o/thp" ] || fail "no THP"
[ -s "$o/hugetlbfs" ] || fail "no hugetlbfs"
[ -f "$o/zram" ] || fail "no /dev/zram0"
note "PSI, memcg, THP ($(cat "$o/thp")), hugetlbfs and zram are there"
[ "$(cat "$o/records")" -gt 0 ] || fail "page_owner lists no page"
note "page_owner lists $(cat "$o/records") allocations"
assert_eq "sa_test's order-2 pages before" 0 "$(cat "$o/held-before")"
assert_eq "sa_test's order-2 pages with 60 of 100 held" 60 "$(cat "$o/held")"
assert_eq "sa_test's order-2 pages after the free" 0 "$(cat "$o/held-after")"
exit 0
