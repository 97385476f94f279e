#!/bin/bash
# DKMS builds slab_account.ko for the ARM boards' kernels from this
# machine (dkms build -a aarch64|armv7l --kernelsourcedir, which dkms.conf
# turns into a cross build), each with its kernel's vermagic and machine.
# Private DKMS trees: nothing is registered on this machine.
. "$(dirname "$0")/../../lib.sh"
command -v dkms >/dev/null || fail "dkms is not installed (scripts/install-deps)"
ver=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"$/\1/p' "$TOP/dkms.conf")
src=$TEST_TMP/src tree=$TEST_TMP/tree
mkdir -p "$src/slab_account-$ver" "$tree"
cp -a "$TOP/Kbuild" "$TOP/dkms.conf" "$TOP/module" "$TOP/include" \
	"$src/slab_account-$ver/"
dk() { dkms --dkmstree "$tree" --sourcetree "$src" -m slab_account -v "$ver" "$@"; }
dk add >"$TEST_TMP/add.log" 2>&1 || fail "dkms add: $(tail -n 5 "$TEST_TMP/add.log")"
for f in "6.1-arm64 aarch64 AArch64 aarch64" "6.1-armmp armv7l ARM ARMv7"; do
	read -r flavour arch machine magic <<<"$f"
	read -r krel _ kdir _ <<<"$("$TOP/scripts/kernels" --flavour "$flavour")" ||
		fail "no $flavour kernel (scripts/install-deps --arm)"
	dk build -k "$krel" -a "$arch" --kernelsourcedir "$kdir" \
		>"$TEST_TMP/build.log" 2>&1 ||
		fail "dkms build for $krel ($arch): $(tail -n 20 "$TEST_TMP/build.log")"
	ko=$(find "$tree/slab_account/$ver/$krel/$arch" -name 'slab_account.ko*' | head -n 1)
	[ -n "$ko" ] || fail "dkms built no slab_account.ko for $krel"
	case $ko in
	*.xz) xz -dc "$ko" >"$TEST_TMP/m.ko" ;;
	*) cp "$ko" "$TEST_TMP/m.ko" ;;
	esac
	vm=$(modinfo -F vermagic "$TEST_TMP/m.ko")
	case $vm in
	"$krel "*" $magic"*) note "$krel: vermagic $vm" ;;
	*) fail "$krel: the module's vermagic is '$vm'" ;;
	esac
	assert_eq "$krel: ELF machine" "$machine" \
		"$(LC_ALL=C readelf -h "$TEST_TMP/m.ko" | sed -n 's/^ *Machine: *//p')"
done
exit 0
