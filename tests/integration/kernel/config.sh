#!/bin/bash
# The kconfig fragments merge cleanly onto tinyconfig and defconfig, and
# scripts/kernel-build fails, naming them, when options are dropped.
# Configuration only (scripts/kernel-build --config-only): no compiling.
. "$(dirname "$0")/../../lib.sh"

KB=$TOP/scripts/kernel-build
for f in "$TOP"/kconfig-fragments/*.config; do
	name=$(basename "$f")
	head -n 1 "$f" | grep -q "^# $name: " ||
		fail "$name does not start with '# $name: what it is for'"
done
note "every fragment starts with a comment saying what it is for"

# config_only NAME ARGS...: merge into a scratch directory; must succeed
config_only() {
	local name=$1
	shift
	"$KB" -q --config-only -o "$TEST_TMP/$name" "$@" >"$TEST_TMP/$name.out" \
		2>"$TEST_TMP/$name.err" ||
		{ cat "$TEST_TMP/$name.err" >&2; fail "$name: kernel-build $* failed"; }
	note "$name: $* merged, every option kept"
}
config_only debug qemu tracing module debug
grep -qx 'CONFIG_KASAN=y' "$TEST_TMP/debug/.config" || fail "debug: no KASAN"
grep -qx 'CONFIG_64BIT=y' "$TEST_TMP/debug/.config" || fail "debug: not 64-bit"
grep -qx '# CONFIG_SLOB is not set' "$TEST_TMP/debug/.config" ||
	fail "debug: SLOB still on"
config_only bpf qemu tracing module bpf callsite
config_only pressure qemu tracing module pressure pageowner
grep -qx 'CONFIG_ZRAM=y' "$TEST_TMP/pressure/.config" || fail "pressure: zram not built in"
# slab_account built in: kernel-build adds it to its own copy of the
# source (SRC+slab_account), never to the shared tree other builds use
config_only builtin qemu tracing builtin
grep -qx 'CONFIG_SLAB_ACCOUNT=y' "$TEST_TMP/builtin/.config" || fail "builtin: no SLAB_ACCOUNT"
src=${SLABACCT_KBUILD_DIR:-/var/cache/slabacct/kernel-build}/src/linux-source-6.1
[ -f "$src+slab_account/mm/slab_account/Kbuild" ] || fail "builtin: no mm/slab_account/ in its tree"
cmp -s "$TOP/module/main.c" "$src+slab_account/mm/slab_account/main.c" ||
	fail "builtin: its tree does not hold this module/main.c"
grep -q slab_account "$src/mm/Kconfig" "$src/mm/Makefile" &&
	fail "builtin: the shared tree's mm/Kconfig or mm/Makefile was changed"
[ ! -e "$src/mm/slab_account" ] || fail "builtin: mm/slab_account/ in the shared tree"
note "builtin: SLAB_ACCOUNT in its own tree, the shared tree untouched"
config_only defconfig -b defconfig tracing module bpf debug callsite \
	pressure pageowner

# The kernel with allocation profiling: 6.12's source, every option kept,
# and SLUB as Debian runs it rather than tinyconfig's SLUB_TINY
"$TOP/scripts/allocinfo-kernel" -q --config-only -o "$TEST_TMP/allocinfo" \
	>/dev/null 2>"$TEST_TMP/allocinfo.err" ||
	{ cat "$TEST_TMP/allocinfo.err" >&2; fail "allocinfo: scripts/allocinfo-kernel --config-only failed"; }
for opt in CONFIG_MEM_ALLOC_PROFILING=y CONFIG_MEM_ALLOC_PROFILING_ENABLED_BY_DEFAULT=y \
	'# CONFIG_MEM_ALLOC_PROFILING_DEBUG is not set' '# CONFIG_SLUB_TINY is not set' \
	CONFIG_SLUB=y CONFIG_PROC_SYSCTL=y; do
	grep -qxF "$opt" "$TEST_TMP/allocinfo/.config" || fail "allocinfo: no '$opt'"
done
note "allocinfo: 6.12 with allocation profiling on by default, switchable, full SLUB"
# 6.1 has no allocation profiling: the fragment's options are dropped,
# and only those (its function tracer needs tracing's FTRACE menu)
"$KB" -q --config-only -o "$TEST_TMP/allocinfo-6.1" qemu tracing allocinfo \
	>/dev/null 2>"$TEST_TMP/allocinfo-6.1.err"
assert_eq "exit status of allocinfo on 6.1" 1 $?
assert_eq "options dropped on 6.1" \
	"CONFIG_MEM_ALLOC_PROFILING=y (got not set)|CONFIG_MEM_ALLOC_PROFILING_ENABLED_BY_DEFAULT=y (got not set)" \
	"$(sed -n 's/^  //p' "$TEST_TMP/allocinfo-6.1.err" | paste -sd'|')"

# Dropped options are listed, exactly, and the build stops with exit 1.
cat >"$TEST_TMP/bad.config" <<'FRAG'
# bad.config: one option that does not exist, one whose dependency is off
CONFIG_SLABACCT_NO_SUCH_OPTION=y
CONFIG_VIRTIO_CONSOLE=y
CONFIG_PRINTK=y
FRAG
"$KB" -q --config-only -o "$TEST_TMP/bad" "$TEST_TMP/bad.config" \
	>/dev/null 2>"$TEST_TMP/bad.err"
assert_eq "exit status with dropped options" 1 $?
cat "$TEST_TMP/bad.err"
assert_eq "options listed as dropped" \
	"CONFIG_SLABACCT_NO_SUCH_OPTION=y (got not set)|CONFIG_VIRTIO_CONSOLE=y (got not set)" \
	"$(sed -n 's/^  //p' "$TEST_TMP/bad.err" | paste -sd'|')"

"$KB" -q --config-only no-such-fragment >/dev/null 2>&1
assert_eq "exit status for an unknown fragment" 2 $?
"$KB" -q --config-only -b allyesconfig debug >/dev/null 2>&1
assert_eq "exit status for an unknown base" 2 $?
exit 0
