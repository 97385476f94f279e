# Referee for slabacct top's tracefs source: top and slabacct record watch
# the same run of a busy allocation workload on every CPU (a copy of cat,
# named sa-top-PID, run over and over: fork, exec, exit), each keeping
# that command's events (--comm), and top's totals per call site at its
# end (allocations, bytes allocated and requested; frees and live bytes,
# which need the same order) must equal the report's of the recording,
# site by site, to the event: every event of the workload falls inside
# both windows. A second top with the default
# settings and no filter watches the whole system meanwhile, and neither
# may lose an event in any interval.
. "$(dirname "$0")/../../lib.sh"
. "$(dirname "$0")/../top-lib.sh"
need_root
command -v jq >/dev/null || fail "jq is not installed (scripts/install-deps)"

N=${SA_TOPWORK_ITERATIONS:-1000}	# runs of the workload per CPU
comm=sa-top-$$		# a name nothing else runs under (15 at most)
work=$TEST_TMP/$comm
cp "$(command -v cat)" "$work"
pids=()
trap 'kill "${pids[@]}" 2>/dev/null
	if [ "${SLABACCT_KEEP_TMP:-0}" = 1 ]; then
		echo "# workspace kept: $TEST_TMP"
	else
		rm -rf "$TEST_TMP"
	fi' EXIT

# start_top NAME ARGS...: top in JSON lines until stopped, in the
# background; its pid is appended to pids
start_top() {
	local name=$1
	shift
	"$SLABACCT" top --json -n 0 -t 0 "$@" >"$TEST_TMP/$name.jsonl" \
		2>"$TEST_TMP/$name.err" &
	pids+=($!)
}

# started NAME: wait until top NAME has printed its first line (its
# tracefs instance is then on); 60 s at most
started() {
	local i
	for i in $(seq 300); do
		[ -s "$TEST_TMP/$1.jsonl" ] && return 0
		sleep 0.2
	done
	fail "top $1 printed nothing: $(cat "$TEST_TMP/$1.err")"
}

start_top all
start_top work --comm "$comm"
started all
started work

"$SLABACCT" record -e kmem --comm "$comm" -o "$TEST_TMP/rec.dat" -- \
	bash -c 'for c in $(seq $(nproc)); do
		(for i in $(seq '"$N"'); do '"$work"' /proc/self/status >/dev/null
		 done) &
	done; wait' >"$TEST_TMP/record.out" 2>"$TEST_TMP/record.err" ||
	fail "record failed: $(cat "$TEST_TMP/record.err")"
cat "$TEST_TMP/record.out"

# stop both: a stop signal is a normal end, with a last snapshot
kill -TERM "${pids[@]}"
for i in 0 1; do
	wait "${pids[$i]}"
	assert_eq "top $i: exit status after SIGTERM" 0 "$?"
done
pids=()

"$SLABACCT" report --json --top 0 "$TEST_TMP/rec.dat" >"$TEST_TMP/rep.json" ||
	fail "report failed"
top_equals_report "$TEST_TMP/work.jsonl" "$TEST_TMP/rep.json"
# no loss, in any interval, for the filtered top and the one with the
# default settings
top_lost_nothing work "$TEST_TMP/work.jsonl"
top_lost_nothing all "$TEST_TMP/all.jsonl"
