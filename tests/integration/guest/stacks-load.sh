# Attribution through kernel stacks stays exact while the CPUs are busy,
# in one guest of kernel flavour $1. Two CPU hogs (yes), a loop of
# short-lived processes (whose task structs, creds and maple nodes are
# freed by RCU callbacks in softirqs) and one of 100 us sleeps (timer
# interrupts, which run the softirqs on their way out) run beside
# `slabacct record --stacks` with a small buffer, ROUNDS times. Each
# round records sa_wrap.ko's allocations through six wrappers
# (tests/kmod/sa_wrap.c: known counts and sizes), the first 5 frees of
# each function, and BENCH
# kvmalloc+kvfree pairs from sa_wrap_kvmalloc (and as many plain
# kmalloc+kfree pairs from sa_wrap_bench_kmalloc): some 540 stacks a
# round. The stacktrace trigger writes a stack after its event is
# committed, and a softirq may run in between and record its own events
# (a recording of guest/module-wrappers under two CPU hogs had 10 RCU
# frees there, and the report gave the stack to the last of them,
# leaving a kvmalloc at the wrapper's row: the reader before the fix
# got 3 of 8 rounds here wrong); a stack may also start a new buffer
# page (the buffer, BUF_KB per CPU, holds a round, so none is lost).
# For every round the report's rows, summed by function, must give each function
# exactly its allocations, frees, bytes_alloc and bytes_req, every stack
# must find its event (stacks_lost 0), every "wrapper <- caller" row of
# the recording must equal tests/integration/stack-referee.py's count
# from trace-cmd's decoding, the folded stacks (--folded --sort hits)
# summed per leaf must equal the rows, and no event may be lost (else
# the round proves nothing: the test fails and says so).
. "$(dirname "$0")/../../lib.sh"
flavour=${1:?kernel flavour}
ROUNDS=${STACKS_LOAD_ROUNDS:-6}
FREED=5
BENCH=500
BUF_KB=512

cat >"$TEST_TMP/guest.sh" <<GUEST
insmod \$MODDIR/sa_wrap.ko || exit 1
yes >/dev/null & h1=\$!
yes >/dev/null & h2=\$!
sh -c 'while :; do /bin/true; done' & h3=\$!
sh -c 'while :; do usleep 100; done' & h4=\$!
i=0
while [ \$i -lt $ROUNDS ]; do
	i=\$((i + 1))
	slabacct record --stacks -b $BUF_KB -o \$OUT/round-\$i.dat -- sh -c \
		'echo alloc > /proc/sa_wrap; echo free $FREED > /proc/sa_wrap;
		 echo bench $BENCH > /proc/sa_wrap' \
		> \$OUT/record-\$i.log 2>&1
	echo \$? > \$OUT/record-\$i.rc
	[ \$i = 1 ] && cat /proc/sa_wrap > \$OUT/sa_wrap
	echo free > /proc/sa_wrap
done
kill \$h3 \$h4; kill \$h1 \$h2
wait
n=\$(awk '/^sa_wrap_/ { print \$4 }' /proc/sa_wrap | sort -u)
for n in \$n; do
	c=\$n; [ \$n -ge 1024 ] && [ \$((n % 1024)) = 0 ] && c=\$((n / 1024))k
	echo "\$n \$(cat /sys/kernel/slab/kmalloc-\$c/slab_size)" >> \$OUT/slots
done
rmmod sa_wrap
GUEST
o=$TEST_TMP/out
guest_run "$flavour" "$TEST_TMP/guest.sh" -t $((120 + 80 * ROUNDS)) ||
	fail "guest run failed"
[ -s "$o/sa_wrap" ] || fail "sa_wrap.ko reported nothing"
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
# (sa_wrap_kvmalloc: its count and the bench's pairs; then the bench's
# plain kmallocs, of kvmalloc's size)
want=$(awk -v f=$FREED -v b=$BENCH 'FNR == NR { slot[$1] = $2; next }
	/^sa_wrap_kvmalloc / { kv = $0 }
	/^sa_wrap_/ { n = $2; fr = f; if (kv == $0) { n += b; fr += b }
		print $1, n, fr, n * slot[$4], n * $3 }
	END { split(kv, k); print "sa_wrap_bench_kmalloc", b, b,
		b * slot[k[4]], b * k[3] }' \
	"$o/slots" "$o/sa_wrap")
note "sa_wrap.ko (name count req ksize held): $(tr '\n' ' ' <"$o/sa_wrap")"

keep=$TOP/build/test-logs/stacks-load-$flavour
rm -rf "$keep"
bad=0
for i in $(seq 1 "$ROUNDS"); do
	dat=$o/round-$i.dat
	[ "$(cat "$o/record-$i.rc" 2>/dev/null)" = 0 ] ||
		fail "round $i: record failed: $(tail -3 "$o/record-$i.log")"
	"$SLABACCT" report --json "$dat" >"$TEST_TMP/report.json" ||
		fail "round $i: report failed"
	got=$(python3 - "$TEST_TMP/report.json" "$o/sa_wrap" <<'PY'
import json, sys
funcs = [l.split()[0] for l in open(sys.argv[2]) if l.startswith('sa_wrap_')]
funcs.append('sa_wrap_bench_kmalloc')
rep = json.load(open(sys.argv[1]))
rows = rep["sections"]["callsite"]["rows"]
for f in funcs:
    s = [0, 0, 0, 0]
    for r in rows:
        if r.get("function") == f:
            for i, k in enumerate(("allocs", "frees", "bytes_alloc",
                                   "bytes_req")):
                s[i] += r[k]
    print(f, *s)
lost = rep["lost"]
rec = rep["records"]
print("lost", lost["events"], lost["missed_in_buffer"],
      lost["missed_pages_unknown"], "stacks", rec.get("stacks", 0),
      "stacks_lost", rec.get("stacks_lost", 0))
PY
) || fail "round $i: cannot read the report"
	counts=$(echo "$got" | grep '^lost ')
	got=$(echo "$got" | grep -v '^lost ')
	note "round $i: $counts"
	# every "wrapper <- caller" of the whole recording, against the
	# referee's pairing of trace-cmd's decoding of it
	ours=$(python3 "$TOP/tests/integration/stack-ours.py" --no-bare \
		"$TEST_TMP/report.json" 2>&1) || ours="error: $ours"
	ref=$(python3 "$TOP/tests/integration/stack-referee.py" "$dat" 2>&1) ||
		ref="error: $ref"
	# the folded stacks, per leaf, against the rows
	"$SLABACCT" report --folded --sort hits "$dat" >"$TEST_TMP/folded" ||
		fail "round $i: report --folded failed"
	folded=$(python3 "$TOP/tests/integration/folded-check.py" \
		"$TEST_TMP/report.json" "$TEST_TMP/folded" hits 2>&1) ||
		ours="$ours; folded: $folded"
	if [ "$got" != "$want" ] || [ "$ours" != "$ref" ] ||
		! echo "$counts" | grep -q '^lost 0 0 0 stacks [0-9]* stacks_lost 0$'; then
		bad=$((bad + 1))
		mkdir -p "$keep"
		cp "$dat" "$keep/"
		echo "# round $i: want / got:"
		diff <(echo "$want") <(echo "$got") | sed 's/^/#   /'
		[ "$ours" = "$ref" ] ||
			echo "# round $i: the referee's wrapper rows: $ref; ours: $ours"
	fi
done
[ $bad = 0 ] || fail "$bad of $ROUNDS rounds wrong (recordings kept in $keep)"
