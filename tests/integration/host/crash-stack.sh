#!/bin/bash
# The crash guard reports a stack overflow like any other crash: its
# handler runs on a stack of its own (sigaltstack), since an overflow
# leaves none to run on, and says "internal error: stack overflow" before
# the signal goes on to the default action (exit 128 + SIGSEGV). The
# recursion is the test hook SLABACCT_TEST_STACK_OVERFLOW (cli/crash.c),
# under an 8 MB stack limit; without the alternate stack the process
# died silently.
. "$(dirname "$0")/../../lib.sh"
[ -x "$SLABACCT" ] || fail "build/slabacct is missing (make all)"
ulimit -s 8192

acct=$TOP/tests/data/slab_account/6.1.txt
trace=$TOP/tests/data/report/tc-6.12.dat
echo '{}' >"$TEST_TMP/s.json"

# overflow CMD WHAT ARGS...: the overflow said, naming WHAT if set
overflow() {
	local cmd=$1 what=$2 rc
	shift 2
	SLABACCT_TEST_STACK_OVERFLOW=1 "$SLABACCT" "$cmd" "$@" \
		>/dev/null 2>"$TEST_TMP/err"
	rc=$?
	assert_eq "$cmd: exit status" $((128 + $(kill -l SEGV))) "$rc"
	grep -qF "slabacct $cmd: internal error: stack overflow (SIGSEGV)$what. This is a bug" \
		"$TEST_TMP/err" || fail "$cmd: no stack overflow said: $(cat "$TEST_TMP/err")"
}

overflow report " while reading $trace" "$trace"
overflow diff " while reading $acct" "$acct" "$acct"
overflow merge " while reading $acct" "$acct"
overflow account " while reading $acct" "$acct"
overflow snapshot "" --load "$TEST_TMP/s.json"

# without the hook nothing of the kind
"$SLABACCT" account "$acct" >/dev/null 2>"$TEST_TMP/err" ||
	fail "account without the hook: $(cat "$TEST_TMP/err")"
