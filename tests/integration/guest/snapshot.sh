#!/bin/bash
# slabacct snapshot inside a guest of each Debian kernel ($1 = flavour):
# the live sources, rates over intervals, a memory-cgroup OOM kill found
# in the kernel log, the unusable free space index equal to the kernel's
# own (debugfs extfrag/unusable_index, read on the same free lists), and
# PSI and slabinfo hidden to see the sections say "not available".
. "$(dirname "$0")/../../lib.sh"
flavour=${1:-6.1}

cat >"$TEST_TMP/guest.sh" <<'GUEST'
t() { echo "at $(cut -d' ' -f1 /proc/uptime): $*"; }
t start
# The kernel's index and buddyinfo on the same free lists: retry until
# buddyinfo reads the same before and after the index. Read by the
# shell itself: a cat would allocate its own pages (exec, page tables)
# while the kernel computes the index, and free them after
mkdir -p /tmp/t/proc /tmp/t/sys/kernel/debug/extfrag
slurp() { while IFS= read -r l; do printf '%s\n' "$l"; done <"$1"; }
for i in $(seq 30); do
	slurp /proc/buddyinfo >/tmp/b1
	slurp /sys/kernel/debug/extfrag/unusable_index >$OUT/kernel-unusable
	slurp /proc/buddyinfo >/tmp/b2
	cmp -s /tmp/b1 /tmp/b2 && { echo "$i" >$OUT/stable-after; break; }
done
cp /tmp/b1 /tmp/t/proc/buddyinfo
for f in meminfo vmstat slabinfo zoneinfo swaps uptime; do
	cat /proc/$f >/tmp/t/proc/$f
done
slabacct snapshot --root /tmp/t >$OUT/pinned.txt || exit 10
t pinned

# A memory-cgroup OOM kill: awk doubles a string under a 16 MB limit
mkdir -p /sys/fs/cgroup
mount -t cgroup2 none /sys/fs/cgroup || exit 11
echo +memory >/sys/fs/cgroup/cgroup.subtree_control
mkdir /sys/fs/cgroup/hog
echo 16M >/sys/fs/cgroup/hog/memory.max
sh -c 'echo $$ >/sys/fs/cgroup/hog/cgroup.procs;
	exec awk "BEGIN { s = \"xxxxxxxx\"; while (1) s = s s }"'
echo "hog exit $?" >$OUT/hog-status
t hog

cat /proc/meminfo >$OUT/meminfo
grep -c . /proc/slabinfo >$OUT/slabinfo-lines
slabacct snapshot --csv -o $OUT/snap.csv --save $OUT/raw.json || exit 12
t snapshot
slabacct snapshot --load $OUT/raw.json -o $OUT/snap.txt || exit 13
slabacct snapshot --load $OUT/raw.json --json -o $OUT/snap.json || exit 14
slabacct snapshot --load $OUT/raw.json --csv -o $OUT/loaded.csv || exit 15
t loaded
slabacct snapshot --interval 0.5 --count 2 --csv -o $OUT/rates.csv || exit 16
t rates

# A kernel without PSI and a container without slabinfo
mount -t tmpfs none /proc/pressure || exit 17
mount -o bind /dev/null /proc/slabinfo || exit 18
slabacct snapshot >$OUT/hidden.txt; echo $? >$OUT/hidden-status
t hidden
exit 0
GUEST

guest_run "$flavour" "$TEST_TMP/guest.sh" -q -t 180 ||
	fail "the guest script failed (exit $?); see $TEST_TMP/out/script.log"
out=$TEST_TMP/out
csv() { awk -F, -v s="$2" -v f="$3" '$1 == s && $2 == "" && $3 == f { print $4 }' "$1"; }

# Every source is there on a Debian kernel
for src in meminfo vmstat slabinfo slab_sysfs buddyinfo pagetypeinfo \
	zoneinfo swaps psi_memory procs oomlog; do
	grep -q "^source,$src,available,1$" "$out/snap.csv" ||
		fail "$src not available in the guest: $(grep "^source,$src," "$out/snap.csv")"
done
assert_eq "MemTotal" "$(awk '/^MemTotal:/ {print $2}' "$out/meminfo")" \
	"$(csv "$out/snap.csv" memory total)"
assert_eq "caches in /proc/slabinfo" "$(($(cat "$out/slabinfo-lines") - 2))" \
	"$(csv "$out/snap.csv" slabinfo_totals nr_caches)"
cmp -s "$out/snap.csv" "$out/loaded.csv" ||
	fail "the saved snapshot, loaded again, reports differently"

# The memcg OOM kill
grep -q 'hog exit 137' "$out/hog-status" || fail "the hog was not killed: $(cat "$out/hog-status")"
grep -q '^oom,,kills,1$' "$out/snap.csv" || fail "expected 1 OOM kill: $(grep '^oom' "$out/snap.csv")"
grep -q 'memcg killed [0-9]* (awk)' "$out/snap.txt" ||
	fail "the text report does not show the memcg kill of awk"
grep -q '"memcg" : true' "$out/snap.json" || fail "JSON: memcg kill not marked"

# Rates over two intervals
assert_eq "rate intervals" 2 \
	"$(awk -F, '$1 == "rates" && $3 == "fault" {n++} END {print n+0}' "$out/rates.csv")"

# Our unusable free space index equals the kernel's
[ -s "$out/stable-after" ] ||
	fail "buddyinfo changed across every one of 30 reads of the kernel's index"
note "buddyinfo stable across the kernel's index at try $(cat "$out/stable-after")"
rows=0
while read -r _ node _ zone rest; do
	node=${node%,}
	want=$(echo "$rest" | sed 's/\b0\.\([0-9]\{3\}\)/.\1/g; s/1\.000/1.00/g' | xargs)
	# a zone's row folds at 80 columns past 11 orders (armmp has 12):
	# a continuation line is indented by four
	got=$(sed -n '/^Free memory by order/,/^$/p' "$out/pinned.txt" |
		awk '/^    [^ ]/ { row = row " " $0; next }
			{ if (row != "") print row; row = $0 } END { print row }' |
		awk -v z="$node/$zone" '$1 == z { $1 = ""; $2 = ""; print }' | xargs)
	assert_eq "unusable index $node/$zone" "$want" "$got"
	rows=$((rows + 1))
done <"$out/kernel-unusable"
# x86-64 guests have DMA and DMA32; an arm64 or armhf guest's 512 MB is
# one zone
zones=2
[ "$(guest_arch "$flavour")" = x86_64 ] || zones=1
[ $rows -ge $zones ] || fail "the kernel's unusable_index had $rows zones"

# Hidden sources say so; the rest still works
assert_eq "exit status with sources hidden" 0 "$(cat "$out/hidden-status")"
grep -q 'proc/pressure/memory: not available' "$out/hidden.txt" ||
	fail "PSI hidden, but not reported as not available"
grep -q 'proc/slabinfo: not available' "$out/hidden.txt" ||
	fail "slabinfo hidden, but not reported as not available"
grep -q '^Mem: ' "$out/hidden.txt" || fail "memory section missing when PSI is hidden"
grep -q '/sys/kernel/slab: space' "$out/hidden.txt" ||
	fail "the slab ranking should fall back to /sys/kernel/slab"
echo "snapshot in $flavour: all checks passed"
