# A deliberately tiny ring buffer loses events: slabacct record must say
# so, and the per-CPU counts it prints must be the ones kept in the file.
. "$(dirname "$0")/../../lib.sh"
need_root
command -v trace-cmd >/dev/null || fail "trace-cmd is not installed (scripts/install-deps)"

# 8 KB per CPU against a burst of process creation on every CPU
"$SLABACCT" record -e kmem,page -b 8 -o "$TEST_TMP/lost.dat" -- bash -c '
	for c in $(seq $(nproc)); do
		(for i in $(seq 300); do cat /proc/self/status >/dev/null; done) &
	done; wait' >"$TEST_TMP/out" 2>"$TEST_TMP/err" ||
	fail "record failed: $(cat "$TEST_TMP/err")"
cat "$TEST_TMP/out" "$TEST_TMP/err"
line=$(grep 'events lost (ring buffer overrun' "$TEST_TMP/err") ||
	fail "no lost events reported with an 8 KB buffer"
said=$(echo "$line" | sed -n 's/.*warning: \([0-9]*\) events lost.*/\1/p')
[ "${said:-0}" -gt 0 ] || fail "bad lost-event line: $line"
echo "$line" | grep -q 'larger buffer' || fail "no advice in: $line"

# The file's CPUSTAT options add up to the same number
kept=$(trace-cmd report --stat "$TEST_TMP/lost.dat" 2>/dev/null |
	awk -F': ' '/^(overrun|commit overrun|dropped events): / { n += $2 } END { print n + 0 }')
assert_eq "lost events in the file" "$said" "$kept"
trace-cmd report "$TEST_TMP/lost.dat" >/dev/null 2>"$TEST_TMP/rep.err" ||
	fail "trace-cmd report failed on a lossy file"
