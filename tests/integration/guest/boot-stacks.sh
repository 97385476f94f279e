# A boot traced with a kernel stack after every event (`slabacct boot
# cmdline --stacks`, as make demo boots), in a guest of kernel flavour
# $1, saved by `slabacct boot collect` there: every
# allocation through a wrapper is named by its caller, and the report's
# "wrapper <- caller" rows equal those of an independent count,
# tests/integration/stack-referee.py, which pairs each event of
# `trace-cmd report`'s decoding of the same file with the stack printed
# after it and applies the wrapper rule itself (allocations and bytes).
. "$(dirname "$0")/../../lib.sh"
flavour=${1:?kernel flavour}
command -v trace-cmd >/dev/null || fail "trace-cmd is not installed (scripts/install-deps)"

params=$("$SLABACCT" boot cmdline -q --stacks) || fail "boot cmdline --stacks failed"
case $params in *trace_options=stacktrace*) ;; *) fail "no stacktrace option in: $params" ;; esac
cat >"$TEST_TMP/collect.sh" <<'GUEST'
T=/sys/kernel/tracing
mount -t tracefs nodev $T 2>/dev/null
echo 0 > $T/tracing_on
grep -H -E '^(entries|overrun|bytes):' $T/per_cpu/cpu*/stats >$OUT/buffer-stats
cat $T/buffer_size_kb >$OUT/buffer_size_kb
slabacct boot collect -o $OUT/boot.dat >$OUT/collect.out 2>&1
GUEST
guest_run "$flavour" "$TEST_TMP/collect.sh" -t 300 -m 1024 -a " $params" ||
	fail "guest run failed: $(cat "$TEST_TMP/out/collect.out" 2>/dev/null)"
dat=$TEST_TMP/out/boot.dat
[ -s "$dat" ] || fail "no boot trace came back"

"$SLABACCT" report --json "$dat" >"$TEST_TMP/report.json" || fail "report failed"
note "ring buffer: $(cat "$TEST_TMP/out/buffer_size_kb") KB per CPU; $(tr '\n' ' ' <"$TEST_TMP/out/buffer-stats")"
# the estimate is at the edge of a boot's stacks: lost events (counted)
# drop the oldest pages of a CPU, events with their stacks
note "lost events: $(jq .lost.events "$TEST_TMP/report.json")"

# the report's rows through wrappers, and those left at a wrapper
python3 "$TOP/tests/integration/stack-ours.py" --no-bare "$TEST_TMP/report.json" \
	>"$TEST_TMP/ours" 2>"$TEST_TMP/bare" || fail "$(cat "$TEST_TMP/bare")"
got=$(cat "$TEST_TMP/ours")
[ "$got" != "{}" ] || fail "no allocation through a wrapper in the boot"
want=$(python3 "$TOP/tests/integration/stack-referee.py" "$dat") ||
	fail "the referee failed"
assert_eq "wrapper <- caller (allocs, bytes), ours and trace-cmd's" "$want" "$got"
note "$(echo "$got" | jq -r 'to_entries | sort_by(-.value[1]) | .[:5][] |
	"\(.key): \(.value[0]) allocs, \(.value[1]) bytes"')"
exit 0
