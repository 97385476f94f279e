# A fresh machine's first `make demo` or `make check` runs
# scripts/install-deps before anything else: reading the Makefile must
# not run pkg-config (which fails loudly before the -dev packages are
# there), nor stop for want of a cross sysroot that install-deps --arm
# fetches. A pkg-config that complains on every call stands in for the
# missing packages, and an empty folder for the sysroot.
. "$(dirname "$0")/../../lib.sh"

cat >"$TEST_TMP/pkg-config" <<'SH'
#!/bin/sh
echo "Package glib-2.0 was not found (pkg-config $*)" >&2
exit 1
SH
chmod +x "$TEST_TMP/pkg-config"
mkdir -p "$TEST_TMP/sysroot"

# -n prints the recipe instead of running it (a recursive $(MAKE) line
# would run, so only deps, the first step of demo and check, is taken)
out=$(make -s -n -C "$TOP" PKG_CONFIG="$TEST_TMP/pkg-config" deps 2>&1) ||
	fail "make -n deps failed: $out"
assert_eq "make -n deps, all it prints" "scripts/install-deps" "$out"
for arch in arm64 armhf; do
	out=$(make -s -n -C "$TOP" ARCH=$arch SYSROOT="$TEST_TMP/sysroot" \
		BUILD="$TEST_TMP/build-$arch" PKG_CONFIG="$TEST_TMP/pkg-config" \
		deps 2>&1) || fail "make -n ARCH=$arch deps failed: $out"
	assert_eq "make -n ARCH=$arch deps, all it prints" "scripts/install-deps" "$out"
done
# and a build that needs the sysroot still says what is missing
out=$(make -s -n -C "$TOP" ARCH=arm64 SYSROOT="$TEST_TMP/sysroot" \
	BUILD="$TEST_TMP/build-arm64" all 2>&1) &&
	fail "make ARCH=arm64 all without a sysroot did not fail"
case $out in *"fetch-foreign --dev arm64"*) ;;
	*) fail "make ARCH=arm64 all without a sysroot says: $out" ;; esac
exit 0
