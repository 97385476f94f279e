# A CPU with no ring buffer: booted with two CPUs and maxcpus=1, the
# second CPU stays offline and the kernel never makes its buffer; its
# trace_pipe_raw exists and reading it fails with ENODEV. `boot collect`,
# `record` and `top` must take the other CPUs' events, say that CPU 1 was
# offline (not a loss: --fail-on-lost passes), and write it into the
# file so that every format of the report notes it. The events kept
# equal trace-cmd's decoding of the same file. (Before, all three
# failed: "writing a CPU's pages: No such device", and top "reading the
# ring buffer: No such device".) A CPU that is online and has
# no buffer (its allocation failed at bringup) is a loss instead; that
# case depends on the memory left at boot, so it is not booted here.
. "$(dirname "$0")/../../lib.sh"
. "$(dirname "$0")/../record-lib.sh"
flavour=${1:?kernel flavour}
command -v trace-cmd >/dev/null || fail "trace-cmd is not installed (scripts/install-deps)"

params=$("$SLABACCT" boot cmdline -q) || fail "boot cmdline failed"
cat >"$TEST_TMP/guest.sh" <<'GUEST'
cat /sys/devices/system/cpu/online >$OUT/online
cat /sys/devices/system/cpu/possible >$OUT/possible
slabacct boot collect --fail-on-lost -o $OUT/boot.dat >$OUT/collect.out \
	2>$OUT/collect.err
echo $? >$OUT/collect.rc
slabacct record --fail-on-lost -o /tmp/rec.dat -- cat /proc/meminfo \
	>$OUT/record.out 2>$OUT/record.err
echo $? >$OUT/record.rc
slabacct top --source trace --plain -n 2 -d 0.5 >$OUT/top.out 2>$OUT/top.err
echo $? >$OUT/top.rc
[ ! -f $OUT/boot.dat ] || gzip -1 $OUT/boot.dat
GUEST
guest_run "$flavour" "$TEST_TMP/guest.sh" -t 240 --smp 2 \
	-a " $params maxcpus=1" || fail "guest run failed"
o=$TEST_TMP/out
assert_eq "online CPUs" 0 "$(cat "$o/online")"
assert_eq "possible CPUs" 0-1 "$(cat "$o/possible")"
cat "$o/collect.out" "$o/collect.err"
assert_eq "boot collect --fail-on-lost status" 0 "$(cat "$o/collect.rc")"
grep -q 'CPU 1 offline' "$o/collect.err" ||
	fail "boot collect does not say that CPU 1 was offline"
cat "$o/record.err"
assert_eq "record --fail-on-lost status" 0 "$(cat "$o/record.rc")"
grep -q 'CPU 1 offline' "$o/record.err" ||
	fail "record does not say that CPU 1 was offline"
assert_eq "top --source trace status ($(head -c 200 "$o/top.err"))" 0 \
	"$(cat "$o/top.rc")"
grep -q . "$o/top.out" || fail "top printed nothing"
gunzip "$o/boot.dat.gz" || fail "boot.dat did not come back"
check_counts boot "$o/boot.dat" "$o/collect.out"
n1=$(grep -cE '^ *.+ \[001\] ' "$TEST_TMP/boot.report")
assert_eq "events of CPU 1 in the file" 0 "$n1"
n0=$(grep -cE '^ *.+ \[000\] ' "$TEST_TMP/boot.report")
[ "$n0" -gt 0 ] || fail "no event of CPU 0 in the file"
note "CPU 0: $n0 events; CPU 1: offline, no ring buffer"

# every format notes it
note='CPU 1 was offline: it had no ring buffer'
"$SLABACCT" report "$o/boot.dat" | grep -q "^# note: $note" ||
	fail "text: no note of the offline CPU"
"$SLABACCT" report --csv "$o/boot.dat" | grep -q "^# note: $note" ||
	fail "CSV: no note of the offline CPU"
"$SLABACCT" report --json "$o/boot.dat" | python3 -c '
import json, sys
n = json.load(sys.stdin)["notes"]
assert any(s.startswith(sys.argv[1]) for s in n), n' "$note" ||
	fail "JSON: no note of the offline CPU"
