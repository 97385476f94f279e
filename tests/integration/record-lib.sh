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

# leaked_instances: slabacct-PID tracefs instances whose process is gone
# (other slabacct processes may be recording at the same time)
leaked_instances() {
	local d pid
	for d in /sys/kernel/tracing/instances/slabacct-*; do
		[ -d "$d" ] || continue
		pid=${d##*-}
		kill -0 "$pid" 2>/dev/null || echo "${d##*/}"
	done
}
