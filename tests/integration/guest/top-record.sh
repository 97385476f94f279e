# Referee for slabacct top's tracefs source in a guest of kernel flavour
# $1, as host/top-record does on the host: top --json --comm and
# slabacct record --comm watch the same fork/exec workload on both vCPUs
# (a copy of cat under its own name); top's allocations, bytes, frees
# and live bytes per call site at its end must equal the report's of the
# recording, and neither that top nor a second one with the default
# settings and no filter may lose an event in any interval. It also
# checks that top reads on this kernel's tracefs: its instance on the
# mono trace clock, and removed after SIGTERM, which ends top with 0.
. "$(dirname "$0")/../../lib.sh"
. "$(dirname "$0")/../top-lib.sh"
flavour=${1:?kernel flavour}
command -v jq >/dev/null || fail "jq is not installed (scripts/install-deps)"
N=150	# runs of the workload per vCPU (TCG is slow)

cat >"$TEST_TMP/guest.sh" <<GUEST
slabacct top --json -n 0 -d 0.5 -t 0 --comm sa-topwork >\$OUT/work.jsonl \
	2>\$OUT/work.err &
work=\$!
slabacct top --json -n 0 -d 0.5 -t 0 >\$OUT/all.jsonl 2>\$OUT/all.err &
all=\$!
while [ ! -s \$OUT/work.jsonl ] || [ ! -s \$OUT/all.jsonl ]; do sleep 0.2; done
cat /sys/kernel/tracing/instances/slabacct-\$work-*/trace_clock >\$OUT/clock
slabacct record -e kmem --comm sa-topwork -o /tmp/rec.dat -- sh -c '
	for c in 1 2; do
		(i=0; while [ \$i -lt $N ]; do
			sa-topwork /proc/self/status >/dev/null; i=\$((i + 1))
		done) &
	done; wait' >\$OUT/record.out 2>&1
echo \$? >\$OUT/record.rc
kill -TERM \$work \$all
wait \$work; echo \$? >\$OUT/work.rc
wait \$all; echo \$? >\$OUT/all.rc
slabacct report --json --top 0 /tmp/rec.dat >\$OUT/rep.json 2>\$OUT/rep.err
ls /sys/kernel/tracing/instances >\$OUT/instances
GUEST
guest_run "$flavour" "$TEST_TMP/guest.sh" -t 600 \
	-f "$(command -v cat):/bin/sa-topwork" || fail "guest run failed"
o=$TEST_TMP/out
cat "$o/record.out" "$o/work.err" "$o/all.err"

assert_eq "record's exit status" 0 "$(cat "$o/record.rc")"
assert_eq "top's exit status after SIGTERM" 0 "$(cat "$o/work.rc")"
assert_eq "unfiltered top's exit status after SIGTERM" 0 "$(cat "$o/all.rc")"
grep -q '\[mono\]' "$o/clock" ||
	fail "top's instance is not on the mono clock: $(cat "$o/clock")"
assert_eq "tracefs instances left" "" "$(cat "$o/instances")"
top_equals_report "$o/work.jsonl" "$o/rep.json"
top_lost_nothing work "$o/work.jsonl"
top_lost_nothing all "$o/all.jsonl"
