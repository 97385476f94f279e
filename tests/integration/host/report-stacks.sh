# Kernel stacks and attribution through allocation wrappers, against an
# independent count: tests/integration/stack-referee.py pairs each
# allocation event of `trace-cmd report` with the <stack trace> printed
# after it and applies the wrapper rule itself. On the committed
# tests/data/report/wrappers-6.18.dat, and on recordings made here of a
# workload that allocates through wrappers (new namespaces: kobject
# names through kobject_set_name_vargs, mount's strndup_user), filtered
# by its command name so that other users of the machine do not matter:
# - --stacks=all: a stack after every event; every reader path reads
#   the same stacks; the report's "wrapper <- caller" rows equal the
#   referee's, exactly (allocations and bytes), and --wrapper extends
#   the set in both;
# - --stacks (wrappers): exactly one stack per allocation whose call
#   site is in a wrapper, and the same attribution;
# - --by wrapper keeps the wrappers' rows; errors of the options.
. "$(dirname "$0")/../../lib.sh"
command -v trace-cmd >/dev/null || fail "trace-cmd is not installed (scripts/install-deps)"
command -v python3 >/dev/null || fail "python3 is missing"
referee=$TOP/tests/integration/stack-referee.py

# compare FILE [--wrapper SYM...]: ours and the referee's agree
compare() {
	local f=$1 want got
	shift
	want=$(python3 "$referee" "$f" "${@/--wrapper/}") ||
		fail "the referee failed on $f"
	"$SLABACCT" report --json "$@" "$f" >"$TEST_TMP/r.json" ||
		fail "report $* $f failed"
	got=$(python3 "$TOP/tests/integration/stack-ours.py" "$TEST_TMP/r.json") ||
		fail "cannot read the report of $f"
	[ "$want" != "{}" ] || fail "$f: no allocation through a wrapper"
	assert_eq "$(basename "$f") $*: wrapper <- caller (allocs, bytes)" \
		"$want" "$got"
}

# The referee's own pairing, on trace-cmd report's text: an interrupt's
# kfree lies between a wrapper's kmalloc and that kmalloc's stack. The
# stack is the kmalloc's (its call site is among the frames), not the
# newest event's, which is what the referee took until a check-kernel
# run counted 15 of sa_wrap's 16 mempool allocations.
assert_eq "the referee, a stack after an interrupt's event" \
	'{"mempool_kmalloc <- sa_wrap_mempool": [1, 128]}' \
	"$(python3 "$referee" --report "$TOP/tests/data/report/stack-interrupted.txt")"
# ... and a softirq's RCU batch of 10 frees there, as trace-cmd printed
# it from a 6.12 recording whose report counted 10 of sa_wrap's 11
# kvmalloc allocations (the referee, looking 8 events back, counted 10
# too)
assert_eq "the referee, a stack after a softirq's 10 events" \
	'{"kvmalloc_node <- sa_wrap_kvmalloc": [1, 8192]}' \
	"$(python3 "$referee" --report "$TOP/tests/data/report/stack-softirq.txt")"

# ... and a loss between an allocation and the next stack: that stack
# may be a lost event's, so the allocation before the loss keeps none
# (the referee counted both allocations here before)
assert_eq "the referee, a stack after a loss" \
	'{"mempool_kmalloc <- sa_wrap_mempool": [1, 128]}' \
	"$(python3 "$referee" --report "$TOP/tests/data/report/stack-dropped.txt")"

compare "$TOP/tests/data/report/wrappers-6.18.dat"

# a recording where an interrupt's frees, each with its stack, lie
# between an allocation and its stack across the fast path's segment
# boundary: every reader attaches all of trace-cmd's stacks (the fast
# path lost one there before)
gunzip -c "$TOP/tests/data/report/stacks-segments.dat.gz" >"$TEST_TMP/seg.dat" ||
	fail "cannot unpack stacks-segments.dat.gz"
want=$(trace-cmd report "$TEST_TMP/seg.dat" 2>/dev/null | grep -c ' kernel_stack: ')
python3 - "$TEST_TMP/seg.dat" "$SLABACCT" "$want" <<'PY' ||
import json, subprocess, sys
f, sa, want = sys.argv[1], sys.argv[2], int(sys.argv[3])
def rep(*a):
    return json.loads(subprocess.run([sa, "report", "--json", *a, f],
                      check=True, capture_output=True).stdout)
one = rep("--threads", "1")
r = one["records"]
assert (r["stacks"], r["stacks_lost"]) == (want, 0), (r, want)
for a in (["--threads", "2"], ["--libtracecmd"], ["--libtracecmd", "--threads", "1"]):
    other = rep(*a)
    assert other["records"] == r, (a, other["records"], r)
    assert other["sections"] == one["sections"], a
PY
	fail "stacks-segments.dat: the readers do not attach trace-cmd's $want stacks"

# errors of the report's options
dat=$TOP/tests/data/report/wrappers-6.18.dat
for a in "--by nosuch" "--stack-depth 0" "--stack-depth 33" \
	 "--by cache --stack-depth 2" "--wrapper="; do
	# shellcheck disable=SC2086
	"$SLABACCT" report $a "$dat" >/dev/null 2>"$TEST_TMP/err"
	rc=$?
	[ $rc = 2 ] || fail "report $a exited $rc, expected 2"
	grep -q . "$TEST_TMP/err" || fail "report $a: no message"
done
"$SLABACCT" report --wrapper no_such_function_xyz "$dat" >"$TEST_TMP/o" ||
	fail "report --wrapper of an unknown function failed"
grep -q 'wrapper no_such_function_xyz: the trace.s kallsyms has no such' \
	"$TEST_TMP/o" || fail "no note on --wrapper of an unknown function"
"$SLABACCT" report --stack-depth 2 --json "$dat" | python3 -c '
import json, sys
c = json.load(sys.stdin)["sections"]["callsite"]
assert c["by"] == "stack", c["by"]
assert all(len(r["frames"]) <= 2 for r in c["rows"] if "frames" in r)' ||
	fail "--stack-depth 2 alone is not --by stack with 2 frames"

# every format shows the row; subsys and the treemap take the caller
"$SLABACCT" report --csv "$dat" | grep -q '^callsite,kmalloc,kobject_set_name_vargs <- dev_set_name+0x52,' ||
	fail "CSV: no 'kobject_set_name_vargs <- dev_set_name+0x52' row"
"$SLABACCT" report --html "$TEST_TMP/r.html" "$dat" || fail "--html failed"
grep -qF 'kobject_set_name_vargs \u003c- dev_set_name+0x52' "$TEST_TMP/r.html" ||
	fail "HTML: no 'kobject_set_name_vargs <- dev_set_name+0x52'"
"$SLABACCT" report --what subsys --width 0 "$dat" | grep -q 'vmlinux:dev_set_name' ||
	fail "subsys: the attributed row is not grouped by its caller"

# live recordings need root and tracefs
[ "$(id -u)" = 0 ] || skip "the recordings need root (the committed trace passed)"
[ -d /sys/kernel/tracing/events/ftrace/kernel_stack ] ||
	skip "no ftrace kernel_stack event here (the committed trace passed)"
unshare=$(command -v unshare) || fail "unshare is missing (util-linux)"
load=$TEST_TMP/sa-stk-load
cp "$unshare" "$load"
work="for i in 1 2 3 4 5; do $load -m -u -i -n true; done"
$load -m -u -i -n true ||
	skip "cannot create namespaces here (the committed trace passed)"

"$SLABACCT" record --stacks=all --no-snapshot --comm sa-stk-load \
	-o "$TEST_TMP/all.dat" -- sh -c "$work" >"$TEST_TMP/all.out" 2>&1 ||
	fail "record --stacks=all failed: $(cat "$TEST_TMP/all.out")"
grep -q 'ftrace:kernel_stack' "$TEST_TMP/all.out" ||
	fail "record --stacks=all does not count the stacks"
compare "$TEST_TMP/all.dat"
compare "$TEST_TMP/all.dat" --wrapper kobject_init_and_add --wrapper dev_set_name
# a full buffer: events and stacks lost while four loads run at once.
# The referee never pairs a stack with an event from before its CPU's
# loss, and neither may the report: the rows stay the same.
burst="for j in 1 2 3 4; do (for i in 1 2 3 4 5 6 7 8; do $load -m -u -i -n true; done) & done; wait"
"$SLABACCT" record --stacks=all --no-snapshot --comm sa-stk-load -b 8 \
	-o "$TEST_TMP/lossy.dat" -- sh -c "$burst" >"$TEST_TMP/lossy.out" 2>&1 ||
	fail "record --stacks=all -b 8 failed: $(tail -n 3 "$TEST_TMP/lossy.out")"
compare "$TEST_TMP/lossy.dat"
lost=$(jq .lost.events "$TEST_TMP/r.json")
[ "$lost" -gt 0 ] 2>/dev/null || fail "no events lost with an 8 KB buffer ($lost)"
"$SLABACCT" report "$TEST_TMP/lossy.dat" 2>/dev/null | grep -q "^# lost events: $lost " ||
	fail "the text report does not say $lost events were lost"
note "a full buffer: $lost events lost, every wrapper row as the referee's"
# every record is an event or its stack; all read the same stacks
python3 - "$TEST_TMP/all.dat" "$SLABACCT" <<'PY' || fail "stacks of every reader"
import json, subprocess, sys
f, sa = sys.argv[1:]
def rep(*a):
    return json.loads(subprocess.run([sa, "report", "--json", *a, f],
                      check=True, capture_output=True).stdout)
one = rep("--threads", "1")
r = one["records"]
assert r["stacks"] > 0 and r["stacks_lost"] <= 2, r
for a in (["--threads", "2"], ["--libtracecmd"]):
    other = rep(*a)
    assert other["records"] == r, (a, other["records"], r)
    assert other["sections"] == one["sections"], a
PY
# --by wrapper: the wrappers' own rows, the same allocations
python3 - "$TEST_TMP/all.dat" "$SLABACCT" <<'PY' || fail "--by wrapper"
import json, subprocess, sys
f, sa = sys.argv[1:]
def rows(*a):
    out = subprocess.run([sa, "report", "--json", *a, f], check=True,
                         capture_output=True).stdout
    return json.loads(out)["sections"]["callsite"]["rows"]
by_caller, by_wrapper = rows(), rows("--by", "wrapper")
assert not [r for r in by_wrapper if "via" in r]
assert sum(r["allocs"] for r in by_caller) == \
    sum(r["allocs"] for r in by_wrapper)
for w in {r["via"] for r in by_caller if "via" in r}:
    a = sum(r["allocs"] for r in by_caller if r.get("via") == w)
    b = sum(r["allocs"] for r in by_wrapper
            if r["function"].lstrip("_").replace("_noprof", "") == w
            and not r.get("via"))
    assert a <= b, (w, a, b)
PY

# --stacks: one stack per allocation at a wrapper's call site, no more
"$SLABACCT" record --stacks --no-snapshot --comm sa-stk-load \
	-o "$TEST_TMP/w.dat" -- sh -c "$work" >"$TEST_TMP/w.out" 2>&1 ||
	fail "record --stacks failed: $(cat "$TEST_TMP/w.out")"
compare "$TEST_TMP/w.dat"
# stacks, allocations at a wrapper's call site, page allocations
count() {
	trace-cmd report "$1" 2>/dev/null | python3 -c '
import re, sys
sys.path.insert(0, sys.argv[1])
W = {"kstrdup", "kstrdup_const", "kstrndup", "kstrdup_quotable", "kmemdup",
     "kmemdup_nul", "kmemdup_array", "kvmemdup", "kvasprintf",
     "kvasprintf_const", "kasprintf", "krealloc", "kvrealloc", "kvmalloc",
     "kvmalloc_node", "memdup_user", "vmemdup_user", "strndup_user",
     "memdup_user_nul", "mempool_alloc", "mempool_kmalloc",
     "mempool_alloc_slab", "devm_kmalloc", "devm_krealloc", "devm_kmemdup",
     "devm_kstrdup", "devm_kasprintf", "devm_kvasprintf",
     "kobject_set_name_vargs"}
def norm(f):
    f = f.lstrip("_")
    return f[:-7] if f.endswith("_noprof") else f
s = a = p = 0
for l in sys.stdin:
    if " kernel_stack: " in l:
        s += 1
    if " mm_page_alloc: " in l:
        p += 1
    m = re.search(r" (kmalloc|kmalloc_node|kmem_cache_alloc|kmem_cache_alloc_node): .*call_site=([^+ ]+)", l)
    if m and norm(m.group(2)) in W:
        a += 1
print(s, a, p)' "$TOP"
}
read -r stacks at_wrappers pages <<<"$(count "$TEST_TMP/w.dat")"
note "--stacks: $stacks stacks, $at_wrappers allocations at wrappers"
[ "$at_wrappers" -gt 0 ] || fail "no allocation at a wrapper's call site"
assert_eq "--stacks: stacks = allocations at wrappers" "$at_wrappers" "$stacks"
# with the page group, a stack after every page allocation too
"$SLABACCT" record -e kmem,page --stacks --no-snapshot --comm sa-stk-load \
	-o "$TEST_TMP/p.dat" -- sh -c "$work" >"$TEST_TMP/p.out" 2>&1 ||
	fail "record -e kmem,page --stacks failed: $(cat "$TEST_TMP/p.out")"
read -r stacks at_wrappers pages <<<"$(count "$TEST_TMP/p.dat")"
[ "$pages" -gt 0 ] || fail "no page allocation recorded"
assert_eq "-e kmem,page --stacks: stacks = wrapper and page allocations" \
	"$((at_wrappers + pages))" "$stacks"
# diff matches the attributed rows
"$SLABACCT" diff --all --width 0 "$TEST_TMP/all.dat" "$TEST_TMP/w.dat" |
	grep -q 'kobject_set_name_vargs <- ' || fail "diff: no attributed row"

# errors of record's options (nothing is recorded)
for a in "--stacks=bogus" "--wrapper kstrdup" \
	 "--stacks --wrapper no_such_function_xyz"; do
	# shellcheck disable=SC2086
	"$SLABACCT" record $a --no-snapshot -o "$TEST_TMP/e.dat" -- true \
		>/dev/null 2>"$TEST_TMP/err"
	rc=$?
	[ $rc = 2 ] || fail "record $a exited $rc, expected 2"
	grep -q . "$TEST_TMP/err" || fail "record $a: no message"
	[ ! -e "$TEST_TMP/e.dat" ] || fail "record $a wrote a file"
done
# boot cmdline --stacks, by what the kernel's symbols say: without
# setup_trace_triggers the stacktrace option; with it, boot triggers on
# the allocations at the wrappers the kernel has, by its names
printf '%s\n' 'ffffffff81000000 T _text' 'ffffffff81001000 T kstrdup' \
	'ffffffff81002000 T __kvmalloc_node_noprof' 'ffffffff81003000 t mempool_alloc_slab' \
	'ffffffff81004000 T kmalloc_trace' 'ffffffffc0001000 t kmemdup	[mod]' >"$TEST_TMP/syms"
line=$("$SLABACCT" boot cmdline -q --stacks --mem 4096 --cpus 1 --kernel-symbols "$TEST_TMP/syms")
case $line in
*" trace_options=stacktrace") ;;
*) fail "boot cmdline --stacks, no triggers: $line" ;;
esac
echo 'ffffffff81005000 t setup_trace_triggers' >>"$TEST_TMP/syms"
line=$("$SLABACCT" boot cmdline -q --stacks --mem 4096 --cpus 1 --kernel-symbols "$TEST_TMP/syms")
assert_eq "boot triggers" 'trace_trigger="kmalloc.stacktrace if call_site.function == kstrdup || call_site.function == __kvmalloc_node_noprof || call_site.function == mempool_alloc_slab,kmem_cache_alloc.stacktrace if call_site.function == mempool_alloc_slab"' "${line##* trace_clock=global }"
