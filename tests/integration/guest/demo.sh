# make demo loses no event: scripts/demo boots Debian's 6.1 kernel (1 GB,
# 2 CPUs, booted on one: --maxcpus 1) with `slabacct boot cmdline
# --stacks` sized for it (the guest kernel's own symbols: on 6.1, a
# stack after every event) and saves the boot trace with `slabacct boot
# collect`; the trace's lost events (the kernel's per-CPU overrun
# counts, as collect read them) must be 0, and no CPU that came up may
# lack a buffer. It runs for the 6.1 flavour (make demo) and for
# 6.12-cloud (make demo KERNEL=6.12-cloud: stacks by boot triggers on the
# wrappers' allocations).
. "$(dirname "$0")/../../lib.sh"
flavour=${1:?kernel flavour}
case $flavour in
6.1) args=() out=demo ;;
6.12-cloud) args=(--kernel "$flavour") out=demo-$flavour ;;
*) skip "the demo boots 6.1 or 6.12-cloud" ;;
esac
[ -f "$TOP/build/kmod/$("$TOP/scripts/kernels" --flavour "$flavour" | cut -d' ' -f1)/slab_account.ko" ] ||
	fail "no slab_account.ko for $flavour (make module)"
"$TOP/scripts/demo" "${args[@]+"${args[@]}"}" >"$TEST_TMP/demo.out" 2>&1 ||
	fail "the demo failed: $(tail -n 5 "$TEST_TMP/demo.out")"
dat=$TOP/build/$out/boot.dat
"$SLABACCT" report --json "$dat" >"$TEST_TMP/r.json" || fail "report failed"
assert_eq "lost events of the demo's boot" 0 "$(jq '.lost.events' "$TEST_TMP/r.json")"
assert_eq "CPUs without a buffer, or kept down by it" "" \
	"$(jq -r '.notes[] | select(test("^CPU [0-9 ]+ had no ring buffer|did not come up"))' "$TEST_TMP/r.json")"
# it ends with the guest's RAM budget, whose unexplained part is under
# 1% of the RAM (it was -14% when the budget counted the buffers of the
# CPU that maxcpus=1 keeps down)
grep -q '^RAM budget: ' "$TEST_TMP/demo.out" || fail "the demo shows no budget"
"$SLABACCT" report --what budget --json "$dat" >"$TEST_TMP/b.json" ||
	fail "report --what budget failed"
jq -e '.sections.budget | (.unexplained_kb | fabs) * 100 < .ram_kb' \
	"$TEST_TMP/b.json" >/dev/null ||
	fail "the demo's budget: unexplained $(jq '.sections.budget.unexplained_kb' "$TEST_TMP/b.json") kB of $(jq '.sections.budget.ram_kb' "$TEST_TMP/b.json")"
note "$flavour: budget unexplained $(jq '.sections.budget.unexplained_pct' "$TEST_TMP/b.json")% of RAM"
grep -q 'the figures are incomplete' "$TEST_TMP/demo.out" &&
	fail "the demo says its figures are incomplete"
exit 0
