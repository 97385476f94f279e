# Recording for the referee tests (POSIX sh: sourced by host tests, and
# pasted into guest scripts, where busybox runs it).
#
# referee_record OUT GROUPS CMD...: run CMD (refload, whose comm is
# "refload") while two recorders follow the same events with the same
# kernel filter, comm == "refload":
#   OUT/ours.dat   slabacct record -e GROUPS --comm refload
#   OUT/perf.data  perf record -a of the same kmem events, each with the
#                  filter (perf applies --filter to the -e before it)
# Both are switched on before CMD starts (slabacct says "recording
# into" once its instance traces; perf starts with its events disabled
# and acknowledges the enable on its control FIFO) and stopped after CMD
# has exited, so both hold exactly the events of CMD's task: no window
# edge cuts between them. CMD's output goes to OUT/refload.out.
# With REFEREE_ALL=1 a third recorder, slabacct record -e GROUPS of the
# whole system, its own threads included (--trace-self: the system's
# counters count them too), writes OUT/all.dat over a wider window.
referee_record() {
	_out=$1 _groups=$2
	shift 2
	_f='comm == "refload"'
	# perf's events: those of the groups the report reads
	_ev="kmalloc kfree kmem_cache_alloc kmem_cache_free"
	case ",$_groups," in
	*,page,*) _ev="$_ev mm_page_alloc mm_page_free mm_page_free_batched" ;;
	esac
	_perf=
	for e in $_ev; do
		_perf="$_perf -e kmem:$e --filter '$_f'"
	done
	rm -f "$_out/ctl" "$_out/ack"
	mkfifo "$_out/ctl" "$_out/ack" || return 1
	if [ "${REFEREE_ALL:-0}" = 1 ]; then
		${SLABACCT:-slabacct} record -e "$_groups" -b 4096 --trace-self \
			-o "$_out/all.dat" \
			>"$_out/all.log" 2>&1 &
		_apid=$!
		referee_wait_recording "$_out/all.log" $_apid || return 1
	fi
	eval "exec perf record -a -R -c 1 -m 4096 -N -B -D -1 \
		--control fifo:$_out/ctl,$_out/ack $_perf \
		-o $_out/perf.data" >"$_out/perf.log" 2>&1 &
	_ppid=$!
	${SLABACCT:-slabacct} record -e "$_groups" -b 4096 --comm refload \
		-o "$_out/ours.dat" >"$_out/record.log" 2>&1 &
	_spid=$!
	referee_wait_recording "$_out/record.log" $_spid || return 1
	echo enable >"$_out/ctl"
	read -r _ack <"$_out/ack"
	[ "$_ack" = ack ] || { echo "perf did not acknowledge: $_ack"; return 1; }
	_rc=0
	"$@" >"$_out/refload.out" 2>"$_out/refload.err" || _rc=1
	kill -INT $_ppid $_spid
	# perf dies by the SIGINT it handled, once its file is written
	wait $_ppid
	grep -q 'Captured and wrote' "$_out/perf.log" || _rc=1
	wait $_spid || _rc=1
	if [ "${REFEREE_ALL:-0}" = 1 ]; then
		kill -INT $_apid
		wait $_apid || _rc=1
	fi
	return $_rc
}

# referee_wait_recording LOG PID: until slabacct record (PID) traces
referee_wait_recording() {
	while ! grep -q 'recording into' "$1"; do
		kill -0 "$2" 2>/dev/null || { cat "$1"; return 1; }
		sleep 1
	done
}
