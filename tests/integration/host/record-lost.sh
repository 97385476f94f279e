# A deliberately tiny ring buffer loses events: slabacct record must say
# so, the per-CPU counts it prints must be the ones kept in the file, and
# the buffer size it advises must come from the loss it measured: each
# CPU's lost events times its bytes per event (trace-cmd's decoding and
# --stat of the file), added to the buffer it had, and recording the same
# work again with that size must lose nothing.
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

# --fail-on-lost: the same loss fails the measurement, exit 4; the file
# is written all the same and holds the count. The workload's own failure
# comes first; a recording that lost nothing passes.
burst='for c in $(seq $(nproc)); do
	(for i in $(seq 300); do cat /proc/self/status >/dev/null; done) &
	done; wait'
"$SLABACCT" record --fail-on-lost -e kmem,page -b 8 -o "$TEST_TMP/gate.dat" \
	-- bash -c "$burst" >/dev/null 2>"$TEST_TMP/gate.err"
assert_eq "record --fail-on-lost status after a loss" 4 "$?"
lost=$(sed -n 's/.*warning: \([0-9]*\) events lost.*/\1/p' "$TEST_TMP/gate.err")
grep -q "slabacct record: --fail-on-lost: $lost events lost: the measurement is incomplete (exit 4)" \
	"$TEST_TMP/gate.err" || fail "no --fail-on-lost line: $(cat "$TEST_TMP/gate.err")"
assert_eq "lost events in the report of the failed measurement" "$lost" \
	"$("$SLABACCT" report --json "$TEST_TMP/gate.dat" | jq .lost.events)"
"$SLABACCT" record --fail-on-lost -e kmem,page -b 8 -o "$TEST_TMP/gate.dat" \
	-- bash -c "$burst; exit 3" >/dev/null 2>"$TEST_TMP/gate.err"
assert_eq "record --fail-on-lost status when the workload fails too" 3 "$?"
"$SLABACCT" record --fail-on-lost --comm sa-no-such-task -o "$TEST_TMP/none.dat" \
	-- true >/dev/null 2>"$TEST_TMP/none.err"
assert_eq "record --fail-on-lost status with nothing lost" 0 "$?"
grep -q 'no events lost' "$TEST_TMP/none.err" || fail "$(cat "$TEST_TMP/none.err")"

# advised FILE BUFFER_KB: the -b that keeps every event, from trace-cmd's
# view of FILE: per CPU, need = buffer + lost * bytes / events (bytes of
# its pages in the file, events decoded from them; CPUs that kept nothing
# use the average), 20% more, in KB rounded up to 4 KB (to 1 MB from 1 MB)
advised() {
	{
		trace-cmd report --stat "$1" 2>/dev/null | awk '
			/^CPU: / { cpu = $2 }
			/^(overrun|commit overrun|dropped events): / { print "lost", cpu, $NF }
			/^CPU[0-9]+ data recorded at/ { c = substr($1, 4); getline; print "bytes", c, $1 }'
		trace-cmd report "$1" 2>/dev/null |
			sed -nE 's/^ *.+ \[0*([0-9]+)\] +[0-9.]+: [a-z_]+: .*/events \1 1/p'
	} | awk -v kb="$2" '
		{ v[$1, $2] += $3; if ($2 + 1 > n) n = $2 + 1 }
		END {
			for (c = 0; c < n; c++) { tb += v["bytes", c]; te += v["events", c] }
			for (c = 0; c < n; c++) {
				if (!v["lost", c]) continue
				per = te ? tb / te : 64
				if (v["events", c]) per = v["bytes", c] / v["events", c]
				need = kb * 1024 + v["lost", c] * per
				if (need > worst) worst = need
			}
			k = worst * 1.2 / 1024
			unit = k >= 1024 ? 1024 : 4
			c = k / unit
			if (c != int(c)) c = int(c) + 1
			k = c * unit
			print k
		}'
}

# One CPU, one command name: the same work makes the same events again.
# The recorder is stopped (SIGSTOP) while it runs, so nothing reads the
# buffer: the worst case, which the advice must cover whatever the
# reading rate of the next run.
taskset -c 0 true 2>/dev/null || skip "taskset cannot pin to CPU 0"
cp /bin/cat "$TEST_TMP/saload"
work="for i in \$(seq 300); do '$TEST_TMP/saload' /proc/self/status >/dev/null; done"

# stopped NAME KB: record the work with -b KB, the recorder stopped
stopped() {
	local name=$1 p i=0
	rm -f "$TEST_TMP/started" "$TEST_TMP/done"
	mkfifo "$TEST_TMP/$name.go"
	"$SLABACCT" record --no-snapshot --comm saload -b "$2" -o "$TEST_TMP/$name.dat" -- \
		taskset -c 0 bash -c "touch '$TEST_TMP/started'
			read x <'$TEST_TMP/$name.go'; $work; touch '$TEST_TMP/done'" \
		>"$TEST_TMP/$name.out" 2>"$TEST_TMP/$name.err" &
	p=$!
	until [ -e "$TEST_TMP/started" ]; do
		i=$((i + 1))
		[ $i -lt 600 ] || { kill $p; fail "$name: the work never started"; }
		sleep 0.1
	done
	kill -STOP $p
	echo go >"$TEST_TMP/$name.go"
	until [ -e "$TEST_TMP/done" ]; do
		i=$((i + 1))
		[ $i -lt 3000 ] || { kill -CONT $p; kill $p; fail "$name: the work never ended"; }
		sleep 0.1
	done
	kill -CONT $p
	wait $p || fail "$name: record failed: $(cat "$TEST_TMP/$name.err")"
	cat "$TEST_TMP/$name.err"
}

stopped pin 8
b=$(sed -n 's/.*larger buffer (-b \([0-9]*\)).*/\1/p' "$TEST_TMP/pin.err")
[ -n "$b" ] || fail "no -b advised: $(cat "$TEST_TMP/pin.err")"
# the buffer -b 8 gives: the kernel rounds it to whole pages of data
inst=/sys/kernel/tracing/instances/record-lost-$$
mkdir "$inst" || fail "cannot create a tracefs instance"
echo 8 >"$inst/buffer_size_kb"
kb=$(sed 's/[^0-9].*//' "$inst/buffer_size_kb")
rmdir "$inst"
note "-b 8 gives a buffer of $kb KB"
assert_eq "advised -b, from trace-cmd's view of the file" "$(advised "$TEST_TMP/pin.dat" "$kb")" "$b"
stopped again "$b"
grep -q 'no events lost' "$TEST_TMP/again.err" ||
	fail "the advised -b $b still lost events"
note "-b 8 lost events; the advised -b $b lost none, unread"
