#!/bin/bash
# An instance left by a killed record or top (SIGKILL cannot be caught)
# is found by the next command that looks at tracefs: events names it
# and says how to remove it (it keeps its ring buffers, and traces), and
# leaves it; record and top remove it and say so. So with the lock file
# a killed record leaves beside its output (.NAME.lock, noted in
# /run/slabacct/INSTANCE while the instance lives). The instance of a
# slabacct process still running (another user's recording) is never
# named nor touched, nor its lock file. A top that crashes (SIGSEGV,
# SIGABRT) turns its instance's tracing off first, as record does, says
# it is an internal error, and leaves the instance to be found the same
# way.
. "$(dirname "$0")/../../lib.sh"
. "$(dirname "$0")/../record-lib.sh"
need_root

# wait_tracing PID: the instance of slabacct PID, once it traces
wait_tracing() {
	local i inst
	for i in $(seq 300); do
		inst=$(instance_of "$1") && [ -n "$inst" ] &&
			grep -qx 1 "$inst/tracing_on" && { echo "$inst"; return 0; }
		kill -0 "$1" 2>/dev/null || return 1
		sleep 0.1
	done
	return 1
}

# a recording that runs throughout, as another user's would
"$SLABACCT" record --no-snapshot --duration 600 -o "$TEST_TMP/live.dat" \
	>"$TEST_TMP/live.out" 2>&1 &
live=$!
trap 'kill $live 2>/dev/null; wait $live; rm -rf "$TEST_TMP"' EXIT
live_inst=$(wait_tracing $live) || fail "the live record never traced: $(cat "$TEST_TMP/live.out")"

# killed: record
"$SLABACCT" record --no-snapshot --duration 600 -o "$TEST_TMP/k.dat" \
	>/dev/null 2>&1 &
p=$!
inst=$(wait_tracing $p) || fail "the record to kill never traced"
kill -KILL $p
wait $p
lock=$TEST_TMP/.k.dat.lock
[ -e "$lock" ] || fail "the killed record left no lock file"
[ -e "$TEST_TMP/.live.dat.lock" ] || fail "the live record has no lock file"

"$SLABACCT" events >/dev/null 2>"$TEST_TMP/err"
assert_eq "events with a stale instance: exit" 0 "$?"
cat "$TEST_TMP/err"
grep -qF "slabacct events: warning: the tracing instance $inst was left by slabacct process $p, which was killed" \
	"$TEST_TMP/err" || fail "events did not name $inst: $(cat "$TEST_TMP/err")"
grep -qF "Remove it with 'rmdir $inst'" "$TEST_TMP/err" ||
	fail "events did not say how to remove it"
grep -qF "$live_inst" "$TEST_TMP/err" && fail "events named the live $live_inst"
[ -d "$inst" ] || fail "events removed $inst"
grep -qx 1 "$inst/tracing_on" || fail "the killed record's instance does not trace"
grep -qF "slabacct events: warning: process $p left the lock file $lock of the output it was writing: remove it with 'rm $lock'" \
	"$TEST_TMP/err" || fail "events did not name the lock file $lock"
[ -e "$lock" ] || fail "events removed $lock"

"$SLABACCT" top -n 1 -d 0.1 </dev/null >/dev/null 2>"$TEST_TMP/err"
assert_eq "top with a stale instance: exit" 0 "$?"
cat "$TEST_TMP/err"
grep -qF "slabacct top: warning: removed the tracing instance $inst, left by slabacct process $p" \
	"$TEST_TMP/err" || fail "top did not say it removed $inst: $(cat "$TEST_TMP/err")"
[ -d "$inst" ] && fail "top did not remove $inst"
grep -qF "slabacct top: warning: removed $lock, the lock file of the output that process $p was writing" \
	"$TEST_TMP/err" || fail "top did not say it removed $lock"
[ -e "$lock" ] && fail "top did not remove $lock"
[ -e "$TEST_TMP/.live.dat.lock" ] || fail "top removed the live record's lock file"
[ -e "/run/slabacct/${inst##*/}" ] && fail "top left the note of $inst"
grep -qF "$live_inst" "$TEST_TMP/err" && fail "top named the live $live_inst"
[ -d "$live_inst" ] || fail "top removed the live $live_inst"
note "a killed record's instance: named by events, removed by top"

# killed: top
"$SLABACCT" top -n 0 -d 0.2 </dev/null >/dev/null 2>&1 &
p=$!
inst=$(wait_tracing $p) || fail "the top to kill never traced"
kill -KILL $p
wait $p
"$SLABACCT" record --no-snapshot -o "$TEST_TMP/next.dat" -- true \
	>/dev/null 2>"$TEST_TMP/err"
assert_eq "record with a stale instance: exit" 0 "$?"
grep -qF "slabacct record: warning: removed the tracing instance $inst, left by slabacct process $p" \
	"$TEST_TMP/err" || fail "record did not say it removed $inst: $(cat "$TEST_TMP/err")"
[ -d "$inst" ] && fail "record did not remove $inst"
[ -d "$live_inst" ] || fail "record removed the live $live_inst"
note "a killed top's instance: removed and named by record"

# crashed: top stops its instance's tracing, then dies of the signal
for sig in SEGV ABRT; do
	"$SLABACCT" top -n 0 -d 0.2 </dev/null >/dev/null 2>"$TEST_TMP/crash.err" &
	p=$!
	inst=$(wait_tracing $p) || fail "the top to crash never traced"
	kill -$sig $p
	wait $p
	rc=$?
	assert_eq "top on SIG$sig: exit" $((128 + $(kill -l $sig))) "$rc"
	grep -qF "slabacct top: internal error: SIG$sig" "$TEST_TMP/crash.err" ||
		fail "top on SIG$sig said: $(cat "$TEST_TMP/crash.err")"
	[ -d "$inst" ] || fail "top on SIG$sig: no instance left to check"
	assert_eq "top on SIG$sig: its instance's tracing_on" 0 "$(cat "$inst/tracing_on")"
	"$SLABACCT" events >/dev/null 2>"$TEST_TMP/err"
	grep -qF "the tracing instance $inst was left by slabacct process $p" \
		"$TEST_TMP/err" || fail "events did not name $inst: $(cat "$TEST_TMP/err")"
	rmdir "$inst" || fail "rmdir $inst, as events says, failed"
	note "top on SIG$sig: tracing off, internal error said, $inst named"
done

# nothing stale now: events says nothing of ours
"$SLABACCT" events >/dev/null 2>"$TEST_TMP/err"
grep -qF "slabacct process $p" "$TEST_TMP/err" && fail "events still names $p"

kill -TERM $live
wait $live
assert_eq "the live record, ended by SIGTERM" 0 "$?"
trap 'rm -rf "$TEST_TMP"' EXIT
[ -d "$live_inst" ] && fail "the live record left $live_inst"
[ -e "/run/slabacct/${live_inst##*/}" ] && fail "the live record left its note"
[ -e "$TEST_TMP/.live.dat.lock" ] && fail "the live record left its lock file"
true
