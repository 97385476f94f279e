# Helpers for the referee tests of slabacct top (bash, sourced after
# tests/lib.sh; they need jq).

# top_equals_report TOP_JSONL REPORT_JSON: at every call site, the last
# snapshot of `top --json` has the allocations, bytes allocated and
# requested, frees and live bytes of `slabacct report --json` (frees and
# live bytes hold only if the events were fed in the same order); the
# recording lost nothing and has at least 5 call sites.
top_equals_report() {
	local top=$1 rep=$2 row
	row='"\(.kind) \(.site) \(.allocs) \(.bytes_alloc) \(.bytes_req) \(.frees) \(.live_bytes)"'
	assert_eq "events the recording lost" 0 \
		"$(jq '.lost.events + .lost.missed_in_buffer' "$rep")"
	jq -r ".sections.callsite.rows[] | $row" "$rep" |
		sort >"$TEST_TMP/rep.sites"
	tail -n 1 "$top" | jq -r ".sites[] | $row" | sort >"$TEST_TMP/top.sites"
	note "record: $(wc -l <"$TEST_TMP/rep.sites") call sites, allocations and bytes $(_top_total "$TEST_TMP/rep.sites")"
	note "top:    $(wc -l <"$TEST_TMP/top.sites") call sites, allocations and bytes $(_top_total "$TEST_TMP/top.sites")"
	[ "$(wc -l <"$TEST_TMP/rep.sites")" -ge 5 ] ||
		fail "the recording has too few call sites: $(cat "$TEST_TMP/rep.sites")"
	diff "$TEST_TMP/rep.sites" "$TEST_TMP/top.sites" >"$TEST_TMP/sites.diff" ||
		fail "top's totals differ from the recording's (< record, > top):
$(head -n 20 "$TEST_TMP/sites.diff")"
	note "top's allocations, bytes, frees and live bytes equal the recording's at every call site"
}

_top_total() { awk '{ a += $3; b += $4 } END { print a + 0, b + 0 }' "$1"; }

# top_lost_nothing NAME JSONL: no interval of `top --json` lost an event,
# and the intervals' losses add up to the total
top_lost_nothing() {
	local name=$1 f=$2 lost worst total
	lost=$(jq -s 'map(.lost.interval) | add' "$f")
	worst=$(jq -s 'map(.lost.interval) | max' "$f")
	total=$(tail -n 1 "$f" | jq .lost.total)
	note "top $name: $(wc -l <"$f") intervals, at most $worst events lost in one"
	note "top $name: ms, events lost, allocations/s of each interval: $(jq -r '"\(.interval_ms) \(.lost.interval) \(.totals.allocs_per_s)"' "$f" | paste -sd,)"
	assert_eq "top $name: events lost, the intervals' sum and the total" \
		"$total" "$lost"
	assert_eq "top $name: events lost" 0 "$total"
}
