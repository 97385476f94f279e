# Shared by the custom-kernel tests (sourced after tests/lib.sh): the
# debug kernel of make check-kernel, built or reused by
# scripts/kernel-build. It carries the memory-pressure and page-owner
# fragments too, so that one kernel build serves every kernel/ test
# (kernel/pressure runs the reclaim and OOM tests under it).

DEBUG_FRAGMENTS=(qemu tracing module debug pressure pageowner)

# debug_kernel: sets KREL_DIR (bzImage and the modules built against it)
# and KDIR (the kernel's object tree, with vmlinux and the .o files)
debug_kernel() {
	KREL_DIR=$("$TOP/scripts/kernel-build" "${DEBUG_FRAGMENTS[@]}" \
		2>"$TEST_TMP/kernel-build.log") || {
		tail -n 40 "$TEST_TMP/kernel-build.log" >&2
		fail "scripts/kernel-build ${DEBUG_FRAGMENTS[*]} failed"
	}
	KDIR=$(dirname "$KREL_DIR")
	[ -f "$KREL_DIR/bzImage" ] || fail "no bzImage in $KREL_DIR"
	[ -f "$KREL_DIR/slab_account.ko" ] || fail "no slab_account.ko in $KREL_DIR"
	[ -f "$KREL_DIR/test/slab_account.ko" ] ||
		fail "no test build of slab_account.ko in $KREL_DIR/test"
	note "debug kernel $(basename "$KREL_DIR") in $KDIR"
}

# The kernel's bug finders, as they print themselves in the log
SPLAT_RE='BUG:|WARNING:|Oops|general protection fault|KASAN:|UBSAN:|possible circular locking|possible recursive locking|inconsistent lock state|sleeping function called from invalid context|INFO: lockdep|suspicious RCU usage|DEBUG_LOCKS_WARN_ON'
