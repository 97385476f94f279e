# The host workload's CI job of docs/ci-and-fleets.md ("Example: a host
# workload's CI job"), read from it and run as written on this machine:
# three runs of a workload merged into a baseline, then the job (record
# --follow --fail-on-lost, diff --fail-on against the baseline). The
# workload makes 200 files in a tmpfs; an unchanged run must pass (exit
# 0), and a run that makes 3000 more must fail with 3. An unrelated
# process allocates beside it all the while (the machine's other jobs):
# --follow keeps it out.
. "$(dirname "$0")/../../lib.sh"
need_root
[ -x "$SLABACCT" ] || fail "build/slabacct is missing (make all)"

awk "/^### Example: a host workload's CI job/ { on = 1; next }
     on && /^##/ { exit }
     on && /^    / { sub(/^    /, \"\"); print; inblk = 1; next }
     on && inblk && !/^    / { print \"#---\"; inblk = 0 }" \
	"$TOP/docs/ci-and-fleets.md" |
	awk -v dir="$TEST_TMP" 'BEGIN { n = 1 } /^#---$/ { n++; next }
	     { print >(dir "/block" n ".sh") }'
[ -s "$TEST_TMP/block1.sh" ] && [ -s "$TEST_TMP/block2.sh" ] ||
	fail "docs/ci-and-fleets.md has no host CI job with two blocks"
note "baseline: $(tr '\n' ' ' <"$TEST_TMP/block1.sh")"
note "job: $(tr '\n' ' ' <"$TEST_TMP/block2.sh")"

work=$TEST_TMP/ci
mkdir -p "$work/fs"
mount -t tmpfs -o size=64m slabacct-ci "$work/fs" || fail "cannot mount a tmpfs"
noise=
cleanup() {
	[ -n "$noise" ] && kill "$noise" 2>/dev/null
	umount "$work/fs" 2>/dev/null
}
trap cleanup EXIT
# the workload: N files (EXTRA more when asked), each made and kept
cat >"$work/workload" <<SH
#!/bin/sh
d=\$(mktemp -d "$work/fs/run.XXXXXX")
n=\$((200 + \${EXTRA:-0}))
i=0
while [ \$i -lt \$n ]; do : >"\$d/f\$i"; i=\$((i + 1)); done
SH
chmod +x "$work/workload"
# beside it, another process that allocates in the kernel all along
sh -c 'while :; do cat /proc/self/status >/dev/null; done' &
noise=$!
export PATH="$TOP/build:$PATH"
cd "$work" || fail "no $work"
bash -e "$TEST_TMP/block1.sh" >"$TEST_TMP/base.out" 2>&1 ||
	fail "the baseline block failed ($?): $(tail -n 5 "$TEST_TMP/base.out")"
assert_eq "runs in the baseline" 3 "$(jq '.runs | length' baseline.json)"

job() {
	rm -f new.dat
	bash "$TEST_TMP/block2.sh" >"$TEST_TMP/job.out" 2>"$TEST_TMP/job.err"
}
job
st=$?
[ $st = 0 ] || fail "the unchanged workload failed the job ($st): $(tail -n 15 "$TEST_TMP/job.out" "$TEST_TMP/job.err")"
grep -q 'within every limit' "$TEST_TMP/job.err" ||
	fail "the passing job does not say so: $(tail -n 5 "$TEST_TMP/job.err")"
# the unrelated process is not in the workload's recording
"$SLABACCT" report --json --by comm new.dat >"$TEST_TMP/comm.json" 2>/dev/null &&
	jq -e '[.sections.callsite.rows[].site] | any(. == "cat")' \
		"$TEST_TMP/comm.json" >/dev/null &&
	fail "the unrelated cat loop is in the --follow recording"
EXTRA=3000 job
st=$?
assert_eq "the job with 3000 more files: exit status" 3 "$st"
note "grown: $(grep -m3 -E 'shmem|d_alloc|new_inode|alloc_inode' "$TEST_TMP/job.out" | tr -s ' ' | tr '\n' ';')"
exit 0
