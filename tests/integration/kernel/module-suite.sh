#!/bin/bash
# The module's whole guest test suite (tests/integration/guest/module-*.sh)
# under the debug kernel: KASAN, lockdep, DEBUG_ATOMIC_SLEEP, SLUB debug.
# qemu/run fails a boot whose log shows any splat (exit 94), so a test
# passes only if the kernel's bug finders stayed quiet.
. "$(dirname "$0")/../../lib.sh"
. "$(dirname "$0")/kernel-lib.bash"

debug_kernel
# KASAN, lockdep and kmemleak under TCG run the guests several times
# slower than Debian's kernels: their hang guards (-t) are stretched
export SLABACCT_TIMEOUT_FACTOR=4
tests=("$TOP"/tests/integration/guest/module-*.sh)
[ -f "${tests[0]}" ] || fail "no module tests in tests/integration/guest/"
failed=()
for t in "${tests[@]}"; do
	n=$(basename "$t" .sh)
	bash "$t" "$KREL_DIR/bzImage" >"$TEST_TMP/$n.log" 2>&1
	rc=$?
	if [ $rc = 0 ]; then
		note "$n: passed under $(basename "$KREL_DIR")"
		continue
	fi
	# a skip is not a pass: the suite must run whole under this kernel
	echo "--- $n exited $rc:" >&2
	tail -n 40 "$TEST_TMP/$n.log" >&2
	failed+=("$n")
done
[ ${#failed[@]} = 0 ] || fail "under the debug kernel: ${failed[*]}"
note "${#tests[@]} module tests passed with no splat"
