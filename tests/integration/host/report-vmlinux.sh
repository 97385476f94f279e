#!/bin/bash
# slabacct report --vmlinux is checked against the trace: file:line comes
# from the vmlinux's DWARF at the call site's offset, so another build's
# vmlinux would give wrong lines without a word.
#  - Debian's own kernels, as a user would mix them up: the 6.12-cloud
#    vmlinux (taken out of its bzImage) on the 6.1 trace of
#    tests/data/report-mm/ and the other way round are refused (exit 1),
#    naming both kernels and --force-vmlinux; the 6.1 vmlinux on the 6.1
#    trace passes the check (and then fails for want of DWARF);
#  - a vmlinux made here, whose Linux banner is the 6.1 trace's and whose
#    functions are named as the trace's call sites: accepted, and every
#    format shows those call sites' file:line (text on a line of its own,
#    within 80 columns); with another banner it is refused, and used with
#    a note in text, JSON and CSV under --force-vmlinux; one with neither
#    banner nor build ID is used with a note that it could not be checked;
#  - build IDs: a trace recorded here stores the running kernel's, as
#    /sys/kernel/notes has it; a vmlinux with this kernel's banner but
#    another build ID is refused, one with the same build ID accepted.
. "$(dirname "$0")/../../lib.sh"
need_root
for t in gcc jq xz zstd python3; do
	command -v $t >/dev/null || fail "$t is missing (scripts/install-deps)"
done
cd "$TEST_TMP" || fail "no workspace"
zcat "$TOP/tests/data/report-mm/6.1.dat.gz" >t61.dat || fail "no 6.1 trace"
zcat "$TOP/tests/data/report-mm/6.12-cloud.dat.gz" >t612.dat ||
	fail "no 6.12-cloud trace"

# extract BZIMAGE OUT: the ELF vmlinux in a bzImage (xz or zstd)
extract() {
	local img=$1 out=$2 magic dec pos
	for magic in '\xfd7zXZ\x00:xz -dc' '\x28\xb5\x2f\xfd:zstd -dc'; do
		dec=${magic#*:}
		for pos in $(LC_ALL=C grep -obUaP "${magic%%:*}" "$img" | cut -d: -f1); do
			tail -c +$((pos + 1)) "$img" | $dec >"$out" 2>/dev/null
			[ "$(head -c 4 "$out" | od -An -c | tr -d ' ')" = 177ELF ] &&
				return 0
		done
	done
	return 1
}

# 1. Debian's kernels
read -r _ img61 _ < <("$TOP/scripts/kernels" --flavour 6.1) || fail "no 6.1 kernel"
read -r _ img612 _ < <("$TOP/scripts/kernels" --flavour 6.12-cloud) ||
	fail "no 6.12-cloud kernel"
extract "$img61" v61 || fail "no vmlinux in $img61"
extract "$img612" v612 || fail "no vmlinux in $img612"
assert_status 1 "$SLABACCT" report --vmlinux v612 t61.dat >/dev/null 2>err
for w in "is not the traced kernel's" "recorded on 6.1.0-" \
	 "the vmlinux is 6.12." "--force-vmlinux"; do
	grep -qF -- "$w" err || fail "6.12 vmlinux on the 6.1 trace: no '$w' in: $(cat err)"
done
assert_status 1 "$SLABACCT" report --vmlinux v61 t612.dat >/dev/null 2>err
grep -qF "recorded on 6.12." err || fail "6.1 vmlinux on 6.12 trace: $(cat err)"
# the 6.1 trace was recorded on the 6.1 kernel installed here, unless
# Debian has updated it since: then the check must refuse it too
u61=$(jq -r .origin.uname < <("$SLABACCT" report --json --top 1 t61.dat))
if grep -qaF "$(cut -d' ' -f4- <<<"$u61" | sed 's/ [^ ]*$//')" v61; then
	assert_status 1 "$SLABACCT" report --vmlinux v61 t61.dat >/dev/null 2>err
	grep -q "no DWARF" err || fail "6.1 vmlinux on the 6.1 trace: $(cat err)"
	note "the 6.1 vmlinux passes the check on the 6.1 trace"
else
	note "the installed 6.1 kernel is not the trace's build: not compared"
fi
rm -f v61 v612

# 2. a vmlinux made for the test: the trace's banner, and functions named
# as three of its call sites (a call site must lie within its function)
"$SLABACCT" report --json --sort bytes t61.dat >all.json || fail "report"
mapfile -t funcs < <(jq -r '.sections.callsite.rows[] | select(.module == null
	and (.site | test("\\+0x[0-9a-f]{1,3}$"))) | .function' all.json |
	awk '!seen[$0]++' | head -n 3)
[ ${#funcs[@]} = 3 ] || fail "not three call sites to name"
# fake BANNER BUILD-ID OUT: a linked ELF with DWARF; BUILD-ID "none" for
# none; its functions' lines are 10, 11 and 12 of fake.c
fake() {
	{
		printf 'const char linux_banner[] __attribute__((used)) = "%s\\n";\n' "$1"
		for i in 2 3 4 5 6 7 8; do echo "/* $i */"; done
		echo 'void f0(void) __asm__("'"${funcs[0]}"'");'
		echo 'void f0(void) { __asm__ volatile(".skip 8192"); }'
		echo 'void f1(void) __asm__("'"${funcs[1]}"'"); void f1(void) { __asm__ volatile(".skip 8192"); }'
		echo 'void f2(void) __asm__("'"${funcs[2]}"'"); void f2(void) { __asm__ volatile(".skip 8192"); }'
		echo 'void _start(void) { }'
	} >fake.c
	[ -z "$1" ] && sed -i 1d fake.c
	gcc -g -O0 -nostdlib -static -Wl,--build-id="$2" -o "$3" fake.c ||
		fail "cannot build a test vmlinux"
}
version=$(cut -d' ' -f4- <<<"$u61" | sed 's/ [^ ]*$//')
release=$(cut -d' ' -f3 <<<"$u61")
fake "Linux version $release (test@host) (gcc) $version" sha1 same.elf
assert_status 0 "$SLABACCT" report --vmlinux same.elf --json t61.dat >same.json
for i in 0 1 2; do
	line=$((i == 0 ? 10 : 10 + i))
	assert_eq "JSON file:line of ${funcs[$i]}'s rows" "fake.c:$line" \
		"$(jq -r --arg f "${funcs[$i]}" '[.sections.callsite.rows[] |
			select(.function == $f) | "\(.file):\(.line)"] | unique |
			join(" ")' same.json)"
done
jq -e '.notes[] | select(test("vmlinux"))' same.json >/dev/null &&
	fail "a note on a vmlinux that matches: $(jq -c .notes same.json)"
"$SLABACCT" report --width 80 --vmlinux same.elf --what callsite,live t61.dat >same.txt ||
	fail "text report failed"
for i in 0 1 2; do
	line=$((i == 0 ? 10 : 10 + i))
	grep -A1 " ${funcs[$i]}+0x" same.txt | grep -qx " *at fake.c:$line" ||
		fail "text: no 'at fake.c:$line' under ${funcs[$i]}: $(grep -A1 " ${funcs[$i]}+0x" same.txt)"
done
awk 'length > 80 { print; bad = 1 } END { exit bad }' same.txt ||
	fail "text with file:line goes past 80 columns"
"$SLABACCT" report --vmlinux same.elf --csv t61.dat >same.csv
for i in 0 1 2; do
	line=$((i == 0 ? 10 : 10 + i))
	grep "^callsite,[a-z]*,${funcs[$i]}+0x" same.csv | grep -q ",fake.c,$line\$" ||
		fail "CSV: no fake.c,$line at the end of ${funcs[$i]}'s rows"
done

# another banner: refused, or used with a note under --force-vmlinux
u612=$(jq -r .origin.uname < <("$SLABACCT" report --json --top 1 t612.dat))
fake "Linux version $(cut -d' ' -f3 <<<"$u612") (test@host) (gcc) $(cut -d' ' -f4- <<<"$u612" | sed 's/ [^ ]*$//')" sha1 other.elf
assert_status 1 "$SLABACCT" report --vmlinux other.elf t61.dat >/dev/null 2>err
grep -q "is not the traced kernel's" err || fail "other banner: $(cat err)"
"$SLABACCT" report --vmlinux other.elf --force-vmlinux t61.dat >forced.txt ||
	fail "--force-vmlinux failed"
grep -q "^# note: --vmlinux is not the traced kernel's" forced.txt ||
	fail "text: no note under --force-vmlinux"
grep -q "^ *at fake.c:10$" forced.txt || fail "--force-vmlinux: no file:line"
"$SLABACCT" report --vmlinux other.elf --force-vmlinux --json t61.dat |
	jq -e '.notes[] | select(startswith("--vmlinux is not the traced"))' \
	>/dev/null || fail "JSON: no note under --force-vmlinux"
"$SLABACCT" report --vmlinux other.elf --force-vmlinux --csv t61.dat |
	grep -q "^# note: --vmlinux is not the traced kernel's" ||
	fail "CSV: no note under --force-vmlinux"
# neither banner nor build ID: used, with a note
fake "" none bare.elf
"$SLABACCT" report --vmlinux bare.elf --json t61.dat >bare.json ||
	fail "a vmlinux that cannot be checked was refused"
jq -e '.notes[] | select(startswith("--vmlinux could not be checked"))' \
	bare.json >/dev/null || fail "no note: $(jq -c .notes bare.json)"

# 3. build IDs, on a trace of this machine
"$SLABACCT" record -o host.dat -- true >/dev/null 2>&1 || fail "record failed"
want=$(python3 - <<'PY'
import struct
d = open("/sys/kernel/notes", "rb").read()
at = 0
while at + 12 <= len(d):
    n, s, t = struct.unpack_from("=III", d, at)
    name = d[at + 12:at + 12 + n]
    desc = at + 12 + ((n + 3) & ~3)
    if t == 3 and name == b"GNU\0":
        print(d[desc:desc + s].hex())
        break
    at = desc + ((s + 3) & ~3)
PY
)
got=$("$SLABACCT" report --json --top 1 host.dat | jq -r '.origin.kernel_build_id')
if [ -z "$want" ]; then
	assert_eq "build ID of a kernel without one" null "$got"
	note "this kernel has no build ID: build IDs not compared"
	exit 0
fi
assert_eq "the trace's build ID" "$want" "$got"
fake "Linux version $(uname -r) (test@host) (gcc) $(uname -v)" sha1 host-other.elf
assert_status 1 "$SLABACCT" report --vmlinux host-other.elf host.dat >/dev/null 2>err
grep -q "build ID $want" err || fail "another build ID: $(cat err)"
fake "Linux version 0.0.0-other (test@host) (gcc) #1" "0x$want" host-same.elf
assert_status 0 "$SLABACCT" report --vmlinux host-same.elf --json host.dat >h.json
jq -e '.notes[] | select(test("vmlinux"))' h.json >/dev/null &&
	fail "the same build ID gave a note: $(jq -c .notes h.json)"
exit 0
