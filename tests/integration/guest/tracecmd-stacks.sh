# A recording made by trace-cmd itself with a kernel stack after every
# event (`trace-cmd record -T`), in a guest of kernel flavour $1, of a
# workload that allocates through wrappers (new namespaces: kobject
# names through kobject_set_name_vargs; mount's strndup_user): slabacct
# reads it like its own recordings. Its "wrapper <- caller" rows equal
# tests/integration/stack-referee.py's count from trace-cmd's decoding of
# the same file (allocations and bytes), every reader (the fast path
# with 1 and 2 threads, libtracecmd) reads the same stacks, and no row
# stays at a wrapper.
. "$(dirname "$0")/../../lib.sh"
flavour=${1:?kernel flavour}
command -v trace-cmd >/dev/null || fail "trace-cmd is not installed (scripts/install-deps)"

cat >"$TEST_TMP/guest.sh" <<'GUEST'
mkdir -p /mnt/t
ev=
for e in kmalloc kmalloc_node kmem_cache_alloc kmem_cache_alloc_node kfree \
	 kmem_cache_free; do
	# the _node events are gone from 6.1 on (merged into the others)
	[ ! -d /sys/kernel/tracing/events/kmem/$e ] || ev="$ev -e kmem:$e"
done
trace-cmd record -T -q $ev -o $OUT/tc.dat -- \
	sh -c 'for i in 1 2 3 4 5; do unshare -m -u -i -n true;
		mount -t tmpfs none /mnt/t; umount /mnt/t; done' \
	>$OUT/record.out 2>&1
echo $? >$OUT/record.rc
GUEST
guest_run "$flavour" "$TEST_TMP/guest.sh" -t 300 \
	-f /usr/bin/trace-cmd:/bin/trace-cmd || fail "guest run failed"
o=$TEST_TMP/out
assert_eq "trace-cmd record -T status ($(tail -3 "$o/record.out"))" 0 \
	"$(cat "$o/record.rc")"
dat=$o/tc.dat
[ -s "$dat" ] || fail "no trace came back"

"$SLABACCT" report --json "$dat" >"$TEST_TMP/report.json" || fail "report failed"
[ "$(jq .records.stacks "$TEST_TMP/report.json")" -gt 0 ] ||
	fail "the report attached no kernel stack"
python3 "$TOP/tests/integration/stack-ours.py" --no-bare "$TEST_TMP/report.json" \
	>"$TEST_TMP/ours" 2>"$TEST_TMP/bare" || fail "$(cat "$TEST_TMP/bare")"
got=$(cat "$TEST_TMP/ours")
[ "$got" != "{}" ] || fail "no allocation through a wrapper in the recording"
want=$(python3 "$TOP/tests/integration/stack-referee.py" "$dat") ||
	fail "the referee failed"
assert_eq "wrapper <- caller (allocs, bytes), ours and trace-cmd's" "$want" "$got"
echo "$got" | grep -q '"kobject_set_name_vargs <- ' ||
	fail "no kobject_set_name_vargs allocation attributed"
# the workload's count, pinned: busybox's mount makes 3 strndup_user
# allocations per mount on 6.1 and 6.12 alike (as the referee counts
# them), and there are 5 mounts
assert_eq "strndup_user <- __x64_sys_mount allocations (5 mounts)" 15 \
	"$(echo "$got" | jq '.["strndup_user <- __x64_sys_mount"][0]')"
# every reader reads the same stacks and rows
python3 - "$dat" "$SLABACCT" <<'PY' || fail "the readers differ"
import json, subprocess, sys
f, sa = sys.argv[1:]
def rep(*a):
    return json.loads(subprocess.run([sa, "report", "--json", *a, f],
                      check=True, capture_output=True).stdout)
one = rep("--threads", "1")
for a in (["--threads", "2"], ["--libtracecmd"], ["--libtracecmd", "--threads", "1"]):
    other = rep(*a)
    assert other["records"] == one["records"], (a, other["records"], one["records"])
    assert other["sections"] == one["sections"], a
PY
note "$(echo "$got" | jq -r 'to_entries | sort_by(-.value[1]) | .[:5][] |
	"\(.key): \(.value[0]) allocs, \(.value[1]) bytes"')"
