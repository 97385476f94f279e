#!/bin/bash
# slabacct report's --build-tree and --vmlinux against the debug kernel's
# own build, on a boot trace of kmem:kmalloc from that kernel (trace-cmd
# extract in the guest):
#  - --build-tree: call sites map to the object files of the build, and
#    roll up by directory: kernfs_init, which allocates during every
#    boot, lands in fs/kernfs (fs/kernfs/mount.o), and the rows of a
#    shallower roll-up are the sums of the deeper ones;
#  - --vmlinux: call sites resolve to file:line in the source tree, and
#    that line of the source allocates.
. "$(dirname "$0")/../../lib.sh"
. "$(dirname "$0")/kernel-lib.bash"

debug_kernel
command -v trace-cmd >/dev/null || fail "trace-cmd is missing (scripts/install-deps)"
command -v jq >/dev/null || fail "jq is missing (scripts/install-deps)"
cat >"$TEST_TMP/guest.sh" <<'GUEST'
echo 0 >/sys/kernel/tracing/tracing_on
trace-cmd extract -o $OUT/boot.dat >$OUT/extract.log 2>&1
GUEST
guest_run "$KREL_DIR/bzImage" "$TEST_TMP/guest.sh" -t 600 \
	-f /usr/bin/trace-cmd:/bin/trace-cmd \
	-a "trace_event=kmem:kmalloc trace_clock=global trace_buf_size=4M" ||
	fail "the guest run failed"
trace=$TEST_TMP/out/boot.dat
[ -s "$trace" ] || fail "no boot trace: $(cat "$TEST_TMP/out/extract.log")"
src=$(readlink -f "$KDIR/source")
[ -f "$src/Makefile" ] || fail "no source tree behind $KDIR/source"

# report ARGS...: JSON of slabacct report on the boot trace
report() {
	"$SLABACCT" report --json "$@" "$trace" >"$TEST_TMP/r.json" ||
		fail "slabacct report $* failed"
	cat "$TEST_TMP/r.json"
}
# site_field JSON FUNC FIELD: FIELD of FUNC's biggest call-site row
site_field() {
	jq -r --arg f "$2" --arg k "$3" '[.sections.callsite.rows[] |
		select(.function == $f)] | max_by(.bytes_alloc) | .[$k]' <<<"$1"
}

# --build-tree
bt=$(report --build-tree "$KDIR")
assert_eq "kernfs_init's object file" fs/kernfs/mount.o \
	"$(site_field "$bt" kernfs_init file)"
assert_eq "tty_register_device_attr's object file" drivers/tty/tty_io.o \
	"$(site_field "$bt" tty_register_device_attr file)"
kernfs_bytes=$(jq '[.sections.callsite.rows[] | select(.file != null and
	(.file | startswith("fs/kernfs/"))) | .bytes_alloc] | add' <<<"$bt")
[ "$(site_field "$bt" kernfs_init bytes_alloc)" -le "$kernfs_bytes" ] ||
	fail "kernfs_init's bytes are not within fs/kernfs's"
d2=$(report --build-tree "$KDIR" --what subsys --depth 2)
assert_eq "fs/kernfs at depth 2: bytes of the call sites in fs/kernfs/" \
	"$kernfs_bytes" \
	"$(jq '.sections.subsys.rows[] | select(.subsystem == "fs/kernfs") |
		.bytes_alloc' <<<"$d2")"
d1=$(report --build-tree "$KDIR" --what subsys --depth 1)
assert_eq "fs at depth 1 = the sum of fs and fs/* at depth 2" \
	"$(jq '[.sections.subsys.rows[] | select(.subsystem == "fs" or
		(.subsystem | startswith("fs/"))) | .bytes_alloc] | add' <<<"$d2")" \
	"$(jq '.sections.subsys.rows[] | select(.subsystem == "fs") |
		.bytes_alloc' <<<"$d1")"
assert_eq "total bytes at depth 1 and 2" \
	"$(jq '[.sections.subsys.rows[].bytes_alloc] | add' <<<"$d2")" \
	"$(jq '[.sections.subsys.rows[].bytes_alloc] | add' <<<"$d1")"

# --vmlinux: file:line relative to the source tree, and the line allocates
vm=$(report --vmlinux "$KDIR/vmlinux")
# rel FILE: FILE relative to the source tree
rel() { local f=${1#"$src"/}; echo "${f#"$KDIR"/}"; }
f=$(rel "$(site_field "$vm" tty_register_device_attr file)")
assert_eq "tty_register_device_attr's file" drivers/tty/tty_io.c "$f"
alloc_re='k[a-z_]*alloc|kstrdup|kmemdup|kasprintf|kvasprintf|alloc_'
checked=0
while IFS=$'\t' read -r site file line; do
	[ "$file" != null ] && [ "$line" != null ] ||
		fail "$site did not resolve to file:line"
	f=$(rel "$file")
	[ -f "$src/$f" ] || fail "$site: $file is not in the source tree $src"
	# the call, or the first line of a statement that spans two
	text=$(sed -n "$((line > 1 ? line - 1 : 1)),${line}p" "$src/$f")
	grep -Eq "$alloc_re" <<<"$text" ||
		fail "$site -> $f:$line, which does not allocate: $text"
	checked=$((checked + 1))
done < <(jq -r '.sections.callsite.rows | sort_by(-.bytes_alloc) | .[:20][] |
	[.site, (.file // "null"), (.line // "null" | tostring)] | @tsv' <<<"$vm")
[ $checked -gt 0 ] || fail "no call sites in the report"
note "the top $checked call sites resolve to a source line that allocates"
d2=$(report --vmlinux "$KDIR/vmlinux" --what subsys --depth 2)
jq -e '.sections.subsys.rows[] | select(.subsystem == "drivers/tty")' \
	<<<"$d2" >/dev/null ||
	fail "no drivers/tty row in the --vmlinux roll-up: $(jq -c \
		'[.sections.subsys.rows[].subsystem]' <<<"$d2")"
note "--vmlinux rolls up by source directory"
