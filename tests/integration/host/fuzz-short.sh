#!/bin/bash
# Both fuzz targets of the report's readers (the trace.dat reader and the
# /proc/slab_account parser), under ASan and UBSan: every input of their
# corpora in tests/fuzz/ once, then a few seconds of fuzzing each. A
# sanitizer report, a UBSan error, a crash, a hang or a memory blow-up of
# the fuzzed process fails. (Artifacts that the report's probe child
# leaves when libtracecmd fails on an input are not findings: the child's
# death is how the report learns of the damage.) The long sessions are
# `make fuzz` (tests/fuzz/README.md).
. "$(dirname "$0")/../../lib.sh"
command -v clang >/dev/null || fail "clang is missing (scripts/install-deps)"
"$TOP/tests/fuzz/run" "${FUZZ_SMOKE_SECS:-10}" >"$TEST_TMP/log" 2>&1
rc=$?
cat "$TEST_TMP/log"
[ $rc = 0 ] || fail "the fuzzed process failed (exit $rc): $(grep -E 'SUMMARY|ERROR|runtime error' "$TEST_TMP/log" | head -n 3)"
for t in tracedat account; do
	n=$(ls "$TOP/tests/fuzz/corpus-$t" | wc -l)
	grep -q "^fuzz: $t: its corpus ($n inputs)" "$TEST_TMP/log" ||
		fail "$t: not run on its corpus of $n inputs"
	# libFuzzer leaves empty files out of its seed corpus
	n=$(find "$TOP/tests/fuzz/corpus-$t" -type f -size +0 | wc -l)
	seeds=$(grep -o 'seed corpus: files: [0-9]*' "$TOP/build/fuzz/$t.log" |
		grep -o '[0-9]*$')
	[ "${seeds:-0}" -ge "$n" ] || fail "$t: $seeds seed inputs run, not $n"
done
[ "$(grep -c '^Done [0-9]* runs' "$TEST_TMP/log")" = 2 ] ||
	fail "both fuzzers did not run to their end"
