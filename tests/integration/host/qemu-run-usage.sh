# qemu/run's usage errors, on the host (nothing boots): --icount counts
# the instructions of one vCPU under single-threaded TCG, so KVM, a second
# vCPU, multi-threaded TCG and a malformed SPEC are refused with exit 2
# and a message that names the conflict.
. "$(dirname "$0")/../../lib.sh"
echo 'exit 0' >"$TEST_TMP/s.sh"

# refused WHAT ARGS...: exit 2, and the message contains WHAT
refused() {
	local what=$1 msg rc
	shift
	msg=$("$QEMU_RUN" "$@" "$TEST_TMP/s.sh" 2>&1)
	rc=$?
	[ $rc = 2 ] || fail "qemu/run $*: exit $rc, expected 2 ($msg)"
	case "$msg" in *"$what"*) ;; *) fail "qemu/run $*: '$msg' does not say '$what'" ;; esac
	note "qemu/run $*: $msg"
}
refused "cannot be used with --accel kvm" --icount --accel kvm
refused "cannot be used with --accel kvm" --icount=shift=0 --accel kvm
refused "needs one vCPU, not --smp 2" --icount --smp 2
refused "needs one vCPU, not --smp 4" --smp 4 --icount=shift=auto
refused "needs single-threaded TCG" --icount --tcg-thread multi
refused "expected QEMU's -icount options" "--icount=shift=0;reboot"
refused "expected QEMU's -icount options" --icount=
refused "is not a positive number" --icount --smp x
"$QEMU_RUN" --help | grep -q -- '--icount\[=SPEC\]' || fail "--help does not document --icount"
exit 0
