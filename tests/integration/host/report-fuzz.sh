#!/bin/bash
# A short fuzz run of the report's readers (the trace.dat reader and the
# /proc/slab_account parser) on their corpora in tests/fuzz/: a crash,
# hang or memory blow-up of the fuzzed process fails. (Artifacts that the
# report's probe child leaves when libtracecmd fails on an input are not
# findings: the child's death is how the report learns of the damage.)
# The long sessions are `make fuzz` (tests/fuzz/README.md).
. "$(dirname "$0")/../../lib.sh"
command -v clang >/dev/null || fail "clang is missing (scripts/install-deps)"
"$TOP/tests/fuzz/run" "${FUZZ_SMOKE_SECS:-20}" >"$TEST_TMP/log" 2>&1
rc=$?
cat "$TEST_TMP/log"
[ $rc = 0 ] || fail "the fuzzed process failed (exit $rc): $(grep -E 'SUMMARY|ERROR' "$TEST_TMP/log" | head -n 3)"
[ "$(grep -c '^Done [0-9]* runs' "$TEST_TMP/log")" = 2 ] ||
	fail "both fuzzers did not run to their end"
