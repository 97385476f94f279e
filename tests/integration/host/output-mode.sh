# Outputs carry kernel addresses (kallsyms, heap pointers), command lines
# and process names: every file slabacct writes is created 0600 whatever
# the umask, --mode widens it, and `record --help` says what a trace
# holds.
. "$(dirname "$0")/../../lib.sh"
need_root

d=$TEST_TMP/out
mkdir -p "$d"
umask 022

# mode FILE: its permission bits, octal
mode() { stat -c %a "$1"; }

"$SLABACCT" record --no-snapshot -o "$d/t.dat" -- true >"$TEST_TMP/rec.out" 2>&1 ||
	fail "record failed: $(cat "$TEST_TMP/rec.out")"
assert_eq "record -o mode" 600 "$(mode "$d/t.dat")"
"$SLABACCT" report -o "$d/r.txt" "$d/t.dat" || fail "report -o failed"
assert_eq "report -o mode" 600 "$(mode "$d/r.txt")"
"$SLABACCT" report --html "$d/r.html" "$d/t.dat" >/dev/null || fail "report --html failed"
assert_eq "report --html mode" 600 "$(mode "$d/r.html")"
"$SLABACCT" diff -o "$d/d.txt" "$d/t.dat" "$d/t.dat" || fail "diff -o failed"
assert_eq "diff -o mode" 600 "$(mode "$d/d.txt")"
"$SLABACCT" snapshot -o "$d/s.txt" --save "$d/s.json" || fail "snapshot failed"
assert_eq "snapshot -o mode" 600 "$(mode "$d/s.txt")"
assert_eq "snapshot --save mode" 600 "$(mode "$d/s.json")"

# An existing world-readable file is replaced by a private one
chmod 644 "$d/r.txt"
"$SLABACCT" report -o "$d/r.txt" "$d/t.dat" || fail "report -o again failed"
assert_eq "report -o over a 0644 file" 600 "$(mode "$d/r.txt")"

# --mode widens, exactly, whatever the umask
umask 077
"$SLABACCT" record --no-snapshot --mode 0644 -o "$d/w.dat" -- true >/dev/null 2>&1 ||
	fail "record --mode 0644 failed"
assert_eq "record --mode 0644" 644 "$(mode "$d/w.dat")"
"$SLABACCT" report --mode 640 -o "$d/w.txt" "$d/t.dat" || fail "report --mode failed"
assert_eq "report --mode 640" 640 "$(mode "$d/w.txt")"
"$SLABACCT" snapshot --mode 0644 -o "$d/w.snap" --save "$d/w.json" || fail "snapshot --mode failed"
assert_eq "snapshot --mode 0644 -o" 644 "$(mode "$d/w.snap")"
assert_eq "snapshot --mode 0644 --save" 644 "$(mode "$d/w.json")"
"$SLABACCT" diff --mode 0644 -o "$d/w.diff" "$d/t.dat" "$d/t.dat" || fail "diff --mode failed"
assert_eq "diff --mode 0644" 644 "$(mode "$d/w.diff")"
for bad in 0888 abc 01777 4755 ''; do
	"$SLABACCT" report --mode "$bad" -o "$d/bad.txt" "$d/t.dat" 2>"$TEST_TMP/bad.err"
	assert_eq "report --mode '$bad': exit status" 2 "$?"
	grep -q 'mode' "$TEST_TMP/bad.err" || fail "--mode '$bad' said: $(cat "$TEST_TMP/bad.err")"
done
[ -e "$d/bad.txt" ] && fail "a refused --mode wrote its output"

# What a trace reveals, in record --help
help=$("$SLABACCT" record --help)
for word in kallsyms pointers "command line" "process names" snapshot 0600; do
	echo "$help" | grep -qi "$word" || fail "record --help does not mention $word"
done
note "record --help says what a trace holds"
