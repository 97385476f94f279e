#!/bin/bash
# Damaged ring-buffer pages, in every kind of file the report reads: a
# version 6 file (the fast path, and --libtracecmd), version 7 with its
# CPU data uncompressed and compressed (zstd chunks). kbuffer trusts a
# page (a commit past the page, a stored lost-events count past it, an
# event header or length past the data, a negative padding), and so does
# libtracecmd with a chunk that does not hold whole pages: each such page
# must be an error naming the file, the CPU and the offset (exit 1), never
# a read past the page, a crash, or a report with pages left out.
. "$(dirname "$0")/../../lib.sh"
[ -x "$SLABACCT" ] || fail "build/slabacct is missing (make all)"
v6=$TOP/tests/data/report/tc-6.12.dat
corpus=$TOP/tests/fuzz/corpus-tracedat

# damage SRC DST PY: DST is SRC with the python code PY applied to d, a
# bytearray; le(off, size[, value]) reads or writes a little-endian number
damage() {
	python3 - "$1" "$2" "$3" <<'PY'
import sys
d = bytearray(open(sys.argv[1], 'rb').read())
def le(off, size, value=None):
    if value is None:
        return int.from_bytes(d[off:off + size], 'little')
    d[off:off + size] = value.to_bytes(size, 'little')
exec(sys.argv[3])
open(sys.argv[2], 'wb').write(d)
PY
}

# expect FILE PATTERN [report options]: exit 1, the file and PATTERN named
expect() {
	local f=$1 pat=$2 rc
	shift 2
	"$SLABACCT" report --what all "$@" "$f" >"$TEST_TMP/out" 2>"$TEST_TMP/err"
	rc=$?
	[ $rc = 1 ] || fail "report $* $(basename "$f"): exit $rc (want 1): $(head -c 400 "$TEST_TMP/err")"
	grep -q -- "$f" "$TEST_TMP/err" || fail "the error does not name $f"
	grep -Eq -- "$pat" "$TEST_TMP/err" ||
		fail "report $* $(basename "$f"): '$(cat "$TEST_TMP/err")' lacks /$pat/"
	note "$(basename "$f") $*: $(cut -d: -f3- "$TEST_TMP/err")"
}

# version 6: CPU 0's data is at 36864, CPU 1's at 61440, pages of 4096
# with a 16-byte header (8-byte timestamp, 8-byte commit)
damage "$v6" "$TEST_TMP/commit.dat" 'le(36864 + 8192 + 8, 8, 4096)'
damage "$v6" "$TEST_TMP/stored.dat" \
	'le(61440 + 8, 8, (4096 - 16) | (3 << 30))'
# the first event of CPU 1's second page: type 0, its length word huge
damage "$v6" "$TEST_TMP/length.dat" \
	'p = 61440 + 4096 + 16; le(p, 4, le(p, 4) & ~0x1f); le(p + 4, 4, 0x7ffffff0)'
# a padding (type 29) of negative length: kbuffer would step backwards
damage "$v6" "$TEST_TMP/padding.dat" \
	'p = 36864 + 4096 + 16; le(p, 4, (le(p, 4) & ~0x1f) | 29); le(p + 4, 4, 0xfffffff0)'
for opt in "" --libtracecmd; do
	expect "$TEST_TMP/commit.dat" "page of CPU 0 at offset 45056 .*claims more data" $opt
	expect "$TEST_TMP/stored.dat" "page of CPU 1 at offset 61440 .*lost events" $opt
	expect "$TEST_TMP/length.dat" "page of CPU 1 at offset 65536 .*runs past" $opt
	expect "$TEST_TMP/padding.dat" "page of CPU 0 at offset 40960 .*negative" $opt
done

# version 7, uncompressed: CPU 0's data at 36864
damage "$corpus/v7u-6.12.dat" "$TEST_TMP/v7u.dat" 'le(36864 + 4096 + 8, 8, 5000)'
expect "$TEST_TMP/v7u.dat" "page of CPU 0 at offset 40960 .*claims more data"

# version 7, zstd: CPU 0's data at 8192 (u32 count, then one chunk of
# 24576 bytes at 8196), CPU 1's at 12288. The fuzzer's input: a chunk
# whose page 3 has an event past its data (libtracecmd read past the
# chunk's heap buffer on it, and crashed outside the sanitizer)
expect "$corpus/regress-v7-zpage-overread.dat" \
	"page of CPU 0 at byte 12288 of its uncompressed data \(the chunk at offset 8196\)"
expect "$corpus/regress-v7-zpage-overread.dat" "CPU 0 at byte 12288" --libtracecmd
z=$corpus/v7-6.12.dat
damage "$z" "$TEST_TMP/zsize.dat" 'le(8196 + 4, 4, 24000)'
expect "$TEST_TMP/zsize.dat" "offset 8196: a compressed chunk of CPU 0 does not uncompress"
damage "$z" "$TEST_TMP/zpages.dat" 'le(8196 + 4, 4, 0x7fffffff)'
expect "$TEST_TMP/zpages.dat" "offset 8200: a compressed chunk of CPU 0 claims"
damage "$z" "$TEST_TMP/zcount.dat" 'le(8192, 4, 0xffffffff)'
expect "$TEST_TMP/zcount.dat" "offset 8192: CPU 0 claims 4294967295 compressed chunks"
# the BUFFER option (in the options section at 14446) names CPU 4294967295:
# libtracecmd would allocate room for that many
damage "$z" "$TEST_TMP/zcpu.dat" '
i = d.index(b"\x00local\x00", 14446) + 7 + 8
assert le(i, 4) == 0
le(i, 4, 0xffffffff)'
expect "$TEST_TMP/zcpu.dat" "an impossible CPU id"

# the undamaged files read the same on both paths
for f in "$v6" "$corpus/v7u-6.12.dat" "$z"; do
	"$SLABACCT" report --what all "$f" >"$TEST_TMP/a" || fail "report $f failed"
	"$SLABACCT" report --what all --libtracecmd "$f" >"$TEST_TMP/b" ||
		fail "report --libtracecmd $f failed"
	cmp -s "$TEST_TMP/a" "$TEST_TMP/b" || fail "$f: the two paths differ"
done
note "damaged pages of v6, v7 and zstd v7 files refused with the CPU and offset"
