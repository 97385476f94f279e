# tests/kmod/sa_null.ko, the benchmark's least probes (bench/module-
# overhead.sh), in a guest of kernel flavour $1 under qemu/run --icount,
# where a loop's guest time is its instruction count. The benchmark's
# guest side (qemu/guest/pair-cost.sh, which waits for a quiet guest
# first) times sa_test.ko's kmalloc(100)+kfree loop with each of its
# works, and each must add at least 4 instructions a pair to the one
# before (empty, counts, floor): a work that did nothing would tie. A
# work it does not have is refused, with a message that names it.
. "$(dirname "$0")/../../lib.sh"
flavour=${1:?kernel flavour}
GUEST_FOREIGN_OK=1
pairs=20000

cat >"$TEST_TMP/guest.sh" <<GUEST
sh /pair-cost.sh $pairs 1 null,counts,floor || exit 1
insmod \$MODDIR/sa_null.ko work=3 2>/dev/null && { echo "work=3 loaded"; exit 1; }
dmesg | grep 'sa_null: work=3' >\$OUT/refused
exit 0
GUEST
guest_run "$flavour" "$TEST_TMP/guest.sh" --icount --smp 1 -t 300 \
	-f "$TOP/qemu/guest/pair-cost.sh:/pair-cost.sh" ||
	fail "guest run failed (see above)"
o=$TEST_TMP/out
ns() { awk -v m="$1" '$1 == m { print $3 }' "$o/pairs"; }
empty=$(ns null) counts=$(ns counts) floor=$(ns floor)
for v in "$empty" "$counts" "$floor"; do
	[[ $v =~ ^[0-9]+$ ]] || fail "no loop time from the guest: $(cat "$o/pairs")"
done
note "$pairs pairs: empty $empty, counts $counts, floor $floor instructions"
# 9 and 21 instructions a pair on 6.1: a timer tick in a loop moves it by
# far less than 4
[ $((counts - empty)) -ge $((4 * pairs)) ] ||
	fail "work=1 (counts) adds $((counts - empty)) instructions to $pairs pairs, fewer than 4 a pair"
[ $((floor - counts)) -ge $((4 * pairs)) ] ||
	fail "work=2 (floor) adds $((floor - counts)) instructions to $pairs pairs over work=1, fewer than 4 a pair"
grep -q 'expected 0 (empty), 1 (counts) or 2 (floor)' "$o/refused" ||
	fail "work=3 refused without the message: $(cat "$o/refused")"
exit 0
