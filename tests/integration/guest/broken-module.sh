# A module whose init returns -EINVAL must make the test bed fail, with a
# message naming the module, within the timeout.
. "$(dirname "$0")/../../lib.sh"
flavour=${1:?kernel flavour}

echo 'echo script ran > $OUT/ran' >"$TEST_TMP/guest.sh"
guest_run "$flavour" "$TEST_TMP/guest.sh" -t 60 -p broken_init 2>"$TEST_TMP/err"
rc=$?
cat "$TEST_TMP/err"
assert_eq "qemu/run exit status" 90 "$rc"
grep -q 'insmod broken_init.ko.*Invalid argument' "$TEST_TMP/err" ||
	fail "the failure message does not name the module and error"
[ -e "$TEST_TMP/out/ran" ] && fail "the script ran after a failed preload"
exit 0
