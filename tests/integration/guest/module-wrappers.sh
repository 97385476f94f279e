# Attribution through allocation wrappers, in one guest of kernel flavour
# $1: sa_wrap.ko allocates through kvmalloc, kstrdup, kmemdup, kasprintf,
# krealloc and a mempool (mempool_alloc from a kmalloc pool), each from a
# known noinline function with a known count and size, then frees 5 of
# each, while slab_account.ko and `slabacct record --stacks` both watch.
# The module's rows (/proc/slab_account, "WRAPPER_SITE <- CALLER" for the
# wrappers' call sites) and the report's rows must give each function
# exactly its count, frees, bytes_req (count x size asked) and
# bytes_alloc (count x the slot of ksize's size class: ksize as
# sa_wrap.ko reports it, the slot from /sys/kernel/slab); the module's
# rows of kvmalloc, kasprintf and mempool must name their wrapper.
. "$(dirname "$0")/../../lib.sh"
flavour=${1:?kernel flavour}
FREED=5

cat >"$TEST_TMP/guest.sh" <<GUEST
set -e
insmod \$MODDIR/slab_account.ko
insmod \$MODDIR/sa_wrap.ko
slabacct record --stacks -o \$OUT/ours.dat -- sh -c \
	'echo alloc > /proc/sa_wrap; echo free $FREED > /proc/sa_wrap' \
	> \$OUT/record.log 2>&1
cat /proc/sa_wrap > \$OUT/sa_wrap
# the slot size the kmalloc tracepoint reports for each size class
for n in \$(awk '/^sa_wrap_/ { print \$4 }' /proc/sa_wrap | sort -u); do
	c=\$n; [ \$n -ge 1024 ] && [ \$((n % 1024)) = 0 ] && c=\$((n / 1024))k
	echo "\$n \$(cat /sys/kernel/slab/kmalloc-\$c/slab_size)" >> \$OUT/slots
done
cat /proc/slab_account > \$OUT/account
slabacct account --json /proc/slab_account > \$OUT/account.json
echo free > /proc/sa_wrap
rmmod sa_wrap
rmmod slab_account
GUEST
o=$TEST_TMP/out
guest_run "$flavour" "$TEST_TMP/guest.sh" -t 300 || fail "guest run failed"
[ -s "$o/sa_wrap" ] || fail "sa_wrap.ko reported nothing"
# what the module showed, kept for a failure's diagnosis
keep=$TOP/build/test-logs/module-wrappers-$flavour.account
mkdir -p "${keep%/*}" && cp "$o/account" "$keep"

# The slot of each size class, as the tracepoint reports it: the class
# itself on Debian's kernels (checked), more on a custom kernel with
# KASAN or slub_debug metadata (module-lib.bash, kmalloc_slot).
[ -s "$o/slots" ] || fail "no kmalloc slot sizes read"
while read -r class slot; do
	case $slot in '' | *[!0-9]*) fail "kmalloc slot of $class: '$slot'" ;; esac
	if [ -f "$flavour" ]; then
		[ "$slot" -ge "$class" ] || fail "kmalloc slot $slot < its class $class"
	else
		assert_eq "slot of kmalloc size class $class on $flavour" "$class" "$slot"
	fi
done <"$o/slots"
# expected: "FUNC allocs frees bytes_alloc bytes_req", one line a function
want=$(awk -v f=$FREED 'FNR == NR { slot[$1] = $2; next }
	/^sa_wrap_/ { print $1, $2, f, $2 * slot[$4], $2 * $3 }' \
	"$o/slots" "$o/sa_wrap")
note "sa_wrap.ko (name count req ksize held):" $(cat "$o/sa_wrap")

# the module's rows, summed by the function of the caller (after "<-")
got=$(python3 - "$o/account" "$o/sa_wrap" 2>"$TEST_TMP/via" <<'PY'
import sys
funcs = [l.split()[0] for l in open(sys.argv[2]) if l.startswith('sa_wrap_')]
sums = {f: [0, 0, 0, 0] for f in funcs}
via = {f: set() for f in funcs}
for line in open(sys.argv[1]):
    if line.startswith('#') or ':' in line.split(' ', 1)[0]:
        continue
    t = line.split(None, 7)
    if len(t) < 8 or '/' not in t[5]:
        continue
    caller = t[7].strip()
    w, sep, c = caller.rpartition(' <- ')
    f = c.split('+', 1)[0]
    if f not in sums:
        continue
    a, fr = t[5].split('/')
    s = sums[f]
    s[0] += int(a); s[1] += int(fr); s[2] += int(t[0]); s[3] += int(t[2])
    via[f].add(w.split('+', 1)[0] if sep else '')
for f in funcs:
    print(f, *sums[f])
for f in funcs:
    print('via', f, ','.join(sorted(via[f])), file=sys.stderr)
PY
) || fail "cannot read the module's rows: $(cat "$TEST_TMP/via")"
cat "$TEST_TMP/via"
assert_eq "module: allocs frees bytes_alloc bytes_req by function" \
	"$want" "$got"
for f in kvmalloc kasprintf mempool; do
	awk -v f="sa_wrap_$f" '$1 == "via" && $2 == f &&
		$3 ~ /kvmalloc|kasprintf|mempool/ { ok = 1 } END { exit !ok }' \
		"$TEST_TMP/via" ||
		fail "module: the row of sa_wrap_$f does not name its wrapper"
done
# slabacct account reads the new format, and keeps the wrapper
python3 - "$o/account.json" <<'PY' || fail "account --json lost the wrapper"
import json, sys
rows = json.load(open(sys.argv[1]))["rows"]
ok = [r for r in rows if r.get("via") and "sa_wrap_kvmalloc" in r["caller"]]
sys.exit(0 if len(ok) == 1 else "%d kvmalloc rows with via" % len(ok))
PY

# the report of the recording, summed by function (attributed or not)
"$SLABACCT" report --json "$o/ours.dat" >"$TEST_TMP/report.json" ||
	fail "report of the recording failed"
got=$(python3 - "$TEST_TMP/report.json" "$o/sa_wrap" <<'PY'
import json, sys
funcs = [l.split()[0] for l in open(sys.argv[2]) if l.startswith('sa_wrap_')]
rows = json.load(open(sys.argv[1]))["sections"]["callsite"]["rows"]
for f in funcs:
    s = [0, 0, 0, 0]
    for r in rows:
        if r.get("function") == f:
            for i, k in enumerate(("allocs", "frees", "bytes_alloc",
                                   "bytes_req")):
                s[i] += r[k]
    print(f, *s)
PY
) || fail "cannot read the report's rows"
# Where the kernel's own stacks lack the wrapper's frame (32-bit ARM's
# ftrace skips the top frames: the stack starts at the caller's caller,
# as trace-cmd prints it too), the report cannot see the caller and must
# leave those allocations at the wrapper's row, not give them to another
# function. Judged from the recording, as trace-cmd decodes it.
skipped=$(trace-cmd report "$o/ours.dat" 2>/dev/null | python3 -c '
import re, sys
blind, seen, site, frames = set(), set(), None, []
def close():
    if site:
        (seen if site in frames else blind).add(site)
for l in sys.stdin:
    m = re.search(r" kmalloc(_node)?: .*call_site=([A-Za-z_]\w*)\+", l)
    if m or " kernel_stack: " not in l and not l.startswith("=>"):
        close()
        site, frames = None, []
    if m and m.group(2).lstrip("_").replace("_noprof", "") in (
            "kvmalloc_node", "kasprintf", "mempool_alloc"):
        site = m.group(2)
    elif l.startswith("=> "):
        frames.append(l.split()[1])
close()
print(" ".join(sorted(blind - seen)))') || fail "cannot read the recording"
if [ -n "$skipped" ]; then
	note "this kernel's stacks lack the frames of: $skipped (left at the wrapper)"
	for w in $skipped; do
		f=${w#__}
		f=${f%_noprof}
		f=${f%_node}
		f=sa_wrap_${f%_alloc}
		want=$(echo "$want" | awk -v f="$f" '$1 == f { $2 = $3 = $4 = $5 = 0 } 1')
		n=$(jq --arg w "$w" '[.sections.callsite.rows[] |
			select(.function == $w and (.via | not)) | .allocs] | add // 0' \
			"$TEST_TMP/report.json")
		c=$(awk -v f="$f" '$1 == f { print $2 }' "$o/sa_wrap")
		[ "$n" -ge "$c" ] ||
			fail "report: $w's own row has $n allocations, fewer than $f's $c"
	done
fi
assert_eq "report --stacks: allocs frees bytes_alloc bytes_req by function" \
	"$want" "$got"
