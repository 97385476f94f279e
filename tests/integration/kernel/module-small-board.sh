#!/bin/bash
# slab_account.ko on a 64 MB board, the smallest its defaults are made
# for: the custom 6.12 tinyconfig kernel (scripts/allocinfo-kernel) booted
# with 64 MB of RAM. Against the kernel's own /proc/meminfo:
#   - the live-object map's default follows the RAM: 8 slots per page
#     (MemTotal / page size), rounded up to a power of two, 4096 to
#     262144 (module/main.c);
#   - VmallocUsed rises by what docs/module.md says the tables take (26
#     bytes an object slot; 44 a site, and 40 a site per possible CPU),
#     plus the module's image (/proc/modules), and by at most 64 KiB more
#     (each table rounded up to whole pages);
#   - a find over the guest's files and a read of /proc/slab_account fit:
#     map_full 0;
#   - rmmod gives it all back.
. "$(dirname "$0")/../../lib.sh"
. "$(dirname "$0")/kernel-lib.bash"

allocinfo_kernel
cat >"$TEST_TMP/guest.sh" <<'GUEST'
set -e
vm() { awk '$1 == "VmallocUsed:" { print $2 }' /proc/meminfo; }
awk '$1 == "MemTotal:" { print $2 }' /proc/meminfo >$OUT/memtotal
grep -m1 '^KernelPageSize:' /proc/self/smaps | awk '{ print $2 }' >$OUT/pagesize
cat /sys/devices/system/cpu/possible >$OUT/possible
vm >$OUT/vm0
insmod $MODDIR/slab_account.ko
vm >$OUT/vm1
awk '$1 == "slab_account" { print $2 }' /proc/modules >$OUT/modsize
find / -xdev >/dev/null 2>&1 || true
cat /proc/slab_account >$OUT/account
rmmod slab_account
vm >$OUT/vm2
GUEST
guest_run "$KREL_DIR/bzImage" "$TEST_TMP/guest.sh" -m 64 -t 600 ||
	fail "guest run failed ($(tail -n 3 "$TEST_TMP/out/script.log" 2>/dev/null | tr '\n' ' '))"
o=$TEST_TMP/out
for f in memtotal pagesize vm0 vm1 vm2 modsize; do
	[[ $(cat "$o/$f") =~ ^[0-9]+$ ]] || fail "$f from the guest is not a number: $(cat "$o/$f")"
done
field() { awk -v k="$1:" '$1 == k { print $2 }' "$o/account"; }
objects=$(field objects) sites=$(field sites)
# possible CPUs: "0" or "0-N"
ncpu=$(awk -F- '{ print NF == 1 ? 1 : $2 - $1 + 1 }' "$o/possible")
pages=$(($(cat "$o/memtotal") / $(cat "$o/pagesize")))
want=$((pages * 8))
[ $want -ge 4096 ] || want=4096
[ $want -le 262144 ] || want=262144
p=1
while [ $p -lt $want ]; do p=$((p * 2)); done
note "64 MB guest: MemTotal $(cat "$o/memtotal") kB, $pages pages, $ncpu possible CPU(s)"
assert_eq "the map's default for $pages pages" $p "$objects"
assert_eq "the call-site table's default" 8192 "$sites"
assert_eq "map_full after a find" 0 "$(field map_full)"
tables=$((26 * objects + 44 * sites + 40 * sites * ncpu))
grew=$(( ($(cat "$o/vm1") - $(cat "$o/vm0")) * 1024 - $(cat "$o/modsize") ))
note "VmallocUsed rose by $((grew / 1024)) kB besides the module's $(($(cat "$o/modsize") / 1024)) kB; the tables as documented: $((tables / 1024)) kB"
[ $grew -ge $tables ] ||
	fail "the tables took $grew bytes, less than docs/module.md's $tables: the documented sizes are stale"
[ $grew -le $((tables + 65536)) ] ||
	fail "the tables took $grew bytes, more than docs/module.md's $tables and 64 KiB of page rounding"
assert_eq "VmallocUsed after rmmod (kB)" "$(cat "$o/vm0")" "$(cat "$o/vm2")"
exit 0
