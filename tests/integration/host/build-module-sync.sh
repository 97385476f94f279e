# scripts/build-module into one output directory from two trees, as the
# modules beside a shared kernel build are: the second tree's changed
# table.c is older than the objects the first tree built there (a
# checkout made before the other's build). Its module must still be
# built from its own source: what is copied and rebuilt follows the
# files' content, not their times. Each tree's slab_account.ko carries
# a MODULE_INFO naming its tree, read back with modinfo.
. "$(dirname "$0")/../../lib.sh"
command -v modinfo >/dev/null || fail "modinfo is missing (kmod)"
kdir=
for d in /usr/src/linux-headers-*-amd64; do
	[ -f "$d/Makefile" ] && { kdir=$d; break; }
done
[ -n "$kdir" ] || fail "no kernel headers in /usr/src (scripts/install-deps)"

# tree NAME: the parts of this tree build-module reads, with a marker
tree() {
	local t=$TEST_TMP/$1
	mkdir -p "$t/scripts" "$t/tests" "$t/include"
	cp -a "$TOP/module" "$t/"
	cp -a "$TOP/tests/kmod" "$t/tests/"
	cp -a "$TOP/include/uapi" "$t/include/"
	cp -a "$TOP/scripts/build-module" "$t/scripts/"
	printf '\n#include <linux/module.h>\nMODULE_INFO(sa_tree, "%s");\n' "$1" \
		>>"$t/module/table.c"
}
tree a
tree b
touch -d '2000-01-01 00:00' "$TEST_TMP/b/module/table.c"
out=$TEST_TMP/out
for t in a b; do
	env -u ARCH -u MAKEFLAGS "$TEST_TMP/$t/scripts/build-module" "$kdir" "$out" \
		>"$TEST_TMP/$t.log" 2>&1 ||
		fail "build-module of tree $t failed: $(tail -n 5 "$TEST_TMP/$t.log")"
	assert_eq "slab_account.ko built from tree $t" "$t" \
		"$(modinfo -F sa_tree "$out/slab_account.ko")"
done
cmp -s "$TEST_TMP/b/module/table.c" "$out/src/module/table.c" ||
	fail "the copy of table.c is not tree b's"
