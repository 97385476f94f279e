# The example CI job of docs/ci-and-fleets.md ("Example: a CI job"), read from it
# and run as written: three boots of Debian's 6.1 kernel merged into a
# baseline, then the job (boot, boot collect --fail-on-lost, diff
# --fail-on against the baseline). An unchanged boot must pass (exit 0,
# "within every limit"); a boot whose script first creates 3000 files in
# a tmpfs must fail with 3, its diff showing the 3001 inodes and dentries
# (the files and their directory) at their sites.
. "$(dirname "$0")/../../lib.sh"
flavour=${1:?kernel flavour}
[ "$flavour" = 6.1 ] ||
	skip "the CI job of docs/ci-and-fleets.md boots Debian's 6.1 kernel (-k 6.1), as written"

# the indented blocks of the section, in order
awk '/^### Example: a CI job/ { on = 1; next }
     on && /^##/ { exit }
     on && /^    / { sub(/^    /, ""); print; blank = 0; inblk = 1; next }
     on && inblk && !/^    / { print "#---"; inblk = 0 }' "$TOP/docs/ci-and-fleets.md" |
	awk -v dir="$TEST_TMP" 'BEGIN { n = 1 } /^#---$/ { n++; next }
	     { print >(dir "/block" n ".sh") }'
[ -s "$TEST_TMP/block1.sh" ] && [ -s "$TEST_TMP/block2.sh" ] ||
	fail "docs/ci-and-fleets.md has no 'Example: a CI job' with two blocks"
note "baseline: $(cat "$TEST_TMP/block1.sh")"
note "job: $(cat "$TEST_TMP/block2.sh")"

# run it where the README's reader would: qemu/run and slabacct at hand
work=$TEST_TMP/ci
mkdir -p "$work"
mkdir "$work/qemu"
printf '#!/bin/sh\nexec "%s/qemu/run" "$@"\n' "$TOP" >"$work/qemu/run"
chmod +x "$work/qemu/run"
export PATH="$TOP/build:$PATH"
cd "$work" || fail "no $work"
bash -e "$TEST_TMP/block1.sh" || fail "the README's baseline block failed ($?)"
[ -s baseline.json ] || fail "no baseline.json"
assert_eq "runs in the baseline" 3 "$(jq '.runs | length' baseline.json)"
assert_eq "lost events in the baseline" "true 0" "$(jq -r '"\(.lost.known) \(.lost.events)"' baseline.json)"

job() {
	rm -rf new
	bash "$TEST_TMP/block2.sh" >"$TEST_TMP/job.out" 2>"$TEST_TMP/job.err"
	rc=$?
	cat "$TEST_TMP/job.out"
	grep -v '^qemu/run: ' "$TEST_TMP/job.err" || true
	note "job: exit $rc"
}
job
[ $rc = 0 ] || fail "an unchanged boot failed the job: exit $rc: $(tail -3 "$TEST_TMP/job.err")"
grep -q 'slabacct diff: --fail-on: within every limit' "$TEST_TMP/job.err" ||
	fail "the job did not say it held every limit"

# growth: the same boot, with 3000 more files (dentries, inodes) first
{
	echo 'mkdir /tmp/grow; i=0; while [ $i -lt 3000 ]; do : >/tmp/grow/$i; i=$((i + 1)); done'
	cat collect.sh
} >grow.sh
mv grow.sh collect.sh
job
assert_eq "the job's exit status after growth" 3 "$rc"
line=$(grep 'slabacct diff: --fail-on: ' "$TEST_TMP/job.err") ||
	fail "no --fail-on line"
case "$line" in
*"limits crossed: total:+256K (total bytes +"*"; site:+10%&+16K ("*) ;;
*) fail "unexpected --fail-on line: $line" ;;
esac
# the growth, exactly: 3000 files and their directory, a tmpfs inode and
# a dentry each
for site in shmem_alloc_inode __d_alloc; do
	n=$(awk -v s="$site" '$5 == "changed" && index($7, s "+") == 1 { print $3 }' \
		"$TEST_TMP/job.out")
	assert_eq "new allocations at $site" "+3001" "$n"
done
exit 0
