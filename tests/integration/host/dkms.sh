# make dkms registers the module source with DKMS, and dkms builds it for
# each installed Debian kernel with headers (6.1 and 6.12-cloud): the
# module it builds is slab_account.ko with that kernel's vermagic. The
# registration is removed at the end (nothing is installed into
# /lib/modules).
. "$(dirname "$0")/../../lib.sh"
need_root
command -v dkms >/dev/null || fail "dkms is not installed (scripts/install-deps)"
dkms_lock
dpkg-query -W -f='${Status}' slab-account-dkms 2>/dev/null | grep -q 'installed$' &&
	skip "the slab-account-dkms package is installed: make dkms would replace its source"

ver=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"$/\1/p' "$TOP/dkms.conf")
[ -n "$ver" ] || fail "no PACKAGE_VERSION in dkms.conf"
[ "$ver" = "$(sed -n 's/^VERSION := //p' "$TOP/Makefile")" ] ||
	fail "dkms.conf's version $ver is not the Makefile's"
unregister() {
	dkms remove -m slab_account -v "$ver" --all >/dev/null 2>&1
	rm -rf "/usr/src/slab_account-$ver" "/var/lib/dkms/slab_account"
}
unregister
trap 'unregister; rm -rf "$TEST_TMP"' EXIT

make -s -C "$TOP" dkms >"$TEST_TMP/add.log" 2>&1 ||
	fail "make dkms failed: $(tail -n 5 "$TEST_TMP/add.log")"
dkms status -m slab_account -v "$ver" | grep -q added ||
	fail "make dkms did not register slab_account/$ver: $(dkms status)"

n=0
for build in /lib/modules/*/build; do
	krel=${build#/lib/modules/}
	krel=${krel%/build}
	[ -f "$build/Makefile" ] || continue
	dkms build -m slab_account -v "$ver" -k "$krel" >"$TEST_TMP/build.log" 2>&1 ||
		fail "dkms build for $krel failed: $(tail -n 20 "$TEST_TMP/build.log")"
	ko=$(find "/var/lib/dkms/slab_account/$ver/$krel" -name 'slab_account.ko*' | head -n 1)
	[ -n "$ko" ] || fail "dkms built no slab_account.ko for $krel"
	case $ko in
	*.xz) xz -dc "$ko" >"$TEST_TMP/m.ko" ;;
	*.zst) zstd -qdc "$ko" >"$TEST_TMP/m.ko" ;;
	*) cp "$ko" "$TEST_TMP/m.ko" ;;
	esac
	vm=$(modinfo -F vermagic "$TEST_TMP/m.ko")
	case $vm in
	"$krel "*) note "$krel: $ko (vermagic $vm)" ;;
	*) fail "$krel: the module's vermagic is '$vm'" ;;
	esac
	n=$((n + 1))
done
[ $n -ge 2 ] || fail "dkms built for $n kernels; 6.1 and 6.12-cloud headers are expected (scripts/install-deps)"
echo "dkms: slab_account $ver builds through DKMS for $n kernels"
