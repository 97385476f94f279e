#!/bin/bash
# The module's whole guest test suite (tests/integration/guest/module-*.sh)
# under Debian's PREEMPT_RT 6.1 kernel (linux-image-rt-amd64), which
# embedded systems often run: there spinlocks sleep, most interrupt
# handlers run in threads, and the probes still run with preemption off
# inside the tracepoints. qemu/run fails a boot whose log shows any splat
# ("sleeping function called from invalid context" among them), so a
# test passes only if the kernel stayed quiet. A skip is a failure here:
# the suite must run whole.
. "$(dirname "$0")/../../lib.sh"
flavour=6.1-rt
krel=$("$TOP/scripts/kernels" --flavour $flavour | cut -d' ' -f1) ||
	fail "no $flavour kernel (scripts/install-deps --arm)"
[ -f "$TOP/build/kmod/$krel/slab_account.ko" ] ||
	fail "no module built for $krel (make module)"
grep -q '^CONFIG_PREEMPT_RT=y' "/boot/config-$krel" ||
	fail "$krel is not a PREEMPT_RT kernel"
tests=("$TOP"/tests/integration/guest/module-*.sh)
[ -f "${tests[0]}" ] || fail "no module tests in tests/integration/guest/"
failed=()
for t in "${tests[@]}"; do
	n=$(basename "$t" .sh)
	bash "$t" $flavour >"$TEST_TMP/$n.log" 2>&1
	rc=$?
	if [ $rc = 0 ]; then
		note "$n: passed under $krel"
		continue
	fi
	echo "--- $n exited $rc:" >&2
	tail -n 40 "$TEST_TMP/$n.log" >&2
	failed+=("$n")
done
[ ${#failed[@]} = 0 ] || fail "under PREEMPT_RT: ${failed[*]}"
note "${#tests[@]} module tests passed under $krel with no splat"
