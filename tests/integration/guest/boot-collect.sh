# Boot-time tracing in a guest of kernel flavour $1, in one boot: boot
# with the parameters `slabacct boot cmdline` prints, save the boot buffer
# with `slabacct boot collect` and decode it on the host (with the guest's
# kallsyms, carried in the file), checking the counts against trace-cmd
# report; then record a workload with `slabacct record` in the guest and
# check it with the guest's trace-cmd.
. "$(dirname "$0")/../../lib.sh"
. "$(dirname "$0")/../record-lib.sh"
flavour=${1:?kernel flavour}
command -v trace-cmd >/dev/null || fail "trace-cmd is not installed (scripts/install-deps)"

params=$("$SLABACCT" boot cmdline -q) || fail "boot cmdline failed"
echo "$params" | grep -q 'trace_clock=global' || fail "no trace_clock=global in: $params"

cat >"$TEST_TMP/guest.sh" <<'GUEST'
slabacct boot collect -o $OUT/boot.dat >$OUT/collect.out 2>$OUT/collect.err
echo $? >$OUT/collect.rc
# the boot buffer is stopped and its events disabled: nothing to collect
slabacct boot collect -o $OUT/again.dat >/dev/null 2>$OUT/again.err
echo $? >$OUT/again.rc
# a live recording, checked here with trace-cmd: the second serial port
# is slow under TCG (about 60 KB/s), so only boot.dat goes to the host
slabacct record -o /tmp/rec.dat -- sh -c 'i=0; while [ $i -lt 20 ]; do
	cat /proc/meminfo >/dev/null; i=$((i + 1)); done' \
	>$OUT/record.out 2>$OUT/record.err
echo $? >$OUT/record.rc
trace-cmd report /tmp/rec.dat >/tmp/rec.report 2>$OUT/rec.report-err
echo $? >$OUT/rec.report-rc
grep -cE '^ *.+ \[[0-9]+\] +[0-9.]+: [a-z_]+: ' /tmp/rec.report >$OUT/rec.total
for e in kmalloc kfree kmem_cache_alloc kmem_cache_free; do
	echo "kmem:$e $(grep -c " $e: " /tmp/rec.report)"
done >$OUT/rec.counts
ls /sys/kernel/tracing/instances >$OUT/instances-after
stat -c %a $OUT/boot.dat /tmp/rec.dat >$OUT/modes
uname -r >$OUT/release
gzip -1 $OUT/boot.dat
GUEST
guest_run "$flavour" "$TEST_TMP/guest.sh" -t 240 -a " $params" \
	-f /usr/bin/trace-cmd:/bin/trace-cmd || fail "guest run failed"
o=$TEST_TMP/out
release=$(cat "$o/release")
gunzip "$o/boot.dat.gz" || fail "boot.dat did not come back"

# check_boot NAME FILE SUMMARY: check_counts, and what decoding on the
# host needs from the guest.
check_boot() {
	local name=$1 file=$2 rep=$TEST_TMP/$1.report
	check_counts "$@"
	# call sites resolve through the guest's kallsyms saved in the file
	grep -q ' kmalloc: .*call_site=[a-z_][a-z0-9_.]*+0x' "$rep" ||
		fail "$name: kmalloc call sites are not symbolic"
	trace-cmd dump --options "$file" 2>/dev/null | grep -q "$release" ||
		fail "$name: the UNAME option lacks $release"
	grep -aq 'MemTotal:' "$file" ||
		fail "$name: /proc/meminfo is not in the origin section"
}

assert_eq "boot collect status" 0 "$(cat "$o/collect.rc")"
cat "$o/collect.out" "$o/collect.err"
check_boot boot "$o/boot.dat" "$o/collect.out"
boot_kmalloc=$(sed -n 's/^  kmem:kmalloc *\([0-9]*\)$/\1/p' "$o/collect.out")
[ "${boot_kmalloc:-0}" -gt 1000 ] ||
	fail "only '${boot_kmalloc}' kmalloc events from boot (reset by a clock switch?)"
grep -Eq 'no events lost|events lost' "$o/collect.err" ||
	fail "boot collect did not report lost events"
grep -Eq 'held every event|was too small' "$o/collect.out" ||
	fail "boot collect gave no buffer size advice"

# the system snapshot: at the end (the collection) only; the state at the
# start of the boot is not known, and nothing claims to be it
"$SLABACCT" report --json "$o/boot.dat" >"$TEST_TMP/boot.json" ||
	fail "report --json of boot.dat failed"
assert_eq "boot.dat system snapshots (start end)" "null object" \
	"$(jq -r '.system | "\(.start | type) \(.end | type)"' "$TEST_TMP/boot.json")"

assert_eq "second collect status" 1 "$(cat "$o/again.rc")"
grep -q 'no trace event is enabled' "$o/again.err" ||
	fail "second collect: $(cat "$o/again.err")"

assert_eq "record status" 0 "$(cat "$o/record.rc")"
cat "$o/record.out"
assert_eq "guest trace-cmd report of the recording" 0 "$(cat "$o/rec.report-rc")"
[ -s "$o/rec.report-err" ] && fail "guest trace-cmd report warned: $(head -3 "$o/rec.report-err")"
assert_eq "record: events in report" "$(summary_total "$o/record.out")" \
	"$(cat "$o/rec.total")"
while read -r ev n; do
	assert_eq "record: $ev" \
		"$(sed -n "s/^  $ev *\([0-9]*\)$/\1/p" "$o/record.out")" "$n"
done <"$o/rec.counts"
assert_eq "instances left in the guest" "" "$(cat "$o/instances-after")"
# private outputs (they hold the guest's kallsyms), and no warning for
# events merged into others (kmalloc_node into kmalloc)
assert_eq "modes of boot.dat and a recording" "600 600" "$(echo $(cat "$o/modes"))"
if grep 'does not exist' "$o/record.err" | grep -q '_node '; then
	fail "record warned about a merged event: $(cat "$o/record.err")"
fi
