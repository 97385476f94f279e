#!/bin/bash
# Standard output that cannot be written (a full disk, here /dev/full):
# every command that prints fails with exit 1 and says so, instead of
# exiting 0 with its output lost. The small outputs are the test: they
# stay in stdio's buffer until the command returns.
. "$(dirname "$0")/../../lib.sh"
[ -x "$SLABACCT" ] || fail "build/slabacct is missing (make all)"
[ -c /dev/full ] || fail "/dev/full is missing"
d=$TOP/tests/data
acct=$d/slab_account/6.1.txt
acct2=$d/slab_account/6.12-cloud.txt
ai=$d/allocinfo/6.12-slabacct.after.txt
dat=$d/report/wrappers-6.18.dat

n=0
while read -r args; do
	[ -n "$args" ] || continue
	# shellcheck disable=SC2086
	"$SLABACCT" $args >/dev/full 2>"$TEST_TMP/err"
	rc=$?
	[ $rc = 1 ] || fail "'$args' >/dev/full exited $rc, expected 1"
	grep -q 'No space left on device' "$TEST_TMP/err" ||
		fail "'$args' >/dev/full: no message ($(head -c 200 "$TEST_TMP/err"))"
	n=$((n + 1))
done <<ARGS
account $acct
account --json $acct
account $ai
account --json $ai
account --format openmetrics $acct
diff $acct $acct2
diff --json $acct $acct2
merge $acct $acct2
merge --json $acct $acct2
report --what live $dat
report --json --what live $dat
report --csv --what live $dat
version
boot cmdline
ARGS
note "$n commands fail on a full standard output"
