# Output files in a directory others may write to: every command that
# writes a file (record, report -o and --html, diff -o, snapshot -o and
# --save) writes a new file beside it and renames it into place only when
# it is complete. A symlink at the output path is refused unless
# --follow-symlinks (then its target gets the output and the link stays);
# a dangling one creates nothing; a workload that cannot run leaves an
# earlier recording as it was; a reader of the old file keeps reading the
# old file; /dev/null stays a device.
. "$(dirname "$0")/../../lib.sh"
. "$(dirname "$0")/../record-lib.sh"
need_root
command -v trace-cmd >/dev/null || fail "trace-cmd is not installed (scripts/install-deps)"

d=$TEST_TMP/out
mkdir -p "$d"
"$SLABACCT" record --no-snapshot -o "$d/good.dat" -- cat /proc/self/status \
	>"$TEST_TMP/good.out" 2>&1 || fail "record failed: $(cat "$TEST_TMP/good.out")"
cp "$d/good.dat" "$TEST_TMP/good.copy"
"$SLABACCT" snapshot --save "$d/snap.json" -o /dev/null ||
	fail "snapshot --save failed"

# same FILE COPY: FILE still holds what COPY holds
same() {
	cmp -s "$1" "$2" || fail "$3: $1 was changed"
	note "$3: $1 unchanged"
}

# A command that cannot run, found before anything starts or when it is
# executed (its interpreter is missing): the earlier recording stays
printf '#!/no/such/interpreter\n' >"$TEST_TMP/badexec"
chmod +x "$TEST_TMP/badexec"
for cmd in /no/such/cmd "$TEST_TMP/badexec"; do
	"$SLABACCT" record --no-snapshot -o "$d/good.dat" -- "$cmd" \
		>"$TEST_TMP/nocmd.out" 2>&1
	assert_eq "record -- $cmd: exit status" 2 "$?"
	grep -q "cannot run" "$TEST_TMP/nocmd.out" ||
		fail "record -- $cmd said: $(cat "$TEST_TMP/nocmd.out")"
	same "$d/good.dat" "$TEST_TMP/good.copy" "record -- $cmd"
done

# refused NAME CMD...: CMD exits 1 saying it will not follow the symlink
refused() {
	local name=$1 out rc
	shift
	out=$("$@" 2>&1)
	rc=$?
	[ "$rc" = 1 ] || fail "$name: exited $rc with a symlink as output: $out"
	echo "$out" | grep -q "symbolic link" || fail "$name said: $out"
	note "$name: refused the symlink"
}

# A symlink to a file of someone else's: refused, the file untouched
echo "precious" >"$TEST_TMP/victim"
cp "$TEST_TMP/victim" "$TEST_TMP/victim.copy"
for n in rec rep html diff snap save; do ln -s "$TEST_TMP/victim" "$d/$n.link"; done
refused "record -o" "$SLABACCT" record --no-snapshot -o "$d/rec.link" -- true
refused "report -o" "$SLABACCT" report -o "$d/rep.link" "$d/good.dat"
refused "report --html" "$SLABACCT" report --html "$d/html.link" "$d/good.dat"
refused "diff -o" "$SLABACCT" diff -o "$d/diff.link" "$d/good.dat" "$d/good.dat"
refused "snapshot -o" "$SLABACCT" snapshot --load "$d/snap.json" -o "$d/snap.link"
refused "snapshot --save" "$SLABACCT" snapshot --save "$d/save.link" -o /dev/null
same "$TEST_TMP/victim" "$TEST_TMP/victim.copy" "symlinks refused"
for n in rec rep html diff snap save; do
	[ -L "$d/$n.link" ] || fail "the symlink $n.link was replaced"
done

# A dangling symlink: nothing is created where it points
ln -s "$TEST_TMP/nowhere.dat" "$d/dangling"
refused "record -o dangling" "$SLABACCT" record --no-snapshot -o "$d/dangling" -- true
refused "report -o dangling" "$SLABACCT" report -o "$d/dangling" "$d/good.dat"
[ -e "$TEST_TMP/nowhere.dat" ] && fail "a dangling symlink created its target"

# Asked to follow: the target gets the output, the link stays a link
ln -s target.dat "$d/follow.dat"
"$SLABACCT" record --no-snapshot --follow-symlinks -o "$d/follow.dat" -- true \
	>"$TEST_TMP/follow.out" 2>&1 ||
	fail "record --follow-symlinks failed: $(cat "$TEST_TMP/follow.out")"
[ -L "$d/follow.dat" ] || fail "record --follow-symlinks replaced the link"
trace-cmd report "$d/target.dat" >/dev/null 2>&1 ||
	fail "the link's target is not a readable trace"
ln -s target.txt "$d/follow.txt"
"$SLABACCT" report --follow-symlinks -o "$d/follow.txt" "$d/good.dat" ||
	fail "report --follow-symlinks failed"
[ -L "$d/follow.txt" ] && grep -q '^# slabacct report' "$d/target.txt" ||
	fail "report --follow-symlinks: the target did not get the report"
ln -s target.json "$d/follow.json"
"$SLABACCT" snapshot --follow-symlinks --load "$d/snap.json" --json \
	-o "$d/follow.json" || fail "snapshot --follow-symlinks failed"
[ -L "$d/follow.json" ] && jq -e . "$d/target.json" >/dev/null ||
	fail "snapshot --follow-symlinks: the target did not get the JSON"

# /dev/null stays a device (written in place, never renamed over)
"$SLABACCT" report -o /dev/null "$d/good.dat" || fail "report -o /dev/null failed"
"$SLABACCT" diff -o /dev/null "$d/good.dat" "$d/good.dat" || fail "diff -o /dev/null failed"
"$SLABACCT" snapshot --load "$d/snap.json" -o /dev/null --save /dev/null ||
	fail "snapshot -o /dev/null failed"
[ -c /dev/null ] || fail "/dev/null is no longer a character device"

# A failed report leaves the earlier output as it was
"$SLABACCT" report -o "$d/rep.txt" "$d/good.dat" || fail "report failed"
cp "$d/rep.txt" "$TEST_TMP/rep.copy"
"$SLABACCT" report --what live --html "$d/rep.txt" "$TEST_TMP/victim" \
	>/dev/null 2>&1 && fail "report of a text file succeeded"
same "$d/rep.txt" "$TEST_TMP/rep.copy" "a failed report"

# A reader of the old recording keeps reading it while a new one is
# written at its path: the new file is renamed over it, not written into it
exec 3<"$d/good.dat"
"$SLABACCT" record --no-snapshot -o "$d/good.dat" -- cat /proc/self/status \
	>"$TEST_TMP/again.out" 2>&1 || fail "record again failed: $(cat "$TEST_TMP/again.out")"
cat <&3 >"$TEST_TMP/read-old"
exec 3<&-
same "$TEST_TMP/read-old" "$TEST_TMP/good.copy" "an open reader of the old file"
cmp -s "$d/good.dat" "$TEST_TMP/good.copy" && fail "the new recording did not replace the old"

# Nothing left beside the outputs: no temporary files, no lock files
left=$(cd "$d" && ls -A | grep -v -x -e good.dat -e snap.json -e '.*\.link' \
	-e dangling -e 'follow\..*' -e 'target\..*' -e rep.txt)
assert_eq "files left in the output directory" "" "$left"
assert_eq "slabacct instances left behind" "" "$(leaked_instances)"
