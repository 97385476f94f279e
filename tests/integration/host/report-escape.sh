#!/bin/bash
# Strings from a trace are printed with their control characters escaped:
# a process name (saved cmdlines) and a symbol (kallsyms) that carry
# terminal escape sequences reach no terminal raw, in any format of
# report and diff (text, CSV, account; JSON and HTML through json-glib),
# nor in an error message that quotes the input.
. "$(dirname "$0")/../../lib.sh"
[ -x "$SLABACCT" ] || fail "build/slabacct is missing (make all)"

# the comm "ls" becomes ESC c (a terminal reset), and the symbol
# mm_alloc "ESC[2J" (clear screen) + BEL + "loc" (same lengths)
python3 - "$TOP/tests/data/report/tc-6.12.dat" "$TEST_TMP/esc.dat" <<'PY'
import sys
d = open(sys.argv[1], 'rb').read()
assert d.count(b'153 ls\n') == 1 and d.count(b' mm_alloc\n') == 1
d = d.replace(b'153 ls\n', b'153 \x1bc\n')
d = d.replace(b' mm_alloc\n', b' \x1b[2J\x07loc\n')
open(sys.argv[2], 'wb').write(d)
PY

# raw FILE...: fail if a file has a control character other than \n, \t
# (the HTML page's own indentation)
raw() {
	python3 - "$@" <<'PY' || fail "control characters in the output"
import re, sys
bad = 0
for f in sys.argv[1:]:
    d = open(f, 'rb').read()
    for m in re.finditer(rb'[\x00-\x08\x0b-\x1f\x7f]|\xc2[\x80-\x9f]', d):
        line = d[:m.start()].count(b'\n') + 1
        if bad < 10:
            print('%s:%d: raw byte 0x%s' % (f, line, m.group().hex()))
        bad += 1
sys.exit(1 if bad else 0)
PY
}
n=0
for fmt in text csv json account; do
	"$SLABACCT" report --what all --objects --format $fmt "$TEST_TMP/esc.dat" \
		>"$TEST_TMP/out.$fmt" 2>"$TEST_TMP/err.$fmt" ||
		fail "report --format $fmt failed: $(cat "$TEST_TMP/err.$fmt")"
	raw "$TEST_TMP/out.$fmt" "$TEST_TMP/err.$fmt"
	n=$((n + 1))
done
# the escapes are shown, not dropped
grep -q '\\x1bc' "$TEST_TMP/out.text" || fail "text: the comm is not shown escaped"
grep -q '\\x1b\[2J\\x07loc' "$TEST_TMP/out.text" ||
	fail "text: the symbol is not shown escaped"
grep -q '\\x1b\[2J\\x07loc' "$TEST_TMP/out.csv" ||
	fail "CSV: the symbol is not shown escaped"
"$SLABACCT" report --html "$TEST_TMP/out.html" "$TEST_TMP/esc.dat" ||
	fail "report --html failed"
raw "$TEST_TMP/out.html"
for fmt in text csv json; do
	"$SLABACCT" diff --all --format $fmt "$TOP/tests/data/report/tc-6.12.dat" \
		"$TEST_TMP/esc.dat" >"$TEST_TMP/diff.$fmt" 2>&1 ||
		fail "diff --format $fmt failed"
	raw "$TEST_TMP/diff.$fmt"
	n=$((n + 1))
done
grep -q '\\x1b\[2J\\x07loc' "$TEST_TMP/diff.text" ||
	fail "diff: the symbol is not shown escaped"

# a /proc/slab_account snapshot whose caller carries escapes
{
	sed -n '1,/^#  *total/p' "$TOP/tests/data/slab_account/6.1.txt"
	printf '    128000     28000     100000      89600     700      1000/300       kmalloc \033]0;owned\007f+0x1/0x2\n'
} >"$TEST_TMP/acct"
"$SLABACCT" account "$TEST_TMP/acct" >"$TEST_TMP/acct.out" 2>&1 ||
	fail "account failed: $(cat "$TEST_TMP/acct.out")"
raw "$TEST_TMP/acct.out"
"$SLABACCT" report "$TEST_TMP/acct" >"$TEST_TMP/acct.rep" 2>&1 ||
	fail "report of the snapshot failed"
raw "$TEST_TMP/acct.rep"
grep -q '\\x1b\]0;owned\\x07f+0x1' "$TEST_TMP/acct.out" ||
	fail "account: the caller is not shown escaped"
# an error message quoting the input
printf '# slab_account 2\nsort: \033[31mred\033[0m x\n' >"$TEST_TMP/bad"
"$SLABACCT" account "$TEST_TMP/bad" >"$TEST_TMP/bad.out" 2>&1 &&
	fail "account of a bad file succeeded"
raw "$TEST_TMP/bad.out"
note "$n reports and diffs, account, HTML and errors: no raw control bytes"
