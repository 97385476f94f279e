#!/bin/bash
# The report's paths under ASan and UBSan (UBSan fatal): build/asan/slabacct
# (`make asan`). report in every format (text, JSON, CSV, account, HTML)
# with every section, on the fast path and through libtracecmd, of the
# golden traces (tests/data/report, tests/data/report-mm, tests/data/tracedat);
# diff of them, and of /proc/slab_account and /proc/allocinfo snapshots,
# in every format, the extremes of diff's counters (near 2^64) included;
# account; and report
# of every input of the trace.dat fuzz corpus, diff of every input of the
# account corpus. A sanitizer report or a crash fails; on the corpora a
# clean refusal (exit 1) is as good as a report.
. "$(dirname "$0")/../../lib.sh"
command -v clang >/dev/null || fail "clang is missing (scripts/install-deps)"
make -s -C "$TOP" build/asan/slabacct >"$TEST_TMP/build.log" 2>&1 ||
	fail "make build/asan/slabacct failed: $(tail -n 5 "$TEST_TMP/build.log")"
asan=$TOP/build/asan/slabacct
export ASAN_OPTIONS=detect_leaks=0:allocator_may_return_null=1:quarantine_size_mb=16:exitcode=86
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1:exitcode=87
runs=0

# san WANT CMD...: run the sanitized slabacct; WANT is 0, or 01 (0 or 1)
san() {
	local want=$1 rc
	shift
	"$asan" "$@" >"$TEST_TMP/out" 2>"$TEST_TMP/err"
	rc=$?
	runs=$((runs + 1))
	if grep -qE 'ERROR: AddressSanitizer|runtime error:|Sanitizer' "$TEST_TMP/err"; then
		grep -E -A 12 'ERROR|runtime error' "$TEST_TMP/err" | head -n 30
		fail "a sanitizer report: slabacct $*"
	fi
	case "$want:$rc" in
	0:0 | 01:0 | 01:1) ;;
	*) fail "slabacct $* exited $rc (want $want): $(head -c 300 "$TEST_TMP/err")" ;;
	esac
}

traces=("$TOP"/tests/data/report/*.dat "$TOP/tests/data/tracedat/small.dat"
	"$TOP"/tests/data/report/areas/*.dat)
for gz in "$TOP"/tests/data/report-mm/*.dat.gz; do
	zcat "$gz" >"$TEST_TMP/$(basename "$gz" .gz)"
	traces+=("$TEST_TMP/$(basename "$gz" .gz)")
done
for t in "${traces[@]}"; do
	for f in text json csv account; do
		san 0 report --what all --objects -v --format $f "$t"
	done
	san 0 report --what all --objects --libtracecmd "$t"
	san 0 report --what all --interval 1ms "$t"
	san 0 report --html "$TEST_TMP/page.html" "$t"
done
acct=("$TOP"/tests/data/slab_account/*.txt)
for f in text json csv; do
	san 0 diff --all --format $f "${traces[0]}" "${traces[1]}"
	san 0 diff --all --by function --format $f "${acct[0]}" "${acct[1]}"
	san 0 diff --format $f "${traces[2]}" "${acct[0]}"
done
for a in "${acct[@]}"; do
	san 0 account "$a"
	san 0 account --json "$a"
	san 0 report --format csv "$a"
done

# diff's extremes: counters near 2^64 and near the gint64 limits
{
	sed -n '1,/^#  *total/p' "${acct[0]}"
	echo "18446744073709551000 0 18446744073709551000 9223372036854775807 9223372036854775807 18446744073709551000/18446744073709551000 kmalloc f+0x1/0x10"
	echo "18446744073709551000 0 18446744073709551000 -9223372036854775807 -9223372036854775807 1/0 kmalloc f+0x2/0x10"
} >"$TEST_TMP/big"
for f in text json csv; do
	san 0 diff --all --format $f "${acct[0]}" "$TEST_TMP/big"
	san 0 diff --all --by function --format $f "$TEST_TMP/big" "${acct[0]}"
done
# /proc/allocinfo captures: report, diff and account in every format
for a in "$TOP"/tests/data/allocinfo/*.txt; do
	for f in text json csv; do
		san 0 report --format $f "$a"
	done
	san 0 report --html "$TEST_TMP/page.html" "$a"
	for f in text json csv html; do
		san 0 diff --all --format $f "$a" "$a"
		san 0 diff --by function --format $f "$a" "$a"
	done
	san 0 account --json "$a"
	san 0 account "$a"
done
note "golden traces and snapshots: $runs runs, no sanitizer report"

# the corpora: any exit 0 or 1, no sanitizer report
for f in "$TOP"/tests/fuzz/corpus-tracedat/*; do
	san 01 report --what all "$f"
done
for f in "$TOP"/tests/fuzz/corpus-account/*; do
	san 01 diff --csv "${acct[0]}" "$f"
done
note "$runs runs under ASan and UBSan, the fuzz corpora included: no report"
