#!/bin/bash
# Inputs that never end, or are far larger than their format allows,
# and numbers that size memory: refused with a clear error, in bounded
# memory. account and diff read regular files only (/dev/zero,
# /dev/urandom, a FIFO are refused before a byte is read); a snapshot
# is read line by line within its format's bounds (a line of 1024 bytes,
# as many rows as the table has sites); report --interval refuses more
# than about a million timeline bins; every numeric option refuses NaN,
# infinities, negatives and overflows. The whole test runs under a 2 GB
# address-space limit, so a regression fails here instead of taking the
# machine's memory.
. "$(dirname "$0")/../../lib.sh"
[ -x "$SLABACCT" ] || fail "build/slabacct is missing (make all)"
ulimit -v $((2 * 1024 * 1024))

# run_in SECONDS WANT_RC PATTERN CMD...: exit WANT_RC within SECONDS,
# stderr matching PATTERN, peak RSS under 100 MB
run_in() {
	local secs=$1 want=$2 pat=$3 rc rss
	shift 3
	/usr/bin/time -f '%M' -o "$TEST_TMP/rss" timeout -k 5 "$secs" "$@" \
		>"$TEST_TMP/out" 2>"$TEST_TMP/err"
	rc=$?
	rss=$(tail -n 1 "$TEST_TMP/rss")
	[ "$rc" = "$want" ] || fail "'$*': exit $rc (want $want): $(head -c 300 "$TEST_TMP/err")"
	[ -z "$pat" ] || grep -Eq -- "$pat" "$TEST_TMP/err" ||
		fail "'$*': '$(head -c 300 "$TEST_TMP/err")' lacks /$pat/"
	[ "${rss:-0}" -lt 102400 ] || fail "'$*' took $rss KB"
	local c="$*"
	note "${c#"$SLABACCT "} -> exit $rc, $rss KB: $(head -n 1 "$TEST_TMP/err" | cut -c1-90)"
}

acct=$TOP/tests/data/slab_account/6.1.txt
trace=$TOP/tests/data/report/tc-6.12.dat
mkfifo "$TEST_TMP/fifo"
for f in /dev/zero /dev/urandom "$TEST_TMP/fifo"; do
	run_in 20 1 "$f: is a (character device|FIFO), not a regular file" \
		"$SLABACCT" account "$f"
	run_in 20 1 "$f: is a (character device|FIFO), not a regular file" \
		"$SLABACCT" diff "$acct" "$f"
	run_in 20 1 "$f: is a (character device|FIFO), not a regular file" \
		"$SLABACCT" diff "$f" "$trace"
	run_in 20 1 "$f: is a (character device|FIFO), not a regular file" \
		"$SLABACCT" report "$f"
done
run_in 20 1 "is a directory" "$SLABACCT" account "$TEST_TMP"
# /proc files are regular: read to their end
run_in 20 1 "/proc/self/status: line 1, column 1: not a /proc/slab_account" \
	"$SLABACCT" account /proc/self/status

# a regular file of 1 GB with no line end (sparse): the first line is
# too long, found within the first block
truncate -s 1G "$TEST_TMP/huge"
run_in 20 1 "line 1, .*longer than 1024 bytes" "$SLABACCT" account "$TEST_TMP/huge"
run_in 20 1 "line 1, .*longer than 1024 bytes" "$SLABACCT" diff "$TEST_TMP/huge" "$acct"
# a snapshot with more rows than its table has sites
{ sed 's/^sites: 8192$/sites: 4/' "$acct"; tail -n 1 "$acct"; } >"$TEST_TMP/rows"
run_in 20 1 "more rows than the 4 sites of the table" "$SLABACCT" account "$TEST_TMP/rows"
sed 's/^sites: 8192$/sites: 99999999999/' "$acct" >"$TEST_TMP/sites"
run_in 20 1 "sites: 99999999999 is more than a table can have" \
	"$SLABACCT" account "$TEST_TMP/sites"
# a snapshot file of another machine's /proc: only files are read
run_in 20 0 "" "$SLABACCT" account "$acct"

# --interval: one bin per nanosecond of a 2.5 s trace is refused early
zcat "$TOP/tests/data/report-mm/6.1.dat.gz" >"$TEST_TMP/t.dat"
run_in 60 1 "more than 1048576 bins of --interval 1 ns" \
	"$SLABACCT" report --what timeline --interval 1ns "$TEST_TMP/t.dat"
run_in 60 0 "" "$SLABACCT" report --what timeline --interval 10us "$TEST_TMP/t.dat"
grep -c '^ *[0-9]*\.[0-9]* ' "$TEST_TMP/out" >/dev/null || fail "no timeline bins"

# numbers: NaN, infinities, negatives, overflows, hex and sub-ns durations
for v in nan inf -inf 1e400 -1s 0 0x10 0.1ns 1e30s 10parsecs; do
	run_in 20 2 "bad --interval" "$SLABACCT" report --interval "$v" "$trace"
done
# OPTION VALUE [CMD ARGS...]: exit 2 naming the option
bad_number() {
	local opt=$1 val=$2
	shift 2
	run_in 20 2 "${opt#--}" "$SLABACCT" "$@" "$opt" "$val"
}
for o in --top --min-bytes --depth --width --threads; do
	bad_number "$o" -1 report "$trace"
done
bad_number --width 99999999999 report "$trace"
bad_number --min-bytes 99999999999999999999 report "$trace"
bad_number --top -1 diff "$trace" "$trace"
bad_number --top -1 merge "$trace"
bad_number --top -1 account "$TOP/tests/data/slab_account/6.1.txt"
bad_number --top 99999999999 report --format prometheus "$trace"
for v in nan inf -1; do
	bad_number --interval "$v" snapshot
	bad_number --delay "$v" top
	bad_number --duration "$v" record
done
bad_number --count -1 snapshot
bad_number --buffer-size 99999999 top
bad_number --buffer-size -1 record
bad_number --buffer-size -1 boot cmdline
bad_number --older -1 memleak
bad_number --max-allocs 99999999 memleak
bad_number --period -1 pmc
note "unbounded inputs and numbers refused"

# a counter above 2^63 - 1 (the snapshot's header): JSON saturates, as
# README says, instead of writing it as a negative number
sed 's/^bytes_alloc: .*/bytes_alloc: 18446744073709551615/' \
	"$TOP/tests/data/slab_account/6.1.txt" >"$TEST_TMP/huge.txt"
got=$("$SLABACCT" account --json "$TEST_TMP/huge.txt" |
	python3 -c 'import json, sys; print(json.load(sys.stdin)["bytes_alloc"])') ||
	fail "account --json of a snapshot with a 2^64 - 1 counter failed"
assert_eq "a 2^64 - 1 counter in JSON" 9223372036854775807 "$got"
