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

need_root() {
	[ "$(id -u)" = 0 ] || fail "this test needs root (it uses tracefs)"
}

# Workspace removed at exit
TEST_TMP=$(mktemp -d)
trap 'rm -rf "$TEST_TMP"' EXIT

# guest_run FLAVOUR SCRIPT [qemu/run options...]: boot, run, results in
# $TEST_TMP/out. The guest script is written to a file first.
guest_run() {
	local flavour=$1 script=$2
	shift 2
	rm -rf "$TEST_TMP/out"
	"$QEMU_RUN" -k "$flavour" -o "$TEST_TMP/out" "$@" "$script"
}
