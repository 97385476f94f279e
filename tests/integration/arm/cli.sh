#!/bin/bash
# The slabacct CLI cross-built for the ARM boards (make ARCH=arm64 and
# make ARCH=armhf), run inside the arm64 and armhf 6.1 guests by the same
# guest tests that run the x86-64 one, with their exact checks:
#   guest/boot-collect   boot collect (every count equal to trace-cmd's
#                        decoding of the file, here), record (the guest's
#                        trace-cmd recounts the recording)
#   guest/module-account account: sa_test.ko's exact rows, in the guest
#   guest/top-module     top on /proc/slab_account: sa_test's exact bytes
#   guest/top-record     top on tracefs equal to a record's report
#   guest/snapshot       snapshot: MemTotal, slabinfo, the kernel's own
#                        unusable free space index, a memcg OOM kill
# A skip of any of them fails here. Then the BPF part: on arm64 the
# vmlinux.h came from the BTF in the kernel image (scripts/extract-btf),
# which must be the running kernel's /sys/kernel/btf/vmlinux byte for
# byte, and a BPF tool (vmscan) loads and reports in the guest; armhf's
# kernel has no BTF, and its slabacct says it has no BPF tools; there,
# boot collect also runs with tracefs unmounted, as on a board whose
# initramfs has none.
. "$(dirname "$0")/../../lib.sh"
tests=(boot-collect module-account top-module top-record snapshot)
failed=() ran=0
for flavour in 6.1-arm64 6.1-armmp; do
	arch=$(guest_arch "$flavour")
	[ -n "$arch" ] || fail "no $flavour kernel (scripts/install-deps --arm)"
	[ -n "$(cross_slabacct "$flavour")" ] ||
		fail "no slabacct built for $arch (make ARCH=$arch)"
	krel=$("$TOP/scripts/kernels" --flavour "$flavour" | cut -d' ' -f1)
	[ -f "$TOP/build/kmod/$krel/slab_account.ko" ] ||
		fail "no module built for $krel (make module ARCH=all)"
	for n in "${tests[@]}"; do
		log=$TEST_TMP/$n@$flavour.log
		bash "$TOP/tests/integration/guest/$n.sh" "$flavour" >"$log" 2>&1
		rc=$?
		if [ $rc = 0 ]; then
			note "$n: passed on $flavour"
			ran=$((ran + 1))
			continue
		fi
		echo "--- $n on $flavour exited $rc:" >&2
		tail -n 30 "$log" >&2
		failed+=("$n@$flavour")
	done
done

# BPF on arm64: the BTF the build took from the image is the kernel's
GUEST_FOREIGN_OK=1
cat >"$TEST_TMP/bpf.sh" <<'GUEST'
cp /sys/kernel/btf/vmlinux $OUT/btf
mount -t debugfs nodev /sys/kernel/debug 2>/dev/null
slabacct vmscan --json 1 2 >$OUT/vmscan.json 2>$OUT/vmscan.err &
pid=$!
sleep 1
# some reclaim to see: drop the caches
echo 3 >/proc/sys/vm/drop_caches
wait $pid
echo $? >$OUT/vmscan.rc
slabacct --help >$OUT/help
GUEST
btf=$TOP/build/arm64/bpf/vmlinux.btf
[ -f "$btf" ] || fail "no $btf: make ARCH=arm64 did not take the kernel's BTF"
guest_run 6.1-arm64 "$TEST_TMP/bpf.sh" -t 240 || fail "arm64 BPF guest run failed"
o=$TEST_TMP/out
cmp -s "$btf" "$o/btf" ||
	fail "the BTF taken from the arm64 image differs from the guest's /sys/kernel/btf/vmlinux"
note "arm64: the BTF of the image is the running kernel's ($(stat -c %s "$btf") bytes)"
grep -q ' vmscan .*BPF' "$o/help" || fail "arm64 slabacct lists no BPF tools"
assert_eq "arm64: slabacct vmscan status" 0 "$(cat "$o/vmscan.rc")"
python3 - "$o/vmscan.json" <<'PY' || fail "arm64: vmscan's JSON: $(head -c 300 "$o/vmscan.err")"
import json, sys
docs = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
assert len(docs) == 2, '%d reports, expected 2' % len(docs)
print('# arm64: vmscan gave %d reports' % len(docs))
PY

# armhf: no BTF, no BPF tools, and --help says why. And a board whose
# initramfs has no tracefs: boot traced from the command line, tracefs
# not mounted when slabacct boot collect runs (the README's recipe)
params=$("$SLABACCT" boot cmdline -q) || fail "boot cmdline failed"
cat >"$TEST_TMP/nobpf.sh" <<'GUEST'
slabacct --help >$OUT/help
slabacct vmscan >$OUT/vmscan.out 2>&1
echo $? >$OUT/vmscan.rc
umount /sys/kernel/debug 2>/dev/null
umount /sys/kernel/tracing
grep -c tracefs /proc/mounts >$OUT/mounted-before
slabacct boot collect -o $OUT/boot.dat >$OUT/collect.out 2>$OUT/collect.err
echo $? >$OUT/collect.rc
GUEST
guest_run 6.1-armmp "$TEST_TMP/nobpf.sh" -t 240 -a " $params" ||
	fail "armhf guest run failed"
grep -q 'BPF tools are not in this build: the armhf kernel .* has no BTF' \
	"$o/help" || fail "armhf slabacct --help does not say why it has no BPF tools"
grep -q ' BPF: ' "$o/help" && fail "armhf slabacct lists BPF tools"
assert_eq "armhf: slabacct vmscan (no such command) status" 2 "$(cat "$o/vmscan.rc")"
assert_eq "armhf: tracefs mounts before boot collect" 0 "$(cat "$o/mounted-before")"
assert_eq "armhf: boot collect with tracefs unmounted" 0 "$(cat "$o/collect.rc")"
"$SLABACCT" report --json "$o/boot.dat" >"$TEST_TMP/nomount.json" ||
	fail "the boot.dat collected with tracefs unmounted does not report"
python3 - "$TEST_TMP/nomount.json" <<'PY' || fail "armhf: boot collect with tracefs unmounted saved too little"
import json, sys
r = json.load(open(sys.argv[1]))
n = sum(x['allocs'] for x in r['sections']['callsite']['rows'])
print('# armhf, tracefs unmounted: %d allocations from boot' % n)
assert n > 1000, n
PY

[ ${#failed[@]} = 0 ] || fail "slabacct on the ARM guests: ${failed[*]}"
note "$ran guest tests passed with the cross-built slabacct on the ARM guests"
