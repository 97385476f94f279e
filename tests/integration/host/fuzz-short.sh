#!/bin/bash
# The short fuzz pass of make check: every libFuzzer target of
# tests/fuzz/ (under ASan, UBSan and LSan) runs every input of its corpus
# once, then mutates them for a fixed number of executions in all (few for
# the slow trace.dat reader), then runs each input of
# tests/fuzz/regressions/TARGET/ (each once found a crash, a leak or an
# out-of-memory: they stay fixed). Any finding fails: a sanitizer report,
# a leak tests/fuzz/lsan.supp does not name, a timeout, an out-of-memory,
# an artifact left by the trace.dat reader's probe child. The long runs
# are `make fuzz` (tests/fuzz/README.md).
. "$(dirname "$0")/../../lib.sh"
command -v clang >/dev/null || fail "clang is missing (scripts/install-deps)"
targets=$(ls "$TOP"/tests/fuzz/fuzz-*.c | sed 's|.*/fuzz-\(.*\)\.c|\1|')
[ "$(echo $targets | wc -w)" -ge 5 ] || fail "fewer fuzz targets than 5: $targets"
runs_of() { case $1 in tracedat) echo 400 ;; snapshot) echo 500 ;; json) echo 2000 ;; *) echo 4000 ;; esac; }
rc=0
for t in $targets; do
	"$TOP/tests/fuzz/run" -runs "$(runs_of "$t")" "$t" >"$TEST_TMP/$t" 2>&1 ||
		rc=$?
	cat "$TEST_TMP/$t"
	[ $rc = 0 ] || fail "$t: a finding or a failure (exit $rc): $(grep -E 'SUMMARY|ERROR|runtime error|findings' "$TEST_TMP/$t" | head -n 3)"
	n=$(ls "$TOP/tests/fuzz/corpus-$t" | wc -l)
	grep -q "^fuzz: $t: its corpus ($n inputs)" "$TEST_TMP/$t" ||
		fail "$t: not run on its corpus of $n inputs"
	# libFuzzer leaves empty files out of its seed corpus
	n=$(find "$TOP/tests/fuzz/corpus-$t" -type f -size +0 | wc -l)
	seeds=$(grep -o 'seed corpus: files: [0-9]*' "$TOP/build/fuzz/$t.log" |
		grep -o '[0-9]*$')
	[ "${seeds:-0}" -ge "$n" ] || fail "$t: $seeds seed inputs run, not $n"
	grep -q "^Done $(runs_of "$t") runs" "$TEST_TMP/$t" ||
		fail "$t: did not run its $(runs_of "$t") executions"
	r=$(ls "$TOP/tests/fuzz/regressions/$t" 2>/dev/null | wc -l)
	if [ "$r" -gt 0 ]; then
		ran=$(grep -c '^Running: ' "$TOP/build/fuzz/$t-regress.log")
		[ "$ran" = "$r" ] || fail "$t: $ran of its $r regression inputs run"
	fi
done
echo "ok: $(echo $targets | wc -w) targets"
