# slabacct record and boot: bad input, a missing requirement, a full disk.
# Each error exits with the documented status and leaves no tracefs
# instance behind; a full disk leaves a readable file.
. "$(dirname "$0")/../../lib.sh"
. "$(dirname "$0")/../record-lib.sh"
need_root
command -v trace-cmd >/dev/null || fail "trace-cmd is not installed (scripts/install-deps)"

# expect STATUS PATTERN CMD...: exit status and a message matching PATTERN
expect() {
	local want=$1 pat=$2 out rc
	shift 2
	out=$("$@" 2>&1)
	rc=$?
	[ "$rc" = "$want" ] || fail "'$*' exited $rc, expected $want: $out"
	echo "$out" | grep -q -- "$pat" || fail "'$*' said: $out"
	note "'$*' -> $rc"
}

expect 2 "unknown event group 'slub'" "$SLABACCT" record -e kmem,slub -- true
expect 2 "Cannot parse integer" "$SLABACCT" record -b 12k -- true
expect 2 "buffer-size takes a number >= 0" "$SLABACCT" record -b -5 -- true
expect 2 "duration takes a finite number >= 0" "$SLABACCT" record --duration -1
expect 2 "no command after" "$SLABACCT" record -o "$TEST_TMP/x.dat" --
expect 2 "cannot run 'no-such-command-sa'" "$SLABACCT" record -o "$TEST_TMP/x.dat" -- no-such-command-sa
expect 2 "unknown call site" "$SLABACCT" record --call-site no_such_function_sa -- true
expect 2 "bad GFP mask" "$SLABACCT" record --gfp zero -- true
expect 1 "No such file or directory" "$SLABACCT" record -o /nonexistent/dir/x.dat -- true
expect 2 "unknown event group" "$SLABACCT" boot cmdline -e foo
expect 2 "buffer-size takes a number >= 0" "$SLABACCT" boot cmdline -b -1
expect 2 "unknown subcommand" "$SLABACCT" boot frob
[ -e "$TEST_TMP/x.dat" ] && fail "a failed record left its output"

# The workload's failure is record's exit status; the recording is kept
# (128 + N when a signal N killed it)
for w in "1 false" "3 sh -c 'exit 3'" "138 sh -c 'kill -USR1 \$\$'"; do
	want=${w%% *}
	rm -f "$TEST_TMP/st.dat"
	eval "\"\$SLABACCT\" record -o \"\$TEST_TMP/st.dat\" -- ${w#* }" \
		>"$TEST_TMP/st.out" 2>&1
	assert_eq "exit status of record -- ${w#* }" "$want" "$?"
	trace-cmd report "$TEST_TMP/st.dat" >/dev/null 2>&1 ||
		fail "record -- ${w#* } kept no readable recording: $(cat "$TEST_TMP/st.out")"
done
# An event absent where another of its kind exists is no warning
# (kmalloc_node went into kmalloc, kmem_cache_alloc_node likewise)
ev=/sys/kernel/tracing/events/kmem
for pair in kmalloc_node:kmalloc kmem_cache_alloc_node:kmem_cache_alloc; do
	if [ ! -d "$ev/${pair%:*}" ] && [ -d "$ev/${pair#*:}" ]; then
		grep "kmem:${pair%:*} does not exist" "$TEST_TMP/st.out" &&
			fail "warned about ${pair%:*}, whose kind (${pair#*:}) exists"
	fi
done

# Not root: what is needed, exit 2
if command -v setpriv >/dev/null; then
	expect 2 "needs root" setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$SLABACCT" record -o /tmp/never.dat -- true
	expect 2 "needs root" setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$SLABACCT" boot collect -o /tmp/never.dat
fi

# A filter the kernel takes: only call sites inside kmem_cache_alloc's
# callers' range would be too fragile; filter on a real function instead.
# It filters allocations (frees carry the freeing function's call site
# and are all kept: record-callsite.sh)
"$SLABACCT" record --call-site do_sys_openat2 -o "$TEST_TMP/site.dat" -- \
	cat /proc/self/status >"$TEST_TMP/site.out" 2>&1 ||
	fail "record --call-site failed: $(cat "$TEST_TMP/site.out")"
trace-cmd report "$TEST_TMP/site.dat" 2>/dev/null | grep -E ': (kmalloc|kmem_cache_alloc): ' |
	grep -v 'call_site=do_sys_openat2+' | head -3 >"$TEST_TMP/site.bad"
[ -s "$TEST_TMP/site.bad" ] && fail "--call-site let through: $(cat "$TEST_TMP/site.bad")"

# The disk fills: the recording stops, the file stays readable, exit 1
mnt=$TEST_TMP/small
mkdir -p "$mnt"
size_kb=$(( $(wc -c </proc/kallsyms) / 1024 + 4096 ))
mount -t tmpfs -o size=${size_kb}k tmpfs "$mnt" || fail "cannot mount a tmpfs"
trap 'umount "$mnt" 2>/dev/null; rm -rf "$TEST_TMP"' EXIT
# The workload runs until the recorder stops it (the disk fills): a
# bounded one may not fill it when a loaded machine overruns the buffer.
# --duration only keeps a recording that never fills it from hanging.
"$SLABACCT" record -b 4096 --duration 300 -o "$mnt/full.dat" -- bash -c \
	'while :; do cat /proc/self/status >/dev/null; done' \
	>"$TEST_TMP/full.out" 2>&1
rc=$?
cat "$TEST_TMP/full.out"
assert_eq "exit status on a full disk" 1 "$rc"
grep -q 'the disk filled' "$TEST_TMP/full.out" || fail "no 'disk filled' message"
trace-cmd report "$mnt/full.dat" >"$TEST_TMP/full.report" 2>"$TEST_TMP/full.err" ||
	fail "the cut-short file is unreadable: $(head -3 "$TEST_TMP/full.err")"
[ "$(grep -c ' kmalloc: ' "$TEST_TMP/full.report")" -gt 0 ] ||
	fail "the cut-short file holds no kmalloc events"
# the events lost once the readers stopped are blamed on the disk, not
# on the buffer: a tiny buffer overflows as soon as nobody reads it
rm -f "$mnt/full.dat"
"$SLABACCT" record -b 8 --duration 300 -o "$mnt/full.dat" -- bash -c \
	'while :; do cat /proc/self/status >/dev/null; done' \
	>"$TEST_TMP/full8.out" 2>&1
assert_eq "exit status on a full disk (-b 8)" 1 "$?"
cat "$TEST_TMP/full8.out"
line=$(grep 'events lost' "$TEST_TMP/full8.out") || fail "no lost events with -b 8 on a full disk"
after=$(echo "$line" | sed -n 's/.* \([0-9]*\) of them after the disk filled.*/\1/p')
[ "${after:-0}" -gt 0 ] || fail "the loss is not put down to the full disk: $line"
total=$(echo "$line" | sed -n 's/.*warning: \([0-9]*\) events lost.*/\1/p')
kept=$(trace-cmd report --stat "$mnt/full.dat" 2>/dev/null |
	awk -F': ' '/^(overrun|commit overrun|dropped events): / { n += $2 } END { print n + 0 }')
assert_eq "lost events in the cut-short file" "$total" "$kept"
umount "$mnt"

# an output that is not a regular file (a FIFO here, /dev/null alike) is
# refused, and left as it was: a failed recording removes only its file
mkfifo "$TEST_TMP/fifo"
"$SLABACCT" record -o "$TEST_TMP/fifo" -- true >"$TEST_TMP/fifo.out" 2>&1
assert_eq "exit status for a FIFO output" 1 "$?"
grep -q 'not a regular file' "$TEST_TMP/fifo.out" ||
	fail "no 'not a regular file' message: $(cat "$TEST_TMP/fifo.out")"
[ -p "$TEST_TMP/fifo" ] || fail "the FIFO given as output is gone"
grep -q 'does not exist on this kernel' "$TEST_TMP/fifo.out" &&
	fail "record set up its events before checking its output"
# boot collect checks it before stopping the top-level buffer
on=$(cat /sys/kernel/tracing/tracing_on)
"$SLABACCT" boot collect -o "$TEST_TMP/fifo" >"$TEST_TMP/bfifo.out" 2>&1
assert_eq "boot collect exit status for a FIFO output" 1 "$?"
grep -q 'not a regular file' "$TEST_TMP/bfifo.out" ||
	fail "boot collect: no 'not a regular file' message: $(cat "$TEST_TMP/bfifo.out")"
assert_eq "top-level tracing_on after the refused collect" "$on" \
	"$(cat /sys/kernel/tracing/tracing_on)"
[ -p "$TEST_TMP/fifo" ] || fail "boot collect removed the FIFO"

assert_eq "slabacct instances left behind" "" "$(leaked_instances)"
