# slabacct record leaves out its own threads (as trace-cmd does): with a
# small buffer its splice reads would otherwise be a good part of the
# events. Judged by trace-cmd's decoding of the file against the thread
# ids /proc lists for the recorder while it runs; the origin names them,
# in every report format. --trace-self keeps them; the event-filter way
# (kernels without set_event_notrace_pid) is checked with a hidden option.
. "$(dirname "$0")/../../lib.sh"
. "$(dirname "$0")/../record-lib.sh"
need_root
command -v trace-cmd >/dev/null || fail "trace-cmd is not installed (scripts/install-deps)"
command -v jq >/dev/null || fail "jq is not installed (scripts/install-deps)"

# run NAME OPTIONS...: record a workload with a 16 KB buffer; the
# recorder's thread ids go to $TEST_TMP/NAME.tids, the decoding to
# $TEST_TMP/NAME.report
run() {
	local name=$1 p i=0
	shift
	rm -f "$TEST_TMP/started"
	mkfifo "$TEST_TMP/$name.go"
	"$SLABACCT" record -b 16 --no-snapshot "$@" -o "$TEST_TMP/$name.dat" -- bash -c "
		touch '$TEST_TMP/started'; read x <'$TEST_TMP/$name.go'
		for i in \$(seq 200); do cat /proc/self/status >/dev/null; done" \
		>"$TEST_TMP/$name.out" 2>&1 &
	p=$!
	while [ ! -e "$TEST_TMP/started" ]; do
		kill -0 $p 2>/dev/null || fail "$name: record ended: $(cat "$TEST_TMP/$name.out")"
		i=$((i + 1))
		[ $i -lt 600 ] || { kill $p; fail "$name: the workload never started"; }
		sleep 0.1
	done
	ls /proc/$p/task | sort -n >"$TEST_TMP/$name.tids"
	echo go >"$TEST_TMP/$name.go"
	wait $p || fail "$name: record failed: $(cat "$TEST_TMP/$name.out")"
	trace-cmd report "$TEST_TMP/$name.dat" >"$TEST_TMP/$name.report" 2>/dev/null ||
		fail "$name: trace-cmd report failed"
	note "$name: recorder threads $(tr '\n' ' ' <"$TEST_TMP/$name.tids")"
}

# own NAME: events of the recorder's threads in the decoding
own() {
	grep -E ': [a-z_]+: ' "$TEST_TMP/$1.report" |
		sed -E 's/^ *.*-([0-9]+) +\[[0-9]+\].*/\1/' |
		grep -cxF -f "$TEST_TMP/$1.tids"
}

run self
assert_eq "events of the recorder's own threads" 0 "$(own self)"
[ "$(grep -c ' cat-[0-9]* *\[' "$TEST_TMP/self.report")" -gt 0 ] ||
	fail "no event of the workload was recorded"
# the origin names what was left out, in every format
want=$(tr '\n' ' ' <"$TEST_TMP/self.tids" | sed 's/ $//')
"$SLABACCT" report "$TEST_TMP/self.dat" >"$TEST_TMP/self.txt" || fail "report failed"
grep -q "^# left out: .*pids $want\b" "$TEST_TMP/self.txt" ||
	fail "the text origin does not name pids $want: $(grep '^#' "$TEST_TMP/self.txt")"
"$SLABACCT" report --json "$TEST_TMP/self.dat" >"$TEST_TMP/self.json" || fail "report --json failed"
jq -r .origin.left_out "$TEST_TMP/self.json" | grep -q "pids $want\b" ||
	fail "the JSON origin does not name pids $want"
"$SLABACCT" report --csv "$TEST_TMP/self.dat" | grep -q "^# left_out: .*pids $want\b" ||
	fail "the CSV origin does not name pids $want"
"$SLABACCT" report --html "$TEST_TMP/self.html" "$TEST_TMP/self.dat" >/dev/null &&
	grep -q "pids $want" "$TEST_TMP/self.html" && grep -q "'left out'" "$TEST_TMP/self.html" ||
	fail "the HTML page does not show what was left out"

# The event-filter way, as on kernels without set_event_notrace_pid
run filter --self-filter
assert_eq "events of the recorder's own threads (event filter)" 0 "$(own filter)"
"$SLABACCT" report "$TEST_TMP/filter.dat" | grep -q "^# left out: .*event filter" ||
	fail "the origin does not say an event filter left the recorder out"

# --trace-self keeps them
run kept --trace-self
n=$(own kept)
[ "$n" -gt 0 ] || fail "--trace-self: no event of the recorder's threads"
note "--trace-self: $n events of the recorder's threads"
"$SLABACCT" report "$TEST_TMP/kept.dat" | grep -q "^# left out:" &&
	fail "--trace-self: the origin says something was left out"
assert_eq "slabacct instances left behind" "" "$(leaked_instances)"
