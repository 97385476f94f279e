#!/bin/bash
# slabacct report and diff on bad input: truncated, corrupted and non-trace
# files give a clear error naming the file (and the offset), exit 1, and
# never a crash; a trace with no kmem events says so; an event format
# missing a field makes the report state what it could not compute.
. "$(dirname "$0")/../../lib.sh"

data=$TOP/tests/data/report
[ -x "$SLABACCT" ] || fail "build/slabacct is missing (make all)"
good=$data/tc-6.12.dat
size=$(stat -c %s "$good")

# expect_error FILE PATTERN: exit 1, one line naming the file, no crash
expect_error() {
	local f=$1 pat=$2 rc
	"$SLABACCT" report "$f" >"$TEST_TMP/out" 2>"$TEST_TMP/err"
	rc=$?
	[ $rc = 1 ] || fail "report $f exited $rc (want 1): $(cat "$TEST_TMP/err")"
	grep -q -- "$f" "$TEST_TMP/err" || fail "the error does not name $f: $(cat "$TEST_TMP/err")"
	grep -Eq -- "$pat" "$TEST_TMP/err" || fail "report $f: '$(cat "$TEST_TMP/err")' lacks /$pat/"
}

# truncated at many offsets, through the headers and the CPU data
n=0
for cut in 0 5 11 17 40 100 1000 4000 9000 17000 30000 34330 36900 \
	   $((size - 4096)) $((size - 1)); do
	head -c "$cut" "$good" >"$TEST_TMP/cut.dat"
	if [ "$cut" -lt 10 ]; then
		expect_error "$TEST_TMP/cut.dat" "not a trace.dat|empty file"
	else
		expect_error "$TEST_TMP/cut.dat" "at offset [0-9]+|could not be read"
	fi
	n=$((n + 1))
done
note "$n truncated files refused"

# random damage: any exit 0 or 1 is fine, a signal (>= 128) is not
python3 - "$good" "$TEST_TMP" <<'PY'
import random, sys
d = bytearray(open(sys.argv[1], 'rb').read())
rnd = random.Random(7)
for i in range(40):
    x = bytearray(d)
    for _ in range(rnd.randint(1, 16)):
        x[rnd.randrange(len(x))] = rnd.randrange(256)
    open('%s/bad%02d.dat' % (sys.argv[2], i), 'wb').write(x)
PY
for f in "$TEST_TMP"/bad*.dat; do
	"$SLABACCT" report --what all "$f" >/dev/null 2>"$TEST_TMP/err"
	rc=$?
	[ $rc -le 1 ] || fail "report of damaged $f exited $rc: $(tail -n 3 "$TEST_TMP/err")"
	[ $rc = 0 ] || grep -q "$f" "$TEST_TMP/err" || fail "error does not name $f"
done
note "40 randomly damaged copies: no crash"

# not a trace at all
echo "hello, world: not a trace" >"$TEST_TMP/text.dat"
expect_error "$TEST_TMP/text.dat" "not a trace.dat file"
: >"$TEST_TMP/empty.dat"
expect_error "$TEST_TMP/empty.dat" "empty file"
expect_error "$TEST_TMP/missing.dat" "No such file"
mkdir -p "$TEST_TMP/dir.dat"
expect_error "$TEST_TMP/dir.dat" "directory"
assert_status 2 "$SLABACCT" report
assert_status 2 "$SLABACCT" report --what bogus "$good"
assert_status 2 "$SLABACCT" report --sort bogus "$good"
assert_status 2 "$SLABACCT" report --interval 10parsecs "$good"

# diff: a bad side is named, exit 1
"$SLABACCT" diff "$good" "$TEST_TMP/text.dat" >/dev/null 2>"$TEST_TMP/err"
assert_eq "diff with a bad side: exit" 1 "$?"
grep -q "text.dat" "$TEST_TMP/err" || fail "diff error does not name the file"

# an event format without bytes_req: the report says what it left out
python3 - "$good" "$TEST_TMP/nofield.dat" <<'PY'
import sys
d = open(sys.argv[1], 'rb').read()
n = d.count(b' bytes_req;')
assert n >= 2, n
open(sys.argv[2], 'wb').write(d.replace(b' bytes_req;', b' bytes_rXq;'))
PY
"$SLABACCT" report "$TEST_TMP/nofield.dat" >"$TEST_TMP/out" 2>&1 ||
	fail "report of a trace without bytes_req failed"
grep -q "has no field 'bytes_req'" "$TEST_TMP/out" ||
	fail "no note about the missing field: $(head -n 12 "$TEST_TMP/out")"
grep -q "slack is counted as 0" "$TEST_TMP/out" ||
	fail "no note about slack"

# a trace with kmem formats but no kmem records: says so
python3 - "$good" "$TEST_TMP/nokmem.dat" <<'PY'
import sys
d = open(sys.argv[1], 'rb').read()
# rename the kmem system: its events are then unknown to the report
open(sys.argv[2], 'wb').write(d.replace(b'\x00kmem\x00', b'\x00kmeX\x00')
                                .replace(b'\nkmem\x00', b'\nkmeX\x00'))
PY
"$SLABACCT" report "$TEST_TMP/nokmem.dat" >"$TEST_TMP/out" 2>"$TEST_TMP/err" ||
	fail "report of a trace without kmem events failed: $(cat "$TEST_TMP/err")"
grep -q "no kmem events" "$TEST_TMP/out" "$TEST_TMP/err" ||
	fail "no word about the missing kmem events: $(head -n 10 "$TEST_TMP/out")"
note "bad input handled"
