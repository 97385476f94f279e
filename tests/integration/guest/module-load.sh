# Load slab_account.ko in a guest of kernel flavour $1, check
# /proc/slab_account, unload, and run the CLI inside the guest.
. "$(dirname "$0")/../../lib.sh"
flavour=${1:?kernel flavour}

cat >"$TEST_TMP/guest.sh" <<'GUEST'
set -e
insmod $MODDIR/slab_account.ko
ls -l /proc/slab_account > $OUT/ls
head -n 1 /proc/slab_account > $OUT/header
rmmod slab_account
[ ! -e /proc/slab_account ] && echo gone > $OUT/after-rmmod
slabacct version > $OUT/version
slabacct events -e kmem > $OUT/events
GUEST
guest_run "$flavour" "$TEST_TMP/guest.sh" -t 120 || fail "guest run failed"
o=$TEST_TMP/out
assert_eq "proc mode" "-r--------" "$(cut -c1-10 "$o/ls")"
grep -Eq '^# slab_account [0-9]+$' "$o/header" || fail "bad header: $(cat "$o/header")"
assert_eq "after rmmod" gone "$(cat "$o/after-rmmod")"
grep -q '^slabacct ' "$o/version" || fail "slabacct did not run in the guest"
grep -Eq '^present +kmem +kmalloc$' "$o/events" || fail "guest: kmalloc event missing"
