# A CPU kept down by its ring buffer: booted with a trace_buf_size (not
# one `slabacct boot cmdline` prints: over the budget) that the second
# CPU cannot get as it comes up, the kernel logs "failed to allocate
# ring buffer on CPU 1" and the CPU stays offline. `boot collect` must
# link it to its cause, not call it merely offline: it says so, exits 4
# with --fail-on-lost, and every format of the report notes it. (Before,
# the report said "lost events: 0" and "CPU 1 was offline".) On
# 6.12-cloud the first CPU's buffer fails first (2 x 450M booted; 600M
# failed on CPU 0): the kernel logs "tracer: failed to allocate ring
# buffer!" and has no boot trace at all; `boot collect` must fail and say
# why.
. "$(dirname "$0")/../../lib.sh"
flavour=${1:?kernel flavour}
# under TCG on a loaded host the kernel's check of the IO-APIC timer can
# fail and panic the guest ("IO-APIC + timer doesn't work!"): skip it
TCG_ARGS=" no_timer_check"
# what CPU 0 can take, and then CPU 1 cannot, early in boot (1 GB: 6.1
# has about 255 MB initialised then); on 6.12-cloud, what CPU 0 cannot
case $flavour in
6.1) size=150M ;;
6.12-cloud) size=600M ;;
*) skip "the buffer sizes are set for 6.1 and 6.12-cloud" ;;
esac
params=$("$SLABACCT" boot cmdline -q --mem 1024 --cpus 2) || fail "boot cmdline failed"
params=$(echo "$params" | sed "s/trace_buf_size=[0-9]*[MK]/trace_buf_size=$size/")
cat >"$TEST_TMP/guest.sh" <<'GUEST'
mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null
cat /sys/devices/system/cpu/online >$OUT/online
slabacct boot collect --fail-on-lost -o $OUT/boot.dat >$OUT/collect.out \
	2>$OUT/collect.err
echo $? >$OUT/collect.rc
echo 1 > /sys/kernel/tracing/buffer_size_kb
[ ! -f $OUT/boot.dat ] || gzip -1 $OUT/boot.dat
GUEST
guest_run "$flavour" "$TEST_TMP/guest.sh" -t 300 -m 1024 --smp 2 --no-splat-check \
	-a " $params $TCG_ARGS" || fail "guest run failed"
o=$TEST_TMP/out
if [ "$flavour" = 6.12-cloud ]; then
	grep -q 'tracer: failed to allocate ring buffer!' "$o/dmesg" ||
		fail "the premise: the boot's $size buffer was allocated"
	cat "$o/collect.err"
	[ "$(cat "$o/collect.rc")" != 0 ] || fail "boot collect succeeded with no buffer"
	grep -q 'could not allocate the boot.s ring buffer (dmesg: "tracer: failed to allocate ring buffer!")' \
		"$o/collect.err" || fail "boot collect does not say why there is no trace"
	exit 0
fi
grep -q 'failed to allocate ring buffer on CPU 1' "$o/dmesg" ||
	fail "the premise: CPU 1 got its $size buffer (online: $(cat "$o/online"))"
assert_eq "online CPUs" 0 "$(cat "$o/online")"
cat "$o/collect.out" "$o/collect.err"
assert_eq "boot collect --fail-on-lost status" 4 "$(cat "$o/collect.rc")"
grep -q 'CPU 1 did not come up: the kernel could not allocate its ring buffer' \
	"$o/collect.err" || fail "boot collect does not link CPU 1 to its buffer"
! grep -q 'CPU 1 offline' "$o/collect.err" || fail "boot collect calls CPU 1 merely offline"
gunzip "$o/boot.dat.gz" || fail "boot.dat did not come back"
note='CPU 1 did not come up: the kernel could not allocate its ring buffer'
"$SLABACCT" report "$o/boot.dat" | grep -q "^# note: $note" ||
	fail "text: no note of CPU 1's buffer"
"$SLABACCT" report --csv "$o/boot.dat" | grep -q "^# note: $note" ||
	fail "CSV: no note of CPU 1's buffer"
"$SLABACCT" report --json "$o/boot.dat" | python3 -c '
import json, sys
n = json.load(sys.stdin)["notes"]
assert any(s.startswith(sys.argv[1]) for s in n), n' "$note" ||
	fail "JSON: no note of CPU 1's buffer"
"$SLABACCT" report --html "$TEST_TMP/r.html" "$o/boot.dat" || fail "HTML report failed"
grep -q "$note" "$TEST_TMP/r.html" || fail "HTML: no note of CPU 1's buffer"
"$SLABACCT" report "$o/boot.dat" | grep -q 'CPU 1 was offline' &&
	fail "the report calls CPU 1 merely offline"
exit 0
