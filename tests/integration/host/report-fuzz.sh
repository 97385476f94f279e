#!/bin/bash
# A short fuzz run of the report's readers (the trace.dat reader and the
# /proc/slab_account parser) on their corpora in tests/fuzz/: any crash
# fails. The long sessions are `make fuzz` (tests/fuzz/README.md).
. "$(dirname "$0")/../../lib.sh"
command -v clang >/dev/null || fail "clang is missing (scripts/install-deps)"
out=$TOP/build/fuzz
rm -f "$out"/tracedat-crash-* "$out"/account-crash-* \
	"$out"/tracedat-leak-* "$out"/account-leak-*
"$TOP/tests/fuzz/run" "${FUZZ_SMOKE_SECS:-20}" >"$TEST_TMP/log" 2>&1 ||
	fail "tests/fuzz/run failed: $(tail -n 20 "$TEST_TMP/log")"
cat "$TEST_TMP/log"
crashes=$(ls "$out"/*-crash-* "$out"/*-timeout-* "$out"/*-oom-* 2>/dev/null)
[ -z "$crashes" ] || fail "fuzzing found: $crashes"
grep -q 'Done [0-9]* runs' "$TEST_TMP/log" || fail "the fuzzers did not run"
