# qemu/run's usage errors, on the host (nothing boots): --icount counts
# the instructions of one vCPU under single-threaded TCG, so KVM, a second
# vCPU, multi-threaded TCG and a malformed SPEC are refused with exit 2
# and a message that names the conflict; so are an architecture that
# does not match the kernel image, or one KVM or single-threaded TCG
# cannot run. --help documents the exit statuses.
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
# the guest's architecture: from the image's magic (an arm64 Image has
# ARM\x64 at 0x38, an ARM zImage 0x016f2818 at 0x24), or --arch
head -c 4096 /dev/zero >"$TEST_TMP/unknown"
cp "$TEST_TMP/unknown" "$TEST_TMP/Image"
printf 'ARMd' | dd of="$TEST_TMP/Image" bs=1 seek=56 conv=notrunc 2>/dev/null
cp "$TEST_TMP/unknown" "$TEST_TMP/zImage"
printf '\x18\x28\x6f\x01' | dd of="$TEST_TMP/zImage" bs=1 seek=36 conv=notrunc 2>/dev/null
refused "cannot tell the architecture" -k "$TEST_TMP/unknown"
refused "--arch must be x86_64, arm64 or armhf" -k "$TEST_TMP/unknown" --arch sparc
refused "but $TEST_TMP/Image is an arm64 kernel" -k "$TEST_TMP/Image" --arch armhf
refused "an arm64 guest cannot run under KVM here" -k "$TEST_TMP/Image" --accel kvm
refused "an armhf guest with --smp 2 needs --tcg-thread multi" \
	-k "$TEST_TMP/zImage" --smp 2 --tcg-thread single
# the exit statuses CI relies on are documented (guest/exit-status
# checks that a boot returns them)
for code in "90 a preloaded module failed to load" \
	    "91 the guest kernel panicked" \
	    "92 the guest did not finish within --timeout" \
	    "93 the results did not come back" "2  bad usage or setup" \
	    "the script's own status (0-255)" "but 94 when the script exited 0"; do
	"$QEMU_RUN" --help | grep -qF -- "$code" ||
		fail "--help does not document exit status '$code'"
done
"$QEMU_RUN" --help | grep -q -- '--icount\[=SPEC\]' || fail "--help does not document --icount"
"$QEMU_RUN" --help | grep -q -- '--arch A' || fail "--help does not document --arch"
exit 0
