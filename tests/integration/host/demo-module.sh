# make demo builds slab_account.ko for the one kernel it boots
# (scripts/demo --kdir), not for every kernel with headers here: on x86-64
# and, where the ARM kernels are fetched, for ARCH=arm64 and armhf.
# make -n prints the recipes (its recursive makes run with -n too).
. "$(dirname "$0")/../../lib.sh"

for arch in x86_64 arm64 armhf; do
	want=$("$TOP/scripts/demo" $([ $arch = x86_64 ] || echo --arch $arch) --kdir)
	if [ -z "$want" ]; then
		[ $arch = x86_64 ] && fail "scripts/demo --kdir: no headers of the demo's kernel"
		note "$arch: its kernel is not fetched here (make check-arm fetches it)"
		continue
	fi
	got=$(make -n -C "$TOP" demo $([ $arch = x86_64 ] || echo ARCH=$arch) 2>/dev/null |
		sed -n 's/.*scripts\/build-module //p')
	assert_eq "make demo ($arch): the module builds" "$want" "$got"
done
exit 0
