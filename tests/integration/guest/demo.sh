# make demo loses no event: scripts/demo boots Debian's 6.1 kernel (1 GB,
# 2 CPUs, booted on one: --maxcpus 1) with `slabacct boot cmdline
# --stacks` sized for it (the guest kernel's own symbols: on 6.1, a
# stack after every event) and saves the boot trace with `slabacct boot
# collect`; the trace's lost events (the kernel's per-CPU overrun
# counts, as collect read them) must be 0, and no CPU that came up may
# lack a buffer. It runs once, for the 6.1 flavour.
. "$(dirname "$0")/../../lib.sh"
flavour=${1:?kernel flavour}
[ "$flavour" = 6.1 ] || skip "the demo boots 6.1; it runs under guest/demo@6.1"
[ -f "$TOP/build/kmod/$("$TOP/scripts/kernels" --flavour 6.1 | cut -d' ' -f1)/slab_account.ko" ] ||
	fail "no slab_account.ko for 6.1 (make module)"
"$TOP/scripts/demo" >"$TEST_TMP/demo.out" 2>&1 ||
	fail "the demo failed: $(tail -n 5 "$TEST_TMP/demo.out")"
dat=$TOP/build/demo/boot.dat
"$SLABACCT" report --json "$dat" >"$TEST_TMP/r.json" || fail "report failed"
assert_eq "lost events of the demo's boot" 0 "$(jq '.lost.events' "$TEST_TMP/r.json")"
assert_eq "CPUs without a buffer, or kept down by it" "" \
	"$(jq -r '.notes[] | select(test("^CPU [0-9 ]+ had no ring buffer|did not come up"))' "$TEST_TMP/r.json")"
grep -q 'the figures are incomplete' "$TEST_TMP/demo.out" &&
	fail "the demo says its figures are incomplete"
exit 0
