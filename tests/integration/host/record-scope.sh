# What a recording covers: record --follow keeps a workload and its
# children and nothing else, the whole system is recorded by default,
# --cgroup records a cgroup's tasks, and report --by comm, pid and
# cgroup tell them apart. Exact counts: the workload is a static program
# that opens /dev/null N times in each of K children (exec'd under
# another name) and M times itself; each open, and each exec of a
# static binary, allocates one struct file at alloc_empty_file. An
# unrelated process opening /dev/null in a loop runs beside it. The
# recordings filter on that call site (--call-site), so that other
# users of this host cannot fill the buffer; one --follow recording is
# unfiltered, and holds nothing but the workload's tasks and interrupts.
# Loopback connections check that softirq work is a row apart.
. "$(dirname "$0")/../../lib.sh"
. "$(dirname "$0")/../record-lib.sh"
need_root
command -v cc >/dev/null || fail "no C compiler (scripts/install-deps)"
grep -q ' alloc_empty_file$' /proc/kallsyms ||
	skip "no alloc_empty_file in /proc/kallsyms (the files' call site)"

K=3 N=50 M=7
# names of this run's own (a task's name is its file's): another run
# of this test beside it is not counted
WL=swl$$ KID=skid$$ NOISE_NAME=snoise$$
cc -O2 -static -o "$TEST_TMP/$WL" "$TOP/tests/integration/scope-workload.c" ||
	fail "cannot build the workload statically (libc6-dev)"
cp "$TEST_TMP/$WL" "$TEST_TMP/$KID"
cp "$TEST_TMP/$WL" "$TEST_TMP/$NOISE_NAME"

CG=
NOISE=
cleanup() {
	[ -n "$NOISE" ] && kill "$NOISE" 2>/dev/null && wait "$NOISE" 2>/dev/null
	[ -n "$CG" ] && rmdir "$CG" 2>/dev/null
	[ "${SLABACCT_KEEP_TMP:-0}" = 1 ] || rm -rf "$TEST_TMP"
}
trap cleanup EXIT
"$TEST_TMP/$NOISE_NAME" noise &
NOISE=$!

# rows FILE BY: "NAME ALLOCS" per row (kmalloc and cache rows summed)
rows() {
	"$SLABACCT" report --csv --by "$2" "$1" |
		awk -F, '$1 == "callsite" && $2 != "kind" { n[$3] += $8 }
			 END { for (s in n) print s, n[s] }' | sort
}
# allocs FILE BY NAME: the row's allocations, or 0
allocs() {
	rows "$1" "$2" | awk -v s="$3" '$1 == s { print $2; f = 1 }
		END { if (!f) print 0 }'
}
# record NAME OPTIONS...: record the workload into NAME.dat
record() {
	local name=$1
	shift
	"$SLABACCT" record --no-snapshot "$@" -o "$TEST_TMP/$name.dat" -- \
		"$TEST_TMP/$WL" $K $N $M "$TEST_TMP/$KID" \
		>"$TEST_TMP/$name.out" 2>&1 ||
		fail "$name: record failed: $(cat "$TEST_TMP/$name.out")"
	"$SLABACCT" report "$TEST_TMP/$name.dat" >"$TEST_TMP/$name.txt" ||
		fail "$name: report failed"
	grep -q '^# lost events: 0$' "$TEST_TMP/$name.txt" ||
		fail "$name: events were lost: $(grep '^# lost' "$TEST_TMP/$name.txt")"
}
site="--call-site alloc_empty_file"

# --follow: the workload and its children, exactly; not the loop beside
record follow --follow $site
grep -q '^# scope: process tree: the command (pid [0-9]*) and its' \
	"$TEST_TMP/follow.txt" || fail "follow: the header does not say the scope"
grep -q "^slabacct record: scope: '.*/$WL' and its descendants only$" \
	"$TEST_TMP/follow.out" || fail "follow: record does not say the scope"
assert_eq "follow: scopekid's files (K*N)" $((K * N)) \
	"$(allocs "$TEST_TMP/follow.dat" comm $KID)"
assert_eq "follow: scopewl's files (1 + M + K execs)" $((1 + M + K)) \
	"$(allocs "$TEST_TMP/follow.dat" comm $WL)"
assert_eq "follow: the unrelated loop's files" 0 \
	"$(allocs "$TEST_TMP/follow.dat" comm $NOISE_NAME)"
# by pid: a row per child, N each
assert_eq "follow: scopekid rows by pid" "$(printf "$N\n$N\n$N")" \
	"$(rows "$TEST_TMP/follow.dat" pid | awk -v k=$KID '$2 == k { print $3 }')"
rows "$TEST_TMP/follow.dat" pid | awk -v k=$KID '$2 == k' | cut -d' ' -f1 |
	sort -u | wc -l | grep -qx "$K" || fail "follow: not $K pids of $KID"

# the whole system (the default): both, apart, the workload as exact
record system $site
grep -q '^# scope: system: every task' "$TEST_TMP/system.txt" ||
	fail "system: the header does not say the scope"
grep -q '^slabacct record: scope: the whole system, every task (--follow' \
	"$TEST_TMP/system.out" || fail "system: record does not say the scope"
assert_eq "system: scopekid's files" $((K * N)) \
	"$(allocs "$TEST_TMP/system.dat" comm $KID)"
assert_eq "system: scopewl's files" $((1 + M + K)) \
	"$(allocs "$TEST_TMP/system.dat" comm $WL)"
n=$(allocs "$TEST_TMP/system.dat" comm $NOISE_NAME)
[ "$n" -gt 0 ] || fail "system: no row of the unrelated loop"
note "system: the unrelated loop's files: $n"

# unfiltered --follow: only the workload's tasks, and interrupts
record all --follow
other=$(rows "$TEST_TMP/all.dat" comm |
	grep -vE "^($WL|$KID|\[irq\]|\[softirq\]) ")
assert_eq "follow, every event: rows of other tasks" "" "$other"
[ "$(allocs "$TEST_TMP/all.dat" comm $KID)" -ge $((K * N)) ] ||
	fail "follow, every event: fewer allocations of $KID than its files"

# Work in softirq context is a row apart, not the task's it ran beside:
# each loopback connection allocates its client socket in the workload
# and the listener's child in softirq (the final ACK's receipt), one
# sk_prot_alloc each. Run inline at the ACK's sending, in the workload's
# context (in --follow too), or by ksoftirqd (in the system only).
if grep -q ' sk_prot_alloc$' /proc/kallsyms; then
	C=20
	for s in follow system; do
		opt=; [ $s = follow ] && opt=--follow
		"$SLABACCT" record --no-snapshot $opt --call-site sk_prot_alloc \
			-o "$TEST_TMP/tcp-$s.dat" -- "$TEST_TMP/$WL" tcp $C \
			>"$TEST_TMP/tcp-$s.out" 2>&1 ||
			fail "tcp $s: record failed: $(cat "$TEST_TMP/tcp-$s.out")"
		assert_eq "tcp $s: the workload's sockets (C + 1)" $((C + 1)) \
			"$(allocs "$TEST_TMP/tcp-$s.dat" comm $WL)"
	done
	n=$(allocs "$TEST_TMP/tcp-system.dat" comm '[softirq]')
	[ "$n" -ge $C ] || fail "tcp system: $n sockets in softirq, fewer than $C"
	n=$(allocs "$TEST_TMP/tcp-follow.dat" comm '[softirq]')
	[ "$n" -le $C ] || fail "tcp follow: $n sockets in softirq, more than $C"
	note "tcp follow: $n of $C child sockets in softirq in the workload's context"
else
	note "no sk_prot_alloc in /proc/kallsyms: softirq rows not checked"
fi

# --cgroup: refused where it cannot be, then the loop's cgroup alone
mnt=$(awk '$9 == "cgroup2" { print $5; exit }' /proc/self/mountinfo)
[ -n "$mnt" ] || skip "no cgroup2 hierarchy mounted"
assert_refused "--cgroup of a directory that is not a cgroup" 2 \
	"is not a cgroup2 directory" \
	"$SLABACCT" record --cgroup "$TEST_TMP" -o "$TEST_TMP/x.dat" -- true
assert_refused "--follow without a command" 2 "--follow follows a command" \
	"$SLABACCT" record --follow -o "$TEST_TMP/x.dat"
CG="$mnt/slabacct-scope-$$"
mkdir "$CG" || fail "cannot create cgroup $CG"
assert_refused "--cgroup of an empty cgroup" 2 "has no task" \
	"$SLABACCT" record --cgroup "/slabacct-scope-$$" -o "$TEST_TMP/x.dat" -- true
echo "$NOISE" >"$CG/cgroup.procs" || fail "cannot move the loop into $CG"
record cgroup --cgroup "/slabacct-scope-$$" $site
grep -q "^# scope: cgroup /slabacct-scope-$$: its 1 threads" \
	"$TEST_TMP/cgroup.txt" || fail "cgroup: the header does not say the scope"
n=$(allocs "$TEST_TMP/cgroup.dat" comm $NOISE_NAME)
[ "$n" -gt 0 ] || fail "cgroup: no row of the loop in the cgroup"
assert_eq "cgroup: rows" "$NOISE_NAME $n" "$(rows "$TEST_TMP/cgroup.dat" comm)"
assert_eq "cgroup: by cgroup" "/slabacct-scope-$$ $n" \
	"$(rows "$TEST_TMP/cgroup.dat" cgroup)"
# the system recording by cgroup: the workload was in this shell's
cgroup=$(sed -n 's/^0:://p' /proc/self/cgroup)
n=$(allocs "$TEST_TMP/system.dat" cgroup "$cgroup")
[ "$n" -ge $((K * N + 1 + M + K)) ] ||
	fail "system: cgroup $cgroup has $n files, fewer than the workload's"
note "system: cgroup $cgroup: $n files"
assert_eq "slabacct instances left behind" "" "$(leaked_instances)"
