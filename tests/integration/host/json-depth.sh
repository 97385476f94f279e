#!/bin/bash
# JSON nested deeper than the reader allows, however it hides its
# brackets from a naive count: after json-glib's comments ('/' to '/',
# so "/* ]]]] */" and "/* \" */"), in strings with escaped quotes, in
# '...' strings, as objects, as "var a = " statements. Every command
# that reads JSON (diff, merge, snapshot --load and --compare) refuses
# each with one message naming the file, the line and the limit: exit 1,
# no signal, under 256 MB of RSS. So is a file of more values than the
# reader takes (2^24: json-glib's tree of them would take 1.3 GB). An
# empty file and a member of the wrong type are refused without
# json-glib's warnings. The snapshots in a trace.dat, made deep, are
# refused as well, and the report says it could not read them.
. "$(dirname "$0")/../../lib.sh"
[ -x "$SLABACCT" ] || fail "build/slabacct is missing (make all)"

d=$TEST_TMP
# the file of the report (issue 28): '[' x 100,000 after {/* " */"x":
zcat "$TOP/tests/data/json/json-depth-comment-quote.json.gz" >"$d/shared.json"
python3 - "$d" <<'PY'
import sys
d = sys.argv[1]
deep = "[" * 100000
v = {
    "comment-brackets": '{/* ]]]] */"x":' + deep,
    "comment-quote": '{/* " */"x":' + deep,
    "slash-comment": '{"x":// ]]]]\n' + deep,
    "string-brackets": '{"x":["\\"]]]]\\\\", ' + deep,
    "single-quoted": "{'x':['a]]]]\\', " + deep,
    "objects": '{"a":' * 100000 + "1" + "}" * 100000,
    "lines": "\n" * 6 + '{"x":' + deep,
    "unicode": '{"x":["\\u12"]]]]", ' + deep,
    # not an object: only snapshot reads these as JSON
    "closed": deep + "]" * 100000,
    "assignments": "var a = " * 100000 + "1",
}
for k, t in v.items():
    open("%s/%s.json" % (d, k), "w").write(t)
PY

# refused FILE LINE CMD...: exit 1 naming FILE, LINE and the limit
refused() {
	local f=$1 line=$2 rc rss
	shift 2
	/usr/bin/time -f '%M' -o "$d/rss" "$@" >"$d/out" 2>"$d/err"
	rc=$?
	rss=$(tail -n 1 "$d/rss")
	[ "$rc" = 1 ] || fail "'$*': exit $rc (want 1): $(head -c 300 "$d/err")"
	grep -qF "$f: line $line: JSON nested deeper than 64 levels" "$d/err" ||
		fail "'$*': '$(head -c 300 "$d/err")' lacks the file, line $line or the limit"
	[ "$(wc -l <"$d/err")" = 1 ] || fail "'$*' said more: $(cat "$d/err")"
	[ "${rss:-0}" -lt 262144 ] || fail "'$*' took $rss KB"
}

n=0
for f in "$d"/*.json; do
	case ${f##*/} in
	lines.json) line=7 ;;
	slash-comment.json) line=2 ;;
	*) line=1 ;;
	esac
	case ${f##*/} in
	closed.json|assignments.json)
		# diff and merge read JSON objects only: this is not one
		for c in diff merge; do
			"$SLABACCT" $c "$f" "$f" >/dev/null 2>"$d/err"
			assert_eq "$c ${f##*/}: exit" 1 "$?"
			grep -qF "$f" "$d/err" || fail "$c: $(cat "$d/err")"
		done ;;
	*)
		refused "$f" "$line" "$SLABACCT" diff "$f" "$f"
		refused "$f" "$line" "$SLABACCT" merge "$f" ;;
	esac
	refused "$f" "$line" "$SLABACCT" snapshot --load "$f"
	refused "$f" "$line" "$SLABACCT" snapshot --compare "$f" "$f"
	n=$((n + 1))
done
assert_eq "deep JSON files refused by diff, merge, snapshot" 11 "$n"

# the snapshots a trace.dat carries, each made 33,000 '[' of the same
# length: report reads them through the same reader, and says it could
# not (before, under a 1 MB stack, json-glib's recursion overflowed it)
zcat "$TOP/tests/data/report-mm/6.1.dat.gz" >"$d/mm.dat"
python3 - "$d/mm.dat" "$d/deep.dat" <<'PY'
import struct, sys
d = bytearray(open(sys.argv[1], 'rb').read())
n = 0
for tag in (b'snapshot_start\0', b'snapshot_end\0'):
    i = d.find(tag)
    if i < 0:
        continue
    j = i + len(tag)
    size = struct.unpack('<Q', bytes(d[j:j + 8]))[0]
    assert d[j + 8:j + 9] == b'{' and size > 30000, (tag, size)
    d[j + 8:j + 8 + size] = b'[' * size
    n += 1
assert n == 2, n
open(sys.argv[2], 'wb').write(d)
PY
(ulimit -s 1024; exec "$SLABACCT" report --what all "$d/deep.dat") \
	>"$d/out" 2>"$d/err"
assert_eq "report of a trace with nested snapshots: exit" 0 "$?"
grep -q "its system snapshot could not be read" "$d/out" ||
	fail "the report does not say its snapshot could not be read"

# 2^24 + 1 values, 34 MB: refused before json-glib builds the tree
python3 -c 'import sys; n = (1 << 24); sys.stdout.write("{\"x\":\n[" + "1," * n + "1]}")' \
	>"$d/wide.txt"
/usr/bin/time -f '%M' -o "$d/rss" "$SLABACCT" diff "$d/wide.txt" "$d/wide.txt" \
	>/dev/null 2>"$d/err"
assert_eq "2^24 + 1 values: exit" 1 "$?"
grep -qF "$d/wide.txt: line 2: more than 16777216 JSON values, the most slabacct reads" \
	"$d/err" || fail "2^24 + 1 values: $(cat "$d/err")"
rss=$(tail -n 1 "$d/rss")
[ "$rss" -lt 262144 ] || fail "2^24 + 1 values took $rss KB"
note "2^24 + 1 values refused in $rss KB"

# 64 levels are read (and then found not to be a snapshot)
python3 -c 'import sys; sys.stdout.write("[" * 64 + "]" * 64)' >"$d/64.txt"
"$SLABACCT" snapshot --load "$d/64.txt" 2>"$d/err"
assert_eq "64 levels: exit" 1 "$?"
grep -qF "$d/64.txt: not a slabacct snapshot: not a JSON object" "$d/err" ||
	fail "64 levels: $(cat "$d/err")"

# empty, blank, a member of the wrong type: one line, no library warning
: >"$d/empty.txt"
assert_refused "snapshot --load of an empty file" 1 \
	"$d/empty.txt: an empty file, no JSON value" \
	"$SLABACCT" snapshot --load "$d/empty.txt"
assert_refused "diff of an empty JSON file" 1 "empty" \
	"$SLABACCT" diff "$d/empty.txt" "$d/empty.txt"
printf ' \n/ comment /\n' >"$d/blank.txt"
assert_refused "snapshot --load of blanks" 1 \
	"$d/blank.txt: only blanks and comments, no JSON value" \
	"$SLABACCT" snapshot --load "$d/blank.txt"
echo '{"kind":"slabacct-snapshot","schema_version":1,"sources":5,"samples":[1],"page_size":"x"}' \
	>"$d/types.txt"
assert_refused "snapshot --load of wrong types" 1 \
	"$d/types.txt: not a slabacct snapshot: no sources" \
	"$SLABACCT" snapshot --load "$d/types.txt"
for f in empty blank types; do
	"$SLABACCT" snapshot --load "$d/$f.txt" 2>"$d/err"
	[ "$(wc -l <"$d/err")" = 1 ] || fail "$f: more than one line: $(cat "$d/err")"
	grep -q CRITICAL "$d/err" && fail "$f: a library warning: $(cat "$d/err")"
done
note "empty, blank and mistyped snapshots: one line each"
