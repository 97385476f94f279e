#!/bin/bash
# Allocations through wrappers, seen by /proc/allocinfo, /proc/slab_account
# and `slabacct record --stacks` in one guest of the custom 6.12 kernel
# with the kernel's allocation profiling (scripts/allocinfo-kernel).
# sa_wrap.ko allocates through kvmalloc, kstrdup, kmemdup, kasprintf,
# krealloc and mempool_alloc (a kmalloc pool), each from a known noinline
# function sa_wrap_WRAPPER with a known count (11 to 16) and size, then
# frees 5 of each; the three sources must give each function exactly its
# known load.
#
# Where allocinfo tags each wrapper on 6.12 (the code tag is set by an
# alloc_hooks() macro at the line that expands it):
#   - kvmalloc(), kmemdup(), krealloc() and mempool_alloc() are
#     alloc_hooks() macros around their _noprof function (slab.h,
#     string.h, mempool.h), and the allocator calls inside those
#     (__kmalloc_node_noprof, kmalloc_node_track_caller_noprof, the pool's
#     mempool_kmalloc -> kmalloc_noprof) set no tag of their own: counted
#     at sa_wrap.c's line in the caller, one tag per function;
#   - kstrdup() and kasprintf() are plain functions: the tag is the
#     kmalloc_track_caller() inside them, mm/util.c's in kstrdup and
#     lib/kasprintf.c's in kvasprintf, shared with every other caller in
#     the kernel. allocinfo has no row for sa_wrap_kstrdup or
#     sa_wrap_kasprintf at all (checked), where the module and the trace
#     give those functions their exact counts; across the load, those two
#     vmlinux rows grow by exactly sa_wrap's live allocations and bytes
#     (checked: allocinfo is read just before and after the load, and
#     nothing between, the shell's echo and cat, calls kstrdup or
#     kasprintf; a guest that did would fail here, the rows being the
#     whole kernel's).
# What allocinfo counts: calls and bytes live now (a free takes its
# allocation back), a slab object at its cache's object size (s->size,
# /sys/kernel/slab/kmalloc-N/slab_size: kvmalloc(5000) is 8 KB of
# kmalloc-8k, kstrdup's 41 bytes 64), the slot the kmalloc tracepoints
# report as bytes_alloc too. So for the four tagged functions, with C
# allocations and 5 freed: allocinfo's calls = the module's objs = the
# report's live = C - 5, allocinfo's bytes = the module's and the
# report's live bytes = (C - 5) x slot; 0 0 before the load and after
# the rest is freed. The module and the report also agree, for all six,
# on what allocinfo does not have: C allocations, 5 frees, C x slot
# bytes allocated and C x size bytes requested. allocinfo is read raw
# (awk on the kernel's text) and through `slabacct diff` of the
# snapshots, which must show exactly those six rows and deltas.
# The report's "wrapper <- caller" rows (tests/integration/stack-ours.py)
# equal the referee's count from trace-cmd's decoding of the same file
# (tests/integration/stack-referee.py) for the whole recording.
. "$(dirname "$0")/../../lib.sh"
. "$(dirname "$0")/kernel-lib.bash"
command -v trace-cmd >/dev/null || fail "trace-cmd is not installed (scripts/install-deps)"

allocinfo_kernel
FREED=5
src=$TOP/tests/kmod/sa_wrap.c
# the wrappers allocinfo tags at the caller's line, and the two it does not
TAGGED="kvmalloc kmemdup krealloc mempool"
UNTAGGED="kstrdup:mm/util.c:kstrdup kasprintf:lib/kasprintf.c:kvasprintf"

allocinfo_guest_run <<GUEST
insmod \$MODDIR/slab_account.ko
insmod \$MODDIR/sa_wrap.ko
# allocinfo read just before and after the load, inside the recording
slabacct record --stacks -o \$OUT/trace.dat -- sh -c \
	"cat /proc/allocinfo >\$OUT/allocinfo.before;
	 echo alloc >/proc/sa_wrap; echo free $FREED >/proc/sa_wrap;
	 cat /proc/allocinfo >\$OUT/allocinfo.after" >\$OUT/record.log 2>&1
cat /proc/sa_wrap >\$OUT/sa_wrap
cat /proc/slab_account >\$OUT/account
# the slot of each size class (ksize as sa_wrap.ko reports it)
for n in \$(awk '/^sa_wrap_/ { print \$4 }' /proc/sa_wrap | sort -u); do
	c=\$n; [ \$n -ge 1024 ] && [ \$((n % 1024)) = 0 ] && c=\$((n / 1024))k
	echo "\$n \$(cat /sys/kernel/slab/kmalloc-\$c/slab_size)" >>\$OUT/slots
done
echo free >/proc/sa_wrap
cat /proc/allocinfo >\$OUT/allocinfo.freed
rmmod sa_wrap
rmmod slab_account
GUEST
o=$TEST_TMP/out
if [ ! -s "$o/sa_wrap" ] || [ ! -s "$o/slots" ]; then
	fail "sa_wrap.ko reported nothing"
fi
note "sa_wrap.ko (name count req ksize held): $(paste -sd';' "$o/sa_wrap")"
note "slots (ksize slab_size): $(paste -sd';' "$o/slots")"
keep=$TOP/build/test-logs/allocinfo-wrappers
mkdir -p "$keep" && cp "$o"/allocinfo.* "$o/account" "$keep/"

# the known load: "FUNC count req slot", one line a function
known=$(awk 'FNR == NR { slot[$1] = $2; next }
	/^sa_wrap_/ { if (!($4 in slot)) exit 1; print $1, $2, $3, slot[$4] }' \
	"$o/slots" "$o/sa_wrap") || fail "no slot for a size sa_wrap.ko reported"
[ "$(echo "$known" | wc -l)" = 6 ] || fail "sa_wrap.ko reported $(echo "$known" | wc -l) functions, not 6"
k() { echo "$known" | awk -v f="sa_wrap_$1" -v i="$2" '$1 == f { print $i }'; }

# allocinfo, raw: "FILE:LINE calls bytes" of each tag of [sa_wrap] in
# function FUNC, as the kernel wrote them ("none": no tag)
ai_rows() {
	awk -v f="func:$2" '$4 == "[sa_wrap]" && $5 == f {
		n = split($3, p, "/"); print p[n], $2, $1; r++ }
		END { if (!r) print "none" }' "$1"
}
# allocinfo, raw: "calls bytes" of the vmlinux tag in FILE's function FUNC
ai_kernel() {
	awk -v f="func:$3" -v file="$2" '$4 == f && $3 ~ "(^|/)" file ":[0-9]+$" {
		c += $2; b += $1; r++ } END { if (r != 1) print r + 0, "rows"; else print c, b }' "$1"
}
# the line of sa_wrap.c with "= CALL(" in function sa_wrap_WRAPPER
src_line() {
	awk -v f="sa_wrap_$1(" -v w="= $2(" 'index($0, f) && /^static/ { in_f = 1 }
		in_f && index($0, w) { print NR; exit }' "$src"
}

for w in $TAGGED; do
	call=$w
	[ "$w" = mempool ] && call=mempool_alloc
	line=$(src_line "$w" "$call")
	[ -n "$line" ] || fail "no $call( in sa_wrap_$w in $src"
	c=$(k "$w" 2) slot=$(k "$w" 4)
	live=$((c - FREED))
	assert_eq "allocinfo before the load: sa_wrap_$w" "sa_wrap.c:$line 0 0" \
		"$(ai_rows "$o/allocinfo.before" "sa_wrap_$w")"
	assert_eq "allocinfo after the load: sa_wrap_$w (file:line calls bytes)" \
		"sa_wrap.c:$line $live $((live * slot))" \
		"$(ai_rows "$o/allocinfo.after" "sa_wrap_$w")"
	assert_eq "allocinfo after the free: sa_wrap_$w" "sa_wrap.c:$line 0 0" \
		"$(ai_rows "$o/allocinfo.freed" "sa_wrap_$w")"
done
for u in $UNTAGGED; do
	IFS=: read -r w file fn <<<"$u"
	c=$(k "$w" 2) slot=$(k "$w" 4)
	live=$((c - FREED))
	for s in before after freed; do
		assert_eq "allocinfo $s: no tag in sa_wrap_$w" none \
			"$(ai_rows "$o/allocinfo.$s" "sa_wrap_$w")"
	done
	read -r c0 b0 <<<"$(ai_kernel "$o/allocinfo.before" "$file" "$fn")"
	read -r c1 b1 <<<"$(ai_kernel "$o/allocinfo.after" "$file" "$fn")"
	case "$c0$b0$c1$b1" in *[!0-9]* | '') fail "allocinfo: no one tag of $fn in $file ($c0 $b0, $c1 $b1)" ;; esac
	assert_eq "allocinfo: $fn's tag in $file across the load (calls bytes)" \
		"$live $((live * slot))" "$((c1 - c0)) $((b1 - b0))"
done

# slabacct's reading of the same snapshots: `diff` of before and after
# has exactly those rows, sa_wrap's four new (at their lines), the
# kernel's two changed (their lines are the kernel's)
want_diff=$({ for w in $TAGGED; do
		call=$w
		[ "$w" = mempool ] && call=mempool_alloc
		live=$(($(k "$w" 2) - FREED))
		echo "sa_wrap_$w sa_wrap.c:$(src_line "$w" "$call") new $live $((live * $(k "$w" 4)))"
	done
	for u in $UNTAGGED; do
		IFS=: read -r w file fn <<<"$u"
		live=$(($(k "$w" 2) - FREED))
		echo "$fn ${file##*/} changed $live $((live * $(k "$w" 4)))"
	done; } | sort)
got=$("$SLABACCT" diff --json "$o/allocinfo.before" "$o/allocinfo.after" | jq -r '
	.rows[] | (.site | split(" ")) as $s |
	select($s[0] | test("^(sa_wrap_.*|kstrdup|kvasprintf)$")) |
	($s[1] | split("/") | last) as $f |
	"\($s[0]) \(if $s[0] | startswith("sa_wrap_") then $f else $f | sub(":[0-9]+$"; "") end) \(.status) \(.d_live) \(.d_live_bytes)"' |
	sort) || fail "slabacct diff of the allocinfo snapshots failed"
assert_eq "slabacct diff of allocinfo before and after the load" \
	"$want_diff" "$got"

# expected of the module and the report, for all six:
# "FUNC allocs frees live live_bytes bytes_alloc bytes_req"
want=$(echo "$known" | awk -v f=$FREED '{ l = $2 - f
	print $1, $2, f, l, l * $4, $2 * $4, $2 * $3 }')

# the module's rows (format 3: total slack req live objs allocs/frees
# kind caller), summed by the function after "<-" (or the call site's
# own function), for sa_wrap.ko's six functions, and the wrappers seen
# on the way
mapfile -t funcs < <(echo "$known" | cut -d' ' -f1)
got=$(python3 - "$o/account" "${funcs[@]}" <<'PY' 2>"$TEST_TMP/via"
import sys
funcs = sys.argv[2:]
sums, via = {}, {}
for line in open(sys.argv[1]):
    t = line.split(None, 7)
    if line.startswith('#') or len(t) < 8 or '/' not in t[5]:
        continue
    w, sep, c = t[7].strip().rpartition(' <- ')
    f = c.split('+', 1)[0]
    if f not in funcs or not c.endswith(' [sa_wrap]'):
        continue
    a, fr = t[5].split('/')
    s = sums.setdefault(f, [0] * 6)
    for i, v in enumerate((a, fr, t[4], t[3], t[0], t[2])):
        s[i] += int(v)
    via.setdefault(f, set()).add(w.split('+', 1)[0] if sep else '-')
for f in sorted(sums):
    print(f, *sums[f])
    print('via', f, ','.join(sorted(via[f])), file=sys.stderr)
PY
) || fail "cannot read the module's rows: $(cat "$TEST_TMP/via")"
note "module: $(tr '\n' ';' <"$TEST_TMP/via")"
assert_eq "module: allocs frees live live_bytes bytes_alloc bytes_req by function" \
	"$(echo "$want" | sort)" "$got"
# kvmalloc's kmalloc, kasprintf's (kvasprintf's track_caller) and the
# pool's mempool_kmalloc have a wrapper's call site: "W <- C" rows
for w in kvmalloc kasprintf mempool; do
	grep -Eq "^via sa_wrap_$w [^-]*(kvmalloc|kasprintf|mempool)" "$TEST_TMP/via" ||
		fail "module: sa_wrap_$w's row does not name its wrapper"
done
# kstrdup, kmemdup and krealloc pass their caller as the call site
# (kmalloc_track_caller): plain rows at sa_wrap's functions
for w in kstrdup kmemdup krealloc; do
	assert_eq "module: sa_wrap_$w's rows are plain" "via sa_wrap_$w -" \
		"$(grep "^via sa_wrap_$w " "$TEST_TMP/via")"
done

# the report of the recording, summed the same way
"$SLABACCT" report --json "$o/trace.dat" >"$TEST_TMP/report.json" ||
	fail "report of the recording failed"
assert_eq "lost events" "true 0 0" "$(jq -r '.lost | "\(.known) \(.events) \(.missed_in_buffer)"' "$TEST_TMP/report.json")"
got=$(jq -r --arg f "$(echo "$known" | cut -d' ' -f1)" '($f | split("\n")) as $fs |
	[.sections.callsite.rows[] | select(.function as $x | $fs | index([$x]))] |
	group_by(.function)[] | [.[0].function,
	(map(.allocs), map(.frees), map(.live), map(.live_bytes),
	 map(.bytes_alloc), map(.bytes_req) | add)] | join(" ")' \
	"$TEST_TMP/report.json") || fail "cannot read the report's rows"
assert_eq "report --stacks: allocs frees live live_bytes bytes_alloc bytes_req by function" \
	"$(echo "$want" | sort)" "$got"
# its "wrapper <- caller" rows, against trace-cmd's decoding of the file
ours=$(python3 "$TOP/tests/integration/stack-ours.py" "$TEST_TMP/report.json") ||
	fail "cannot sum the report's wrapper rows"
ref=$(python3 "$TOP/tests/integration/stack-referee.py" "$o/trace.dat") ||
	fail "the referee failed"
assert_eq "wrapper <- caller (allocs, bytes), ours and trace-cmd's" "$ref" "$ours"
for w in kvmalloc kasprintf mempool; do
	echo "$ours" | jq -e --arg f "sa_wrap_$w" --argjson n "$(k "$w" 2)" \
		'[to_entries[] | select(.key | endswith(" <- " + $f)) | .value[0]] | add == $n' \
		>/dev/null || fail "report: sa_wrap_$w's $(k "$w" 2) allocations are not all \"wrapper <- sa_wrap_$w\""
done
for w in kstrdup kmemdup krealloc; do
	assert_eq "report: no wrapper row of sa_wrap_$w" "" \
		"$(echo "$ours" | jq -r --arg f " <- sa_wrap_$w" 'keys[] | select(endswith($f))')"
done
note "the three agree on the four tagged wrappers; allocinfo counts" \
	"kstrdup and kasprintf inside the kernel, the module and the trace at sa_wrap"
