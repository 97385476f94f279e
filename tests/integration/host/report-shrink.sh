#!/bin/bash
# A trace cut short by another program while slabacct reads it through a
# mapping (a new recording written over it in place, a rotation): the
# next read of the mapping raises SIGBUS. That is the input's doing: a
# clear error naming the file and both sizes, exit 1. Any other crash is
# an internal error, said so and never blamed on the file.
#
# Deterministic: with SLABACCT_TEST_STOP_MAPPED set, report stops itself
# (SIGSTOP) once it has mapped the file and before it reads the mapping;
# the file is cut there and the report continued.
. "$(dirname "$0")/../../lib.sh"
[ -x "$SLABACCT" ] || fail "build/slabacct is missing (make all)"
zcat "$TOP/tests/data/report-mm/6.1.dat.gz" >"$TEST_TMP/orig.dat"
size=$(stat -c %s "$TEST_TMP/orig.dat")

# stopped PID: wait until the process has stopped itself
stopped() {
	local i
	for i in $(seq 300); do
		[ "$(awk '{ print $3 }' "/proc/$1/stat" 2>/dev/null)" = T ] && return 0
		sleep 0.1
	done
	return 1
}

# start OPTS...: a report of t.dat, stopped at the hook; sets $pid
start() {
	cp "$TEST_TMP/orig.dat" "$TEST_TMP/t.dat"
	SLABACCT_TEST_STOP_MAPPED=1 "$SLABACCT" report --what all "$@" \
		"$TEST_TMP/t.dat" >"$TEST_TMP/out" 2>"$TEST_TMP/err" &
	pid=$!
	stopped $pid || { kill -9 $pid; fail "report did not stop at the hook"; }
}

for opt in "" --libtracecmd; do
	# shellcheck disable=SC2086
	start $opt
	truncate -s 200000 "$TEST_TMP/t.dat"
	kill -CONT $pid
	wait $pid
	rc=$?
	cat "$TEST_TMP/err"
	assert_eq "exit status, cut while read $opt" 1 "$rc"
	grep -q "slabacct report: $TEST_TMP/t.dat: the file was cut from $size to 200000 bytes while it was read" \
		"$TEST_TMP/err" || fail "no clear message $opt: $(cat "$TEST_TMP/err")"
done

# the hook itself changes nothing: continued uncut, the report is whole
start
kill -CONT $pid
wait $pid || fail "report continued from the hook failed: $(cat "$TEST_TMP/err")"
cp "$TEST_TMP/orig.dat" "$TEST_TMP/t.dat"
"$SLABACCT" report --what all "$TEST_TMP/t.dat" >"$TEST_TMP/want"
cmp -s "$TEST_TMP/out" "$TEST_TMP/want" || fail "the report differs after the hook"

# any other crash: an internal error, the file not blamed, and the signal
# goes on to the default action (exit 128 + signal)
for sig in SEGV BUS; do
	start
	kill -$sig $pid
	kill -CONT $pid
	wait $pid
	rc=$?
	cat "$TEST_TMP/err"
	assert_eq "exit status on SIG$sig" $((128 + $(kill -l $sig))) "$rc"
	grep -q "slabacct report: internal error: SIG$sig while reading $TEST_TMP/t.dat. This is a bug" \
		"$TEST_TMP/err" || fail "SIG$sig: no internal-error message"
	grep -qi "corrupt" "$TEST_TMP/err" && fail "SIG$sig blamed on the file"
done
note "a file cut while read is named with its sizes; a crash is an internal error"
