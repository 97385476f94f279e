# Helpers for the tests of slabacct record and boot collect (bash, sourced
# after tests/lib.sh).

# summary_total SUMMARY: the N of the "FILE: N events, ..." line that
# record and boot collect print
summary_total() {
	sed -n 's/^[^ ]*: \([0-9]*\) events, .*/\1/p' "$1" | head -1
}

# check_counts NAME FILE SUMMARY: trace-cmd report reads FILE without a
# warning and shows exactly the events slabacct counted (SUMMARY is its
# output), event by event. The report is left in $TEST_TMP/NAME.report.
check_counts() {
	local name=$1 file=$2 summary=$3 rep=$TEST_TMP/$1.report ev n total
	trace-cmd report "$file" >"$rep" 2>"$TEST_TMP/$name.report-err" ||
		fail "$name: trace-cmd report failed: $(head -3 "$TEST_TMP/$name.report-err")"
	[ -s "$TEST_TMP/$name.report-err" ] &&
		fail "$name: trace-cmd report warned: $(head -3 "$TEST_TMP/$name.report-err")"
	total=$(summary_total "$summary")
	[ -n "$total" ] || fail "$name: no summary line in $summary"
	assert_eq "$name: events in report" "$total" \
		"$(grep -cE '^ *.+ \[[0-9]+\] +[0-9.]+: [a-z_]+: ' "$rep")"
	while read -r ev n; do
		assert_eq "$name: $ev" "$n" "$(grep -c " ${ev#*:}: " "$rep")"
	done < <(grep -E '^  [a-z]+:[a-z_]+ +[0-9]+$' "$summary")
}

# instance_of PID: the tracefs instance of the slabacct process PID
# (instances/slabacct-PID-STARTTIME, or slabacct-PID from older builds)
instance_of() {
	local d
	for d in /sys/kernel/tracing/instances/slabacct-"$1" \
		 /sys/kernel/tracing/instances/slabacct-"$1"-*; do
		[ -d "$d" ] && { echo "$d"; return 0; }
	done
	return 1
}

# leaked_instances: slabacct tracefs instances that no process holds
# (other slabacct processes may be recording at the same time). A
# recorder holds a lock (flock) on its instance's directory; instances of
# older builds (slabacct-PID) are judged by their PID.
leaked_instances() {
	local d n pid
	for d in /sys/kernel/tracing/instances/slabacct-*; do
		[ -d "$d" ] || continue
		n=${d##*/slabacct-}
		case "$n" in
		*-*) flock -n "$d" true 2>/dev/null && echo "${d##*/}" ;;
		*) kill -0 "$n" 2>/dev/null || echo "${d##*/}" ;;
		esac
	done
}
