# slabacct events against the host's live tracefs.
. "$(dirname "$0")/../../lib.sh"
need_root

out=$("$SLABACCT" events -e kmem) || fail "slabacct events failed"
echo "$out"
echo "$out" | grep -Eq '^present +kmem +kmalloc$' || fail "kmem:kmalloc not reported present"
echo "$out" | grep -Eq '^present +kmem +kfree$' || fail "kmem:kfree not reported present"
echo "$out" | grep -q 'vmscan' && fail "-e kmem listed a vmscan event"

# the counts line must add up to the rows
rows=$(echo "$out" | grep -c -E '^(present|missing) ')
sum=$(echo "$out" | sed -n 's/^# \([0-9]*\) present, \([0-9]*\) missing$/\1+\2/p')
assert_eq "rows vs summary" "$rows" "$((sum))"

# Not root: a clear message and exit 2
if command -v setpriv >/dev/null; then
	msg=$(setpriv --reuid=65534 --regid=65534 --clear-groups "$SLABACCT" events 2>&1)
	rc=$?
	assert_eq "exit status as non-root" 2 "$rc"
	echo "$msg" | grep -q 'needs root' || fail "non-root message: $msg"
fi
