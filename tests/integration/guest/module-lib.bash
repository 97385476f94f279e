# Shared by the module's guest tests (sourced after tests/lib.sh).

# kmalloc_slot FLAVOUR CLASS FILE: sets SLOT to the bytes_alloc the
# kmalloc tracepoint reports for an object of size class CLASS, read from
# FILE (the guest's /sys/kernel/slab/kmalloc-CLASS/slab_size). The
# tracepoint reports the cache's s->size, which sysfs shows as slab_size:
# the size class itself on Debian's kernels (checked exactly), more on a
# custom kernel with KASAN or slub_debug metadata (256 for kmalloc-128
# under the debug kernel of make check-kernel).
kmalloc_slot() {
	local flavour=$1 class=$2
	SLOT=$(cat "$3" 2>/dev/null)
	case $SLOT in
	'' | *[!0-9]*) fail "kmalloc-$class slab_size unreadable: '$SLOT'" ;;
	esac
	if [ -f "$flavour" ]; then
		[ "$SLOT" -ge "$class" ] ||
			fail "kmalloc-$class slot $SLOT < its size class"
		note "kmalloc-$class slot on $(basename "$(dirname \
			"$flavour")"): $SLOT"
	else
		assert_eq "kmalloc-$class slot on $flavour" "$class" "$SLOT"
	fi
}
