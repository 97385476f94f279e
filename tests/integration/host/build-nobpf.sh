# A build without the BPF tools (NO_BPF=REASON: a cross build for a
# kernel with no BTF): it links, its help says why after the command list,
# and its man pages are generated from that help (the note once sat inside
# the list, and the generator took "(the" for a command and failed).
# Every BPF front end is left out, the shared ones (swapin.c and
# hfaults.c on pcount.c's engine) too, or the link would fail.
. "$(dirname "$0")/../../lib.sh"
b=$TEST_TMP/build
make -s -C "$TOP" -j2 BUILD="$b" NO_BPF="no BTF in the test kernel" \
	"$b/slabacct" man >"$TEST_TMP/make.log" 2>&1 ||
	fail "make NO_BPF=... failed: $(tail -n 20 "$TEST_TMP/make.log")"
"$b/slabacct" --help >"$TEST_TMP/help.txt" || fail "slabacct --help failed"
sed -n '/^commands:/,/^$/p' "$TEST_TMP/help.txt" | grep -q 'BPF' &&
	fail "the command list names BPF: $(cat "$TEST_TMP/help.txt")"
grep -qx 'The BPF tools are not in this build: no BTF in the test kernel.' \
	"$TEST_TMP/help.txt" || fail "--help does not say why: $(cat "$TEST_TMP/help.txt")"
"$b/slabacct" --names commands | grep -qx swapin &&
	fail "a build without BPF lists swapin"
assert_status 2 "$b/slabacct" swapin
[ -f "$b/man/slabacct.1" ] && [ ! -e "$b/man/slabacct-swapin.1" ] ||
	fail "the man pages of the build without BPF: $(ls "$b/man")"
note "NO_BPF build: links, says why, $(ls "$b/man" | wc -l) man pages"
