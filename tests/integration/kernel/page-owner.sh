#!/bin/bash
# The page_owner referee of the RAM budget (issue 24), in the kernel of
# make check-kernel (debug.config with pageowner.config: PAGE_OWNER),
# booted with page_owner=on. In one guest, sa_test.ko makes LN large
# kmallocs of 3 pages (order 2, from sa_test_large_loop) and frees LM of
# them while `slabacct record --stacks=all -e kmem,page` traces it; then
# /sys/kernel/debug/page_owner is read and grouped by stack by the
# kernel's own tools/vm/page_owner_sort (built here from the kernel's
# source tree, run as `page_owner_sort --cull stacktrace`: one group per
# distinct stack, "N times, P pages" each, P the sum of 1 << order).
#
# Compared, for the known call site: the pages page_owner_sort puts in
# the groups of the loop's own allocations (the stack holds
# sa_test_large_loop, and its first frame above the page allocator is
# the large kmalloc; not the debug kernel's metadata pages allocated
# deeper inside the kmalloc), and their blocks (times), equal the
# report's pages by call site: the live blocks and pages of the pages
# section's rows whose caller is sa_test_large_loop (recorded with
# --stacks=all: a kernel stack with every mm_page_alloc, the call site
# the first frame past the page allocator, the large kmalloc and the
# wrappers). Both equal the known load, (LN - LM) blocks of 4 pages,
# and so does the call-site section's sa_test_large_loop row, whose
# large-kmalloc allocations are page allocations (kmalloc_large traces
# kmem:kmalloc with bytes_alloc = PAGE_SIZE << order).
#
# Excluded, and why:
#   - pages freed meanwhile (the LM blocks freed, and anything else
#     freed before the read): page_owner lists only allocated pages, and
#     the report's live figures count only what is not freed by the end
#     of the trace; both sides leave them out alike;
#   - pages allocated before tracing: page_owner lists them, the trace
#     cannot; sa_test's site holds none before the load (checked on a
#     read of page_owner just before the recording), so the site's
#     groups hold only pages allocated while tracing;
#   - every other stack: the rest of the system allocates and frees
#     pages while tracing too, at no count known in advance, and the
#     report does not group page events by stack.
. "$(dirname "$0")/../../lib.sh"
. "$(dirname "$0")/kernel-lib.bash"

debug_kernel
grep -qx "CONFIG_PAGE_OWNER=y" "$KREL_DIR/config" ||
	fail "the kernel has no CONFIG_PAGE_OWNER"
# The referee: page_owner_sort of the kernel that is booted (tools/vm
# in 6.1, tools/mm from 6.3)
pos_src=
for f in "$KDIR/source/tools/mm/page_owner_sort.c" \
	"$KDIR/source/tools/vm/page_owner_sort.c"; do
	[ -f "$f" ] && { pos_src=$f; break; }
done
[ -n "$pos_src" ] || fail "no page_owner_sort.c in the kernel source of $KDIR"
gcc -O2 -o "$TEST_TMP/page_owner_sort" "$pos_src" 2>"$TEST_TMP/pos-build.log" || {
	cat "$TEST_TMP/pos-build.log" >&2
	fail "page_owner_sort does not build"
}
export SLABACCT_TIMEOUT_FACTOR=4
LN=${PAGE_OWNER_LN:-100} LM=${PAGE_OWNER_LM:-40}

cat >"$TEST_TMP/guest.sh" <<GUEST
set -e
insmod \$MODDIR/sa_test.ko
# copied with cat: a read() too short for a whole record gets ENOMEM
cat /sys/kernel/debug/page_owner >\$OUT/page_owner.before
slabacct record --stacks=all -e kmem,page -b 8192 -o \$OUT/trace.dat -- \
	sh -c 'echo large $LN $LM > /proc/sa_test' >\$OUT/record.log 2>&1
cat /sys/kernel/debug/page_owner >\$OUT/page_owner.after
cat /proc/sa_test >\$OUT/sa_test
GUEST
# 256 MB: each read of page_owner walks every page frame (KASAN, TCG)
guest_run "$KREL_DIR/bzImage" "$TEST_TMP/guest.sh" -t 300 -m 256 \
	-a page_owner=on ||
	fail "the page_owner guest run failed ($(tail -n 3 "$TEST_TMP/out/script.log" 2>/dev/null | tr '\n' ' '))"
o=$TEST_TMP/out
# the guest has no getconf; it is x86_64, as this host (4 KB pages)
psize=$(getconf PAGESIZE)
[ "${psize:-0}" -gt 0 ] || fail "no page size from the guest"
lksize=$(sed -n 's/^large_ksize: //p' "$o/sa_test")
[ -n "$lksize" ] || fail "sa_test did not report its large size"
bpages=$((lksize / psize))
note "a large kmalloc: $lksize bytes, $bpages pages"

# site_groups FILE: "times pages groups" of the page_owner_sort groups
# of the loop's own allocations: the stack holds sa_test_large_loop, and
# its first frame above the page allocator's is the large kmalloc. Other
# groups also hold the loop, deeper: pages the debug kernel allocates
# inside the kmalloc for its own metadata (kmemleak's objects, in
# kmem_cache_alloc from __kmalloc_large_node), which are not the load.
# Every group with the loop is written to FILE.site, for a failure.
site_groups() {
	"$TEST_TMP/page_owner_sort" --cull stacktrace "$1" "$1.sorted" \
		>"$1.pos.log" 2>&1 || fail "page_owner_sort $(basename "$1") failed"
	grep -q 'times, [0-9]* pages' "$1.sorted" ||
		fail "page_owner_sort found no group in $(basename "$1")"
	awk -v site="$1.site" '
	function flush() {
		if (hdr != "" && loop) {
			print (own ? "counted: " : "not counted: ") hdr >site
			printf "%s", frames >site
			if (own) { n += t; q += p; g++ }
		}
		hdr = ""; frames = ""; loop = 0; own = 0; above = ""
	}
	/^[0-9]+ times, [0-9]+ pages/ { flush(); hdr = $0; t = $1; p = $3; next }
	hdr == "" { next }
	/^$/ { flush(); next }
	{
		frames = frames $0 "\n"
		f = $1; sub(/\+.*/, "", f)
		if (above == "" && f !~ /^(post_alloc_hook|prep_new_page|get_page_from_freelist|__alloc_pages.*|alloc_pages.*|__folio_alloc.*|folio_alloc.*)$/)
			above = f
		if (f == "sa_test_large_loop" && !loop) {
			loop = 1
			own = above ~ /kmalloc_large|kmalloc_order/
		}
	}
	END { flush(); print n + 0, q + 0, g + 0 }' "$1.sorted"
}
# show_site FILE: the groups of FILE.site, on stderr
show_site() {
	echo "page_owner_sort groups holding sa_test_large_loop in $(basename "$1"):" >&2
	cat "$1.site" >&2 2>/dev/null
}
before=$(site_groups "$o/page_owner.before")
after=$(site_groups "$o/page_owner.after")
note "page_owner_sort, sa_test_large_loop: before: $before; after: $after (blocks pages groups)"
[ "$(echo "$before" | cut -d' ' -f1-2)" = "0 0" ] || show_site "$o/page_owner.before"
assert_eq "page_owner: sa_test_large_loop blocks, pages before the load" \
	"0 0" "$(echo "$before" | cut -d' ' -f1-2)"
want="$((LN - LM)) $(((LN - LM) * bpages))"
po=$(echo "$after" | cut -d' ' -f1-2)
[ "$po" = "$want" ] || show_site "$o/page_owner.after"
assert_eq "page_owner: sa_test_large_loop blocks, pages (the load)" "$want" "$po"

# The report: its sa_test_large_loop call-site row, and the page events
"$SLABACCT" report --csv "$o/trace.dat" >"$TEST_TMP/trace.csv" ||
	fail "slabacct report of the guest's trace failed"
grep -q '^# lost_events: 0$' "$TEST_TMP/trace.csv" || fail "the recording lost events"
rep=$(python3 - "$TEST_TMP/trace.csv" "$psize" <<'PY'
import csv, sys
path, psize = sys.argv[1], int(sys.argv[2])
rows = list(csv.reader(l for l in open(path) if not l.startswith('#')))
head = next(r for r in rows if r[:2] == ['callsite', 'kind'])
got = [dict(zip(head, r)) for r in rows
       if r and r[0] == 'callsite' and r != head]
got = [d for d in got if d['function'] == 'sa_test_large_loop']
if len(got) != 1:
    print(len(got), 'rows')
    sys.exit()
d = got[0]
b = int(d['live_bytes'])
print(d['live'], b // psize if b % psize == 0 else 'bytes %d' % b)
PY
)
assert_eq "report: sa_test_large_loop live blocks, pages" "$want" "$rep"
assert_eq "page_owner = report, sa_test_large_loop blocks, pages" "$rep" "$po"

"$SLABACCT" report --json --what pages "$o/trace.dat" >"$TEST_TMP/pages.json" ||
	fail "slabacct report --what pages failed"
read -r alloc2 live2 sitepg < <(PYTHONPATH="$TOP/tests/integration" python3 - "$TEST_TMP/pages.json" <<'PY'
import json, sys
from jsonfind import section
p = section(json.load(open(sys.argv[1])), 'pages_alloc', 'live', 'alloc')
def blocks(cells):
    return sum(c['blocks'] for c in cells if str(c['order']) == '2')
rows = p['by_callsite']
if not isinstance(rows, list):
    site = 'none:' + rows.replace(' ', '_')
else:
    mine = [r for r in rows if r.get('function') == 'sa_test_large_loop']
    site = '%d,%d' % (sum(r['live_blocks'] for r in mine),
                      sum(r['live_pages'] for r in mine))
print(blocks(p['alloc']), blocks(p['live']), site)
PY
)
note "page events: $alloc2 order-2 blocks allocated, $live2 still allocated"
[ "${alloc2:-0}" -ge "$LN" ] ||
	fail "the page events hold $alloc2 order-2 allocations, fewer than the load's $LN"
[ "${live2:-0}" -ge $((LN - LM)) ] ||
	fail "the page events leave $live2 order-2 blocks allocated, fewer than the load's $((LN - LM))"
assert_eq "page_owner = report's pages by call site, sa_test_large_loop blocks, pages" \
	"$(echo "$po" | tr ' ' ',')" "$sitepg"
exit 0
