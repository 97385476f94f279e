#!/bin/bash
# The module's guest tests (tests/integration/guest/module-*.sh) on the
# ARM boards' kernels: Debian's arm64 and armhf (armmp) 6.1, the module
# and sa_test.ko cross-built by make module ARCH=all. qemu/run fails a
# boot whose log shows any splat. A test that runs this machine's
# programs in the guest (slabacct is built for it only) skips there and
# is listed;
# any other skip or failure fails the suite.
. "$(dirname "$0")/../../lib.sh"
tests=("$TOP"/tests/integration/guest/module-*.sh)
[ -f "${tests[0]}" ] || fail "no module tests in tests/integration/guest/"
failed=() ran=0
for flavour in 6.1-arm64 6.1-armmp; do
	krel=$("$TOP/scripts/kernels" --flavour "$flavour" | cut -d' ' -f1) ||
		fail "no $flavour kernel (scripts/install-deps)"
	[ -f "$TOP/build/kmod/$krel/slab_account.ko" ] ||
		fail "no module built for $krel (make module ARCH=all)"
	for t in "${tests[@]}"; do
		n=$(basename "$t" .sh)
		bash "$t" "$flavour" >"$TEST_TMP/$n@$flavour.log" 2>&1
		rc=$?
		if [ $rc = 0 ]; then
			note "$n: passed on $flavour"
			ran=$((ran + 1))
			continue
		fi
		if [ $rc = 4 ] && grep -q '^SKIP: this test runs programs of this machine in the guest' \
			"$TEST_TMP/$n@$flavour.log"; then
			note "$n: skipped on $flavour: $(grep -m1 '^SKIP: ' "$TEST_TMP/$n@$flavour.log" | cut -c7-)"
			continue
		fi
		echo "--- $n on $flavour exited $rc:" >&2
		tail -n 40 "$TEST_TMP/$n@$flavour.log" >&2
		failed+=("$n@$flavour")
	done
done
[ ${#failed[@]} = 0 ] || fail "on the ARM guests: ${failed[*]}"
[ $ran -ge 6 ] || fail "only $ran module tests ran on the ARM guests"
note "$ran module tests passed on the ARM guests with no splat"
