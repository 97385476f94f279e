# Shared by the module benchmarks (sourced): the allocation-profiling
# kernel of scripts/allocinfo-kernel, measured as two kernels, profiling
# off and on ("6.12-allocinfo:off", "6.12-allocinfo:on"). Needs $top.

# variants FLAVOUR: what to measure for a flavour
variants() {
	case $1 in
	6.12-allocinfo) echo 6.12-allocinfo:off 6.12-allocinfo:on ;;
	*) echo "$1" ;;
	esac
}

# qemu_kernel KERNEL: qemu/run's -k (and --kmod-dir, -a) for a kernel of
# variants
qemu_kernel() {
	case $1 in
	6.12-allocinfo:*)
		echo -k "$allocinfo_rel/bzImage" --kmod-dir "$allocinfo_kmod" -a \
			"sysctl.vm.mem_profiling=$([ "${1#*:}" = on ] && echo 1 || echo 0)" ;;
	*) echo -k "$1" ;;
	esac
}

# allocinfo_prepare WHO KERNELS: when KERNELS (variants) hold the
# allocation-profiling kernel, build it once (reused in seconds after)
# and this tree's modules for it (the modules beside the image are
# shared by every tree that builds it), setting allocinfo_rel and
# allocinfo_kmod. 1, with a message naming WHO, on failure.
allocinfo_prepare() {
	allocinfo_rel=
	case " $2 " in *" 6.12-allocinfo:"*) ;; *) return 0 ;; esac
	allocinfo_rel=$("$top/scripts/allocinfo-kernel" -q) ||
		{ echo "$1: scripts/allocinfo-kernel failed" >&2; return 1; }
	allocinfo_kmod=$top/build/kmod/$(basename "$allocinfo_rel")
	"$top/scripts/build-module" "$(dirname "$allocinfo_rel")" "$allocinfo_kmod" >&2 ||
		{ echo "$1: building the modules for $allocinfo_rel failed" >&2; return 1; }
}
