# A recording cut short never looks complete. On file systems of
# 1, 3, 8 and 16 MiB and one sized for the header and a little more,
# record exits 1 and leaves either nothing (with a message saying that
# nothing was recorded: the header alone does not fit) or a file that
# trace-cmd reads and that every report format marks as truncated at T;
# report --fail-on-lost exits 4 on it. A signal before the workload
# ended marks the file the same way; SIGKILL leaves the earlier file as
# it was. diff --fail-on refuses to judge a truncated side (exit 4), and
# a merge carries the mark. At a file size limit (each CPU's temporary
# file reaches it, the whole would pass it) the CPUs' data are shortened
# to fit: a readable file, marked, whose events are those record counted.
. "$(dirname "$0")/../../lib.sh"
. "$(dirname "$0")/../record-lib.sh"
need_root
command -v trace-cmd >/dev/null || fail "trace-cmd is not installed (scripts/install-deps)"
command -v prlimit >/dev/null || fail "prlimit is not installed (util-linux)"

mnts=()
cleanup() {
	local m
	for m in "${mnts[@]}"; do umount "$m" 2>/dev/null; done
	rm -rf "$TEST_TMP"
}
trap cleanup EXIT

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
}

# marked FILE WHY: every report format says FILE was truncated, for WHY
# (a pattern), and report --fail-on-lost exits 4
marked() {
	local f=$1 why=$2 out
	out=$("$SLABACCT" report "$f" 2>&1) || fail "report $f: $out"
	echo "$out" | grep -q '^# TRUNCATED at [0-9.]* s (' ||
		fail "$f: no TRUNCATED line in the text header: $(echo "$out" | head -12)"
	echo "$out" | tr '\n' ' ' | grep -q "$why" ||
		fail "$f: the text does not say why ($why)"
	"$SLABACCT" report --json "$f" | python3 -c '
import json, sys
t = json.load(sys.stdin)["lost"]["truncated"]
assert t["at_ns"] > 0 and t["why"], t
print(t["why"])' >"$TEST_TMP/why" || fail "$f: JSON lost.truncated is missing"
	grep -q "$why" "$TEST_TMP/why" || fail "$f: JSON why: $(cat "$TEST_TMP/why")"
	"$SLABACCT" report --csv "$f" | grep -q '^# truncated_at_ns: [1-9]' ||
		fail "$f: CSV has no truncated_at_ns"
	"$SLABACCT" report --format openmetrics "$f" |
		grep -q '^slabacct_trace_truncated{why=".*"} 1$' ||
		fail "$f: the metrics do not say truncated"
	"$SLABACCT" report --format account "$f" | grep -q '^trace_truncated: ' ||
		fail "$f: the account layout does not say truncated"
	"$SLABACCT" report --fail-on-lost "$f" >/dev/null 2>"$TEST_TMP/fol.err"
	assert_eq "report --fail-on-lost on $f" 4 "$?"
	grep -q 'was truncated at' "$TEST_TMP/fol.err" ||
		fail "report --fail-on-lost said: $(cat "$TEST_TMP/fol.err")"
}

kallsyms_kb=$(( $(wc -c </proc/kallsyms) / 1024 ))
loop='while :; do cat /proc/self/status >/dev/null; done'

# A complete recording: no mark, --fail-on-lost passes
"$SLABACCT" record --no-snapshot -o "$TEST_TMP/whole.dat" -- cat /proc/self/status \
	>"$TEST_TMP/whole.out" 2>&1 || fail "record failed: $(cat "$TEST_TMP/whole.out")"
"$SLABACCT" report "$TEST_TMP/whole.dat" | grep -q TRUNCATED &&
	fail "a complete recording is marked truncated"
"$SLABACCT" report --fail-on-lost "$TEST_TMP/whole.dat" >/dev/null ||
	fail "report --fail-on-lost failed on a complete recording"
"$SLABACCT" report --format openmetrics "$TEST_TMP/whole.dat" |
	grep -qx 'slabacct_trace_truncated 0' || fail "the metrics of a complete recording"

# Full disks of every size
for size_kb in 1024 3072 8192 16384 $((kallsyms_kb + 4096)); do
	mnt=$TEST_TMP/fs$size_kb
	mkdir -p "$mnt"
	mount -t tmpfs -o size=${size_kb}k tmpfs "$mnt" || fail "cannot mount a tmpfs"
	mnts+=("$mnt")
	"$SLABACCT" record -b 4096 --duration 300 -o "$mnt/t.dat" -- bash -c "$loop" \
		>"$TEST_TMP/fs$size_kb.out" 2>&1
	assert_eq "exit status on a full ${size_kb} KB disk" 1 "$?"
	if [ ! -e "$mnt/t.dat" ]; then
		# nothing left: only where the header cannot fit, and said
		[ $size_kb -lt $((kallsyms_kb + 2048)) ] ||
			fail "no file left on a ${size_kb} KB disk: $(cat "$TEST_TMP/fs$size_kb.out")"
		grep -q 'nothing was recorded' "$TEST_TMP/fs$size_kb.out" ||
			fail "no clear message on a ${size_kb} KB disk: $(cat "$TEST_TMP/fs$size_kb.out")"
		ls -A "$mnt" | grep -v '^\.t\.dat\.lock$' | grep -q . &&
			fail "a ${size_kb} KB disk kept: $(ls -A "$mnt")"
		note "${size_kb} KB: nothing recorded, said so"
	else
		[ $size_kb -lt $kallsyms_kb ] &&
			fail "a file smaller than kallsyms on a ${size_kb} KB disk?"
		grep -q 'is marked as truncated' "$TEST_TMP/fs$size_kb.out" ||
			fail "${size_kb} KB: $(cat "$TEST_TMP/fs$size_kb.out")"
		trace-cmd report "$mnt/t.dat" >/dev/null 2>&1 ||
			fail "trace-cmd cannot read the file cut on a ${size_kb} KB disk"
		marked "$mnt/t.dat" 'the disk filled'
		note "${size_kb} KB: a readable file, marked truncated"
	fi
	umount "$mnt"
done

# A signal before the workload ended: marked, exit 0 (4 with
# --fail-on-lost); one before the end of --duration likewise
for sig in TERM INT; do
	for fol in "" --fail-on-lost; do
		f=$TEST_TMP/sig$sig$fol.dat
		"$SLABACCT" record --no-snapshot $fol -o "$f" -- sleep 600 \
			>"$f.out" 2>&1 &
		p=$!
		wait_tracing $p
		kill -s $sig $p
		wait $p
		rc=$?
		want=0
		[ -n "$fol" ] && want=4
		assert_eq "exit status of record $fol stopped by SIG$sig" $want $rc
		check_counts "sig$sig$fol" "$f" "$f.out" >/dev/null
		marked "$f" "SIG$sig before the workload ended"
	done
done
"$SLABACCT" record --no-snapshot --duration 600 -o "$TEST_TMP/dur.dat" \
	>"$TEST_TMP/dur.out" 2>&1 &
p=$!
wait_tracing $p
kill -s HUP $p
wait $p
assert_eq "exit status of record --duration stopped by SIGHUP" 0 "$?"
marked "$TEST_TMP/dur.dat" 'SIGHUP before the duration ended'
# with neither a workload nor a duration, a signal is the end
"$SLABACCT" record --no-snapshot -o "$TEST_TMP/open.dat" >"$TEST_TMP/open.out" 2>&1 &
p=$!
wait_tracing $p
kill -s INT $p
wait $p
assert_eq "exit status of record stopped by SIGINT" 0 "$?"
"$SLABACCT" report --fail-on-lost "$TEST_TMP/open.dat" >/dev/null ||
	fail "a recording without an end of its own, stopped by SIGINT, is marked"

# SIGKILL: no new file; the earlier one stays as it was
cp "$TEST_TMP/whole.dat" "$TEST_TMP/kill.dat"
"$SLABACCT" record --no-snapshot -o "$TEST_TMP/kill.dat" -- sleep 600 >/dev/null 2>&1 &
p=$!
wait_tracing $p
kill -KILL $p
wait $p
cmp -s "$TEST_TMP/whole.dat" "$TEST_TMP/kill.dat" ||
	fail "SIGKILL changed the earlier file"
ls -A "$TEST_TMP" | grep '^\.kill\.dat' | grep -qv '^\.kill\.dat\.lock$' &&
	fail "SIGKILL left a partial file: $(ls -A "$TEST_TMP")"
note "SIGKILL: the earlier file as it was"

# diff --fail-on: a truncated side is not judged (exit 4), either way
a=$TEST_TMP/whole.dat b=$TEST_TMP/sigTERM.dat
for pair in "$a $b" "$b $a"; do
	# shellcheck disable=SC2086
	"$SLABACCT" diff --fail-on 'total:+1G' $pair >"$TEST_TMP/d.out" 2>"$TEST_TMP/d.err"
	assert_eq "diff --fail-on $pair" 4 "$?"
	grep -q 'sigTERM.dat was truncated.*no limit is judged' "$TEST_TMP/d.err" ||
		fail "diff --fail-on said: $(cat "$TEST_TMP/d.err")"
	grep -q '^#    TRUNCATED at ' "$TEST_TMP/d.out" ||
		fail "the diff does not show the mark"
done
"$SLABACCT" diff --fail-on 'total:+1G' "$a" "$a" >/dev/null 2>&1 ||
	fail "diff --fail-on of complete traces failed"
"$SLABACCT" diff "$a" "$b" >/dev/null 2>"$TEST_TMP/d.err" || fail "diff failed"
grep -q 'warning: .*was truncated' "$TEST_TMP/d.err" || fail "diff does not warn"
# through a report's JSON, and a merge of runs
"$SLABACCT" report --json -o "$TEST_TMP/b.json" "$b"
"$SLABACCT" diff --fail-on 'total:+1G' "$a" "$TEST_TMP/b.json" >/dev/null 2>&1
assert_eq "diff --fail-on with the truncated side as JSON" 4 "$?"
"$SLABACCT" merge --json -o "$TEST_TMP/m.json" "$a" "$b" "$a" ||
	fail "merge failed"
python3 -c '
import json, sys
m = json.load(open(sys.argv[1]))
assert m["lost"]["truncated_runs"] == 1, m["lost"]
assert [bool(r.get("truncated")) for r in m["runs"]] == [False, True, False]
' "$TEST_TMP/m.json" || fail "the merge does not carry the mark"
"$SLABACCT" merge "$a" "$b" | grep -q '^# TRUNCATED: 1 of 2 runs' ||
	fail "the merge's text does not say so"
"$SLABACCT" diff --fail-on 'total:+1G' "$TEST_TMP/m.json" "$a" >/dev/null 2>&1
assert_eq "diff --fail-on against a merge with a truncated run" 4 "$?"
# and through the /proc/slab_account layout of its report
"$SLABACCT" report --format account -o "$TEST_TMP/b.account" "$b"
"$SLABACCT" diff --fail-on 'total:+1G' "$a" "$TEST_TMP/b.account" >/dev/null 2>&1
assert_eq "diff --fail-on with the truncated side in the account layout" 4 "$?"
# a "truncated" member of another shape is refused, not read as complete
sed 's/"truncated" : {/"truncated" : 1, "x" : {/' "$TEST_TMP/b.json" >"$TEST_TMP/bad.json"
grep -q '"truncated" : 1' "$TEST_TMP/bad.json" || fail "cannot plant a bad member"
"$SLABACCT" diff "$a" "$TEST_TMP/bad.json" >/dev/null 2>&1
assert_eq "diff of a JSON with a bad truncated member" 1 "$?"

# A file size limit: each CPU's temporary file reaches it, and the whole
# would pass it: the data are shortened to fit, the file is marked, and
# holds exactly the events record counted (trace-cmd's count)
limit=$(( (kallsyms_kb + 6144) * 1024 ))
prlimit --fsize=$limit "$SLABACCT" record -b 4096 --duration 300 \
	-o "$TEST_TMP/fsize.dat" -- bash -c "$loop" >"$TEST_TMP/fsize.out" 2>&1
assert_eq "exit status at the file size limit" 1 "$?"
grep -q 'is marked as truncated' "$TEST_TMP/fsize.out" ||
	fail "at the file size limit: $(cat "$TEST_TMP/fsize.out")"
[ "$(stat -c %s "$TEST_TMP/fsize.dat")" -le $limit ] || fail "the file passed the limit"
check_counts fsize "$TEST_TMP/fsize.dat" "$TEST_TMP/fsize.out" >/dev/null
marked "$TEST_TMP/fsize.dat" 'the file size limit was reached'

assert_eq "slabacct instances left behind" "" "$(leaked_instances)"
