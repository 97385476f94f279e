# slabacct record live on this host: record a known workload with the kmem
# group, then check the file against trace-cmd report event by event, the
# origin it carries, the comm filter, two recordings at once, and that no
# tracefs instance is left behind.
. "$(dirname "$0")/../../lib.sh"
. "$(dirname "$0")/../record-lib.sh"
need_root
command -v trace-cmd >/dev/null || fail "trace-cmd is not installed (scripts/install-deps)"

# The workload: a copy of cat, so its events carry a comm of its own.
cp /bin/cat "$TEST_TMP/saload"
cat >"$TEST_TMP/work.sh" <<EOF
for i in \$(seq 100); do
	"$TEST_TMP/saload" /proc/self/status /proc/meminfo >/dev/null &
	echo \$! >>"$TEST_TMP/saload.pids"
	wait
done
EOF

"$SLABACCT" record -o "$TEST_TMP/all.dat" -- bash "$TEST_TMP/work.sh" \
	>"$TEST_TMP/all.out" 2>"$TEST_TMP/all.err" ||
	fail "record failed: $(cat "$TEST_TMP/all.err")"
cat "$TEST_TMP/all.out" "$TEST_TMP/all.err"
check_counts all "$TEST_TMP/all.dat" "$TEST_TMP/all.out"
kmalloc=$(sed -n 's/^  kmem:kmalloc *\([0-9]*\)$/\1/p' "$TEST_TMP/all.out")
[ "${kmalloc:-0}" -gt 100 ] || fail "only '$kmalloc' kmalloc events for 100 processes"
grep -Eq '^  kmem:(mm_page_alloc|mm_vmscan)' "$TEST_TMP/all.out" &&
	fail "-e kmem recorded events of other groups"
grep -q 'events lost\|no events lost' "$TEST_TMP/all.err" ||
	fail "record did not say whether events were lost"

# Where the trace came from
trace-cmd dump --options "$TEST_TMP/all.dat" 2>/dev/null | grep -q "$(uname -r)" ||
	fail "the UNAME option lacks $(uname -r)"
trace-cmd report --stat "$TEST_TMP/all.dat" 2>/dev/null | grep -q '^overrun: ' ||
	fail "no per-CPU stats (CPUSTAT) in the file"
# (the origin section is at the end, but its size grows with the host:
# its vmallocinfo, slabinfo and processes; the whole file is searched)
grep -aq "bash $TEST_TMP/work.sh" "$TEST_TMP/all.dat" ||
	fail "the workload command is not in the origin section"
# raw /proc/meminfo lines (the snapshots hold it JSON-escaped, one line)
[ "$(grep -ac '^MemFree:' "$TEST_TMP/all.dat")" = 2 ] ||
	fail "/proc/meminfo at start and end are not in the origin section"

# The comm filter: every event is the workload's
"$SLABACCT" record --comm saload -o "$TEST_TMP/comm.dat" -- bash "$TEST_TMP/work.sh" \
	>"$TEST_TMP/comm.out" 2>&1 || fail "record --comm failed: $(cat "$TEST_TMP/comm.out")"
check_counts comm "$TEST_TMP/comm.dat" "$TEST_TMP/comm.out"
# Judge by pid: trace-cmd names a pid from the saved cmdlines, which can
# still hold its pre-exec name (bash) although the kernel filtered on the
# comm at the time of each event.
others=$(grep -E ': [a-z_]+: ' "$TEST_TMP/comm.report" |
	sed -E 's/^ *.*-([0-9]+) +\[[0-9]+\].*/\1/' | sort -u |
	grep -vxF -f "$TEST_TMP/saload.pids" | wc -l)
assert_eq "pids other than the workload's with --comm saload" 0 "$others"
[ "$(grep -c ' kmalloc: ' "$TEST_TMP/comm.report")" -gt 0 ] ||
	fail "--comm saload recorded no kmalloc"

# Two recordings at once, each in its own instance
"$SLABACCT" record -o "$TEST_TMP/a.dat" --duration 2 >"$TEST_TMP/a.out" 2>&1 &
pa=$!
"$SLABACCT" record -o "$TEST_TMP/b.dat" -- bash "$TEST_TMP/work.sh" >"$TEST_TMP/b.out" 2>&1 ||
	fail "second concurrent record failed: $(cat "$TEST_TMP/b.out")"
wait $pa || fail "first concurrent record failed: $(cat "$TEST_TMP/a.out")"
check_counts a "$TEST_TMP/a.dat" "$TEST_TMP/a.out"
check_counts b "$TEST_TMP/b.dat" "$TEST_TMP/b.out"

# Ctrl-C ends a recording cleanly
"$SLABACCT" record -o "$TEST_TMP/int.dat" >"$TEST_TMP/int.out" 2>&1 &
pi=$!
sleep 1
kill -INT $pi
wait $pi || fail "record stopped by SIGINT exited $?: $(cat "$TEST_TMP/int.out")"
check_counts int "$TEST_TMP/int.dat" "$TEST_TMP/int.out"

assert_eq "slabacct instances left behind" "" "$(leaked_instances)"
