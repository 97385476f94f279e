# The exit statuses a CI job relies on, from real boots of kernel flavour
# $1 (qemu/run --help documents them as a contract): a script's own
# status comes back (7); a guest kernel panic is 91; a hang is 92 at the
# timeout; a guest that powers off before its results are sent is 93; a
# script that exits 0 with a splat in the kernel's log is 94 (the splat
# written to /dev/kmsg, which the kernel logs as it is). The first boot also checks `boot collect --fail-on-lost`: a
# boot buffer far too small (16 KB) loses events, which fails the
# measurement with 4, the file written all the same.
. "$(dirname "$0")/../../lib.sh"
flavour=${1:?kernel flavour}

params=$("$SLABACCT" boot cmdline -q --buffer-size 16) || fail "boot cmdline failed"
cat >"$TEST_TMP/status.sh" <<'GUEST'
slabacct boot collect --fail-on-lost -o $OUT/boot.dat >$OUT/collect.out 2>$OUT/collect.err
echo $? >$OUT/collect.rc
exit 7
GUEST
guest_run "$flavour" "$TEST_TMP/status.sh" -t 240 -a " $params" 2>"$TEST_TMP/err"
assert_eq "qemu/run status of a script that exits 7" 7 "$?"
o=$TEST_TMP/out
cat "$o/collect.out" "$o/collect.err"
assert_eq "boot collect --fail-on-lost status with a 16 KB buffer" 4 "$(cat "$o/collect.rc")"
lost=$(sed -n 's/.*warning: \([0-9]*\) events lost.*/\1/p' "$o/collect.err")
[ "${lost:-0}" -gt 0 ] || fail "no lost events reported: $(cat "$o/collect.err")"
grep -q "boot collect: --fail-on-lost: $lost events lost" "$o/collect.err" ||
	fail "no --fail-on-lost line: $(cat "$o/collect.err")"
assert_eq "lost events in the report of the failed measurement" "$lost" \
	"$("$SLABACCT" report --json "$o/boot.dat" | jq .lost.events)"

# a panic: sysrq's crash
echo 'echo c >/proc/sysrq-trigger; sleep 60' >"$TEST_TMP/panic.sh"
guest_run "$flavour" "$TEST_TMP/panic.sh" -t 240 2>"$TEST_TMP/err"
rc=$?
cat "$TEST_TMP/err"
assert_eq "qemu/run status of a guest kernel panic" 91 "$rc"
grep -q 'the guest kernel panicked: .*Kernel panic' "$TEST_TMP/err" ||
	fail "the panic is not named"

# a hang: a script that never ends, against a timeout longer than a boot
echo 'echo started >$OUT/started; while :; do sleep 1; done' >"$TEST_TMP/hang.sh"
guest_run "$flavour" "$TEST_TMP/hang.sh" -t 60 2>"$TEST_TMP/err"
rc=$?
cat "$TEST_TMP/err"
assert_eq "qemu/run status of a guest that hangs" 92 "$rc"
grep -q 'did not finish within 60s (hang?)' "$TEST_TMP/err" ||
	fail "the hang is not named"

# results that do not come back: sysrq's power-off, no panic, no hang
echo 'echo o >/proc/sysrq-trigger; sleep 60' >"$TEST_TMP/off.sh"
guest_run "$flavour" "$TEST_TMP/off.sh" -t 240 2>"$TEST_TMP/err"
rc=$?
cat "$TEST_TMP/err"
assert_eq "qemu/run status of a guest that powers off early" 93 "$rc"
grep -q "the guest's results did not come back" "$TEST_TMP/err" ||
	fail "the missing results are not named"

# a splat in the kernel's log of a script that exits 0; with
# --no-splat-check the script's own 0
echo 'echo "WARNING: CPU: 0 PID: 1 at exit-status test" >/dev/kmsg' >"$TEST_TMP/splat.sh"
guest_run "$flavour" "$TEST_TMP/splat.sh" -t 240 2>"$TEST_TMP/err"
rc=$?
cat "$TEST_TMP/err"
assert_eq "qemu/run status of a script that exits 0 after a splat" 94 "$rc"
grep -q 'kernel splat in the guest log' "$TEST_TMP/err" ||
	fail "the splat is not named"
grep -q 'WARNING: CPU: 0 PID: 1 at exit-status test' "$TEST_TMP/err" ||
	fail "the splat's line is not shown"
guest_run "$flavour" "$TEST_TMP/splat.sh" -t 240 --no-splat-check 2>"$TEST_TMP/err"
assert_eq "qemu/run --no-splat-check status of the same script" 0 "$?"
exit 0
