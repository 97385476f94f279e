# Shared by the custom-kernel tests (sourced after tests/lib.sh): the
# kernels of make check-kernel, built or reused by scripts/kernel-build:
# the debug kernel (6.1) and the one with allocation profiling (6.12).
# The debug kernel carries the memory-pressure and page-owner fragments
# too, so that one kernel build serves the other kernel/ tests
# (kernel/pressure runs the reclaim and OOM tests under it).

DEBUG_FRAGMENTS=(qemu tracing module debug pressure pageowner)

# custom_kernel WHAT BUILDER ARGS...: run a kernel build script, and set
# KREL_DIR (bzImage and the modules built against it) and KDIR (the
# kernel's object tree, with vmlinux and the .o files)
custom_kernel() {
	local what=$1
	shift
	KREL_DIR=$("$@" 2>"$TEST_TMP/kernel-build.log") || {
		tail -n 40 "$TEST_TMP/kernel-build.log" >&2
		fail "${*#"$TOP/"} failed"
	}
	KDIR=$(dirname "$KREL_DIR")
	[ -f "$KREL_DIR/bzImage" ] || fail "no bzImage in $KREL_DIR"
	[ -f "$KREL_DIR/slab_account.ko" ] || fail "no slab_account.ko in $KREL_DIR"
	[ -f "$KREL_DIR/test/slab_account.ko" ] ||
		fail "no test build of slab_account.ko in $KREL_DIR/test"
	note "$what kernel $(basename "$KREL_DIR") in $KDIR"
}

# debug_kernel: the 6.1 kernel of DEBUG_FRAGMENTS (KASAN, lockdep,
# kmemleak, memory pressure, page owner)
debug_kernel() {
	custom_kernel debug "$TOP/scripts/kernel-build" "${DEBUG_FRAGMENTS[@]}"
}

# allocinfo_kernel: the 6.12 kernel with /proc/allocinfo
# (scripts/allocinfo-kernel)
allocinfo_kernel() {
	custom_kernel allocinfo "$TOP/scripts/allocinfo-kernel"
}

# allocinfo_guest_run [qemu/run options...] <SCRIPT: boot the kernel of
# allocinfo_kernel and run the guest script read from stdin, after lines
# of its own that stop the guest without /proc/allocinfo and keep
# vm.mem_profiling as the kernel booted (-t 600; results in
# $TEST_TMP/out, as guest_run). Fails if the guest run fails or the
# kernel did not boot with allocation profiling on.
allocinfo_guest_run() {
	local o=$TEST_TMP/out
	{
		cat <<'HEAD'
set -e
[ -r /proc/allocinfo ] || { echo "no /proc/allocinfo in this kernel"; exit 1; }
cat /proc/sys/vm/mem_profiling >$OUT/mem_profiling
HEAD
		cat
	} >"$TEST_TMP/guest.sh"
	guest_run "$KREL_DIR/bzImage" "$TEST_TMP/guest.sh" -t 600 "$@" ||
		fail "guest run failed ($(tail -n 3 "$o/script.log" 2>/dev/null | tr '\n' ' '))"
	assert_eq "vm.mem_profiling at boot" 1 "$(cat "$o/mem_profiling")"
}

# The kernel's bug finders, as they print themselves in the log
SPLAT_RE='BUG:|WARNING:|Oops|general protection fault|KASAN:|UBSAN:|possible circular locking|possible recursive locking|inconsistent lock state|sleeping function called from invalid context|INFO: lockdep|suspicious RCU usage|DEBUG_LOCKS_WARN_ON'

# The built-in accounting's kernel (kernel/builtin): tinyconfig with
# slab_account compiled in (builtin.config), ACPI for a second CPU (smp.config),
# no bug finders
BUILTIN_FRAGMENTS=(qemu tracing builtin smp)

# builtin_kernel: the 6.1 kernel of BUILTIN_FRAGMENTS
builtin_kernel() {
	custom_kernel built-in "$TOP/scripts/kernel-build" "${BUILTIN_FRAGMENTS[@]}"
	grep -qx 'CONFIG_SLAB_ACCOUNT=y' "$KDIR/.config" ||
		fail "slab_account is not built into $KDIR"
}
