# Guest side of bench/module-overhead.sh: the cost of one kmalloc(100) +
# kfree pair (tests/kmod/sa_test.ko's "bench N 100", timed with ktime) with
# nothing attached, with empty probes on the four kmem events
# slab_account.ko attaches to (tests/kmod/sa_null.ko: the tracepoints'
# dispatch alone), with sa_null.ko's least accounting (counts: a call
# site's counters; floor: those and the object's slot, no checks), with
# slab_account.ko loaded, and with ftrace recording those events. And
# (untracked) the kfree of PAIRS kmalloc(100) objects allocated before
# slab_account.ko was loaded, which it never saw: timed unloaded and with
# the module loaded after the kmallocs.
#
#   sh pair-cost.sh PAIRS ROUNDS MODES [PARAMS]
#
# MODES: unloaded,null,counts,floor,module,ftrace,untracked; PARAMS:
# slab_account.ko's, e.g. sites=64
#
# Writes $OUT/pairs, one "MODE ROUND NS" line per timed loop of PAIRS
# pairs (a module round adds "SITES OBJECTS FREES": how many of its
# events took the probes' slower path, /proc/slab_account's slow_*;
# untracked writes "free-unloaded ROUND NS" and "free-module ROUND NS
# UNTRACKED", the module's untracked_frees over the timed frees),
# $OUT/settle, what was waited for before the first round, $OUT/kernel,
# the release, and $OUT/mem_profiling, vm.mem_profiling on a kernel with
# allocation profiling.
# Under qemu/run --icount a nanosecond of guest time is one instruction.
pairs=$1 rounds=$2 modes=$3 params=${4:-}
T=/sys/kernel/tracing
E="kmalloc kfree kmem_cache_alloc kmem_cache_free"
insmod $MODDIR/sa_test.ko || exit 1
uname -r >$OUT/kernel
cat /proc/sys/vm/mem_profiling >$OUT/mem_profiling 2>/dev/null

threads() { cat /proc/[0-9]*/comm 2>/dev/null | grep -c "^$1"; }
uptime_s() { cut -d' ' -f1 /proc/uptime; }

# Boot-time kernel threads still at work would be timed with the loop.
# On 6.12 the crypto self-tests run in cryptomgr_test threads for about a
# second of guest time after init starts (about 2x the pair cost in that
# window): wait until none is left, at most 60 s of guest time.
start=$(uptime_s)
i=0
while [ "$(threads cryptomgr_)" != 0 ]; do
	i=$((i + 1))
	if [ $i -gt 600 ]; then
		echo "pair-cost: cryptomgr threads still running after 60 s:" \
			"$(grep -l '^cryptomgr_' /proc/[0-9]*/comm | tr '\n' ' ')"
		exit 1
	fi
	sleep 0.1
done
echo "cryptomgr threads gone at uptime $(uptime_s) s (from $start s, $i polls)" >$OUT/settle

# Then, whatever else boot left running: wait for a quiet second, one in
# which the CPU was idle at least 90% of the time (/proc/stat), at most 30.
idle() { awk '/^cpu / { print $5 + $6, $2 + $3 + $4 + $5 + $6 + $7 + $8 + $9 }' /proc/stat; }
i=0
while :; do
	i=$((i + 1))
	set -- $(idle)
	sleep 1
	set -- "$@" $(idle)
	busy=$(( ($4 - $2) - ($3 - $1) ))
	all=$(($4 - $2))
	[ $((busy * 10)) -le $all ] && break
	if [ $i -ge 30 ]; then
		echo "pair-cost: the guest never went quiet: $busy of $all ticks busy"
		exit 1
	fi
done
echo "a quiet second ($busy of $all ticks busy) ended at uptime $(uptime_s) s" >>$OUT/settle

one() {
	echo bench $pairs 100 >/proc/sa_test || exit 1
	sed -n 's/^bench_ns: //p' /proc/sa_test
}
# slow: slab_account.ko's slow_sites, slow_objects, slow_frees
slow() {
	awk '/^slow_(sites|objects|frees): / { printf "%s ", $2 }' /proc/slab_account
}
# Which path a module round measured. A call site's row is found inline
# only in its home slot, which another site may have taken first: the
# call sites of the kernel and of sa_test.ko move from boot to boot
# (KASLR), so in about one boot in a hundred sa_test's site is away from
# home and every pair of the loop costs about a hundred instructions
# more. The counts say so.
module_round() {
	set -- $(slow)
	ns=$(one)
	set -- "$@" $(slow)
	[ -n "$ns" ] || return 1
	[ $# = 6 ] || { echo "pair-cost: no slow_* counts in /proc/slab_account"; return 1; }
	echo "module $r $ns $(($4 - $1)) $(($5 - $2)) $(($6 - $3))" >>$OUT/pairs
}
ftrace() {
	for e in $E; do echo $1 >$T/events/kmem/$e/enable || exit 1; done
}
untracked() {
	awk '/^untracked_frees: / { print $2 }' /proc/slab_account
}
# held_free [module]: kmalloc PAIRS objects, load the module if asked
# (it never sees them allocated), and print the ns their kfree took
# (and the module's untracked_frees over it)
held_free() {
	echo kmalloc $pairs 100 0 >/proc/sa_test || exit 1
	[ -z "${1:-}" ] || { insmod $MODDIR/slab_account.ko $params &&
				u=$(untracked); } || exit 1
	echo free >/proc/sa_test || exit 1
	echo "$(sed -n 's/^free_ns: //p' /proc/sa_test)${1:+ $(($(untracked) - u))}"
}

one >/dev/null	# warm up: caches, the first slab pages
echo 8192 >$T/buffer_size_kb
r=0
while [ $r -lt $rounds ]; do
	r=$((r + 1))
	case ",$modes," in *,unloaded,*)
		echo "unloaded $r $(one)" >>$OUT/pairs ;;
	esac
	case ",$modes," in *,null,*)
		insmod $MODDIR/sa_null.ko || exit 1
		echo "null $r $(one)" >>$OUT/pairs
		rmmod sa_null || exit 1 ;;
	esac
	for m in counts:1 floor:2; do
		case ",$modes," in *,${m%:*},*)
			insmod $MODDIR/sa_null.ko work=${m#*:} || exit 1
			echo "${m%:*} $r $(one)" >>$OUT/pairs
			rmmod sa_null || exit 1 ;;
		esac
	done
	case ",$modes," in *,module,*)
		insmod $MODDIR/slab_account.ko $params || exit 1
		module_round || exit 1
		rmmod slab_account || exit 1 ;;
	esac
	case ",$modes," in *,untracked,*)
		a=$(held_free) && b=$(held_free module) || exit 1
		case "$a/$b" in [0-9]*/[0-9]*' '[0-9]*) ;;
		*) echo "pair-cost: no free time or untracked_frees: '$a', '$b'"
		   exit 1 ;;
		esac
		echo "free-unloaded $r $a" >>$OUT/pairs
		echo "free-module $r $b" >>$OUT/pairs
		rmmod slab_account || exit 1 ;;
	esac
	case ",$modes," in *,ftrace,*)
		echo >$T/trace
		echo 1 >$T/tracing_on
		ftrace 1
		echo "ftrace $r $(one)" >>$OUT/pairs
		ftrace 0 ;;
	esac
done
