# Load slab_account.ko in a guest of kernel flavour $1, check
# /proc/slab_account, unload, and run the CLI inside the guest (a guest
# of this machine's architecture: slabacct is built for it only).
. "$(dirname "$0")/../../lib.sh"
flavour=${1:?kernel flavour}
GUEST_FOREIGN_OK=1

cat >"$TEST_TMP/guest.sh" <<'GUEST'
set -e
insmod $MODDIR/slab_account.ko
ls -l /proc/slab_account > $OUT/ls
head -n 1 /proc/slab_account > $OUT/header
rmmod slab_account
[ ! -e /proc/slab_account ] && echo gone > $OUT/after-rmmod
command -v slabacct > /dev/null || exit 0
slabacct version > $OUT/version
slabacct events -e kmem > $OUT/events
GUEST
guest_run "$flavour" "$TEST_TMP/guest.sh" -t 120 || fail "guest run failed"
o=$TEST_TMP/out
assert_eq "proc mode" "-r--------" "$(cut -c1-10 "$o/ls")"
grep -Eq '^# slab_account [0-9]+$' "$o/header" || fail "bad header: $(cat "$o/header")"
assert_eq "after rmmod" gone "$(cat "$o/after-rmmod")"
if foreign_guest "$flavour"; then
	note "no slabacct in a $(guest_arch "$flavour") guest"
	exit 0
fi
grep -q '^slabacct ' "$o/version" || fail "slabacct did not run in the guest"
grep -Eq '^present +kmem +kmalloc$' "$o/events" || fail "guest: kmalloc event missing"
