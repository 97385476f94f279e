#!/bin/bash
# Traces from any machine, read on this one: 32-bit and 64-bit, little-
# and big-endian trace.dat files report the same figures.
# - tests/data/foreign/tc-armhf.dat, trace-cmd's recording on a 32-bit
#   ARM kernel (4-byte longs and commit fields), and its copy converted by
#   this machine's trace-cmd (convert to version 7 and back to 6), whose
#   header says 8 bytes per long while its pages keep their 4-byte commit
#   fields: both must report identically in every format;
# - no big-endian guest is at hand, so tracedat-swap.py makes the
#   big-endian twin of the 64-bit x86-64 trace (tests/data/report/
#   tc-6.1.dat) and of the 32-bit one; trace-cmd must decode each twin
#   as it decodes its original (a check of the converter), and
#   slabacct's report of each twin must equal a recount of trace-cmd's
#   decoding of it (tc-recount.py, referee-check.py) and its own report
#   of the little-endian original.
. "$(dirname "$0")/../../lib.sh"
for t in trace-cmd python3; do
	command -v $t >/dev/null || fail "$t is not installed (scripts/install-deps)"
done
[ -x "$SLABACCT" ] || fail "build/slabacct is missing (make all)"
data=$TOP/tests/data
swap=$TOP/tests/integration/tracedat-swap.py
cd "$TEST_TMP" || fail "no workspace"

# long_byte FILE: the long-size byte of a version 6 header
long_byte() { od -An -tu1 -j13 -N1 "$1" | tr -d ' '; }
# endian_byte FILE
endian_byte() { od -An -tu1 -j12 -N1 "$1" | tr -d ' '; }

# same_reports A B WHAT: slabacct reports A and B alike in text, JSON
# and CSV, but for the file's name
same_reports() {
	local a=$1 b=$2 what=$3 fmt
	for fmt in "" --json --csv; do
		# shellcheck disable=SC2086
		"$SLABACCT" report --what all $fmt "$a" 2>"$a.err" |
			sed "s|$a|FILE|g" >"$a.out$fmt" ||
			fail "report $fmt $a: $(cat "$a.err")"
		# shellcheck disable=SC2086
		"$SLABACCT" report --what all $fmt "$b" 2>"$b.err" |
			sed "s|$b|FILE|g" >"$b.out$fmt" ||
			fail "report $fmt $b: $(cat "$b.err")"
		diff -u "$a.out$fmt" "$b.out$fmt" >&2 ||
			fail "$what: the reports ${fmt:-(text)} differ"
	done
	note "$what: the same report in text, JSON and CSV"
}

# referee FILE WHAT: slabacct's figures equal trace-cmd's decoding
referee() {
	trace-cmd report "$1" >"$1.tc" 2>"$1.tc-err" ||
		fail "$2: trace-cmd report failed: $(head -n 3 "$1.tc-err")"
	python3 "$TOP/tests/integration/tc-recount.py" <"$1.tc" >"$1.recount" ||
		fail "$2: trace-cmd recount failed"
	"$SLABACCT" report --what all --json "$1" >"$1.json" ||
		fail "$2: slabacct report --json failed"
	python3 "$TOP/tests/integration/referee-check.py" "$1.json" \
		"$1.recount" --no-repeats --no-pages ||
		fail "$2: slabacct report differs from trace-cmd's decoding"
	note "$2: every call-site figure equals trace-cmd's"
}

# 32-bit: the board's file and this machine's conversion of it
cp "$data/foreign/tc-armhf.dat" armhf.dat
assert_eq "tc-armhf.dat: long size in its header" 4 "$(long_byte armhf.dat)"
trace-cmd convert --file-version 7 -i armhf.dat -o armhf-v7.dat >/dev/null 2>&1 &&
	trace-cmd convert --file-version 6 -i armhf-v7.dat -o armhf-x86.dat \
		>/dev/null 2>&1 || fail "trace-cmd convert failed"
assert_eq "converted here: long size in its header" 8 "$(long_byte armhf-x86.dat)"
trace-cmd dump --head-page armhf-x86.dat 2>/dev/null |
	grep -q 'commit;.*size:4;' || fail "the converted file's header_page lost its 4-byte commit"
referee armhf.dat "32-bit trace"
referee armhf-x86.dat "32-bit trace converted on x86-64"
same_reports armhf.dat armhf-x86.dat "32-bit trace and its x86-64 conversion"

# big endian: 64-bit and 32-bit twins
cp "$data/report/tc-6.1.dat" le64.dat
for le in le64 armhf; do
	be=${le}-be
	python3 "$swap" $le.dat $be.dat || fail "tracedat-swap $le.dat failed"
	assert_eq "$be.dat: endian byte" 1 "$(endian_byte $be.dat)"
	trace-cmd report $le.dat >$le.tc-text 2>&1
	trace-cmd report $be.dat >$be.tc-text 2>&1
	[ "$(wc -l <$le.tc-text)" -gt 100 ] || fail "trace-cmd decoded little of $le.dat"
	diff -q $le.tc-text $be.tc-text >/dev/null ||
		fail "trace-cmd decodes $be.dat unlike $le.dat (the converter is wrong)"
	note "$be: trace-cmd decodes it as the little-endian original"
	referee $be.dat "big-endian $le"
	same_reports $le.dat $be.dat "little- and big-endian $le"
done
exit 0
