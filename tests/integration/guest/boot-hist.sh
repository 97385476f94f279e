# The kernel's histograms of the allocations, keyed by call site, from
# boot (`slabacct boot cmdline --hist`), against a lossless raw trace of
# the same boot window. On the board (a first boot: its own kallsyms
# say whether it takes trace_trigger= and has hist triggers):
# - 6.1 has hist triggers but no trace_trigger=: --hist must refuse,
#   saying why; and booted with such a trigger all the same, the kernel
#   must not have set it (the refusal is right);
# - 6.12-cloud: booted with the parameters it prints (the raw events in
#   a buffer large enough, and the four histograms), both stopped at one
#   moment by set_event_pid (a sleeping pid), `slabacct report` of the
#   saved hist files must give, per call site, the allocations, bytes
#   requested and bytes allocated that trace-cmd's decoding of the raw
#   trace gives, in every format with the histograms' Dropped as lost
#   events. The one exception, measured (docs/embedded.md): tracing's
#   own setup, which the histograms see before trace_event= turns the
#   raw events on; those sites may only count more, never less.
. "$(dirname "$0")/../../lib.sh"
flavour=${1:?kernel flavour}
case $flavour in
6.1|6.12-cloud) ;;
*) skip "boot triggers are measured on 6.1 (none) and 6.12-cloud" ;;
esac
command -v trace-cmd >/dev/null || fail "trace-cmd is not installed (scripts/install-deps)"
command -v jq >/dev/null || fail "jq is not installed (scripts/install-deps)"
TCG_ARGS=" no_timer_check"
o=$TEST_TMP/out

# 1. on the board
cat >"$TEST_TMP/cmdline.sh" <<'GUEST'
slabacct boot cmdline --hist --mem 1024 --cpus 2 --buffer-size 65536 -q \
	>$OUT/params 2>$OUT/err
echo $? >$OUT/rc
slabacct boot cmdline --hist --hist-size 1000 -q >$OUT/params-size 2>$OUT/err-size
echo $? >$OUT/rc-size
GUEST
guest_run "$flavour" "$TEST_TMP/cmdline.sh" -t 300 -m 1024 -a "$TCG_ARGS" ||
	fail "the first guest run failed"
cat "$o/err"
assert_eq "--hist-size 1000 status" 2 "$(cat "$o/rc-size")"
grep -q 'bad --hist-size 1000 (a power of two' "$o/err-size" ||
	fail "--hist-size 1000: $(cat "$o/err-size")"
[ -s "$o/params-size" ] && fail "parameters printed for a bad --hist-size"
trig="kmalloc.hist:keys=call_site.sym-offset:vals=bytes_alloc:size=2048"
if [ "$flavour" = 6.1 ]; then
	assert_eq "boot cmdline --hist status on 6.1" 2 "$(cat "$o/rc")"
	grep -q 'takes no trigger on its command line (no setup_trace_triggers' "$o/err" ||
		fail "no clear refusal: $(cat "$o/err")"
	[ -s "$o/params" ] && fail "parameters printed where --hist is refused: $(cat "$o/params")"
	# the refusal is right: the kernel ignores such a trigger
	cat >"$TEST_TMP/ignored.sh" <<'GUEST'
T=/sys/kernel/tracing
mount -t tracefs nodev $T 2>/dev/null
ls $T/events/kmem/kmalloc >$OUT/files
grep -v '^#' $T/events/kmem/kmalloc/trigger >$OUT/trigger
exit 0
GUEST
	guest_run "$flavour" "$TEST_TMP/ignored.sh" -t 300 -a " trace_trigger=$trig$TCG_ARGS" ||
		fail "the 6.1 guest with a trigger failed"
	grep -qx hist "$o/files" || fail "6.1 has no hist file: the refusal should name that instead"
	assert_eq "6.1's kmalloc triggers after a boot with trace_trigger=" "" "$(cat "$o/trigger")"
	grep -q 'Unknown kernel command line parameters "trace_trigger=' "$o/dmesg" ||
		fail "6.1 did not call trace_trigger= unknown"
	exit 0
fi
assert_eq "boot cmdline --hist status (on $flavour)" 0 "$(cat "$o/rc")"
params=$(cat "$o/params")
case $params in
*"trace_trigger=\"$trig,"*) ;;
*) fail "no histogram triggers in: $params" ;;
esac
note "parameters: $params"

# 2. the board booted with them
cat >"$TEST_TMP/board.sh" <<'GUEST'
T=/sys/kernel/tracing
mount -t tracefs nodev $T 2>/dev/null
sleep 100000 &
spid=$!
sleep 1
# one moment for both: the pid filter is checked before the record
# the ring buffer keeps and the histograms count
echo $spid > $T/set_event_pid
cat $T/events/kmem/kmalloc/hist $T/events/kmem/kmem_cache_alloc/hist >$OUT/boot.hist
ls -R /sys >/dev/null 2>&1
cat $T/events/kmem/kmalloc/hist $T/events/kmem/kmem_cache_alloc/hist >$OUT/again.hist
echo 0 > $T/tracing_on
for c in $T/per_cpu/cpu*; do
	echo "${c##*/} $(sed -n 's/^overrun: //p' $c/stats) $(sed -n 's/^dropped events: //p' $c/stats)"
done >$OUT/stats
slabacct boot collect -o /tmp/boot.dat >$OUT/collect.out 2>&1
echo $? >$OUT/collect.rc
# the referee, per call site: trace-cmd's decoding of the raw trace
trace-cmd report /tmp/boot.dat 2>$OUT/tc.err | awk '
	/ (kmalloc|kmem_cache_alloc): / {
		cs = $0; sub(/.*call_site=/, "", cs); sub(/ .*/, "", cs)
		br = $0; sub(/.*bytes_req=/, "", br); sub(/ .*/, "", br)
		ba = $0; sub(/.*bytes_alloc=/, "", ba); sub(/ .*/, "", ba)
		n[cs]++; r[cs] += br; a[cs] += ba
	}
	END { for (k in n) print k, n[k], r[k], a[k] }' >$OUT/raw-sites
echo $? >$OUT/tc.rc
GUEST
guest_run "$flavour" "$TEST_TMP/board.sh" -t 900 -m 1024 -a " $params$TCG_ARGS" \
	-f /usr/bin/trace-cmd:/bin/trace-cmd || fail "the board's boot failed (exit $?)"
cat "$o/collect.out"
assert_eq "boot collect status" 0 "$(cat "$o/collect.rc")"
assert_eq "trace-cmd report status" 0 "$(cat "$o/tc.rc")"
# the referee is lossless
assert_eq "overrun and dropped events of the raw trace" 0 \
	"$(awk '{ s += $2 + $3 } END { print s + 0 }' "$o/stats")"
# the histograms stopped with the raw trace
assert_eq "hist totals after the stop" \
	"$(grep -E 'Hits|Entries' "$o/boot.hist")" "$(grep -E 'Hits|Entries' "$o/again.hist")"
[ "$(grep -c '^# event histogram' "$o/boot.hist")" = 4 ] ||
	fail "not four histograms: $(grep 'trigger info' "$o/boot.hist")"

# 3. the report of the hist files
h=$o/boot.hist
dropped=$(awk '/Dropped:/ { s += $2 } END { print s + 0 }' "$h")
"$SLABACCT" report --json "$h" >"$TEST_TMP/rep.json" || fail "report --json failed"
assert_eq "JSON lost, known" true "$(jq '.lost.known' "$TEST_TMP/rep.json")"
assert_eq "JSON lost events, the histograms' Dropped" "$dropped" "$(jq '.lost.events' "$TEST_TMP/rep.json")"
jq -e '.notes[] | select(startswith("counts from the kernel'"'"'s hist triggers, not events"))' \
	"$TEST_TMP/rep.json" >/dev/null || fail "JSON: no label that these are hist counts"
"$SLABACCT" report "$h" >"$TEST_TMP/rep.txt" || fail "report failed"
grep -q "^# lost events: $dropped" "$TEST_TMP/rep.txt" || fail "text: no lost events $dropped"
grep -q "^# note: counts from the kernel's hist triggers, not events" "$TEST_TMP/rep.txt" ||
	fail "text: no label"
"$SLABACCT" report --format csv "$h" >"$TEST_TMP/rep.csv" || fail "report --format csv failed"
grep -q "^# lost_events: $dropped\$" "$TEST_TMP/rep.csv" || fail "CSV: no lost_events $dropped"
grep -q "^# note: counts from the kernel's hist triggers" "$TEST_TMP/rep.csv" || fail "CSV: no label"
"$SLABACCT" report --html "$TEST_TMP/rep.html" "$h" || fail "report --html failed"
grep -q "\"lost\":{\"known\":true,\"events\":$dropped" "$TEST_TMP/rep.html" || fail "HTML: no lost events"
grep -q "hist triggers, not events" "$TEST_TMP/rep.html" || fail "HTML: no label"

# 4. per call site, ours against trace-cmd's
# (by name, as trace-cmd prints them: two static functions of one name,
# cgrp_css_alloc of net_prio and of net_cls, are one site there)
jq -r '.sections.callsite.rows[] | "\(.site) \(.allocs) \(.bytes_req) \(.bytes_alloc)"' \
	"$TEST_TMP/rep.json" |
	awk '{ n[$1] += $2; r[$1] += $3; a[$1] += $4 }
	END { for (k in n) print k, n[k], r[k], a[k] }' | sort >"$TEST_TMP/ours"
sort "$o/raw-sites" >"$TEST_TMP/want"
[ -s "$TEST_TMP/want" ] || fail "no allocation in the raw trace"
# tracing's own setup, before trace_event= turns the raw events on
setup='^(tracing_map_|hist_|create_hist_field|event_hist_trigger|parse_atom|trigger_data_alloc|trace_create_new_event|__trace_define_field|kasprintf|tracepoint_add_func|trace_define_field|event_trigger)'
join -a1 -a2 -e 0 -o 0,1.2,1.3,1.4,2.2,2.3,2.4 "$TEST_TMP/ours" "$TEST_TMP/want" |
	awk -v setup="$setup" '
	$2 == $5 && $3 == $6 && $4 == $7 { same++; next }
	{
		fn = $1; sub(/\+.*/, "", fn)
		if (fn ~ setup && $2 >= $5 && $3 >= $6 && $4 >= $7) { early++; next }
		print "DIFF site " $1 ": ours " $2 " " $3 " " $4 ", trace-cmd " $5 " " $6 " " $7
	}
	END { print "SAME " same + 0 " " early + 0 }' >"$TEST_TMP/cmp"
grep '^DIFF' "$TEST_TMP/cmp" | head -n 20
read -r _ same early < <(grep '^SAME' "$TEST_TMP/cmp")
note "$same call sites equal to trace-cmd's; $early of tracing's own setup counted before the raw trace"
grep -q '^DIFF' "$TEST_TMP/cmp" && fail "call sites differ from trace-cmd's decoding"
[ "$same" -gt 100 ] || fail "only $same call sites compared"
[ "$early" -le 30 ] || fail "$early sites of tracing's setup differ: more than measured"

# 5. error paths
sed '/^Totals:/,$d' "$h" >"$TEST_TMP/cut.hist"
"$SLABACCT" report "$TEST_TMP/cut.hist" >/dev/null 2>"$TEST_TMP/cut.err"
assert_eq "report of a cut hist file" 1 "$?"
grep -q 'cut short' "$TEST_TMP/cut.err" || fail "cut: $(cat "$TEST_TMP/cut.err")"
sed 's/keys=call_site.sym-offset/keys=ptr/; s/{ call_site:/{ ptr:/' "$h" >"$TEST_TMP/ptr.hist"
"$SLABACCT" report "$TEST_TMP/ptr.hist" >/dev/null 2>"$TEST_TMP/ptr.err"
assert_eq "report of a hist keyed by ptr" 1 "$?"
grep -q 'keyed by ptr, not call_site' "$TEST_TMP/ptr.err" || fail "ptr: $(cat "$TEST_TMP/ptr.err")"
"$SLABACCT" report --format account "$h" >/dev/null 2>"$TEST_TMP/acct.err"
assert_eq "report --format account of a hist file" 2 "$?"
"$SLABACCT" diff "$h" "$h" >/dev/null 2>"$TEST_TMP/diff.err"
assert_eq "diff of hist files" 1 "$?"
grep -q "a hist file (boot cmdline --hist): 'slabacct report' reads it" "$TEST_TMP/diff.err" ||
	fail "diff: $(cat "$TEST_TMP/diff.err")"
exit 0
