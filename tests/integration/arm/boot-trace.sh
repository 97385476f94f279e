#!/bin/bash
# Boot-time tracing on the ARM boards' kernels (arm64 and armhf 6.1
# guests), the embedded user's path: boot with the parameters `slabacct
# boot cmdline` prints, extract the boot buffer in the guest with the
# guest's own trace-cmd (slabacct is not built for ARM), and report on
# this x86-64 machine. Every call-site figure of `slabacct report`
# (allocations, bytes requested and allocated, frees, live objects and
# bytes, untraced frees) must equal a recount of `trace-cmd report` of the
# same file (tc-recount.py, referee-check.py), and the event counts must
# be trace-cmd's, with no event lost. 32-bit pointers included: the armhf
# trace holds 4-byte call sites and pointers.
. "$(dirname "$0")/../../lib.sh"
for t in trace-cmd python3; do
	command -v $t >/dev/null || fail "$t is not installed (scripts/install-deps)"
done
params=$("$SLABACCT" boot cmdline -q) || fail "boot cmdline failed"
note "boot parameters: $params"
GUEST_FOREIGN_OK=1

cat >"$TEST_TMP/guest.sh" <<'GUEST'
tr=/sys/kernel/tracing
echo 0 > $tr/tracing_on
cat $tr/per_cpu/cpu*/stats > $OUT/stats
trace-cmd extract -o $OUT/boot.dat > $OUT/extract.log 2>&1
echo $? > $OUT/extract.rc
uname -m > $OUT/machine
gzip -1 $OUT/boot.dat
GUEST

for flavour in 6.1-arm64 6.1-armmp; do
	arch=$(guest_arch "$flavour")
	[ -n "$arch" ] || fail "no $flavour kernel (scripts/install-deps)"
	trace_cmd=$(scripts_root=$("$TOP/scripts/kernels" --flavour "$flavour" |
		cut -d' ' -f5) && echo "$scripts_root/usr/bin/trace-cmd")
	[ -x "$trace_cmd" ] || fail "no $arch trace-cmd at $trace_cmd (scripts/install-deps)"
	guest_run "$flavour" "$TEST_TMP/guest.sh" -t 300 -a " $params" \
		-f "$trace_cmd:/bin/trace-cmd" || fail "$flavour: guest run failed"
	o=$TEST_TMP/$flavour
	rm -rf "$o"
	mv "$TEST_TMP/out" "$o"
	note "$flavour: $(cat "$o/machine") guest"
	assert_eq "$flavour: trace-cmd extract status" 0 "$(cat "$o/extract.rc")"
	gunzip "$o/boot.dat.gz" || fail "$flavour: boot.dat did not come back"
	# the boot buffer held every event, or the comparison proves little
	lost=$(awk '/^overrun:/ { n += $2 } END { print n + 0 }' "$o/stats")
	assert_eq "$flavour: events overwritten in the boot buffer" 0 "$lost"

	trace-cmd report "$o/boot.dat" >"$o/report" 2>"$o/report.err" ||
		fail "$flavour: trace-cmd report failed: $(head -n 3 "$o/report.err")"
	python3 "$TOP/tests/integration/tc-recount.py" <"$o/report" \
		>"$o/recount.json" || fail "$flavour: trace-cmd recount failed"
	"$SLABACCT" report --what all --json "$o/boot.dat" >"$o/r.json" ||
		fail "$flavour: slabacct report --json failed"
	"$SLABACCT" report "$o/boot.dat" >"$o/r.txt" ||
		fail "$flavour: slabacct report failed"
	# 6.1 traces a large kmalloc once: no repeat may be folded
	python3 "$TOP/tests/integration/referee-check.py" "$o/r.json" \
		"$o/recount.json" --no-repeats --no-pages ||
		fail "$flavour: slabacct report differs from trace-cmd"
	# every allocation event is a call site's allocation, or a failed one
	python3 - "$o/r.json" "$o/recount.json" "$flavour" <<'PY' ||
import json, sys
r = json.load(open(sys.argv[1]))
rc = json.load(open(sys.argv[2]))
ev = {k.split(':')[-1]: v for k, v in rc['events'].items()}
assert sum(ev.values()) > 1000, 'only %d events from boot' % sum(ev.values())
rows = r['sections']['callsite']['rows']
allocs = sum(x['allocs'] for x in rows)
failed = sum(v['failed'] for v in rc['sites'].values())
want = sum(ev.get(e, 0) for e in ('kmalloc', 'kmem_cache_alloc'))
print('# %s: %d events, %d allocations (%d failed) in %d call sites' %
      (sys.argv[3], sum(ev.values()), allocs, failed, len(rows)))
assert allocs + failed == want, (allocs, failed, want)
PY
		fail "$flavour: allocations differ from trace-cmd's event count"
done
exit 0
