# Signals and slabacct record: every catchable signal that would end the
# process ends the recording cleanly (file written, tracefs instance
# removed, exit 0); a crash signal leaves the instance no longer tracing;
# the workload dies with the recorder (PR_SET_PDEATHSIG); and an instance
# left by a recorder killed with SIGKILL is removed by the next one even
# when its PID now belongs to another process.
. "$(dirname "$0")/../../lib.sh"
. "$(dirname "$0")/../record-lib.sh"
need_root
command -v trace-cmd >/dev/null || fail "trace-cmd is not installed (scripts/install-deps)"

# wait_tracing PID: until the instance of record PID is tracing
wait_tracing() {
	local i=0 inst
	while :; do
		inst=$(instance_of "$1")
		[ -n "$inst" ] && grep -qx 1 "$inst/tracing_on" 2>/dev/null && break
		kill -0 "$1" 2>/dev/null || fail "record $1 ended before tracing"
		i=$((i + 1))
		[ $i -lt 600 ] || fail "record $1 never started tracing"
		sleep 0.1
	done
	echo "$inst"
}

# ended PID WHAT: PID ends within a minute, else it is killed and we fail
ended() {
	local i=0
	while kill -0 "$1" 2>/dev/null; do
		i=$((i + 1))
		[ $i -lt 600 ] || { kill -KILL "$1"; fail "$2: record did not end"; }
		sleep 0.1
	done
}

for sig in HUP INT QUIT TERM USR1 USR2 ALRM PIPE VTALRM PROF XCPU IO PWR \
	   STKFLT RTMIN RTMAX; do
	out=$TEST_TMP/$sig
	"$SLABACCT" record --no-snapshot --duration 600 -o "$out.dat" \
		>"$out.out" 2>&1 &
	p=$!
	inst=$(wait_tracing $p)
	kill -s "$sig" $p
	ended $p "SIG$sig"
	wait $p
	rc=$?
	[ "$rc" = 0 ] || fail "record stopped by SIG$sig exited $rc: $(cat "$out.out")"
	[ -d "$inst" ] && fail "SIG$sig left the instance $inst"
	check_counts "$sig" "$out.dat" "$out.out" >/dev/null
	note "SIG$sig: recording saved, instance removed"
done

# A crash signal: the recorder dies, its instance stops tracing at once
for sig in SEGV ABRT; do
	"$SLABACCT" record --no-snapshot --duration 600 -o "$TEST_TMP/crash.dat" \
		>"$TEST_TMP/crash.out" 2>&1 &
	p=$!
	inst=$(wait_tracing $p)
	kill -s $sig $p
	ended $p "SIG$sig"
	wait $p
	if [ -d "$inst" ]; then
		assert_eq "tracing_on of $inst after SIG$sig" 0 "$(cat "$inst/tracing_on")"
		grep -q '^kmem:' "$inst/set_event" &&
			fail "SIG$sig left kmem events enabled in $inst"
	fi
	note "SIG$sig: the instance no longer traces"
done

# The workload dies with the recorder (SIGKILL cannot be caught)
"$SLABACCT" record --no-snapshot -o "$TEST_TMP/orphan.dat" -- sh -c \
	"echo \$\$ >'$TEST_TMP/wpid'; exec sleep 1000" >/dev/null 2>&1 &
p=$!
inst=$(wait_tracing $p)
while [ ! -s "$TEST_TMP/wpid" ]; do sleep 0.1; done
w=$(cat "$TEST_TMP/wpid")
kill -KILL $p
wait $p
i=0
while kill -0 "$w" 2>/dev/null; do
	i=$((i + 1))
	[ $i -lt 100 ] || { kill "$w"; fail "the workload outlived its recorder (SIGKILL)"; }
	sleep 0.1
done
note "the workload died with its recorder"
# the next recording removes the killed one's instance
"$SLABACCT" record --no-snapshot -o "$TEST_TMP/next.dat" -- true >/dev/null 2>&1 ||
	fail "record after a SIGKILL failed"
[ -d "$inst" ] && fail "the instance $inst of a killed recorder was not removed"

# A killed recorder's PID reused by another process: in a PID namespace of
# its own, record gets a known PID, is killed, a sleep gets that PID
# (ns_last_pid), and the next record must still remove the instance
cat >"$TEST_TMP/reuse.sh" <<EOF
. "$TOP/tests/lib.sh"
. "$TOP/tests/integration/record-lib.sh"
"$SLABACCT" record --no-snapshot --duration 600 -o "$TEST_TMP/reuse.dat" >/dev/null 2>&1 &
p=\$!
i=0
until inst=\$(instance_of \$p) && [ -n "\$inst" ] && grep -qx 1 "\$inst/tracing_on"; do
	i=\$((i + 1)); [ \$i -lt 600 ] || exit 1; sleep 0.1
done
kill -KILL \$p
wait \$p
echo \$((p - 1)) >/proc/sys/kernel/ns_last_pid
sleep 1000 &
[ \$! = \$p ] || { echo "SKIP: pid \$p not reused (got \$!)"; exit 4; }
echo "\$inst" >"$TEST_TMP/reuse.inst"
"$SLABACCT" record --no-snapshot -o "$TEST_TMP/reuse2.dat" -- true >/dev/null 2>&1 || exit 1
kill \$!
EOF
unshare --pid --fork --mount-proc bash "$TEST_TMP/reuse.sh"
rc=$?
[ $rc = 4 ] && skip "the PID namespace did not reuse the recorder's PID"
[ $rc = 0 ] || fail "the PID-reuse scenario failed ($rc)"
inst=$(cat "$TEST_TMP/reuse.inst")
if [ -d "$inst" ]; then
	rmdir "$inst"
	fail "the instance $inst of a killed recorder whose PID was reused was kept"
fi
note "an instance whose PID was reused was removed"
assert_eq "slabacct instances left behind" "" "$(leaked_instances)"
