# slab_account.ko in one guest of kernel flavour $1: exact counts for a
# known call site (sa_test.ko), the parser against the live file, sort,
# top, reset (only a read snapshots the table, counted by ftrace), each
# failed-init step unwinding (the test build's fail_at),
# and overflow counters with tables too small on purpose.
# In a guest of another architecture (arm64, armhf) with no slabacct
# cross-built for it (make ARCH=...), the guest's /proc file is parsed
# here on the host.
. "$(dirname "$0")/../../lib.sh"
. "$(dirname "$0")/module-lib.bash"
flavour=${1:?kernel flavour}
GUEST_FOREIGN_OK=1
N=1000 S=100 M=300 CN=500 CM=200 LN=50 LM=20

cat >"$TEST_TMP/guest.sh" <<GUEST
set -e
insmod \$MODDIR/slab_account.ko
insmod \$MODDIR/sa_test.ko
echo kmalloc $N $S $M > /proc/sa_test
echo cache $CN $S $CM > /proc/sa_test
echo large $LN $LM > /proc/sa_test
cat /proc/sa_test > \$OUT/sa_test
cat /sys/kernel/slab/sa_test_cache/slab_size > \$OUT/slab_size
cat /sys/kernel/slab/kmalloc-128/slab_size > \$OUT/kmalloc_slot
cat /proc/slab_account > \$OUT/account
if command -v slabacct > /dev/null; then
	slabacct account --json /proc/slab_account > \$OUT/account.json
	slabacct account > \$OUT/account.txt
	slabacct account --json \$OUT/account > \$OUT/saved.json
	slabacct account \$OUT/account > \$OUT/saved.txt
fi
# ftrace counts the snapshots (sa_view_take): a read takes one, a write
# none (a kernel with no function tracer, as the debug kernel, says so)
tr=/sys/kernel/tracing
if [ -e \$tr/set_ftrace_filter ]; then
	echo sa_view_take > \$tr/set_ftrace_filter
	echo function > \$tr/current_tracer
	snapshots() { echo "\$1 \$(grep -c ' sa_view_take <-' \$tr/trace)" >> \$OUT/snapshots; }
else
	echo "no function tracer" > \$OUT/snapshots
	snapshots() { :; }
fi
echo 'top 3' > /proc/slab_account
echo 'sort live' > /proc/slab_account
snapshots writes
cat /proc/slab_account > \$OUT/top3
snapshots read
echo 'sort bogus' > /proc/slab_account 2>/dev/null && echo accepted > \$OUT/bogus
echo 'top 0' > /proc/slab_account
echo reset > /proc/slab_account
snapshots reset
# a seek on a file opened for writing only (there is nothing to print)
dd if=/dev/null of=/proc/slab_account bs=1 seek=100 conv=notrunc 2>/dev/null || true
cat /proc/slab_account > \$OUT/after-reset
snapshots read
if [ -e \$tr/set_ftrace_filter ]; then
	echo nop > \$tr/current_tracer
	echo > \$tr/set_ftrace_filter
fi
echo free > /proc/sa_test
rmmod slab_account
for n in 1 2 3 4 5 6 7; do
	if insmod \$MODDIR/test/slab_account.ko fail_at=\$n 2>/dev/null; then
		echo "step \$n loaded" >> \$OUT/unwind
	fi
	ls /proc | grep slab_account >> \$OUT/unwind || true
done
insmod \$MODDIR/slab_account.ko sites=16 objects=64
echo storm 1 > /proc/sa_test
ls -R /sys > /dev/null 2>&1 || true
echo kmalloc $N $S $M > /proc/sa_test
echo storm 0 > /proc/sa_test
cat /proc/slab_account > \$OUT/small
echo free > /proc/sa_test
rmmod slab_account
rmmod sa_test
GUEST
guest_run "$flavour" "$TEST_TMP/guest.sh" -t 240 || fail "guest run failed"
o=$TEST_TMP/out
if foreign_guest "$flavour" && [ -z "$(cross_slabacct "$flavour")" ]; then
	# no slabacct in the guest: the host parses the guest's file
	note "$(guest_arch "$flavour") guest: /proc/slab_account parsed on the host"
	[ ! -e "$o/account.json" ] || fail "slabacct ran in a $(guest_arch "$flavour") guest?"
	"$SLABACCT" account --json "$o/account" >"$o/account.json" ||
		fail "the host's slabacct account --json rejects the guest's file"
	"$SLABACCT" account "$o/account" >"$o/account.txt" ||
		fail "the host's slabacct account rejects the guest's file"
	cp "$o/account.json" "$o/saved.json"
	cp "$o/account.txt" "$o/saved.txt"
fi

# value KEY FILE: a header value
value() { sed -n "s/^$1: //p" "$2"; }
# row PATTERN FILE: the row of a call site
row() { grep -E "$1" "$2" | head -n 1; }

head -n 1 "$o/account" | grep -qx '# slab_account 3' || fail "bad version line"
ksize=$(value kmalloc_ksize "$o/sa_test")
slot=$(cat "$o/slab_size")
note "kmalloc($S) size class $ksize, sa_test_cache slot $slot"
assert_eq "size class of kmalloc($S)" 128 "$ksize"
kmalloc_slot "$flavour" 128 "$o/kmalloc_slot"

# check_row WHAT FILE PATTERN KIND N M SIZE SLOT: the row of a call site
# that made N allocations of SIZE bytes in SLOT-byte slots and freed M
check_row() {
	local what=$1 file=$2 pattern=$3 kind=$4 n=$5 m=$6 size=$7 slot=$8
	# total slack req live objs allocs/frees kind caller
	set -- $(row "$pattern" "$file")
	[ $# -ge 8 ] || fail "no $what row"
	assert_eq "$what row: bytes_alloc" $((n * slot)) "$1"
	assert_eq "$what row: slack" $((n * (slot - size))) "$2"
	assert_eq "$what row: bytes_req" $((n * size)) "$3"
	assert_eq "$what row: live bytes" $(((n - m) * slot)) "$4"
	assert_eq "$what row: live objects" $((n - m)) "$5"
	assert_eq "$what row: allocs/frees" "$n/$m" "$6"
	assert_eq "$what row: kind" "$kind" "$7"
}
check_row kmalloc "$o/account" ' sa_test_kmalloc_loop\+.*\[sa_test\]' \
	kmalloc $N $M $S "$SLOT"
check_row cache "$o/account" ' sa_test_cache_loop\+.*\[sa_test\]' \
	cache $CN $CM $S "$slot"
# large kmallocs (3 pages, past the kmalloc caches): 6.10+ kernels trace
# each twice, the allocator's address first, then sa_test's; the module
# keeps one allocation, sa_test's
lsize=$(value large_size "$o/sa_test") lksize=$(value large_ksize "$o/sa_test")
note "kmalloc($lsize): $lksize bytes"
[ "$lksize" -gt "$lsize" ] || fail "large kmalloc: ksize $lksize"
check_row large "$o/account" ' sa_test_large_loop\+.*\[sa_test\]' \
	kmalloc $LN $LM "$lsize" "$lksize"
# no other row holds them: none outside sa_test has $LN allocations of
# that size or more (the allocator's own address did before the fix).
# Such a row holds large kmallocs only, each past the kmalloc caches:
# more than half of $lksize bytes on average. A row of many small ones
# is not it (virtio_console's 4 KB buffers: 992 of them in one run)
phantom=$(awk -v n=$LN -v k="$lksize" '/^# *total/ { r = 1; next }
	r && $NF != "[sa_test]" { split($6, af, "/")
		if (af[1] >= n && $1 >= n * k && $1 > af[1] * k / 2) print }' \
	"$o/account")
[ -z "$phantom" ] || fail "a row outside sa_test holds the large kmallocs: $phantom"
repeats=$(value kmalloc_repeats "$o/account")
note "kmalloc_repeats: $repeats"
case $flavour in
6.1 | 6.1-*) assert_eq "kmalloc_repeats on $flavour (traced once)" 0 "$repeats" ;;
6.12-cloud) [ "$repeats" -ge $LN ] ||
	fail "kmalloc_repeats on 6.12-cloud: $repeats, fewer than sa_test's $LN" ;;
*) [ -n "$repeats" ] || fail "no kmalloc_repeats key" ;;
esac
assert_eq "cache slot sizes" exact "$(value cache_slot_size "$o/account")"
assert_eq "dropped" 0 "$(value dropped "$o/account")"
assert_eq "map_full" 0 "$(value map_full "$o/account")"

# the parser agrees with the file, in the guest
grep -q '"format_version" : 3' "$o/account.json" || fail "account --json: no format_version"
grep -A9 '"caller" : "sa_test_kmalloc_loop' "$o/account.json" >/dev/null ||
	fail "account --json lacks the sa_test row"
python3 - "$o/account.json" $N $M $((N * S)) <<'PY' || fail "JSON row differs"
import json, sys
d = json.load(open(sys.argv[1]))
r = [r for r in d["rows"] if r["caller"].startswith("sa_test_kmalloc_loop")][0]
assert (r["allocs"], r["frees"], r["req"]) == tuple(map(int, sys.argv[2:5])), r
assert d["kinds"]["kmalloc"]["allocs"] + d["kinds"]["cache"]["allocs"] == d["allocs"]
assert isinstance(d["kmalloc_repeats"], int), d["kmalloc_repeats"]
PY
# the saved copy: the same kmalloc_repeats in JSON and text
python3 - "$o/saved.json" "$repeats" <<'PY' || fail "JSON kmalloc_repeats differs"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["kmalloc_repeats"] == int(sys.argv[2]), d["kmalloc_repeats"]
PY
grep -q 'sa_test_cache_loop' "$o/account.txt" || fail "account text lacks the cache row"
grep -qx "counted once: $repeats large kmallocs traced twice" "$o/saved.txt" ||
	fail "account text lacks the repeats: $(grep 'counted once' "$o/saved.txt")"
# and the probes' slower-path counts, as the file has them
ss=$(value slow_sites "$o/account") so=$(value slow_objects "$o/account")
sf=$(value slow_frees "$o/account")
note "slow_sites $ss, slow_objects $so, slow_frees $sf"
[ -n "$ss" ] && [ -n "$so" ] && [ -n "$sf" ] || fail "no slow_* keys in the file"
# at least sa_test's: its loops' first allocations and every large kmalloc
[ "$ss" -ge $((LN + 2)) ] || fail "slow_sites $ss: fewer than sa_test's $((LN + 2))"
python3 - "$o/saved.json" "$ss" "$so" "$sf" <<'PY' || fail "JSON slow_* differ"
import json, sys
d = json.load(open(sys.argv[1]))
got = [d.get(k) for k in ("slow_sites", "slow_objects", "slow_frees")]
assert got == [int(x) for x in sys.argv[2:5]], got
PY
grep -qx "slower path: $ss allocations, $so objects, $sf frees (slow_\*)" "$o/saved.txt" ||
	fail "account text lacks the slower path: $(grep 'slower' "$o/saved.txt")"

# top and sort
assert_eq "rows with top 3" 3 "$(sed '1,/^# *total/d' "$o/top3" | wc -l)"
assert_eq "sort after write" live "$(value sort "$o/top3")"
[ -e "$o/bogus" ] && fail "'sort bogus' was accepted"
awk '/^# *total/ {r = 1; next} r {print $4}' "$o/top3" | sort -rn -c ||
	fail "rows are not sorted by live bytes"

# only reads take a snapshot of the table, never a write (Debian's
# kernels have the function tracer; a custom kernel may not)
if [ "$(cat "$o/snapshots")" = "no function tracer" ] &&
	[ ! -f "$("$TOP/scripts/kernels" --flavour "$flavour" 2>/dev/null |
		cut -d' ' -f2)" ]; then
	note "no function tracer in this kernel: snapshots not counted"
else
	assert_eq "snapshots taken (ftrace)" "writes 0 read 1 reset 1 read 2" \
		"$(tr '\n' ' ' <"$o/snapshots" | sed 's/ $//')"
fi

# reset
grep -q sa_test_kmalloc_loop "$o/after-reset" && fail "reset kept the rows"
[ "$(value allocs "$o/after-reset")" -lt "$N" ] || fail "reset kept the totals"

# a failed init leaves nothing behind
[ -s "$o/unwind" ] && fail "failed init left: $(cat "$o/unwind")"
# and each step did fail on request (the test build has fail_at)
assert_eq "init steps failed on request" "1 2 3 4 5 6 7" \
	"$(sed -n 's/.*slab_account: failing init at step \([0-9]\) on request/\1/p' \
		"$o/dmesg" | sort -u | tr "\\n" " " | sed "s/ $//")"

# small tables: overflow counted, rows still consistent
s=$o/small
assert_eq "small: sites" 16 "$(value sites "$s")"
for k in dropped map_full untracked_frees; do
	[ "$(value $k "$s")" -gt 0 ] || fail "small tables: $k is 0"
	note "small: $k = $(value $k "$s")"
done
assert_eq "small: callers" 16 "$(value callers "$s")"
awk '/^# *total/ {r = 1; next} r {
	split($6, af, "/")
	if ($2 != $1 - $3 || af[2] > af[1] || $5 > af[1] - af[2] || $4 > $1 || $5 < 0)
		{ print "bad row: " $0; bad = 1 }
	} END { exit bad }' "$s" || fail "a row is inconsistent"
# the totals are the rows plus the overflow rows, from the same copy
assert_eq "small: allocs = rows + dropped" "$(value allocs "$s")" \
	"$(awk -v d="$(value dropped "$s")" '/^# *total/ {r = 1; next}
		r {split($6, af, "/"); n += af[1]} END {print n + d}' "$s")"
set -- $(row ' sa_test_kmalloc_loop\+' "$s")
if [ $# -ge 8 ]; then
	assert_eq "small: sa_test allocs" "$N" "${6%/*}"
fi
"$SLABACCT" account "$s" >/dev/null || fail "the parser rejects the small-table file"
exit 0
