# host/record-scope in a guest of kernel flavour $1 (6.1 has the
# sched_process_fork comms as char arrays, and its struct file comes
# from __alloc_file): record --follow keeps the workload and its
# children, exactly, and not the loop beside them; the system recording
# has both apart; --cgroup of the loop's cgroup has the loop alone.
. "$(dirname "$0")/../../lib.sh"
flavour=${1:?kernel flavour}
command -v cc >/dev/null || fail "no C compiler (scripts/install-deps)"
K=3 N=50 M=7
cc -O2 -static -o "$TEST_TMP/scopewl" "$TOP/tests/integration/scope-workload.c" ||
	fail "cannot build the workload statically (libc6-dev)"

cat >"$TEST_TMP/guest.sh" <<GUEST
site=alloc_empty_file
grep -q ' __alloc_file\$' /proc/kallsyms && site=__alloc_file
echo \$site >\$OUT/site
cp /bin/scopewl /bin/scopekid; cp /bin/scopewl /bin/scopenoise
/bin/scopenoise noise &
noise=\$!
for s in follow system; do
	opt=; [ \$s = follow ] && opt=--follow
	slabacct record --no-snapshot \$opt --call-site \$site -o /tmp/\$s.dat \
		-- /bin/scopewl $K $N $M /bin/scopekid >\$OUT/\$s.out 2>&1
	echo \$? >\$OUT/\$s.rc
	slabacct report /tmp/\$s.dat >\$OUT/\$s.txt 2>&1
	slabacct report --csv --by comm /tmp/\$s.dat >\$OUT/\$s-comm.csv 2>&1
done
mkdir -p /sys/fs/cgroup
grep -q cgroup2 /proc/mounts || mount -t cgroup2 none /sys/fs/cgroup
mnt=\$(awk '\$3 == "cgroup2" { print \$2; exit }' /proc/mounts)
mkdir \$mnt/scope && echo \$noise >\$mnt/scope/cgroup.procs
slabacct record --no-snapshot --cgroup /scope --call-site \$site \
	-o /tmp/cgroup.dat -- sleep 1 >\$OUT/cgroup.out 2>&1
echo \$? >\$OUT/cgroup.rc
slabacct report /tmp/cgroup.dat >\$OUT/cgroup.txt 2>&1
slabacct report --csv --by comm /tmp/cgroup.dat >\$OUT/cgroup-comm.csv 2>&1
slabacct report --csv --by cgroup /tmp/cgroup.dat >\$OUT/cgroup-cg.csv 2>&1
kill \$noise
GUEST
guest_run "$flavour" "$TEST_TMP/guest.sh" -t 600 \
	-f "$TEST_TMP/scopewl:/bin/scopewl" || fail "guest run failed"
o=$TEST_TMP/out
note "call site of struct file: $(cat "$o/site")"

# allocs NAME CSV: the row's allocations (kmalloc and cache summed), or 0
allocs() {
	awk -F, -v s="$1" '$1 == "callsite" && $2 != "kind" && $3 == s {
		n += $8 } END { print n + 0 }' "$2"
}
for s in follow system cgroup; do
	[ "$(cat "$o/$s.rc")" = 0 ] || fail "$s: record failed: $(cat "$o/$s.out")"
	grep -q '^# lost events: 0$' "$o/$s.txt" ||
		fail "$s: events lost: $(grep '^# lost' "$o/$s.txt")"
done
grep -q '^# scope: process tree' "$o/follow.txt" ||
	fail "follow: the header does not say the scope"
for s in follow system; do
	assert_eq "$s: scopekid's files (K*N)" $((K * N)) "$(allocs scopekid "$o/$s-comm.csv")"
	assert_eq "$s: scopewl's files (1 + M + K)" $((1 + M + K)) \
		"$(allocs scopewl "$o/$s-comm.csv")"
done
assert_eq "follow: the unrelated loop's files" 0 "$(allocs scopenoise "$o/follow-comm.csv")"
n=$(allocs scopenoise "$o/system-comm.csv")
[ "$n" -gt 0 ] || fail "system: no row of the unrelated loop"
note "system: the loop's files: $n"
grep -q '^# scope: cgroup /scope: its 1 threads' "$o/cgroup.txt" ||
	fail "cgroup: the header does not say the scope: $(grep '^# scope' "$o/cgroup.txt")"
n=$(allocs scopenoise "$o/cgroup-comm.csv")
[ "$n" -gt 0 ] || fail "cgroup: no row of the loop"
assert_eq "cgroup: the cgroup's row" "$n" "$(allocs /scope "$o/cgroup-cg.csv")"
assert_eq "cgroup: scopewl's files" 0 "$(allocs scopewl "$o/cgroup-comm.csv")"
