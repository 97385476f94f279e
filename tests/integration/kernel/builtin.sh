#!/bin/bash
# slab_account built into a custom 6.1 kernel (builtin.config; smp.config
# for the second CPU), against a
# lossless trace_event= boot trace of the same boot and a lossless
# `slabacct record` of a known load, both decoded by trace-cmd.
#
# The boot: the kernel boots with the kmem allocation events and the
# initcall events on from start_kernel (trace_event=, a buffer far larger
# than the boot needs). User space's first act is to read
# /proc/slab_account between two trace markers. For every call site, the
# trace's allocations after slab_account_init's initcall_finish and
# before the first marker must equal the accounting's allocs, exactly,
# where the site allocated neither during slab_account_init nor between
# the markers; where it did, the accounting's count lies between the
# trace's counts without and with those windows. No row may have
# allocations the trace lacks. What the accounting saw before any trace
# of user space started is printed: non-zero, with what the boot trace
# holds before slab_account_init (what the accounting misses).
# The parameters come from the command line (slab_account.sites=).
#
# The load: sa_test.ko makes N kmalloc(S) (M freed), CN allocations from
# its own cache (CM freed) and LN large kmallocs (LM freed) under
# `slabacct record`; the accounting's rows for sa_test must equal the
# known counts and the trace's (allocations at the site, frees of the
# pointers allocated there).
. "$(dirname "$0")/../../lib.sh"
. "$(dirname "$0")/kernel-lib.bash"
command -v trace-cmd >/dev/null || fail "trace-cmd is not installed (scripts/install-deps)"

builtin_kernel
N=1000 S=100 M=300 CN=500 CM=200 LN=50 LM=20
SITES=4096
events=kmem:kmalloc,kmem:kmalloc_node,kmem:kfree,kmem:kmem_cache_alloc
events=$events,kmem:kmem_cache_alloc_node,kmem:kmem_cache_free
events=$events,initcall:initcall_start,initcall:initcall_finish
params="trace_event=$events trace_buf_size=40M trace_clock=global"
params="$params slab_account.sites=$SITES"

cat >"$TEST_TMP/guest.sh" <<GUEST
set -e
tr=/sys/kernel/tracing
# first: the accounting's view of the boot, between two markers
echo before-read > \$tr/trace_marker
cat /proc/slab_account > \$OUT/account.boot
echo after-read > \$tr/trace_marker
echo 0 > \$tr/tracing_on
echo 0 > \$tr/events/enable
cat \$tr/per_cpu/cpu*/stats > \$OUT/boot.stats
trace-cmd extract -o /tmp/boot.dat > \$OUT/extract.log 2>&1
trace-cmd report /tmp/boot.dat 2> \$OUT/boot.report-err | gzip -1 > \$OUT/boot.report.gz
rm /tmp/boot.dat
echo > \$tr/trace
ls -d /sys/devices/system/cpu/cpu[0-9]* | wc -l > \$OUT/cpus
# the load, recorded
insmod \$MODDIR/sa_test.ko
load='echo kmalloc $N $S $M > /proc/sa_test; echo cache $CN $S $CM > /proc/sa_test; echo large $LN $LM > /proc/sa_test'
slabacct record -o /tmp/rec.dat -- sh -c "\$load" > \$OUT/record.log 2>&1
cat /proc/slab_account > \$OUT/account
cat /proc/sa_test > \$OUT/sa_test
cat /sys/kernel/slab/sa_test_cache/slab_size > \$OUT/slab_size
trace-cmd report /tmp/rec.dat 2> \$OUT/rec.report-err | gzip -1 > \$OUT/rec.report.gz
cat /proc/vmallocinfo > \$OUT/vmallocinfo
echo free > /proc/sa_test
rmmod sa_test
GUEST
guest_run "$KREL_DIR/bzImage" "$TEST_TMP/guest.sh" -t 600 --smp 2 -m 1024 -a " $params" \
	-f /usr/bin/trace-cmd:/bin/trace-cmd ||
	fail "guest run failed ($(tail -n 3 "$TEST_TMP/out/script.log" 2>/dev/null | tr '\n' ' '))"
o=$TEST_TMP/out
gunzip "$o/boot.report.gz" "$o/rec.report.gz" || fail "the trace reports did not come back"
for f in boot.report-err rec.report-err; do
	[ -s "$o/$f" ] && fail "trace-cmd report warned: $(head -n 3 "$o/$f")"
done

# two CPUs: the per-CPU counters summed, the trace's two buffers merged
assert_eq "CPUs online" 2 "$(cat "$o/cpus")"
# built in, loaded once at boot, with the command line's parameters
grep -q "slab_account: loaded, format version 3, $SITES sites" "$o/dmesg" ||
	fail "no load message with $SITES sites: $(grep slab_account "$o/dmesg")"
assert_eq "sites (slab_account.sites=$SITES)" $SITES \
	"$(sed -n 's/^sites: //p' "$o/account.boot")"
head -n 1 "$o/account.boot" | grep -qx '# slab_account 3' || fail "bad version line"
# the boot trace is lossless: no overrun, nothing dropped
awk '/^overrun:|^dropped events:/ && $NF != 0 { bad = 1 } END { exit bad }' \
	"$o/boot.stats" || fail "the boot trace lost events: $(cat "$o/boot.stats")"
grep -Eq '(^| )0 events lost|no events lost' "$o/record.log" ||
	fail "slabacct record lost events: $(cat "$o/record.log")"

python3 - "$o/boot.report" "$o/account.boot" >"$TEST_TMP/boot.out" <<'PY' ||
import re, sys
from collections import Counter

ev_re = re.compile(r'^\s*.+?-\d+\s+\[\d+\]\s+[\d.]+:\s+(\w+):\s+(.*)$')
kinds = {"kmalloc": "kmalloc", "kmalloc_node": "kmalloc",
         "kmem_cache_alloc": "cache", "kmem_cache_alloc_node": "cache"}
# phase 0 before slab_account_init, 1 during it, 2 after it up to the
# first marker, 3 between the markers, 4 after them
phase = 0
count = [Counter() for _ in range(5)]
marks = []
for line in open(sys.argv[1]):
    m = ev_re.match(line)
    if not m:
        continue
    ev, rest = m.groups()
    if ev == "initcall_start" and rest.startswith("func=slab_account_init+"):
        assert phase == 0, "slab_account_init started twice"
        phase = 1
    elif ev == "initcall_finish" and rest.startswith("func=slab_account_init+"):
        assert phase == 1 and rest.endswith("ret=0"), rest
        phase = 2
    elif ev == "print" and "before-read" in rest:
        assert phase == 2, "marker before slab_account_init finished"
        phase = 3
    elif ev == "print" and "after-read" in rest:
        assert phase == 3
        phase = 4
    elif ev in kinds:
        site = re.search(r'call_site=(\S+)', rest).group(1)
        count[phase][(kinds[ev], site)] += 1
assert phase == 4, "the trace lacks slab_account_init or the markers (phase %d)" % phase

acct = Counter()
header = {}
rows = False
for line in open(sys.argv[2]):
    if line.startswith("#") and "caller" in line:
        rows = True
        continue
    if not rows:
        k, _, v = line.partition(": ")
        header[k] = v.strip()
        continue
    f = line.split()
    allocs = int(f[5].split("/")[0])
    caller = " ".join(f[7:]).split(" <- ")[0]
    acct[(f[6], re.sub(r'/0x[0-9a-f]+$', '', caller))] += allocs
assert header.get("dropped") == "0", "rows dropped: %s" % header.get("dropped")

exact = ranged = 0
bad = []
for key in set(acct) | set(count[2]) | set(count[1]) | set(count[3]):
    a, t, t_in, t_read = acct[key], count[2][key], count[1][key], count[3][key]
    if t_in == 0 and t_read == 0:
        exact += 1
        if a != t:
            bad.append("%s %s: accounted %d, traced %d" % (key + (a, t)))
    else:
        ranged += 1
        if not t <= a <= t + t_in + t_read:
            bad.append("%s %s: accounted %d, traced %d (+%d in init, +%d in the read)"
                       % (key + (a, t, t_in, t_read)))
if bad:
    print("\n".join(bad[:20]), file=sys.stderr)
    sys.exit(1)
total = sum(acct.values())
assert total == int(header["allocs"]), (total, header["allocs"])
print("sites_exact", exact)
print("sites_ranged", ranged)
print("boot_allocs", total)
print("boot_sites", len([k for k in acct if acct[k]]))
print("trace_before", sum(count[0].values()))
print("trace_before_sites", len(count[0]))
print("trace_during", sum(count[1].values()))
print("trace_after", sum(count[2].values()))
print("trace_read", sum(count[3].values()))
PY
	fail "the accounting's boot rows differ from the boot trace's"
val() { sed -n "s/^$1 //p" "$TEST_TMP/boot.out"; }
note "boot: the accounting counted $(val boot_allocs) allocations at" \
	"$(val boot_sites) call sites before user space read it"
note "boot: trace_event= holds $(val trace_before) allocations at" \
	"$(val trace_before_sites) sites before slab_account_init," \
	"$(val trace_during) during it, $(val trace_after) after it"
note "boot: $(val sites_exact) sites equal the trace's exactly," \
	"$(val sites_ranged) within the init and read windows"
[ "$(val boot_allocs)" -gt 0 ] || fail "the accounting counted nothing at boot"
[ "$(val sites_exact)" -gt 50 ] || fail "only $(val sites_exact) sites compared exactly"
# what the built-in accounting misses: start_kernel, after trace_init
[ "$(val trace_before)" -gt 0 ] ||
	fail "no allocation in the boot trace before slab_account_init"

# the load: known counts, and the recorded trace's
ksize=$(sed -n 's/^kmalloc_ksize: //p' "$o/sa_test")
lsize=$(sed -n 's/^large_size: //p' "$o/sa_test")
lksize=$(sed -n 's/^large_ksize: //p' "$o/sa_test")
slot=$(cat "$o/slab_size")
[ -n "$ksize" ] && [ -n "$lksize" ] && [ -n "$slot" ] || fail "sa_test did not report its sizes"
# traced SITE: "allocs frees bytes_alloc" of the call site SITE in the
# recorded trace, its frees being those of the pointers it allocated
traced() {
	awk -v f="$1" '
	$4 ~ /^(kmalloc|kmalloc_node|kmem_cache_alloc|kmem_cache_alloc_node):$/ {
		site = ""; ptr = ""; ba = 0
		for (i = 5; i <= NF; i++) {
			if ($i ~ /^call_site=/) site = substr($i, 11)
			if ($i ~ /^ptr=/) ptr = substr($i, 5)
			if ($i ~ /^bytes_alloc=/) ba = substr($i, 13)
		}
		if (index(site, f "+") == 1) { held[ptr] = 1; a++; b += ba }
		next
	}
	$4 ~ /^(kfree|kmem_cache_free):$/ {
		for (i = 5; i <= NF; i++)
			if ($i ~ /^ptr=/ && substr($i, 5) in held) {
				delete held[substr($i, 5)]; fr++
			}
	}
	END { printf "%d %d %d\n", a, fr, b }' "$o/rec.report"
}
# accounted SITE: "allocs frees bytes_alloc" of sa_test's row for SITE
accounted() {
	awk -v f="$1" '/^# *total/ { r = 1; next }
		r && index($8, f "+") == 1 && $NF == "[sa_test]" {
			split($6, af, "/"); print af[1], af[2], $1; n++ }
		END { if (n != 1) print "rows: " n + 0 }' "$o/account"
}
check_site() {
	local fn=$1 want=$2
	assert_eq "$fn: the accounting's allocs frees bytes" "$want" "$(accounted "$fn")"
	assert_eq "$fn: the trace's allocs frees bytes" "$want" "$(traced "$fn")"
}
check_site sa_test_kmalloc_loop "$N $M $((N * ksize))"
check_site sa_test_cache_loop "$CN $CM $((CN * slot))"
check_site sa_test_large_loop "$LN $LM $((LN * lksize))"
# what the accounting saw before the recording started: the boot's
# allocations at least, all still in the table
all=$(sed -n 's/^allocs: //p' "$o/account")
[ "$all" -ge $(($(val boot_allocs) + N + CN + LN)) ] ||
	fail "the table holds $all allocations, fewer than the boot's and the load's"
note "the load: the accounting's sa_test rows equal the trace's and the known counts;" \
	"$all allocations counted since early_initcall"

# the fixed cost: the accounting's vmalloc'ed tables (less the guard page)
cost=$(awk '$3 ~ /^sa_[a-z_]+_init\+/ { s += $2 - 4096 } END { print s + 0 }' "$o/vmallocinfo")
note "tables: $cost bytes vmalloc'ed with sites=$SITES on $(cat "$o/cpus") CPUs"
[ "$cost" -gt 0 ] || fail "no table of the accounting in /proc/vmallocinfo"
