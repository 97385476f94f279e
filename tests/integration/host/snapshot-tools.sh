#!/bin/bash
# slabacct snapshot against free, slabtop and vmstat (procps) reading the
# very same files. In a private mount namespace the captured meminfo,
# slabinfo and vmstat of each tree in tests/data/proc/ are bind-mounted
# over /proc's, so free -k, slabtop -o and vmstat -s print that tree's
# figures; slabacct snapshot --root TREE reads the same files. Then the
# live host: its files are copied once and bind-mounted the same way, so
# the tools and slabacct see one moment and must agree exactly (reading
# /proc twice, a moment apart, would differ by the system's own drift).
. "$(dirname "$0")/../../lib.sh"
need_root
for t in free slabtop vmstat unshare; do
	command -v $t >/dev/null || fail "$t is missing (scripts/install-deps installs procps)"
done
[ -x "$SLABACCT" ] || fail "build/slabacct is missing (run make)"

# csv FILE SECTION FIELD: the value of a figure in slabacct's CSV
csv() { awk -F, -v s="$2" -v f="$3" '$1 == s && $2 == "" && $3 == f { print $4 }' "$1"; }
kib() { awk -v b="$1" 'BEGIN { printf "%.2fK", b / 1024 }'; }

# check NAME DIR: DIR holds proc/{meminfo,slabinfo,vmstat}; SNAP the
# slabacct CSV of the same files
check() {
	local name=$1 dir=$2 snap=$3 out=$TEST_TMP/$1.tools
	unshare -m sh -c "
		mount --bind '$dir/proc/meminfo' /proc/meminfo &&
		mount --bind '$dir/proc/slabinfo' /proc/slabinfo &&
		mount --bind '$dir/proc/vmstat' /proc/vmstat &&
		echo '## free' && free -k && echo '## slabtop' &&
		slabtop -o | head -n 5 && echo '## vmstat' && vmstat -s" \
		>"$out" 2>&1 || { cat "$out"; fail "$name: running the tools failed"; }

	# free -k: Mem: total used free shared buff/cache available
	read -r _ total used free shared bc avail < <(grep '^Mem:' "$out")
	assert_eq "$name free total" "$total" "$(csv "$snap" memory total)"
	assert_eq "$name free used" "$used" "$(csv "$snap" memory used)"
	assert_eq "$name free free" "$free" "$(csv "$snap" memory free)"
	assert_eq "$name free shared" "$shared" "$(csv "$snap" memory shared)"
	assert_eq "$name free buff/cache" "$bc" "$(csv "$snap" memory buff_cache)"
	assert_eq "$name free available (MemAvailable)" "$avail" \
		"$(csv "$snap" memory available)"
	read -r _ stotal sused sfree < <(grep '^Swap:' "$out")
	assert_eq "$name free swap total" "$stotal" "$(csv "$snap" memory swap_total)"
	assert_eq "$name free swap used" "$sused" "$(csv "$snap" memory swap_used)"

	# slabtop -o header
	local s=slabinfo_totals line
	line=$(grep 'Active / Total Objects' "$out")
	assert_eq "$name slabtop objects" "$(echo "$line" | awk '{print $8 "/" $10}')" \
		"$(csv "$snap" $s active_objs)/$(csv "$snap" $s num_objs)"
	line=$(grep 'Active / Total Slabs' "$out")
	assert_eq "$name slabtop slabs" "$(echo "$line" | awk '{print $8 "/" $10}')" \
		"$(csv "$snap" $s active_slabs)/$(csv "$snap" $s num_slabs)"
	line=$(grep 'Active / Total Caches' "$out")
	assert_eq "$name slabtop caches" "$(echo "$line" | awk '{print $8 "/" $10}')" \
		"$(csv "$snap" $s active_caches)/$(csv "$snap" $s nr_caches)"
	line=$(grep 'Active / Total Size' "$out")
	assert_eq "$name slabtop size (slab total)" \
		"$(echo "$line" | awk '{print $8 "/" $10}')" \
		"$(kib "$(csv "$snap" $s active_size)")/$(kib "$(csv "$snap" $s total_size)")"
	line=$(grep 'Minimum / Average / Maximum' "$out")
	assert_eq "$name slabtop min/avg/max object" \
		"$(echo "$line" | awk '{print $8 "/" $10 "/" $12}')" \
		"$(kib "$(csv "$snap" $s min_objsize)")/$(kib "$(csv "$snap" $s avg_objsize)")/$(kib "$(csv "$snap" $s max_objsize)")"

	# vmstat -s: the /proc/vmstat counters
	assert_eq "$name vmstat paged in" "$(awk '/K paged in/ {print $1}' "$out")" \
		"$(awk -F, '$1 == "vmstat" && $3 == "pgpgin" {print $4}' "$snap")"
	assert_eq "$name vmstat pages swapped out" \
		"$(awk '/pages swapped out/ {print $1}' "$out")" \
		"$(awk -F, '$1 == "vmstat" && $3 == "pswpout" {print $4}' "$snap")"
}

for tree in 6.1 6.12-cloud host; do
	dir=$TOP/tests/data/proc/$tree
	"$SLABACCT" snapshot --root "$dir" --csv -o "$TEST_TMP/$tree.csv" ||
		fail "slabacct snapshot --root $dir failed"
	check "$tree" "$dir" "$TEST_TMP/$tree.csv"
done

# The live host, one moment: copies of its files stand in for /proc's
# under both the tools and slabacct (which reads the rest live).
live=$TEST_TMP/live
mkdir -p "$live/proc"
for f in meminfo slabinfo vmstat; do cat /proc/$f >"$live/proc/$f"; done
unshare -m sh -c "
	mount --bind '$live/proc/meminfo' /proc/meminfo &&
	mount --bind '$live/proc/slabinfo' /proc/slabinfo &&
	mount --bind '$live/proc/vmstat' /proc/vmstat &&
	'$SLABACCT' snapshot --csv -o '$TEST_TMP/live.csv'" ||
	fail "slabacct snapshot on the live host failed"
check live "$live" "$TEST_TMP/live.csv"

# Unpinned, a moment apart: MemTotal cannot change, the rest may drift.
"$SLABACCT" snapshot --csv -o "$TEST_TMP/now.csv" || fail "live snapshot failed"
assert_eq "live MemTotal, unpinned" "$(free -k | awk '/^Mem:/ {print $2}')" \
	"$(csv "$TEST_TMP/now.csv" memory total)"
grep -q '^source,meminfo,available,1$' "$TEST_TMP/now.csv" ||
	fail "meminfo not available on the live host"
# -o and --save refuse a symlink (the file it points to is untouched);
# with --follow-symlinks the link stays a link and its target gets the
# output. /dev/null stays a device.
: >"$TEST_TMP/target.csv"
ln -s target.csv "$TEST_TMP/link.csv"
ln -s target.json "$TEST_TMP/link.json"
"$SLABACCT" snapshot --csv -o "$TEST_TMP/link.csv" 2>/dev/null &&
	fail "snapshot -o wrote through a symlink"
"$SLABACCT" snapshot --save "$TEST_TMP/link.json" -o /dev/null 2>/dev/null &&
	fail "snapshot --save wrote through a symlink"
[ -s "$TEST_TMP/target.csv" ] || [ -e "$TEST_TMP/target.json" ] &&
	fail "a refused symlink's target was written"
"$SLABACCT" snapshot --follow-symlinks --csv -o "$TEST_TMP/link.csv" \
	--save "$TEST_TMP/link.json" || fail "snapshot through symlinks failed"
[ -L "$TEST_TMP/link.csv" ] && [ -L "$TEST_TMP/link.json" ] ||
	fail "snapshot replaced a symlink given as -o or --save"
grep -q '^source,meminfo,available,1$' "$TEST_TMP/target.csv" ||
	fail "the symlink's target did not get the CSV"
"$SLABACCT" snapshot --load "$TEST_TMP/target.json" >/dev/null ||
	fail "the saved snapshot behind the symlink does not load"
"$SLABACCT" snapshot -o /dev/null || fail "snapshot -o /dev/null failed"
[ -c /dev/null ] || fail "snapshot -o /dev/null replaced the device"
echo "snapshot-tools: free, slabtop and vmstat agree on 4 sets of files"

# Not root: slabinfo and the slab caches' sysfs files are root's (0400),
# and snapshot says so, not that the kernel lacks CONFIG_SLUB_DEBUG
if command -v setpriv >/dev/null && [ -d /sys/kernel/slab ]; then
	out=$(setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$SLABACCT" snapshot 2>&1) || fail "snapshot as nobody failed: $out"
	case $out in *SLUB_DEBUG*) fail "snapshot as nobody blames CONFIG_SLUB_DEBUG:
$(echo "$out" | grep -A1 'sys/kernel/slab')" ;; esac
	case $out in *"sys/kernel/slab: Permission denied"*) ;;
	*) fail "snapshot as nobody does not say the slab counters are root's:
$(echo "$out" | grep -A1 'sys/kernel/slab')" ;; esac
	note "as nobody: $(echo "$out" | grep -A1 'sys/kernel/slab:' | tr -s ' \n' ' ')"
fi
exit 0
