#!/bin/bash
# /proc/allocinfo, /proc/slab_account and a trace of the same guest, side
# by side, on the custom 6.12 kernel with the kernel's allocation
# profiling (scripts/allocinfo-kernel). sa_test.ko makes N kmalloc(S)
# (M freed), CN allocations from its own cache (CM freed) and LN large
# kmallocs of 3 pages (LM freed) while slab_account.ko is loaded and
# `slabacct record` traces the guest. For the three call sites of that
# load, what the three have in common must be equal, and equal to the
# known load:
#   - live allocations: allocinfo's calls = the module's objs = the
#     trace's live objects = N - M, CN - CM, LN - LM;
#   - live bytes: allocinfo's size = the module's live = the trace's
#     live bytes = the count times the slot (the kmalloc size class, the
#     cache's slab_size, 16 KB for 3 pages: order 2), since allocinfo
#     counts a slab object at its cache's object size and pages by order.
# allocinfo is read raw (awk on the kernel's text) and through slabacct
# (report --csv, account --json, diff of the snapshots before and after
# the load, and after its free), which must read it the same. The module
# and the trace must also agree on what allocinfo does not have: the
# allocations, frees, and bytes requested and allocated since the load.
# What allocinfo sees that the others do not is checked too: sa_test's
# kvcalloc() of its pointer arrays counted at sa_test's own functions,
# where the module and the trace see only __kvmalloc_node_noprof.
. "$(dirname "$0")/../../lib.sh"
. "$(dirname "$0")/kernel-lib.bash"

allocinfo_kernel
N=1000 S=100 M=300 CN=500 CM=200 LN=50 LM=20

allocinfo_guest_run <<GUEST
insmod \$MODDIR/slab_account.ko
insmod \$MODDIR/sa_test.ko
cat /proc/allocinfo >\$OUT/allocinfo.before
load='echo kmalloc $N $S $M > /proc/sa_test; echo cache $CN $S $CM > /proc/sa_test; echo large $LN $LM > /proc/sa_test'
slabacct record -o \$OUT/trace.dat -- sh -c "\$load" >\$OUT/record.log 2>&1
cat /proc/allocinfo >\$OUT/allocinfo.after
cat /proc/slab_account >\$OUT/account
cat /proc/sa_test >\$OUT/sa_test
cat /sys/kernel/slab/sa_test_cache/slab_size >\$OUT/slab_size
cat /sys/kernel/slab/kmalloc-8k/slab_size >\$OUT/slot_8k
echo free > /proc/sa_test
cat /proc/allocinfo >\$OUT/allocinfo.freed
rmmod sa_test
rmmod slab_account
GUEST
o=$TEST_TMP/out
ksize=$(sed -n 's/^kmalloc_ksize: //p' "$o/sa_test")
lsize=$(sed -n 's/^large_size: //p' "$o/sa_test")
lksize=$(sed -n 's/^large_ksize: //p' "$o/sa_test")
slot=$(cat "$o/slab_size")
slot8k=$(cat "$o/slot_8k")
[ -n "$ksize" ] && [ -n "$slot" ] && [ -n "$lksize" ] && [ -n "$slot8k" ] ||
	fail "sa_test did not report its sizes"
note "kmalloc($S) slot $ksize, sa_test_cache slot $slot, kmalloc($lsize)" \
	"$lksize bytes, kvcalloc($N, 8) slot $slot8k"

# raw FILE FUNC: "calls bytes" of sa_test's function FUNC in an allocinfo
# file, summed over its tags, as the kernel wrote them (no slabacct)
raw() {
	awk -v f="func:$2" '$4 == "[sa_test]" && $5 == f { b += $1; c += $2; n++ }
		END { if (!n) { print "none"; exit } print c, b }' "$1"
}
# The kernel's own text: the load's sites, before, after and freed
for fn in sa_test_kmalloc_loop sa_test_cache_loop sa_test_large_loop; do
	assert_eq "allocinfo before the load: $fn" "0 0" "$(raw "$o/allocinfo.before" $fn)"
	assert_eq "allocinfo after the free: $fn" "0 0" "$(raw "$o/allocinfo.freed" $fn)"
done
want_k="$((N - M)) $(((N - M) * ksize))"
want_c="$((CN - CM)) $(((CN - CM) * slot))"
want_l="$((LN - LM)) $(((LN - LM) * lksize))"
assert_eq "allocinfo: sa_test_kmalloc_loop live calls, bytes" "$want_k" \
	"$(raw "$o/allocinfo.after" sa_test_kmalloc_loop)"
assert_eq "allocinfo: sa_test_cache_loop live calls, bytes" "$want_c" \
	"$(raw "$o/allocinfo.after" sa_test_cache_loop)"
assert_eq "allocinfo: sa_test_large_loop live calls, bytes" "$want_l" \
	"$(raw "$o/allocinfo.after" sa_test_large_loop)"

# The module: "objs live allocs frees total req" of its row for FUNC
module_row() {
	awk -v f="$1" 'index($8, f "+") == 1 && $NF == "[sa_test]" {
		split($6, af, "/"); print $5, $4, af[1], af[2], $1, $3; n++ }
		END { if (n != 1) print n + 0, "rows" }' "$o/account"
}
assert_eq "module: sa_test_kmalloc_loop" "$want_k $N $M $((N * ksize)) $((N * S))" \
	"$(module_row sa_test_kmalloc_loop)"
assert_eq "module: sa_test_cache_loop" "$want_c $CN $CM $((CN * slot)) $((CN * S))" \
	"$(module_row sa_test_cache_loop)"
assert_eq "module: sa_test_large_loop" "$want_l $LN $LM $((LN * lksize)) $((LN * lsize))" \
	"$(module_row sa_test_large_loop)"

# The trace, reported here: the same columns of its call-site rows
"$SLABACCT" report --csv "$o/trace.dat" >"$TEST_TMP/trace.csv" ||
	fail "slabacct report of the guest's trace failed"
grep -q '^# lost_events: 0$' "$TEST_TMP/trace.csv" || fail "the recording lost events"
# csv_rows CSV FIELD...: the callsite rows of sa_test's module, "function
# FIELD..." per row, sorted
csv_rows() {
	python3 - "$@" <<'PY'
import csv, sys
path, fields = sys.argv[1], sys.argv[2:]
lines = [l for l in open(path) if not l.startswith('#')]
rows = list(csv.reader(lines))
head = next(r for r in rows if r[:2] == ['callsite', 'kind'])
out = []
for r in rows:
    if r and r[0] == 'callsite' and r != head:
        d = dict(zip(head, r))
        out.append(' '.join([d['function']] + [d[f] for f in fields]))
print('\n'.join(sorted(out)))
PY
}
csv_rows "$TEST_TMP/trace.csv" module live live_bytes allocs frees bytes_alloc bytes_req |
	awk '$2 == "sa_test"' >"$TEST_TMP/trace.rows"
trace_row() { awk -v f="$1" '$1 == f { $1 = ""; $2 = ""; print substr($0, 3) }' "$TEST_TMP/trace.rows"; }
assert_eq "trace: sa_test_kmalloc_loop" "$want_k $N $M $((N * ksize)) $((N * S))" \
	"$(trace_row sa_test_kmalloc_loop)"
assert_eq "trace: sa_test_cache_loop" "$want_c $CN $CM $((CN * slot)) $((CN * S))" \
	"$(trace_row sa_test_cache_loop)"
assert_eq "trace: sa_test_large_loop" "$want_l $LN $LM $((LN * lksize)) $((LN * lsize))" \
	"$(trace_row sa_test_large_loop)"

# slabacct's reading of allocinfo: the same as the raw text, for every
# site of the module (report --csv: one row per site, with file:line)
"$SLABACCT" report --csv "$o/allocinfo.after" >"$TEST_TMP/ai.csv" ||
	fail "slabacct report of /proc/allocinfo failed"
csv_rows "$TEST_TMP/ai.csv" module live live_bytes file line |
	awk '$2 == "sa_test" { print $1, $3, $4, $5, $6 }' | sort >"$TEST_TMP/ai.rows"
awk '$4 == "[sa_test]" && ($1 || $2) { f = substr($5, 6); loc = $3
		sub(/:[0-9]+$/, "", loc); line = substr($3, length(loc) + 2)
		print f, $2, $1, loc, line }' "$o/allocinfo.after" | sort >"$TEST_TMP/raw.rows"
assert_eq "slabacct report reads allocinfo as the kernel wrote it" \
	"$(cat "$TEST_TMP/raw.rows")" "$(cat "$TEST_TMP/ai.rows")"
"$SLABACCT" account --json "$o/allocinfo.after" |
	python3 -c '
import json, sys
a = json.load(sys.stdin)
for r in a["rows"]:
    if r["module"] == "sa_test" and (r["calls"] or r["bytes"]):
        print(r["function"], r["calls"], r["bytes"], r["file"], r["line"])
' | sort >"$TEST_TMP/acct.rows"
assert_eq "slabacct account --json reads allocinfo as the kernel wrote it" \
	"$(cat "$TEST_TMP/raw.rows")" "$(cat "$TEST_TMP/acct.rows")"

# diff of the snapshots: the load's sites new, then gone with the free
diff_rows() {
	"$SLABACCT" diff --json "$1" "$2" | python3 -c '
import json, sys
d = json.load(sys.stdin)
for r in d["rows"]:
    if r["site"].endswith(" [sa_test]") and r["site"].split()[0] in (
            "sa_test_kmalloc_loop", "sa_test_cache_loop", "sa_test_large_loop"):
        print(r["site"].split()[0], r["status"], r["d_live"], r["d_live_bytes"])
' | sort
}
assert_eq "diff before after" \
	"sa_test_cache_loop new $want_c|sa_test_kmalloc_loop new $want_k|sa_test_large_loop new $want_l" \
	"$(diff_rows "$o/allocinfo.before" "$o/allocinfo.after" | paste -sd'|')"
assert_eq "diff after freed" \
	"sa_test_cache_loop gone -${want_c// / -}|sa_test_kmalloc_loop gone -${want_k// / -}|sa_test_large_loop gone -${want_l// / -}" \
	"$(diff_rows "$o/allocinfo.after" "$o/allocinfo.freed" | paste -sd'|')"

# What allocinfo sees that the others do not: an allocation through a
# wrapper at its caller's line. sa_test_kmalloc()'s kvcalloc(N, 8) is
# one live allocation of the kmalloc-8k slot there; the module and the
# trace count it at __kvmalloc_node_noprof, with every other caller's.
assert_eq "allocinfo: sa_test_kmalloc's kvcalloc" "1 $slot8k" \
	"$(raw "$o/allocinfo.after" sa_test_kmalloc)"
[ "$(trace_row sa_test_kmalloc)" = "" ] ||
	fail "the trace has a row for sa_test_kmalloc: $(trace_row sa_test_kmalloc)"
grep -q '^callsite,kmalloc,__kvmalloc_node_noprof+' "$TEST_TMP/trace.csv" ||
	fail "the trace has no __kvmalloc_node_noprof row"
grep -q ' sa_test_kmalloc+' "$o/account" &&
	fail "the module has a row for sa_test_kmalloc"
grep -q ' __kvmalloc_node_noprof+' "$o/account" ||
	fail "the module has no __kvmalloc_node_noprof row"
note "allocinfo, the module and the trace agree on sa_test's live" \
	"allocations and bytes; the module and the trace on the rest"
