# The module and test-module sources are checkpatch clean
# (scripts/checkpatch: checkpatch.pl --no-tree -f).
. "$(dirname "$0")/../../lib.sh"

"$TOP/scripts/checkpatch" >"$TEST_TMP/log" 2>&1
rc=$?
cat "$TEST_TMP/log"
[ $rc = 2 ] && fail "checkpatch.pl is not available (install linux-source-6.1)"
[ $rc = 0 ] || fail "checkpatch reports errors or warnings"
# a deliberate violation must be caught, or the check proves nothing
printf '// SPDX-License-Identifier: GPL-2.0\nint  x = 1 ;\n' >"$TEST_TMP/bad.c"
"$TOP/scripts/checkpatch" "$TEST_TMP/bad.c" >/dev/null 2>&1 &&
	fail "checkpatch accepted a file with errors"
exit 0
