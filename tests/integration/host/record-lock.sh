# Two recordings into the same file: the second is refused (exit 1, the
# path named) while the first runs, and the first one's file is whole.
# Each output is locked (flock on .NAME.lock beside it) from the start
# of the recording to the rename that puts it in place.
. "$(dirname "$0")/../../lib.sh"
. "$(dirname "$0")/../record-lib.sh"
need_root
command -v trace-cmd >/dev/null || fail "trace-cmd is not installed (scripts/install-deps)"

mkfifo "$TEST_TMP/go"
# the first: its workload says it runs, then waits until released
"$SLABACCT" record --no-snapshot -o "$TEST_TMP/same.dat" -- sh -c \
	"touch '$TEST_TMP/started'; read x <'$TEST_TMP/go'; cat /proc/self/status" \
	>"$TEST_TMP/a.out" 2>&1 &
pa=$!
# on any failure below, end the first one too
trap 'kill $pa 2>/dev/null; wait $pa; rm -rf "$TEST_TMP"' EXIT
i=0
while [ ! -e "$TEST_TMP/started" ]; do
	kill -0 $pa 2>/dev/null || fail "the first record ended: $(cat "$TEST_TMP/a.out")"
	i=$((i + 1))
	[ $i -lt 600 ] || fail "the first record's workload never started"
	sleep 0.1
done

# the second, into the same file, while the first records
"$SLABACCT" record --no-snapshot -o "$TEST_TMP/same.dat" -- cat /proc/self/status \
	>"$TEST_TMP/b.out" 2>&1
rc=$?
cat "$TEST_TMP/b.out"
assert_eq "exit status of a second record into the same file" 1 "$rc"
grep -q "same.dat.*another" "$TEST_TMP/b.out" ||
	fail "the refusal does not name the file and why: $(cat "$TEST_TMP/b.out")"
# report -o into the file being recorded is refused too
"$SLABACCT" report -o "$TEST_TMP/same.dat" /dev/null >"$TEST_TMP/c.out" 2>&1
assert_eq "report -o into a file being recorded" 1 "$?"

echo go >"$TEST_TMP/go"
trap 'rm -rf "$TEST_TMP"' EXIT
wait $pa || fail "the first record failed: $(cat "$TEST_TMP/a.out")"
check_counts a "$TEST_TMP/same.dat" "$TEST_TMP/a.out"
# the lock file went with the recording
[ -e "$TEST_TMP/.same.dat.lock" ] && fail "the lock file was left behind"

# one after the other is fine
"$SLABACCT" record --no-snapshot -o "$TEST_TMP/same.dat" -- true \
	>"$TEST_TMP/d.out" 2>&1 || fail "a later record into the file failed: $(cat "$TEST_TMP/d.out")"
assert_eq "slabacct instances left behind" "" "$(leaked_instances)"
