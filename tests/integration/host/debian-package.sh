# The Debian packages: dpkg-buildpackage -b builds slabacct and
# slab-account-dkms from a copy of the tree with no warning, lintian
# finds no error in them, and they hold what make install and make
# install-dkms install. Both are then installed on this host: DKMS
# builds the module from the installed source for the Debian kernels
# with headers, the module built for 6.1 and 6.12-cloud carries that
# kernel's vermagic, the one for 6.1 loads in a 6.1 guest and its
# /proc/slab_account is read there by the packaged slabacct. Both
# packages are purged at the end, and the host must be as it was: no
# package, no DKMS registration, no module in /lib/modules, the same
# modules.dep.
. "$(dirname "$0")/../../lib.sh"
need_root
for tool in dpkg-buildpackage dh dh_dkms lintian dkms apt-get; do
	command -v $tool >/dev/null ||
		fail "$tool is not installed (scripts/install-deps)"
done
dkms_lock

pkgs=(slabacct slab-account-dkms)
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'installed$' &&
		skip "the $p package is installed here: this test would replace and remove it"
done
[ -e /var/lib/dkms/slab_account ] &&
	skip "slab_account is registered with DKMS here (make dkms): this test would remove it"

ver=$(sed -n 's/^VERSION := //p' "$TOP/Makefile")
[ -n "$ver" ] || fail "no VERSION in the Makefile"
assert_eq "debian/changelog's version" "$ver" \
	"$(cd "$TOP" && dpkg-parsechangelog -S Version)"
assert_eq "dkms.conf's version" "$ver" \
	"$(sed -n 's/^PACKAGE_VERSION="\(.*\)"$/\1/p' "$TOP/dkms.conf")"

# the tree as git sees it (committed or not, not ignored): debian/rules
# clean would remove build/ in place
src=$TEST_TMP/slabacct-$ver
mkdir -p "$src"
git -C "$TOP" ls-files -z -co --exclude-standard |
	(cd "$TOP" && tar --null -T - -cf -) | tar -xf - -C "$src" ||
	fail "could not copy the tree"

start=$(date +%s)
(cd "$src" && DEB_BUILD_OPTIONS=parallel=2 dpkg-buildpackage -b -uc -us) \
	>"$TEST_TMP/build.log" 2>&1 ||
	fail "dpkg-buildpackage failed: $(tail -n 30 "$TEST_TMP/build.log")"
note "dpkg-buildpackage -b: $(($(date +%s) - start))s"
if grep -E '^[^ :]+:[0-9]+:[0-9]+: warning:' "$TEST_TMP/build.log"; then
	fail "the package build has compiler warnings"
fi
deb=$TEST_TMP/slabacct_${ver}_amd64.deb
dkms_deb=$TEST_TMP/slab-account-dkms_${ver}_all.deb
changes=$TEST_TMP/slabacct_${ver}_amd64.changes
for f in "$deb" "$dkms_deb" "$changes"; do
	[ -f "$f" ] || fail "dpkg-buildpackage made no $(basename "$f")"
done

# lintian: no tag at all, information included; the one tag that is
# not ours (the kernel's spelling in the BPF programs' BTF) is
# overridden, with the reason, in debian/slabacct.lintian-overrides
lintian --display-info --fail-on error,warning,info "$changes" \
	>"$TEST_TMP/lintian.log" 2>&1
rc=$?
sed 's/^/# lintian: /' "$TEST_TMP/lintian.log"
[ $rc = 0 ] || fail "lintian reports tags (exit $rc)"
grep -q '^[EWIPX]: ' "$TEST_TMP/lintian.log" && fail "lintian reports tags"
note "lintian: no tags"

# each package holds what its make target installs (man pages
# compressed), plus /usr/share/doc and lintian's overrides
files_of_deb() {
	dpkg-deb --fsys-tarfile "$1" | tar -t | grep -v '/$' |
		sed -e 's,^\./,,' -e '/^usr\/share\/doc\//d' \
		    -e '/^usr\/share\/lintian\/overrides\//d' \
		    -e 's,^\(usr/share/man/.*\)\.gz$,\1,' | sort
}
files_of_make() {
	rm -rf "$TEST_TMP/inst"
	make -s -C "$src" "$@" DESTDIR="$TEST_TMP/inst" >/dev/null ||
		fail "make $* failed"
	(cd "$TEST_TMP/inst" && find . ! -type d | sed 's,^\./,,' | sort)
}
assert_eq "slabacct's files (make install PREFIX=/usr)" \
	"$(files_of_make install PREFIX=/usr | paste -sd' ')" \
	"$(files_of_deb "$deb" | paste -sd' ')"
assert_eq "slab-account-dkms's files (make install-dkms)" \
	"$(files_of_make install-dkms | paste -sd' ')" \
	"$(files_of_deb "$dkms_deb" | paste -sd' ')"

# what the host looks like now, to compare after the purge
host_state() {
	local d
	for d in /lib/modules/*/; do
		echo "$d $(md5sum <"$d/modules.dep" 2>/dev/null)"
	done
	find /lib/modules /usr/src /var/lib/dkms -name 'slab_account*' 2>/dev/null
	ls /usr/bin/slabacct 2>/dev/null
}
host_state >"$TEST_TMP/state-before"
apt_get() {
	DEBIAN_FRONTEND=noninteractive apt-get -y -q -o DPkg::Lock::Timeout=600 \
		--no-install-recommends "$@"
}
purge() {
	apt_get purge "${pkgs[@]}" >"$TEST_TMP/purge.log" 2>&1
}
trap 'purge; rm -rf "$TEST_TMP"' EXIT
trap 'exit 1' INT TERM

start=$(date +%s)
apt_get install "$deb" "$dkms_deb" >"$TEST_TMP/install.log" 2>&1 ||
	fail "installing the packages failed: $(tail -n 30 "$TEST_TMP/install.log")"
note "install (DKMS builds included): $(($(date +%s) - start))s"
sed -n 's/^/# install: /p' "$TEST_TMP/install.log" | grep -E 'Building|Done|Skipped|skipped'
[ -x /usr/bin/slabacct ] || fail "no /usr/bin/slabacct after the install"
assert_eq "the packaged slabacct's version" "slabacct $ver" "$(/usr/bin/slabacct version)"
dkms status -m slab_account -v "$ver" 2>/dev/null | sed 's/^/# dkms: /'

# DKMS built and installed the module for both guest kernels, each with
# its own vermagic
for flavour in 6.1 6.12-cloud; do
	krel=$("$TOP/scripts/kernels" --flavour "$flavour" | cut -d' ' -f1)
	[ -n "$krel" ] || fail "no $flavour kernel with headers (scripts/install-deps)"
	dkms status -m slab_account -v "$ver" -k "$krel" 2>/dev/null | grep -q ': installed' ||
		fail "DKMS did not install slab_account for $krel: $(dkms status)"
	ko=$(find "/lib/modules/$krel/updates/dkms" -name 'slab_account.ko*' 2>/dev/null | head -n 1)
	[ -n "$ko" ] || fail "no slab_account.ko in /lib/modules/$krel/updates/dkms"
	mkdir -p "$TEST_TMP/kmod-$flavour"
	m=$TEST_TMP/kmod-$flavour/slab_account.ko
	case $ko in
	*.xz) xz -dc "$ko" >"$m" ;;
	*.zst) zstd -qdc "$ko" >"$m" ;;
	*) cp "$ko" "$m" ;;
	esac
	vm=$(modinfo -F vermagic "$m")
	case $vm in
	"$krel "*) note "$flavour: $ko, vermagic $vm" ;;
	*) fail "$krel: the DKMS module's vermagic is '$vm'" ;;
	esac
done

# the module DKMS built loads in a 6.1 guest, and the packaged slabacct
# reads its table there
cat >"$TEST_TMP/guest.sh" <<'GUEST'
set -e
insmod $MODDIR/slab_account.ko
cat /proc/slab_account > $OUT/account
/usr/local/bin/slabacct-deb account --json > $OUT/account.json
GUEST
guest_run 6.1 "$TEST_TMP/guest.sh" -t 180 --kmod-dir "$TEST_TMP/kmod-6.1" \
	-f /usr/bin/slabacct:/usr/local/bin/slabacct-deb ||
	fail "the guest run with the DKMS-built module failed"
assert_eq "/proc/slab_account's first line" "# slab_account 3" \
	"$(head -n 1 "$TEST_TMP/out/account")"
command -v jq >/dev/null || fail "jq is missing (scripts/install-deps)"
assert_eq "table slots, as the packaged slabacct parsed them" \
	"$(sed -n 's/^sites: //p' "$TEST_TMP/out/account")" \
	"$(jq -r '.sites' "$TEST_TMP/out/account.json")"
[ "$(jq -r '.allocs' "$TEST_TMP/out/account.json")" -gt 0 ] ||
	fail "the module counted no allocation in the guest"

# purge, and the host is as it was
purge || fail "purging the packages failed: $(tail -n 30 "$TEST_TMP/purge.log")"
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'installed$' &&
		fail "$p is still installed after the purge"
done
host_state >"$TEST_TMP/state-after"
diff -u "$TEST_TMP/state-before" "$TEST_TMP/state-after" ||
	fail "the host is not as it was before the install"
note "purged: no package, DKMS registration or module left"
exit 0
