# A boot traced with the parameters of `slabacct boot cmdline` for the
# guest (1024 MB, 2 CPUs, 48 MB per CPU) and a stack after every event
# (trace_options=stacktrace, whatever the kernel: a boot trace of tens
# of MB), in a guest of kernel flavour $1, collected by
# `slabacct boot collect` there:
#  - first into a tmpfs of 256 KB, too small: it fails (exit 1) before
#    reading anything, leaves no file there, has turned tracing off, and
#    the buffer is whole (its per-CPU entries are the records of the
#    second collect);
#  - it stops tracing before it does anything: no allocation of the
#    first collect's pid made an inode of the small tmpfs (its lock and
#    temporary files there) or a thread (its readers), though its exec's
#    and loader's are in the trace (and the tracefs lookups before its
#    write to tracing_on: they cannot be avoided);
#  - then into /out, under busybox time -v: its peak RSS is within 16 MB
#    of a small trace's (a few events, collected the same way after);
#  - a collect whose file goes over a file size limit (ulimit -f) while
#    it is written exits 1 and leaves no file, whole or cut;
#  - the report's coverage section, every figure, in total and per cache,
#    equals tests/integration/coverage-referee.py, which sums the raw
#    /proc/slabinfo stored in the file and replays trace-cmd's decoding.
. "$(dirname "$0")/../../lib.sh"
flavour=${1:?kernel flavour}
command -v trace-cmd >/dev/null || fail "trace-cmd is not installed (scripts/install-deps)"
command -v jq >/dev/null || fail "jq is not installed (scripts/install-deps)"

params=$("$SLABACCT" boot cmdline -q --mem 1024 --cpus 2 -b 49152) ||
	fail "boot cmdline failed ($?)"
params="$params trace_options=stacktrace"
cat >"$TEST_TMP/collect.sh" <<'GUEST'
T=/sys/kernel/tracing
mount -t tracefs nodev $T 2>/dev/null
mkdir -p /small && mount -t tmpfs -o size=256k tmpfs /small
: >$OUT/small.out	# the shell's redirection creates no inode then
slabacct boot collect -o /small/boot.dat >$OUT/small.out 2>&1 &
pid=$!
wait $pid
echo $? >$OUT/small.rc
echo $pid >$OUT/small.pid
ls -a /small >$OUT/small.ls
cat $T/tracing_on >$OUT/tracing_on
grep -h '^entries:' $T/per_cpu/cpu*/stats >$OUT/entries
busybox time -v slabacct boot collect -o $OUT/boot.dat >$OUT/collect.out 2>$OUT/time.out
echo $? >$OUT/collect.rc
# a small trace, collected the same way
echo kmem:kmalloc >$T/set_event
echo kmem:kfree >>$T/set_event
echo 1 >$T/tracing_on
ls -R /proc/self >/dev/null 2>&1
busybox time -v slabacct boot collect -o $OUT/little.dat >$OUT/little.out 2>$OUT/little-time.out
# a file cut short: 16 MB of events, a file size limit 6 MB above the
# little trace's (its header and a page or two): the writing fails
for e in kmalloc kfree kmem_cache_alloc kmem_cache_free; do
	echo kmem:$e >>$T/set_event
done
echo 1 >$T/tracing_on
i=0
while [ $i -lt 3000 ]; do
	n=$(awk '/^bytes:/ { n += $2 } END { print n + 0 }' $T/per_cpu/cpu*/stats)
	[ "$n" -ge 16777216 ] && break
	ls -lR /sys/kernel /proc/self >/dev/null 2>&1
	i=$((i + 1))
done
echo $n >$OUT/cut-bytes
limit=$(( ($(stat -c %s $OUT/little.dat) + 6291456) / 512 ))
(ulimit -f $limit; exec slabacct boot collect -o $OUT/cut.dat) >$OUT/cut.out 2>&1
echo $? >$OUT/cut.rc
ls -a $OUT >$OUT/cut.ls
GUEST
guest_run "$flavour" "$TEST_TMP/collect.sh" -t 600 -m 1024 -a " $params" ||
	fail "guest run failed: $(cat "$TEST_TMP/out/script.log" 2>/dev/null)"
o=$TEST_TMP/out
dat=$o/boot.dat

# the small tmpfs: refused before reading, nothing left, buffer kept
assert_eq "collect into a small tmpfs: exit status" 1 "$(cat "$o/small.rc")"
grep -q "nothing was written or read" "$o/small.out" ||
	fail "collect into a small tmpfs said: $(cat "$o/small.out")"
assert_eq "files left in the small tmpfs" ". .." "$(tr '\n' ' ' <"$o/small.ls" | sed 's/ $//')"
assert_eq "tracing_on after the failed collect" 0 "$(cat "$o/tracing_on")"
assert_eq "second collect: exit status" 0 "$(cat "$o/collect.rc")"
[ -s "$dat" ] || fail "no boot trace came back: $(cat "$o/collect.out")"
"$SLABACCT" report --json --what coverage "$dat" >"$TEST_TMP/r.json" ||
	fail "report failed"
entries=$(awk '{ n += $2 } END { print n }' "$o/entries")
records=$(jq .records.total "$TEST_TMP/r.json")
assert_eq "records collected = entries in the buffer after the failed collect" \
	"$entries" "$records"

# it did not record itself: its pid's events stop before main
trace-cmd report "$dat" 2>/dev/null >"$TEST_TMP/tc.txt" || fail "trace-cmd report failed"
pid=$(cat "$o/small.pid")
n=$(grep -c -E -- "-$pid +\[" "$TEST_TMP/tc.txt")
note "events of the first collect's pid $pid (its exec and loader): $n"
[ "$n" -gt 0 ] || fail "no event of pid $pid at all: the pid match cannot be trusted"
bad=$(grep -E -- "-$pid +\[" "$TEST_TMP/tc.txt" |
	grep -E 'call_site=(shmem_alloc_inode|dup_task_struct|copy_process)\+' | head -3)
[ -z "$bad" ] || fail "collect recorded its own files or threads: $bad; its events by call site: $(grep -E -- "-$pid +\[" "$TEST_TMP/tc.txt" |
	sed -n 's/.*call_site=\([^+ ]*\).*/\1/p' | sort | uniq -c | sort -rn | head -25)"

# a file size limit hit while writing: exit 1, no file, nothing beside
assert_eq "collect over a file size limit: exit status" 1 "$(cat "$o/cut.rc")"
[ "$(cat "$o/cut-bytes")" -ge 16777216 ] ||
	fail "the workload made only $(cat "$o/cut-bytes") bytes of events"
grep -E 'cut\.dat|slabacct-cpu' "$o/cut.ls" && fail "a file was left: $(tr '\n' ' ' <"$o/cut.ls")"
note "collect over the limit: $(head -3 "$o/cut.out" | tr '\n' ' ')"

# memory: bounded, whatever the trace's size: the large trace's peak
# RSS is within 16 MB of a small one's
rss=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$o/time.out")
rss2=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$o/little-time.out")
size=$(( $(stat -c %s "$dat") / 1024 ))
size2=$(( $(stat -c %s "$o/little.dat") / 1024 ))
note "collect: peak RSS $rss KB for a file of $size KB ($(head -1 "$o/collect.out"))"
note "collect: peak RSS $rss2 KB for a file of $size2 KB ($(head -1 "$o/little.out"))"
[ -n "$rss" ] && [ -n "$rss2" ] || fail "no peak RSS: $(cat "$o/time.out" "$o/little-time.out")"
[ $((size - size2)) -gt 32768 ] || fail "the boot trace ($size KB) is not 32 MB above the small one ($size2 KB)"
[ "$rss" -lt $((rss2 + 16384)) ] ||
	fail "collect's peak RSS grew with the trace: $rss KB for $size KB, $rss2 KB for $size2 KB"

# coverage: every figure against the referee
jq -S '.sections.coverage | del(.sizes) | .rows |= sort_by(.cache)' \
	"$TEST_TMP/r.json" >"$TEST_TMP/ours"
python3 "$TOP/tests/integration/coverage-referee.py" "$dat" <"$TEST_TMP/tc.txt" |
	jq -S . >"$TEST_TMP/want" || fail "the referee failed"
diff -u "$TEST_TMP/want" "$TEST_TMP/ours" >"$TEST_TMP/diff" ||
	fail "coverage differs from the referee's: $(head -40 "$TEST_TMP/diff")"
note "coverage: $(jq -r '"traced \(.totals.traced_bytes) of \(.totals.slab_bytes) bytes in slabinfo, rest \(.totals.rest_bytes); per cache: \(.per_cache), \(.rows | length) rows"' "$TEST_TMP/ours")"
[ "$(jq .totals.traced_bytes "$TEST_TMP/ours")" -gt 0 ] || fail "no live slab traced"
exit 0
