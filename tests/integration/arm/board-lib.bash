# A small board booted with the parameters `slabacct boot cmdline --mem
# MB --cpus 2` prints on the board itself, shared by guest/boot-board
# (x86-64) and arm/board (armhf). Sourced after tests/lib.sh.
#
# board_boot FLAVOUR MB STACKS GUEST_REPORT [-a ARGS]: STACKS is --stacks
# or empty; GUEST_REPORT 1 runs `slabacct report` in the guest too; ARGS
# are more kernel parameters for both boots. BOARD_UNTIL (say "--until
# init") goes to `boot cmdline`, BOARD_STOP (" slabacct.trace_until=init":
# the test bed's init stops tracing first thing) to the second boot.
#  1. a first boot runs `boot cmdline` (exit 0: the boot fits; 4: it
#     does not, with what to drop); its buffers must be within the budget
#     ((MB - 108) / 2); with BOARD_UNTIL, the boot must fit
#  2. a second boot with those parameters must not panic, OOM, or keep a
#     CPU from its ring buffer (dmesg, online CPUs); `boot collect` (and
#     the report) must work in the guest; no CPU may have dropped an
#     event (per_cpu/cpu*/stats, read before collect); where the boot
#     fits, none may have overrun; either way the report's lost events
#     must equal the kernel's overrun count.
# Leaves: $o (the second guest's out), $rc and $params (boot cmdline's),
# $overrun, $dat (the trace) and $TEST_TMP/report.json (its report here).
board_boot() {
	local flavour=$1 mem=$2 stacks=$3 guest_report=$4 args= size budget
	local dropped lost
	[ "${5:-}" = -a ] && args=$6
	o=$TEST_TMP/out

	cat >"$TEST_TMP/cmdline.sh" <<GUEST
slabacct boot cmdline --mem $mem --cpus 2 $stacks ${BOARD_UNTIL:-} >\$OUT/params 2>\$OUT/explain
echo \$? >\$OUT/rc
GUEST
	guest_run "$flavour" "$TEST_TMP/cmdline.sh" -t 300 -m "$mem" --smp 2 \
		-a "$args" || fail "the first guest run failed"
	rc=$(cat "$o/rc") params=$(cat "$o/params")
	cat "$o/explain"
	case $rc in 0|4) ;; *) fail "boot cmdline exited $rc" ;; esac
	size=$(echo "$params" | sed -n 's/.*trace_buf_size=\([0-9]*\)M.*/\1/p')
	[ -n "$size" ] || fail "no trace_buf_size in MB: $params"
	budget=$(( (mem - 108) / 2 ))
	[ $((size * 2)) -le $budget ] ||
		fail "2 x ${size} MB of buffers, over the budget of $budget MB"
	if [ "$rc" = 4 ]; then
		grep -q 'To fit, drop' "$o/explain" || fail "exit 4 without what to drop"
	fi
	[ -z "${BOARD_UNTIL:-}" ] || [ "$rc" = 0 ] ||
		fail "boot cmdline $BOARD_UNTIL says the kernel's boot does not fit $mem MB"
	if [ -n "$stacks" ]; then
		case $params in
		*'trace_trigger="kmalloc.stacktrace if call_site.function == '*) ;;
		*) fail "--stacks on a kernel with boot triggers: $params" ;;
		esac
		case $params in *trace_options=stacktrace*) fail "a stack after every event: $params" ;; esac
	fi
	note "boot cmdline --mem $mem --cpus 2 $stacks ${BOARD_UNTIL:-}: exit $rc ($([ "$rc" = 0 ] &&
		echo 'the boot fits' || echo 'it does not fit')), trace_buf_size=${size}M"

	cat >"$TEST_TMP/board.sh" <<'GUEST'
T=/sys/kernel/tracing
mount -t tracefs nodev $T 2>/dev/null
echo 0 > $T/tracing_on
cat /sys/devices/system/cpu/online >$OUT/online
for c in $T/per_cpu/cpu*; do
	echo "${c##*/} $(sed -n 's/^overrun: //p' $c/stats) $(sed -n 's/^dropped events: //p' $c/stats) $(sed -n 's/^bytes: //p' $c/stats)"
done >$OUT/stats
dmesg >$OUT/dmesg-before
slabacct boot collect -o $OUT/boot.dat >$OUT/collect.out 2>&1
echo $? >$OUT/collect.rc
# collect takes the boot's stack triggers off with its events
grep -v '^#' $T/events/kmem/kmalloc/trigger >$OUT/trigger-after
# saved: give the boot buffers back before the report (the file is in
# tmpfs)
echo 1 > $T/buffer_size_kb
[ -e /tmp/no-report ] && exit 0
slabacct report $OUT/boot.dat >$OUT/report.txt 2>$OUT/report.err
echo $? >$OUT/report.rc
GUEST
	[ "$guest_report" = 1 ] || sed -i '1i touch /tmp/no-report' "$TEST_TMP/board.sh"
	guest_run "$flavour" "$TEST_TMP/board.sh" -t 600 -m "$mem" --smp 2 \
		-a " $params${BOARD_STOP:-}$args" ||
		fail "the board's boot failed (exit $?): $(tail -n 5 "$o/console.log" 2>/dev/null)"
	cat "$o/collect.out"
	! grep -E 'Out of memory|Kernel panic|failed to allocate ring buffer|oom-kill' \
		"$o/dmesg-before" "$o/dmesg" || fail "the board ran out of memory"
	assert_eq "online CPUs" 0-1 "$(cat "$o/online")"
	assert_eq "boot collect status" 0 "$(cat "$o/collect.rc")"
	if [ "$guest_report" = 1 ]; then
		assert_eq "report status in the guest ($(head -c 300 "$o/report.err"))" 0 "$(cat "$o/report.rc")"
		grep -q . "$o/report.txt" || fail "the report in the guest is empty"
	fi
	overrun=$(awk '{ s += $2 } END { print s }' "$o/stats")
	dropped=$(awk '{ s += $3 } END { print s }' "$o/stats")
	assert_eq "dropped events" 0 "$dropped"
	note "per CPU (overrun, dropped, bytes held): $(tr '\n' ' ' <"$o/stats")"
	dat=$o/boot.dat
	"$SLABACCT" report --json "$dat" >"$TEST_TMP/report.json" || fail "report failed"
	lost=$(jq '.lost.events' "$TEST_TMP/report.json")
	if [ "$rc" = 0 ]; then
		assert_eq "overrun of a boot that fits" 0 "$overrun"
		note "the boot fits (boot cmdline exit 0): no overrun, no event lost"
	else
		note "the boot does not fit (boot cmdline exit 4): $overrun events overrun, the report's lost events $lost"
	fi
	assert_eq "lost events, the report's and the kernel's overrun" "$overrun" "$lost"
}
