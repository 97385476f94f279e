#!/bin/bash
# A truncation sweep: a slabacct recording (with its origin and system
# sections) cut at every boundary between the sections of the file
# (trace-cmd.dat.v6(5) and slabacct's origin section, trace/tracedat-format.h)
# and at 50 random offsets (seeded). Every cut is an error that names the
# file and the offset of the damage, exit 1; never a report with exit 0
# that silently lacks sections.
. "$(dirname "$0")/../../lib.sh"
[ -x "$SLABACCT" ] || fail "build/slabacct is missing (make all)"
trace=$TEST_TMP/t.dat
zcat "$TOP/tests/data/report-mm/6.1.dat.gz" >"$TEST_TMP/old.dat"
# It was recorded before slabacct marked its files (the VERSION option
# "slabacct VERSION" says an origin section follows the CPU data, so that
# a cut right after them is known): add the mark as the writer does now,
# in the padding before the first CPU's data, which stays where it is.
python3 - "$TEST_TMP/old.dat" "$trace" <<'PY'
import struct, sys
d = bytearray(open(sys.argv[1], 'rb').read())
opt = b'slabacct 0.1.0\0'
opt = struct.pack('<HI', 9, len(opt)) + opt
i = d.index(b'options  \0') + 10
t = d.index(b'flyrecord\0') + 10
cpus = struct.unpack_from('<I', d, i - 14)[0]
first = min(struct.unpack_from('<Q', d, t + 16 * c)[0] for c in range(cpus))
pad = t + 16 * cpus
assert not any(d[pad:pad + len(opt)]) and first - pad > len(opt)
d[i:i] = opt
del d[pad + len(opt):pad + 2 * len(opt)]
open(sys.argv[2], 'wb').write(d)
PY

# the offsets: every section boundary, then 50 random ones
python3 - "$trace" >"$TEST_TMP/cuts" <<'PY'
import random, struct, sys
d = open(sys.argv[1], 'rb').read()
cuts, p = set(), 0
def mark():
    cuts.add(p)
def skip(n):
    global p
    p += n
    mark()
def num(size):
    v = int.from_bytes(d[p:p + size], 'little')
    skip(size)
    return v
def string():
    skip(d.index(b'\0', p) - p + 1)
skip(10)                        # magic
string()                        # version
skip(1); skip(1); num(4)        # endian, long size, page size
for name in ('header_page', 'header_event'):
    string(); skip(num(8))
for i in range(num(4)):         # ftrace formats
    skip(num(8))
for i in range(num(4)):         # event systems
    string()
    for j in range(num(4)):
        skip(num(8))
skip(num(4))                    # kallsyms
skip(num(4))                    # printk formats
skip(num(8))                    # saved cmdlines
cpus = num(4)
if d[p:p + 10] == b'options  \0':
    skip(10)
    while True:
        opt = num(2)
        if not opt:
            break
        skip(num(4))
assert d[p:p + 10] == b'flyrecord\0', d[p:p + 10]
skip(10)
end = p
for i in range(cpus):
    off, size = num(8), num(8)
    cuts.update((off, off + size))
    end = max(end, off + size)
p = end
assert d[p:p + 8] == b'SAORIGIN'
skip(8); num(4)
for i in range(num(4)):         # the origin's entries
    string(); skip(num(8))
num(8)                          # the footer
skip(8)
assert p == len(d), (p, len(d))
cuts.discard(len(d))
rnd = random.Random(14)
cuts.update(rnd.randrange(1, len(d)) for i in range(50))
print('\n'.join(str(c) for c in sorted(cuts)))
PY
[ -s "$TEST_TMP/cuts" ] || fail "no cut offsets"

n=0 bad=0
while read -r cut; do
	head -c "$cut" "$trace" >"$TEST_TMP/cut.dat"
	"$SLABACCT" report --what all "$TEST_TMP/cut.dat" >"$TEST_TMP/out" \
		2>"$TEST_TMP/err"
	rc=$?
	n=$((n + 1))
	if [ $rc != 1 ]; then
		echo "cut at $cut: exit $rc (want 1): $(head -c 300 "$TEST_TMP/err")"
		bad=$((bad + 1))
		continue
	fi
	grep -q "cut.dat" "$TEST_TMP/err" ||
		{ echo "cut at $cut: the error does not name the file"; bad=$((bad + 1)); continue; }
	if [ "$cut" -ge 10 ] &&
	   ! grep -Eq "at offset [0-9]+" "$TEST_TMP/err"; then
		echo "cut at $cut: no offset in '$(cat "$TEST_TMP/err")'"
		bad=$((bad + 1))
	fi
done <"$TEST_TMP/cuts"
[ $bad = 0 ] || fail "$bad of $n cuts were not reported as damage naming the offset"
# the whole file still reads, its origin and system sections with it
"$SLABACCT" report "$trace" >"$TEST_TMP/out" || fail "the whole trace does not read"
grep -q '^# recorded by: slabacct record' "$TEST_TMP/out" || fail "no origin"
grep -q '^== system' "$TEST_TMP/out" || fail "no system section"
note "$n cuts (every section boundary and 50 random offsets): each an error naming the offset"
