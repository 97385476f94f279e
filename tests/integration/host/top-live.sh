# slabacct top against this host's tracefs, in a tmux pane: keys change
# the sort (checked on the rows shown), q and Ctrl-C quit with the
# terminal settings and screen restored and the tracefs instance gone,
# and so do Ctrl-\ and every signal that would end it (SIGTERM, SIGHUP,
# SIGQUIT, SIGUSR1, SIGALRM, a real-time one: as record), all with exit
# status 0; plain snapshots without a terminal, ended the same way by
# SIGQUIT and SIGPIPE; usage errors.
. "$(dirname "$0")/../../lib.sh"
need_root
command -v tmux >/dev/null ||
	fail "tmux is not installed (scripts/install-deps installs it)"

sess=sa-top-$$
# a tmux server of our own, kept up by an idle session: the shared one
# is other tests' too, and a server whose last session ends exits while
# the next new-session may be connecting to it
tm() { tmux -L "$sess" "$@"; }
tm new-session -d -s keep "sleep 3600" || fail "cannot start tmux"
# keep allocations coming while the view runs
( while :; do cat /proc/self/status /proc/meminfo >/dev/null; done ) &
load=$!
trap 'kill $load 2>/dev/null; tm kill-server 2>/dev/null
	rm -f "${TMUX_TMPDIR:-/tmp}/tmux-$(id -u)/$sess"
	rm -rf "$TEST_TMP"' EXIT

screen() { tm capture-pane -p -t "$sess"; }

# wait_for REGEX: until the pane shows it (30 s at most)
wait_for() {
	local i
	for i in $(seq 150); do
		screen | grep -Eq "$1" && return 0
		sleep 0.2
	done
	screen
	fail "the pane never showed '$1'"
}

# sorted_by COLUMN: the data rows shown are in non-increasing order of
# that column (numbers as sa_human prints them: 1234, 1.2K, 3.4M)
sorted_by() {
	local i
	for i in 1 2 3; do	# a capture may catch a redraw half done
		screen | awk -v c="$1" '
			function num(s,  m) {
				m = 1
				if (s ~ /K$/) m = 1024
				if (s ~ /M$/) m = 1048576
				if (s ~ /G$/) m = 1073741824
				sub(/[KMG]$/, "", s)
				return s * m
			}
			/^ ALLOCS\/s/ { rows = 1; next }
			rows && NF >= 6 { v = num($c); n++
				if (n > 1 && v > prev) bad = 1; prev = v }
			END { exit (n < 3 || bad) }' && return 0
		sleep 0.3
	done
	screen
	fail "the rows are not sorted by column $1"
}

# start_top: slabacct top in a pane that outlives it, saving the tty
# settings before and after and the exit status
start_top() {
	tm kill-session -t "$sess" 2>/dev/null
	rm -f "$TEST_TMP"/status "$TEST_TMP"/stty.*
	tm new-session -d -s "$sess" -x 110 -y 30 \
		"stty -a >$TEST_TMP/stty.before; $SLABACCT top -d 0.3;
		 echo \$? >$TEST_TMP/status; stty -a >$TEST_TMP/stty.after;
		 sleep 600"
	wait_for '^ ALLOCS/s'
	instance=$(screen | sed -n 's/.*tracefs instance \(slabacct-[0-9-]*\),.*/\1/p')
	[ -n "$instance" ] || fail "no tracefs instance named on the screen"
	[ -d /sys/kernel/tracing/instances/$instance ] ||
		fail "instance $instance does not exist while top runs"
}

# stopped_cleanly HOW: exit status 0, terminal as before, instance gone
stopped_cleanly() {
	local i
	for i in $(seq 100); do
		[ -s "$TEST_TMP/stty.after" ] && break
		sleep 0.2
	done
	[ -s "$TEST_TMP/status" ] || fail "top did not stop on $1"
	assert_eq "exit status after $1" 0 "$(cat "$TEST_TMP/status")"
	cmp -s "$TEST_TMP/stty.before" "$TEST_TMP/stty.after" ||
		fail "terminal settings not restored after $1: $(diff "$TEST_TMP/stty.before" "$TEST_TMP/stty.after")"
	screen | grep -q '^ ALLOCS/s' &&
		fail "the view is still on the screen after $1 (alternate screen not left)"
	[ -d /sys/kernel/tracing/instances/$instance ] &&
		fail "instance $instance left behind after $1"
	note "$1: exit 0, terminal restored, $instance removed"
}

start_top
screen
grep -q 'sort: rate' <(screen) || fail "the default sort is not rate"
sorted_by 1
for k in s:slack:3 l:live:4 b:bytes:2 a:rate:1; do
	IFS=: read -r key name col <<<"$k"
	tm send-keys -t "$sess" "$key"
	wait_for "sort: $name"
	sorted_by "$col"
	note "key $key: sorted by $name"
done
tm send-keys -t "$sess" q
stopped_cleanly q

start_top
tm send-keys -t "$sess" C-c
stopped_cleanly Ctrl-C

# Ctrl-\ (SIGQUIT from the terminal): no core, a normal end
start_top
tm send-keys -t "$sess" 'C-\'
stopped_cleanly 'Ctrl-\'

# any signal that would end it is a normal end too (exit 0), like q
for sig in TERM HUP QUIT USR1 ALRM RTMIN+3; do
	start_top
	pid=${instance#slabacct-}
	kill -"$sig" "${pid%%-*}"
	stopped_cleanly "SIG$sig"
done

# plain snapshots until stopped: SIGQUIT prints the last one, exit 0, and
# the instance is gone; a reader gone (SIGPIPE) removes it too
"$SLABACCT" top -n 0 -d 0.2 </dev/null >"$TEST_TMP/plain" 2>&1 &
p=$!
for i in $(seq 150); do
	grep -q '^slabacct top: tracefs instance' "$TEST_TMP/plain" && break
	sleep 0.2
done
instance=$(sed -n 's/.*tracefs instance \(slabacct-[0-9-]*\),.*/\1/p' "$TEST_TMP/plain" | head -1)
[ -n "$instance" ] || fail "plain top named no instance: $(head -c 300 "$TEST_TMP/plain")"
kill -QUIT $p
wait $p
assert_eq "plain top, exit status after SIGQUIT" 0 "$?"
[ -d /sys/kernel/tracing/instances/$instance ] &&
	fail "plain top left $instance after SIGQUIT"
mkfifo "$TEST_TMP/pipe"
"$SLABACCT" top -n 0 -d 0.2 </dev/null >"$TEST_TMP/pipe" 2>"$TEST_TMP/perr" &
p=$!
head -n 1 "$TEST_TMP/pipe" >"$TEST_TMP/first"
wait $p
rc=$?
[ "$rc" -lt 128 ] || fail "plain top into a closed pipe died of signal $((rc - 128))"
instance=$(sed -n 's/.*tracefs instance \(slabacct-[0-9-]*\),.*/\1/p' "$TEST_TMP/first")
[ -n "$instance" ] || fail "no instance in the first line: $(cat "$TEST_TMP/first")"
[ -d /sys/kernel/tracing/instances/$instance ] &&
	fail "plain top left $instance after SIGPIPE"
note "plain top: SIGQUIT and SIGPIPE end it cleanly, $instance removed"

# no terminal: -n plain snapshots, --top rows each
out=$("$SLABACCT" top -n 2 -d 0.3 -t 5 --sort slack </dev/null | cat) ||
	fail "plain top failed"
echo "$out"
assert_eq "snapshots" 2 "$(echo "$out" | grep -c '^slabacct top: tracefs instance')"
assert_eq "sort in the header" 2 "$(echo "$out" | grep -c 'sort: slack')"
rows=$(echo "$out" | awk '/^ ALLOCS/ { on = 1; next } /^$/ { on = 0 } on' | wc -l)
assert_eq "rows in 2 snapshots of --top 5" 10 "$rows"

# the /proc/slab_account source, on a capture: rows in the file, by live
out=$("$SLABACCT" top --account-file "$TOP/tests/data/slab_account/6.1.txt" \
	-n 1 -d 0.1 -t 0 --sort live) || fail "top --account-file failed"
assert_eq "account rows" "$(grep -c '^ *[0-9]' "$TOP/tests/data/slab_account/6.1.txt" || true)" \
	"$(echo "$out" | awk '/^ ALLOCS/ { on = 1; next } on' | wc -l)"

# usage errors and a missing file
assert_status 2 "$SLABACCT" top --sort frag 2>/dev/null
assert_status 2 "$SLABACCT" top --source module 2>/dev/null
assert_status 2 "$SLABACCT" top -d 0 2>/dev/null
assert_status 1 "$SLABACCT" top --account-file /nonexistent -n 1 2>/dev/null
