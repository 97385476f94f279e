#!/bin/bash
# The debug kernel's bug finders against slab_account.ko, in one boot:
#  1. load, exercise every probe and the /proc file, unload: no KASAN
#     report, lockdep splat, BUG or warning, and no kmemleak finding from
#     the module; sa_leak.ko, loaded alongside, leaks three objects that
#     kmemleak must find, so the check can fail;
#  2. a planted bug (test_sleep_in_probe=1, a knob of the test build: the
#     kmalloc probe calls might_sleep() in atomic context) must be caught
#     by DEBUG_ATOMIC_SLEEP, naming the probe.
. "$(dirname "$0")/../../lib.sh"
. "$(dirname "$0")/kernel-lib.bash"

debug_kernel
# a second run finds the finished build and does not rebuild it
before=$(stat -c %Y "$KDIR/vmlinux" "$KREL_DIR/bzImage")
debug_kernel
grep -q '^kernel-build: reusing the build' "$TEST_TMP/kernel-build.log" ||
	fail "an unchanged kernel-build did not reuse its build"
assert_eq "vmlinux and bzImage times after a reuse" "$before" \
	"$(stat -c %Y "$KDIR/vmlinux" "$KREL_DIR/bzImage")"

cat >"$TEST_TMP/guest.sh" <<'GUEST'
kml=/sys/kernel/debug/kmemleak
[ -w $kml ] || { echo "no $kml" >$OUT/error; exit 1; }
# forget what the kernel itself leaked before the module came
echo scan >$kml
echo clear >$kml
echo "slabacct-test: module loaded" >/dev/kmsg
# stays loaded, so its leaks are told apart from slab_account's; loaded
# from a child that exits, or stale copies of its pointers on this
# shell's kernel stack would hide the leaks from kmemleak
sh -c "insmod $MODDIR/sa_leak.ko" || exit 1
insmod $MODDIR/slab_account.ko || exit 1
i=0
while [ $i -lt 3 ]; do
	ls -lR /sys/kernel/tracing/events/kmem >/dev/null 2>&1
	cat /proc/slab_account >/dev/null
	i=$((i + 1))
done
cat /proc/slab_account >$OUT/slab_account
echo reset >/proc/slab_account
rmmod slab_account || exit 1
# kmemleak reports only objects older than 5 s, and not on the first scan
# that sees them (their checksum is new)
sleep 6
echo scan >$kml
echo scan >$kml
cat $kml >$OUT/kmemleak
echo "slabacct-test: planted bug" >/dev/kmsg
if ! insmod $MODDIR/test/slab_account.ko test_sleep_in_probe=1 2>$OUT/planted.err; then
	echo no-parameter >$OUT/planted
	exit 0
fi
ls -lR /sys/kernel/tracing/events/kmem >/dev/null 2>&1
rmmod slab_account
echo loaded >$OUT/planted
GUEST
guest_run "$KREL_DIR/bzImage" "$TEST_TMP/guest.sh" --no-splat-check -t 600 ||
	fail "the guest script failed: $(cat "$TEST_TMP/out/error" 2>/dev/null)"
o=$TEST_TMP/out
grep -q '^# slab_account' "$o/slab_account" ||
	fail "/proc/slab_account under the debug kernel: $(head -n 2 "$o/slab_account")"

# 1. Nothing from the bug finders up to the planted bug.
sed '/slabacct-test: planted bug/,$d' "$o/dmesg" >"$TEST_TMP/clean"
grep -q 'slabacct-test: module loaded' "$TEST_TMP/clean" || fail "no marker in dmesg"
if grep -Eq "$SPLAT_RE" "$TEST_TMP/clean"; then
	grep -E -A 20 "$SPLAT_RE" "$TEST_TMP/clean" | head -n 60 >&2
	fail "the debug kernel reported a bug before the planted one"
fi
note "no KASAN, lockdep, BUG or WARNING while the module ran"

# kmemleak: every suspected object, with its backtrace. slab_account's
# if the backtrace names it, or has an address no symbol covers (its
# text is gone after rmmod, and init text is freed after init) and does
# not name sa_leak, which is still loaded.
awk '/^unreferenced object/ { n++ } n { print n "\t" $0 }' "$o/kmemleak" \
	>"$TEST_TMP/leaks"
leaks_of() {
	awk -F '\t' -v re="$1" '$2 ~ re { print $1 }' "$TEST_TMP/leaks" | sort -u
}
note "kmemleak: $(grep -c '^unreferenced object' "$o/kmemleak") suspected leaks"
planted=$(leaks_of 'sa_leak_alloc')
[ -n "$planted" ] || cat "$o/kmemleak" >&2
assert_eq "leaks planted by sa_leak.ko that kmemleak found" 3 \
	"$(echo "$planted" | grep -c .)"
ours=$( (leaks_of 'slab_account'; leaks_of '\\] 0x[0-9a-f]+$' |
	grep -vxF "$planted") | sort -u | grep -c .)
if [ "$ours" != 0 ]; then
	cat "$o/kmemleak" >&2
	fail "kmemleak: $ours leaks from slab_account"
fi
note "kmemleak: none from slab_account"

# 2. The planted bug is caught.
[ "$(cat "$o/planted")" = loaded ] ||
	fail "the test build of slab_account.ko has no test_sleep_in_probe parameter: $(cat "$o/planted.err")"
sed -n '/slabacct-test: planted bug/,$p' "$o/dmesg" >"$TEST_TMP/planted"
grep -q 'BUG: sleeping function called from invalid context' "$TEST_TMP/planted" ||
	{ cat "$TEST_TMP/planted" >&2; fail "DEBUG_ATOMIC_SLEEP did not catch the planted bug"; }
grep -A 40 'BUG: sleeping function called' "$TEST_TMP/planted" |
	grep -q 'sa_probe_kmalloc.*\[slab_account\]' ||
	{ cat "$TEST_TMP/planted" >&2; fail "the splat does not name the kmalloc probe"; }
note "the planted sleep in the kmalloc probe was caught by DEBUG_ATOMIC_SLEEP"
