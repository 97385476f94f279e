#!/bin/bash
# slabacct report's --build-tree and --vmlinux against the debug kernel's
# own build, on a boot trace of kmem:kmalloc from that kernel (trace-cmd
# extract in the guest):
#  - --build-tree: call sites map to the object files of the build, and
#    roll up by directory: kernfs_init, which allocates during every
#    boot, lands in fs/kernfs (fs/kernfs/mount.o), and the rows of a
#    shallower roll-up are the sums of the deeper ones;
#    kzalloc.constprop.0 (a local copy many objects define) is named in
#    a note, its sites in the "(unresolved)" row;
#  - --vmlinux: call sites resolve to file:line relative to the source
#    tree, through inlined kzalloc/kmalloc to the caller's line (not
#    include/linux/slab.h), that line of the source allocates, and the
#    roll-up has drivers/tty, fs/kernfs and mm rows.
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
# kzalloc.constprop.0, a local copy in many objects, cannot be placed:
# the report says so in a note and the sites are in "(unresolved)"
jq -e '.sections.subsys.rows[] | select(.subsystem == "." or
	(.subsystem | contains("?")))' <<<"$d2" >/dev/null &&
	fail "--build-tree roll-up has a '.' or '?' row"
if [ "$(site_field "$bt" kzalloc.constprop.0 site)" != null ]; then
	jq -e '.notes[] | select(contains("kzalloc.constprop.0 (") and
		contains("object files"))' <<<"$d2" >/dev/null ||
		fail "no note on kzalloc.constprop.0: $(jq -c .notes <<<"$d2")"
	jq -e '.sections.subsys.rows[] | select(.subsystem ==
		"(unresolved)")' <<<"$d2" >/dev/null ||
		fail "no (unresolved) row"
	note "kzalloc.constprop.0 is named in a note, its sites unresolved"
fi

# --vmlinux: file:line relative to the source tree (the kernel was built
# out of tree, O=), through inlined kzalloc/kmalloc to the caller's line,
# and the line allocates
vm=$(report --vmlinux "$KDIR/vmlinux")
jq -e '.sections.callsite.rows[] | select(.file != null and
	(.file | startswith("/")))' <<<"$vm" >/dev/null &&
	fail "absolute paths: $(jq -r '[.sections.callsite.rows[].file |
		select(. != null and startswith("/"))][0]' <<<"$vm")"
# rel FILE: FILE relative to the source tree
rel() { local f=${1#"$src"/}; echo "${f#"$KDIR"/}"; }
f=$(rel "$(site_field "$vm" tty_register_device_attr file)")
assert_eq "tty_register_device_attr's file" drivers/tty/tty_io.c "$f"
line=$(site_field "$vm" tty_register_device_attr line)
grep -q 'kzalloc' <<<"$(sed -n "${line}p" "$src/$f")" ||
	fail "tty_io.c:$line is not tty_register_device_attr's kzalloc"
note "tty_register_device_attr -> $f:$line: $(sed -n "${line}p" "$src/$f" |
	tr -s '\t ' ' ')"
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
for dir in drivers/tty fs/kernfs mm; do
	jq -e --arg d "$dir" '.sections.subsys.rows[] |
		select(.subsystem == $d)' <<<"$d2" >/dev/null ||
		fail "no $dir row in the --vmlinux roll-up: $(jq -c \
			'[.sections.subsys.rows[].subsystem]' <<<"$d2")"
done
jq -e '.sections.subsys.rows[] | select(.subsystem == "." or
	(.subsystem | startswith("/")))' <<<"$d2" >/dev/null &&
	fail "--vmlinux roll-up has a '.' or absolute row"
note "--vmlinux rolls up by source directory (drivers/tty, fs/kernfs, mm)"
