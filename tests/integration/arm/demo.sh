#!/bin/bash
# make demo ARCH=arm64 and ARCH=armhf lose no event: scripts/demo --arch
# boots Debian's arm64 or armhf 6.1 kernel (1 GB, 2 CPUs, booted on one)
# with `slabacct boot cmdline --stacks` (a stack after every event: 6.1
# has no boot triggers), kept within the memory the kernel has when it
# allocates the buffer, and collects the boot with the cross-built
# slabacct in the guest. In the guest, before collect, every CPU's ring
# buffer must have overrun and dropped no event (per_cpu/cpu*/stats);
# the report's lost events must be 0, no CPU that came up may lack a
# buffer, and the demo must not say its figures are incomplete.
. "$(dirname "$0")/../../lib.sh"
for arch in arm64 armhf; do
	flavour=6.1-arm64
	[ $arch = armhf ] && flavour=6.1-armmp
	[ -n "$(guest_arch "$flavour")" ] ||
		fail "no $flavour kernel (scripts/install-deps --arm)"
	[ -n "$(cross_slabacct "$flavour")" ] ||
		fail "no slabacct built for $arch (make ARCH=$arch)"
	krel=$("$TOP/scripts/kernels" --flavour "$flavour" | cut -d' ' -f1)
	[ -f "$TOP/build/kmod/$krel/slab_account.ko" ] ||
		fail "no slab_account.ko for $krel (make module ARCH=all)"
	"$TOP/scripts/demo" --arch $arch >"$TEST_TMP/demo-$arch.out" 2>&1 ||
		fail "$arch: the demo failed: $(tail -n 5 "$TEST_TMP/demo-$arch.out")"
	out=$TOP/build/demo-$arch
	note "$arch: $(sed -n 's/.*\(trace_buf_size=[^ ]*\).*/\1/p' "$out/cmdline")," \
		"$(sed -n 's/.*\(maxcpus=[^ ]*\).*/\1/p' "$out/cmdline")"
	stats=$out/boot-buffer-stats
	# a line per CPU the kernel knows: cpuN overrun N dropped N entries N
	grep -q '^cpu[0-9]* overrun [0-9]* dropped [0-9]* entries [0-9]*$' "$stats" ||
		fail "$arch: no per-CPU ring-buffer counters from the guest: $(head -c 300 "$stats")"
	note "$arch per CPU: $(tr '\n' ';' <"$stats")"
	assert_eq "$arch: CPUs whose buffer overran or dropped events" "" \
		"$(awk '$3 != 0 || $5 != 0 { print $1 }' "$stats")"
	"$SLABACCT" report --json "$out/boot.dat" >"$TEST_TMP/r-$arch.json" ||
		fail "$arch: report failed"
	assert_eq "$arch: lost events of the demo's boot" 0 \
		"$(jq '.lost.events' "$TEST_TMP/r-$arch.json")"
	# what the buffers held is what the trace has
	assert_eq "$arch: records in the trace, and the buffers' entries" \
		"$(awk '{ n += $7 } END { print n }' "$stats")" \
		"$(jq '.records.total' "$TEST_TMP/r-$arch.json")"
	assert_eq "$arch: CPUs without a buffer, or kept down by it" "" \
		"$(jq -r '.notes[] | select(test("^CPU [0-9 ]+ had no ring buffer|did not come up"))' "$TEST_TMP/r-$arch.json")"
	! grep -q 'the figures are incomplete' "$TEST_TMP/demo-$arch.out" ||
		fail "$arch: the demo says its figures are incomplete"
done
exit 0
