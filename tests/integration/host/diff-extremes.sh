#!/bin/bash
# slabacct diff at the extremes of its counters: a call site that grows
# from 1000 bytes to near 2^64 (as a /proc/slab_account snapshot may
# claim) shows a growth of about 16 EiB in every format, never a
# wrapped negative number; the sums of rows that merge saturate.
. "$(dirname "$0")/../../lib.sh"
[ -x "$SLABACCT" ] || fail "build/slabacct is missing (make all)"

# account ROWS...: a /proc/slab_account snapshot with these rows
account() {
	local f=$1
	shift
	{
		echo "# slab_account 2"
		for k in sort:total top:0 sites:8192 objects:262144 \
			 cache_slot_size:exact bytes_alloc:0 bytes_req:0 \
			 slack:0 live_bytes:0 live_req:0 live_objects:0 \
			 allocs:0 frees:0 callers:0 dropped:0 \
			 untracked_frees:0 map_full:0 lost_frees:0 \
			 kmalloc_allocs:0 kmalloc_bytes_alloc:0 \
			 kmalloc_bytes_req:0 kmalloc_slack:0 cache_allocs:0 \
			 cache_bytes_alloc:0 cache_bytes_req:0 cache_slack:0; do
			echo "${k%%:*}: ${k#*:}"
		done
		echo "pages_alloc: 0"
		echo "pages_free: 0"
		echo "#    total     slack        req       live    objs        allocs/frees kind    caller"
		printf '%s\n' "$@"
	} >"$f"
}
max=18446744073709551615
near=18446744073709551000		# near 2^64
account "$TEST_TMP/a" "1000 0 1000 0 0 1/0 kmalloc grows+0x1/0x10" \
	"$near 0 $near 0 0 $near/0 kmalloc shrinks+0x1/0x10"
account "$TEST_TMP/b" "$near 0 $near 0 0 $near/0 kmalloc grows+0x1/0x10" \
	"1000 0 1000 0 0 1/0 kmalloc shrinks+0x1/0x10"

"$SLABACCT" diff "$TEST_TMP/a" "$TEST_TMP/b" >"$TEST_TMP/text" ||
	fail "diff failed"
cat "$TEST_TMP/text"
grep -E '^ *\+16\.0E .* grows\+0x1' "$TEST_TMP/text" >/dev/null ||
	fail "text: the growth of 'grows' is not +16E"
grep -E '^ *-16\.0E .* shrinks\+0x1' "$TEST_TMP/text" >/dev/null ||
	fail "text: the shrinkage of 'shrinks' is not -16E"

# CSV: exact, with the sign
"$SLABACCT" diff --csv "$TEST_TMP/a" "$TEST_TMP/b" >"$TEST_TMP/csv" ||
	fail "diff --csv failed"
assert_eq "CSV d_bytes of grows" "18446744073709550000" \
	"$(awk -F, '$2 ~ /^grows/ { print $5 }' "$TEST_TMP/csv")"
assert_eq "CSV d_bytes of shrinks" "-18446744073709550000" \
	"$(awk -F, '$2 ~ /^shrinks/ { print $5 }' "$TEST_TMP/csv")"
assert_eq "CSV b_allocs of grows" "$near" \
	"$(awk -F, '$2 ~ /^grows/ { print $16 }' "$TEST_TMP/csv")"

# JSON: saturated at the largest integer JSON can carry here, signed
"$SLABACCT" diff --json "$TEST_TMP/a" "$TEST_TMP/b" >"$TEST_TMP/json" ||
	fail "diff --json failed"
# (read with python: jq turns integers this large into doubles)
jrow() {
	python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
r = [r for r in d["rows"] if r["site"].startswith(sys.argv[2])][0]
print(r[sys.argv[3]] if sys.argv[4] == "-" else r[sys.argv[3]][sys.argv[4]])' \
		"$TEST_TMP/json" "$@"
}
assert_eq "JSON d_bytes of grows" 9223372036854775807 "$(jrow grows d_bytes -)"
assert_eq "JSON d_bytes of shrinks" -9223372036854775807 \
	"$(jrow shrinks d_bytes -)"
assert_eq "JSON b.bytes_alloc of grows" 9223372036854775807 \
	"$(jrow grows b bytes_alloc)"

# --by function merges rows: their sum saturates at 2^64 - 1
account "$TEST_TMP/c" "$near 0 $near 0 0 1/0 kmalloc f+0x1/0x10" \
	"$near 0 $near 0 0 1/0 kmalloc f+0x2/0x10"
"$SLABACCT" diff --csv --by function "$TEST_TMP/a" "$TEST_TMP/c" \
	>"$TEST_TMP/csv2" || fail "diff --by function failed"
assert_eq "merged rows: saturated b_bytes_alloc" "$max" \
	"$(awk -F, '$2 == "f" { print $18 }' "$TEST_TMP/csv2")"
note "diff extremes: exact in CSV, saturated in JSON, +-16E in text"
