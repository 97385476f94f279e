#!/bin/bash
# Cost of slab_account.ko per kmalloc(100)+kfree pair, in instructions,
# against the same loop with nothing attached and with ftrace recording
# the same four kmem events, on every guest kernel of the test matrix.
# The load is sa_test.ko's "bench N 100" (N pairs in a kernel loop, timed
# with ktime; qemu/guest/pair-cost.sh). Under `qemu/run --icount` the guest
# clock advances 1 ns per instruction, so those times are instruction
# counts, the same from boot to boot whatever the host's load.
#
#   bench/module-overhead.sh [-k KERNELS] [-n PAIRS] [-r ROUNDS] [-b BOOTS]
#                            [--no-wall] [--update]
#   bench/module-overhead.sh --check [-k KERNELS] [-n PAIRS] [-r ROUNDS]
#                            [--module-args ARGS]
#
#   -k KERNELS  flavours (default: every kernel of the guest matrix,
#               "6.1 6.12-cloud 6.1-rt 6.1-arm64 6.1-armmp 6.12-allocinfo";
#               make module ARCH=all builds the modules for all of them); the
#               last is the custom 6.12 kernel with the kernel's own
#               allocation profiling (scripts/allocinfo-kernel, built
#               once), measured as two kernels: 6.12-allocinfo:off and
#               :on, booted with sysctl.vm.mem_profiling=0 and =1
#   -n PAIRS    pairs per timed loop (default 200000)
#   -r ROUNDS   rounds per boot, each timing unloaded, empty probes
#               (tests/kmod/sa_null.ko), its counts and floor probes,
#               module, ftrace, and the kfree of PAIRS objects allocated
#               before the module was loaded (untracked) (5)
#   -b BOOTS    icount boots per kernel (default 3)
#   --no-wall   skip the secondary, noisy figure: one ordinary TCG boot per
#               kernel, timed by the host's clock
#   --update    also write the reference figures of the check
#               (bench/module-overhead.ref) for KERNELS
#   --check     one icount boot per kernel, unloaded and module only, the
#               lowest of -r 3 rounds of the reference's -n: exit 1 if the
#               module adds more than 3% of its reference figure to the
#               pair (make check's guest/overhead-icount), 4 with 'SKIP:'
#               when no reference was written for that kernel
#   --module-args ARGS  load slab_account.ko with these parameters, e.g.
#               "sites=64": a crowded call-site table, where boots whose
#               loop's site lost its home slot show the slower path's
#               cost (--check only: the tables of RESULTS-module.md
#               and the reference are the default module's)
#
# Without --check, writes the figures above the KEEP line of
# bench/RESULTS-module.md and compares them with the reference figures.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
kernels="6.1 6.12-cloud 6.1-rt 6.1-arm64 6.1-armmp 6.12-allocinfo" pairs= rounds= boots=3 wall=1 update=0 check=0 margs=
# A raise of the module's instructions per pair above this (percent of
# the module's reference figure) fails --check.
limit_pct=3
ref=$top/bench/module-overhead.ref
results=$top/bench/RESULTS-module.md
KEEP='<!-- bench/module-overhead.sh keeps what follows -->'
usage() {
	echo "usage: bench/module-overhead.sh [-k KERNELS] [-n PAIRS] [-r ROUNDS] [-b BOOTS] [--no-wall] [--update]" >&2
	echo "       bench/module-overhead.sh --check [-k KERNELS] [-n PAIRS] [-r ROUNDS] [--module-args ARGS]" >&2
	exit 2
}
while [ $# -gt 0 ]; do
	case "$1" in
	-k) [ $# -ge 2 ] || usage; kernels=$2; shift 2 ;;
	-n) [ $# -ge 2 ] || usage; pairs=$2; shift 2 ;;
	-r) [ $# -ge 2 ] || usage; rounds=$2; shift 2 ;;
	-b) [ $# -ge 2 ] || usage; boots=$2; shift 2 ;;
	--no-wall) wall=0; shift ;;
	--update) update=1; shift ;;
	--check) check=1; shift ;;
	--module-args) [ $# -ge 2 ] || usage; margs=$2; shift 2
		[[ $margs =~ ^[a-z_]{1,32}=[0-9]{1,10}( [a-z_]{1,32}=[0-9]{1,10}){0,7}$ ]] ||
			{ echo "bench/module-overhead.sh: --module-args '$margs': expected NAME=NUMBER parameters, e.g. sites=64" >&2; exit 2; } ;;
	-h|--help) sed -n '2,/^[^#]/{/^#/p}' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) usage ;;
	esac
done
[ -z "$margs" ] || [ $check = 1 ] ||
	{ echo "bench/module-overhead.sh: --module-args measures another module setup: --check only" >&2; exit 2; }
if [ $check = 1 ]; then
	[ $update = 0 ] || usage
	: "${rounds:=3}"
	boots=1 wall=0 modes=unloaded,module
else
	: "${pairs:=200000}" "${rounds:=5}"
	modes=unloaded,null,counts,floor,module,ftrace,untracked
fi
# count WHAT N: N must be a count from 1 to 1000000 (sa_test's bound)
count() {
	[[ $2 =~ ^[1-9][0-9]{0,6}$ ]] && [ "$2" -le 1000000 ] ||
		{ echo "bench/module-overhead.sh: $1 '$2' is not a count from 1 to 1000000" >&2; exit 2; }
}
[ -z "$pairs" ] || count pairs "$pairs"
count rounds "$rounds"
count boots "$boots"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The allocation-profiling kernel: two kernels to measure, profiling off
# and on (bench/allocinfo.bash)
. "$top/bench/allocinfo.bash"
asked=$kernels
kernels=$(for k in $kernels; do variants "$k"; done | paste -sd' ')
allocinfo_prepare module-overhead "$kernels" || exit 1

# boot FLAVOUR NAME [qemu/run options]: run the guest side, results in
# $work/NAME; the guest's timeout grows with the work asked of it
boot() {
	local k=$1 name=$2
	shift 2
	local tmo=$((300 + pairs * rounds / 1000))
	# shellcheck disable=SC2046
	"$top/qemu/run" $(qemu_kernel "$k") --smp 1 -q -t "$tmo" -o "$work/$name" "$@" \
		"$top/qemu/guest/pair-cost.sh" -- "$pairs" "$rounds" "$modes" "$margs" ||
		{ echo "module-overhead: guest run on $k failed" >&2
		  cat "$work/$name/script.log" >&2 2>/dev/null; exit 1; }
	case $k in
	*:on | *:off)
		[ "$(cat "$work/$name/mem_profiling" 2>/dev/null)" = \
		  "$([ "${k#*:}" = on ] && echo 1 || echo 0)" ] ||
			{ echo "module-overhead: $k: vm.mem_profiling is not ${k#*:} in the guest" >&2; exit 1; } ;;
	esac
}

# per_pair MODE FILE...: the per-pair figure of every round of MODE.
# "module" is the rounds whose pairs took the probes' inline path,
# "module-slow" those where at least half of them took the slower path
# (pair-cost.sh's slow_sites, slow_objects, slow_frees).
per_pair() {
	local mode=$1
	shift
	awk -v m="$mode" -v n="$pairs" '{
		slow = $1 == "module" && NF >= 6 && ($4 >= n / 2 || $5 >= n / 2 || $6 >= n / 2)
		if ((m == "module-slow" && slow) || (m == $1 && !slow))
			printf "%.1f\n", $3 / n }' "$@"
}
# boot_inline FLAVOUR NAME [qemu/run options]: boot() as NAME, and again
# as NAME.2 and NAME.3 while no module round of a boot took the probes'
# inline path; sets dir to the last boot's results, and fails, saying
# so, if none of the three had such a round. In about one boot in
# a hundred, KASLR places sa_test.ko's call site where it finds its home
# slot in the call-site table taken, and then every pair of that boot
# costs about a hundred instructions more (its figure is printed): that
# is the cost of a site away from home, not the inline path's.
boot_inline() {
	local k=$1 name=$2 try
	shift 2
	for try in 1 2 3; do
		dir=$work/$name
		[ "$try" = 1 ] || dir=$dir.$try
		boot "$k" "${dir##*/}" "$@"
		case ,$modes, in *,module,*) ;; *) return 0 ;; esac
		[ -z "$(per_pair module "$dir/pairs")" ] || return 0
		slowboots+=("$k, boot $try: every module round took the probes' slower path\
 (slow_sites, slow_objects, slow_frees: $(awk '$1 == "module" { print $4, $5, $6; exit }' "$dir/pairs")\
 of $pairs pairs), $(per_pair module-slow "$dir/pairs" | stats | cut -d' ' -f2)\
 instructions per pair: sa_test.ko's call site or object was away\
 from its home slot in this boot's layout")
		echo "# ${slowboots[-1]}$([ "$try" = 3 ] || echo '; booting again')"
	done
	echo "FAIL: $k: in 3 boots no module round took the probes' inline path" >&2
	return 1
}
slowboots=()
# stats: "median min max" of numbers on stdin
stats() {
	sort -n | awk '{ v[NR] = $1 } END {
		if (NR == 0) exit 1
		m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
		printf "%.1f %.1f %.1f\n", m, v[1], v[NR] }'
}
# reference FLAVOUR: "release pairs unloaded module ftrace", or nothing
reference() {
	[ ! -f "$ref" ] || awk -v k="$1" '$1 == k { print $2, $3, $4, $5, $6; exit }' "$ref"
}
release() {
	case $1 in
	*:on | *:off) basename "$allocinfo_rel" ;;
	*) "$top/scripts/kernels" --flavour "$1" | cut -d' ' -f1 ;;
	esac
}

# The modules each kernel's guest loads, built before any boot
for k in $kernels; do
	case $k in *:on | *:off) continue ;; esac
	rel=$(release "$k") && [ -n "$rel" ] ||
		{ echo "module-overhead: no kernel for flavour '$k' (scripts/kernels --list)" >&2; exit 2; }
	[ -f "$top/build/kmod/$rel/sa_test.ko" ] && [ -f "$top/build/kmod/$rel/slab_account.ko" ] ||
		{ echo "module-overhead: no modules for $k in build/kmod/$rel: make module ARCH=all builds them" >&2; exit 2; }
done

# --check: the module's instructions per pair against the reference
if [ $check = 1 ]; then
	status=0 pairs_opt=$pairs
	for k in $kernels; do
		refline=$(reference "$k")
		if [ -z "$refline" ]; then
			echo "SKIP: no reference figures for kernel '$k' in bench/module-overhead.ref" \
				"(bench/module-overhead.sh --update -k '$k' writes them)"
			[ $status = 0 ] && status=4
			continue
		fi
		read -r rrel rpairs ru rm _ <<<"$refline"
		# The same loop as the reference's: a loop has a fixed cost (about
		# 7,000 instructions unloaded and 26,000 with the module on 6.1),
		# which fewer pairs would spread over fewer instructions.
		pairs=${pairs_opt:-$rpairs}
		count "pairs in bench/module-overhead.ref" "$pairs"
		boot_inline "$k" "icount-$k" --icount || { status=1; continue; }
		rel=$(cat "$dir/kernel" 2>/dev/null || release "$k")
		# the lowest round: an interrupt or a thread only adds instructions
		read -r _ u _ <<<"$(per_pair unloaded "$dir/pairs" | stats)"
		read -r _ m _ <<<"$(per_pair module "$dir/pairs" | stats)"
		# The module's share of the pair, against the reference's: on the
		# reference's kernel release the unloaded figure is the same, and
		# on another one the kernel's own change is not counted.
		verdict=$(awk -v u="$u" -v m="$m" -v ru="$ru" -v rm="$rm" -v l="$limit_pct" 'BEGIN {
			d = (m - u) - (rm - ru)
			printf "%s %+.1f%%", (d > rm * l / 100) ? "FAIL" : "ok", 100 * d / rm }')
		echo "$k: module $m instructions per pair (reference $rm), unloaded $u" \
			"(reference $ru); the module's share moved by ${verdict#* } of" \
			"the reference, limit +$limit_pct%: ${verdict%% *}"
		[ "$rel" = "$rrel" ] || echo "# $k: the reference was measured on $rrel, this is $rel"
		sed 's/^/# /' "$dir/settle"
		if [ "${verdict%% *}" = FAIL ]; then
			echo "FAIL: $k: slab_account.ko costs more instructions per pair than" \
				"bench/module-overhead.ref says; if that is meant, measure and write" \
				"it down with bench/module-overhead.sh --update -k '$k'" >&2
			status=1
		fi
	done
	exit $status
fi

rows=() frows=() urows=() spread=() wrows=() refrows=() settles=() profiling=()
for k in $kernels; do
	rel=$(release "$k")
	files=()
	for b in $(seq "$boots"); do
		boot_inline "$k" "icount-$k-$b" --icount || exit 1
		files+=("$dir/pairs")
	done
	for mode in unloaded null counts floor module ftrace free-unloaded free-module; do
		read -r med lo hi <<<"$(per_pair $mode "${files[@]}" | stats)"
		eval "${mode//-/_}=$med"
		bm=$(for f in "${files[@]}"; do per_pair $mode "$f" | stats | cut -d' ' -f1; done |
			paste -sd' ' | sed 's/ /, /g')
		spread+=("$(awk -v k="$k" -v m="${mode/#null/empty}" -v bm="$bm" -v med="$med" -v lo="$lo" -v hi="$hi" 'BEGIN {
			printf "| %s | %s | %s | %s-%s | %.2f%% |", k, m, bm, lo, hi, 100 * (hi - lo) / med }')")
	done
	# shellcheck disable=SC2154
	rows+=("$(awk -v k="$k" -v r="$rel" -v u="$unloaded" -v e="$null" -v m="$module" -v f="$ftrace" 'BEGIN {
		printf "| %s (%s) | %.0f | %.0f | %.0f | %.0f | %.0f | %.0f | %.2fx | %.2fx | %.2fx |", k, r, u, e, m, f, e - u, m - e, e / u, m / u, f / u }')")
	# shellcheck disable=SC2154
	frows+=("$(awk -v k="$k" -v u="$unloaded" -v e="$null" -v c="$counts" -v f="$floor" -v m="$module" 'BEGIN {
		printf "| %s | %.1f | %.1f | %.1f | %.1f | %.1f | %.1f | %.2fx | %.2fx | %.2fx |", k, u, u * 0.2, e - u, c - u, f - u, m - u, c / u, f / u, m / u }')")
	# a free the module never saw allocated: each of the timed frees
	# must have been counted in the module's untracked_frees
	read -r fu _ <<<"$(per_pair free-unloaded "${files[@]}" | stats)"
	read -r fm _ <<<"$(per_pair free-module "${files[@]}" | stats)"
	seen=$(awk '$1 == "free-module" { print $4 }' "${files[@]}" | sort -n | head -1)
	[ "${seen:-0}" -ge "$pairs" ] ||
		{ echo "module-overhead: $k: the module counted ${seen:-no} untracked frees of the $pairs timed" >&2; exit 1; }
	urows+=("$(awk -v k="$k" -v fu="$fu" -v fm="$fm" -v e="$null" -v u="$unloaded" -v m="$module" 'BEGIN {
		printf "| %s | %.1f | %.1f | %.1f | %.1f | %.2fx |", k, fu, fm, fm - fu, m - u, (fm - fu) / (m - u) }')")
	refrows+=("$k $rel $pairs $unloaded $module $ftrace")
	# the kernel's allocation profiling: the unloaded pair with it on
	# against off (the same kernel, booted with the other setting)
	case $k in
	6.12-allocinfo:off) prof_off=$unloaded ;;
	6.12-allocinfo:on)
		[ -z "${prof_off:-}" ] || profiling+=("$(awk -v k="${k%:*}" -v r="$rel" -v a="$prof_off" -v b="$unloaded" 'BEGIN {
			printf "Allocation profiling on %s (%s): %.0f instructions per pair with vm.mem_profiling=1 against %.0f with 0, %+.0f (%.3fx).", k, r, b, a, b - a, b / a }')") ;;
	esac
	settles+=("$(sed -n "s/^/- $k, boot 1: /p" "$work/icount-$k-1/settle")")
	if [ $wall = 1 ]; then
		boot "$k" "wall-$k" --accel tcg
		read -r wu _ <<<"$(per_pair unloaded "$work/wall-$k/pairs" | stats)"
		read -r wm _ <<<"$(per_pair module "$work/wall-$k/pairs" | stats)"
		read -r wf _ <<<"$(per_pair ftrace "$work/wall-$k/pairs" | stats)"
		wrows+=("$(awk -v k="$k" -v u="$wu" -v m="$wm" -v f="$wf" 'BEGIN {
			printf "| %s | %.0f | %.0f | %.0f | %.2fx | %.2fx |", k, u, m, f, m / u, f / u }')")
	fi
	# against the figures the check compares with
	refline=$(reference "$k")
	if [ -n "$refline" ]; then
		read -r _ _ ru rm _ <<<"$refline"
		awk -v k="$k" -v m="$module" -v u="$unloaded" -v rm="$rm" -v ru="$ru" 'BEGIN {
			printf "module-overhead: %s: module %s (reference %s, %+.1f%%), unloaded %s (reference %s)\n",
				k, m, rm, 100 * (m - rm) / rm, u, ru }'
	fi
done

# what was measured: the module's source by its git tree, which a rebase
# or a change elsewhere leaves as it is
src=$(git -C "$top" rev-parse --short HEAD:module 2>/dev/null || echo unknown)
[ -z "$(git -C "$top" status --porcelain -- module tests/kmod 2>/dev/null)" ] ||
	src="$src with uncommitted changes to module/ or tests/kmod/"
cmd="bench/module-overhead.sh -k \"$asked\" -n $pairs -r $rounds -b $boots"
[ $wall = 1 ] || cmd="$cmd --no-wall"
{
	echo "# slab_account.ko overhead per kmalloc+kfree pair"
	echo
	echo "Written by \`$cmd\` on $(date -u +%Y-%m-%d) (module/ at git tree $src)."
	echo "Each round times $pairs kmalloc(100)+kfree pairs (sa_test.ko \`bench\`)"
	echo "six ways in the same boot: nothing attached (unloaded), with an"
	echo "empty probe on each of kmem:kmalloc, kfree, kmem_cache_alloc and"
	echo "kmem_cache_free (tests/kmod/sa_null.ko, registered as the module"
	echo "registers its own: empty), with the same module's two least"
	echo "accounting probes (counts, floor: below), with slab_account.ko"
	echo "loaded (module), and with ftrace recording the same four events into"
	echo "its ring buffer."
	echo
	echo "## Instructions per pair"
	echo
	echo "Counted by QEMU (\`qemu/run --icount\`: TCG, one vCPU, the guest clock"
	echo "advancing 1 ns per instruction, so the ktime the loop takes is an"
	if [ "$boots" = 1 ]; then
		echo "instruction count). The median of $rounds rounds in one boot"
	else
		echo "instruction count). Medians of $rounds rounds in each of $boots boots"
	fi
	echo "per kernel. \"dispatch\" is empty minus unloaded: the tracepoints'"
	echo "calls of two probes, the kernel's, the floor under any probe on these"
	echo "events; \"probes\" is module minus empty, what the module's own code"
	echo "adds. A loop's count includes the timer ticks that land in it, about"
	echo "0.2% of the pair here."
	echo
	if [ -n "$allocinfo_rel" ]; then
		echo "6.12-allocinfo is the kernel of \`scripts/allocinfo-kernel\`: Debian's"
		echo "linux-source-6.12 on tinyconfig with the qemu, tracing, module, callsite"
		echo "and allocinfo fragments, the kernel's allocation profiling built in and"
		echo "booted off (:off, sysctl.vm.mem_profiling=0) or on (:on, =1). Its"
		echo "configuration is not the cloud kernel's: compare its rows with each"
		echo "other, not with 6.12-cloud's."
		echo
	fi
	echo "| kernel | unloaded | empty | module | ftrace | dispatch | probes | empty ratio | module ratio | ftrace ratio |"
	echo "|---|---|---|---|---|---|---|---|---|---|"
	printf '%s\n' "${rows[@]}"
	echo
	[ ${#profiling[@]} = 0 ] || printf '%s\n' "${profiling[@]}" ""
	echo "## What any exact accounting costs at least"
	echo
	echo "The same rounds with tests/kmod/sa_null.ko's two least probes in"
	echo "place of the empty ones. \"counts\" (work=1): kmalloc adds to its call"
	echo "site's three counters (allocations, bytes allocated and requested),"
	echo "found by the site's hash alone, on the CPU's own row. \"floor\""
	echo "(work=2): that, and kmalloc records the object (address, row, sizes)"
	echo "in the slot its address hashes to, and kfree clears the slot if it"
	echo "holds the address: what slab_account.ko keeps of a plain pair, with"
	echo "none of what makes it exact (no compare of the site with its row's"
	echo "key, no claim of the object's slot, plain adds that an interrupt may"
	echo "split on ARM, no NULL test). Any exact accounting on these events"
	echo "does at least this, so the floor's ratio is the least a pair can"
	echo "cost with it. Each column is the cost over the unloaded pair;"
	echo "\"1.2x allows\" is a fifth of the unloaded pair."
	echo
	echo "| kernel | unloaded | 1.2x allows | dispatch | counts | floor | module | counts ratio | floor ratio | module ratio |"
	echo "|---|---|---|---|---|---|---|---|---|---|"
	printf '%s\n' "${frows[@]}"
	echo
	echo "## A free the module never saw allocated"
	echo
	echo "The kfree of $pairs kmalloc(100) objects allocated before"
	echo "slab_account.ko was loaded (sa_test.ko \`kmalloc\`, then \`free\`, whose"
	echo "kfree loop is timed), in the same rounds: with nothing attached, and"
	echo "with the module loaded between the kmallocs and the frees. Such a"
	echo "free's address is not in its home slot, and in a map this empty no"
	echo "object of that home is away from it either, so it cannot be tracked:"
	echo "the probe counts it in untracked_frees inline; each round"
	echo "checks that all $pairs were. That is every free of an object from"
	echo "before the module's load, the common free just after it. The"
	echo "frees also return the emptied slab pages, whose mm_page_free events"
	echo "the module counts (about 1 page in 32 frees here). \"added\" is per"
	echo "free; \"pair added\" is what the module adds to a whole tracked"
	echo "kmalloc+kfree pair (module minus unloaded, above)."
	echo
	echo "| kernel | free, unloaded | free, module | added | pair added | added / pair added |"
	echo "|---|---|---|---|---|---|"
	printf '%s\n' "${urows[@]}"
	echo
	echo "Instructions are not cycles. A locked operation, a cache miss, a"
	echo "mispredicted branch and a plain register move each count as one, so"
	echo "these figures rank code paths by the work they execute, not by the"
	echo "time they take on hardware, and the ratios there may differ."
	echo
	echo "Repeatability: the median of each boot, and the lowest and highest"
	echo "round of all boots with their spread (relative to the median). What"
	echo "moves a round is a timer tick landing in the loop."
	echo
	echo "| kernel | load | boot medians | all rounds | spread |"
	echo "|---|---|---|---|---|"
	printf '%s\n' "${spread[@]}"
	echo
	echo "Before the first round each boot waits for the crypto self-tests'"
	echo "kernel threads (cryptomgr_test, cryptomgr_probe) to be gone, then for"
	echo "a second of guest time with the CPU at least 90% idle"
	echo "(qemu/guest/pair-cost.sh). The cryptomgr threads run for about a"
	echo "second of guest time after init starts on 6.12-cloud, and a round"
	echo "timed while they run costs about twice as much. What the first boot"
	echo "of each kernel waited for (uptime is guest time: under icount, a"
	echo "second is 10^9 instructions or idle time skipped over):"
	echo
	printf '%s\n' "${settles[@]}"
	echo
	echo "Only rounds whose pairs took the probes' inline path are counted. A"
	echo "round whose call site or object was away from its home slot (the"
	echo "module's slow_sites, slow_objects, slow_frees) measures the slower"
	echo "path, and a boot with no other round is run again. Such boots in"
	echo "this run: ${#slowboots[@]}."
	[ ${#slowboots[@]} = 0 ] || printf -- '- %s\n' "${slowboots[@]}"
	if [ $wall = 1 ]; then
		echo
		echo "## Wall-clock time under TCG (secondary, noisy)"
		echo
		echo "One ordinary TCG boot per kernel (no icount), the same rounds, ns"
		echo "per pair by the guest clock, which follows the host's. These move"
		echo "with the host's load: ratios have swung by 0.2-0.7x from boot to"
		echo "boot on the shared build machine. Not a figure to compare builds by."
		echo
		echo "| kernel | unloaded ns | module ns | ftrace ns | module ratio | ftrace ratio |"
		echo "|---|---|---|---|---|---|"
		printf '%s\n' "${wrows[@]}"
	fi
	echo
	echo "$KEEP"
	[ -f "$results" ] && grep -qF "$KEEP" "$results" &&
		awk -v k="$KEEP" 'p; index($0, k) { p = 1 }' "$results"
} >"$work/results"
mv "$work/results" "$results.tmp" && mv "$results.tmp" "$results"
sed "/$(printf '%s' "$KEEP" | sed 's/[.*/]/\\&/g')/q" "$results"
echo "module-overhead: wrote bench/RESULTS-module.md"

if [ $update = 1 ]; then
	{
		echo "# Instructions per kmalloc(100)+kfree pair under qemu/run --icount,"
		echo "# per kernel flavour: unloaded, with slab_account.ko, with ftrace."
		echo "# bench/module-overhead.sh --check (make check: guest/overhead-icount)"
		echo "# fails when the module adds more than $limit_pct% of its figure here"
		echo "# to the pair. Written by bench/module-overhead.sh --update; rerun"
		echo "# that after a change that is meant to move the figures."
		echo "# flavour release pairs-per-loop unloaded module ftrace (by, date, module/ tree)"
		for k in $kernels; do
			for r in "${refrows[@]}"; do
				[ "${r%% *}" = "$k" ] && echo "$r  ($cmd, $(date -u +%Y-%m-%d), $src)"
			done
		done
		# the other kernels' figures stay as they were
		[ ! -f "$ref" ] || awk -v ks=" $kernels " \
			'!/^#/ && NF && !index(ks, " " $1 " ")' "$ref"
	} >"$work/ref"
	mv "$work/ref" "$ref.tmp" && mv "$ref.tmp" "$ref"
	echo "module-overhead: wrote bench/module-overhead.ref"
fi
