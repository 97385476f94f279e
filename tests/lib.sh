# Shared helpers for slabacct's integration tests (bash).
#
# A test script sources this, does its checks, and exits 0 on success.
# fail prints a message and exits 1; skip prints 'SKIP: reason' and
# exits 4, which tests/run reports as a skip, never as a pass.

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
SLABACCT=$TOP/build/slabacct
QEMU_RUN=$TOP/qemu/run

fail() { echo "FAIL: $*" >&2; exit 1; }
skip() { echo "SKIP: $*"; exit 4; }
note() { echo "# $*"; }

# assert_eq WHAT EXPECTED ACTUAL
assert_eq() {
	[ "$2" = "$3" ] || fail "$1: expected '$2', got '$3'"
	note "$1 = $3"
}

# assert_status EXPECTED CMD...: run CMD, check its exit status
assert_status() {
	local want=$1 rc
	shift
	"$@"
	rc=$?
	[ "$rc" = "$want" ] || fail "'$*' exited $rc, expected $want"
}

# assert_refused WHAT STATUS MESSAGE CMD...: run CMD, a command that must
# be refused: it exits STATUS, says MESSAGE (a fixed string) on stderr,
# and writes nothing to stdout
assert_refused() {
	local what=$1 want=$2 says=$3 rc
	shift 3
	"$@" >"$TEST_TMP/refused.out" 2>"$TEST_TMP/refused.err"
	rc=$?
	[ "$rc" = "$want" ] ||
		fail "$what: exit $rc, expected $want: $(cat "$TEST_TMP/refused.err")"
	grep -qF -- "$says" "$TEST_TMP/refused.err" ||
		fail "$what: '$(cat "$TEST_TMP/refused.err")' does not say '$says'"
	[ -s "$TEST_TMP/refused.out" ] &&
		fail "$what: wrote to stdout: $(head -c 200 "$TEST_TMP/refused.out")"
	note "$what: exit $rc, says '$says'"
}

need_root() {
	[ "$(id -u)" = 0 ] || fail "this test needs root (it uses tracefs)"
}

# Workspace removed at exit, unless SLABACCT_KEEP_TMP=1 (for debugging:
# its path is printed)
TEST_TMP=$(mktemp -d)
if [ "${SLABACCT_KEEP_TMP:-0}" = 1 ]; then
	trap 'echo "# workspace kept: $TEST_TMP"' EXIT
else
	trap 'rm -rf "$TEST_TMP"' EXIT
fi

# guest_arch FLAVOUR: the architecture of the guest of a kernel flavour
# (x86_64, arm64, armhf); a kernel image path is taken as this machine's
# (scripts/kernel-build builds for it)
guest_arch() {
	case $1 in
	/* | ./* | ../*) host_arch ;;
	*) "$TOP/scripts/kernels" --flavour "$1" 2>/dev/null | cut -d' ' -f4 ;;
	esac
}
host_arch() {
	case $(uname -m) in
	aarch64) echo arm64 ;;
	*) uname -m ;;
	esac
}
# foreign_guest FLAVOUR: true if the guest is of another architecture
# than this machine: this machine's slabacct is not in it (the one
# cross-built for it, build/ARCH/slabacct, is when there is one)
foreign_guest() {
	[ "$(guest_arch "$1")" != "$(host_arch)" ]
}
# cross_slabacct FLAVOUR: the slabacct cross-built for a foreign guest
# (make ARCH=arm64|armhf), or nothing
cross_slabacct() {
	local b
	b=$TOP/build/$(guest_arch "$1")/slabacct
	[ -x "$b" ] && echo "$b"
}

# host_program FILE: true if FILE is a program of this machine (an ELF
# executable of its machine type; not a module, not another's binary)
host_program() {
	local h
	h=$(LC_ALL=C readelf -h "$1" 2>/dev/null) || return 1
	grep -qE '^ *Type: *(EXEC|DYN)' <<<"$h" &&
		[ "$(sed -n 's/^ *Machine: *//p' <<<"$h")" = \
		  "$(LC_ALL=C readelf -h /bin/sh | sed -n 's/^ *Machine: *//p')" ]
}

# guest_run FLAVOUR SCRIPT [qemu/run options...]: boot, run, results in
# $TEST_TMP/out. The guest script is written to a file first. In a guest
# of another architecture (arm64, armhf), the slabacct cross-built for it
# (make ARCH=...) is in the PATH, and a program of this machine given
# with -f is replaced by the same path in the guest's tree (that of
# scripts/fetch-foreign). A test that needs neither says so by setting
# GUEST_FOREIGN_OK=1; the others skip such a guest when there is no
# cross-built slabacct or the tree lacks a program. A -t timeout (a guard
# against hangs, not a measure) is multiplied by SLABACCT_TIMEOUT_FACTOR
# (default 1): kernel/module-suite sets it for its KASAN kernel, many
# times slower under TCG.
guest_run() {
	local flavour=$1 script=$2 a foreign=0 root= cross= src b
	local -a args=()
	shift 2
	if foreign_guest "$flavour"; then
		foreign=1
		root=$("$TOP/scripts/kernels" --flavour "$flavour" 2>/dev/null | cut -d' ' -f5)
		cross=$(cross_slabacct "$flavour")
		if [ "${GUEST_FOREIGN_OK:-0}" != 1 ] && [ -z "$cross" ]; then
			skip "this test runs programs of this machine in the guest (slabacct, built for $(host_arch) only: make ARCH=$(guest_arch "$flavour") cross-builds it), not in an $(guest_arch "$flavour") guest"
		fi
		[ -z "$cross" ] || args+=(-f "$cross:/bin/slabacct")
	fi
	while [ $# -gt 0 ]; do
		a=$1
		shift
		if [ "$a" = -t ] && [ $# -gt 0 ]; then
			args+=(-t $(($1 * ${SLABACCT_TIMEOUT_FACTOR:-1})))
			shift
		elif [ "$a" = -f ] && [ $# -gt 0 ] && [ $foreign = 1 ] &&
			host_program "${1%%:*}"; then
			# this machine's program: the guest's own, from its tree
			src=
			for b in "$root${1%%:*}" "$root"/{usr/bin,bin,usr/sbin,sbin}/"$(basename "${1%%:*}")"; do
				[ -x "$b" ] && { src=$b; break; }
			done
			[ -n "$src" ] ||
				skip "this test runs programs of this machine in the guest (${1%%:*}), and the $(guest_arch "$flavour") tree $root has none (scripts/fetch-foreign --dev)"
			case $1 in
			*:*) args+=(-f "$src:${1#*:}") ;;
			*) args+=(-f "$src:$1") ;;
			esac
			shift
		else
			args+=("$a")
		fi
	done
	rm -rf "$TEST_TMP/out"
	"$QEMU_RUN" -k "$flavour" -o "$TEST_TMP/out" "${args[@]}" "$script"
}

# kernel_modules KREL NAME...: put the kernel's own modules NAME (and what
# they depend on) into the guest under /kmod-extra/, uncompressed for
# busybox's insmod. Sets KMOD_FILES (qemu/run -f arguments) and
# KMOD_ORDER (names in load order). Returns 1 if a module is not there.
KMOD_FILES=() KMOD_ORDER=
kernel_modules() {
	local krel=$1 name f dep root
	shift
	# another architecture's kernel is unpacked under its own root
	root=$("$TOP/scripts/kernels" --release "$krel" 2>/dev/null | cut -d' ' -f5)
	root=${root%/}
	for name in "$@"; do
		case " $KMOD_ORDER " in *" $name "*) continue ;; esac
		f=$(find "$root/lib/modules/$krel/kernel" -name "$name.ko*" 2>/dev/null | head -n 1)
		[ -n "$f" ] || return 1
		for dep in $(modinfo -F depends "$f" | tr ',' ' '); do
			kernel_modules "$krel" "$dep" || return 1
		done
		case "$f" in
		*.xz) xz -dc "$f" >"$TEST_TMP/$name.ko" ;;
		*.zst) zstd -qdc "$f" >"$TEST_TMP/$name.ko" ;;
		*) cp "$f" "$TEST_TMP/$name.ko" ;;
		esac
		KMOD_FILES+=(-f "$TEST_TMP/$name.ko:/kmod-extra/$name.ko")
		KMOD_ORDER="$KMOD_ORDER $name"
	done
}

# dkms_lock: hold the lock of the host tests that register slab_account
# with DKMS (host/dkms, host/debian-package) until the test exits: they
# share its name and version, and tests from other trees may run at the
# same time on this host. Waits up to 15 minutes.
dkms_lock() {
	exec 7>/run/lock/slabacct-dkms.lock
	flock -w 900 7 || fail "another test held the DKMS lock for 15 minutes"
}

# zram_swap FLAVOUR: whether a guest of kernel FLAVOUR can put swap on
# zram, and what it needs: for a Debian flavour, the kernel's own zram
# module and those it depends on (kernel_modules: KMOD_FILES and
# KMOD_ORDER); for a bzImage path, a kernel built with ZRAM=y
# (kconfig-fragments/pressure.config), read from the config beside it.
# Returns 1 if the kernel has no zram.
zram_swap() {
	local flavour=$1 krel
	if [ -f "$flavour" ]; then
		grep -qx 'CONFIG_ZRAM=y' "$(dirname "$flavour")/config" 2>/dev/null
		return
	fi
	krel=$("$TOP/scripts/kernels" --flavour "$flavour" 2>/dev/null | cut -d' ' -f1)
	[ -n "$krel" ] && kernel_modules "$krel" zram
}
