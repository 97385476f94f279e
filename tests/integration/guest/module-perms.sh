# Who may read and write slab_account.ko's /proc files, in a guest of
# kernel flavour $1 (util-linux's setpriv changes the uid and the
# capability bounding set):
#  - all three files are mode 0400, owned by root (root writes the
#    first two through its DAC override);
#  - an unprivileged uid cannot open them (the mode);
#  - root without CAP_SYSLOG and CAP_SYS_ADMIN cannot read them, and root
#    without CAP_SYS_ADMIN cannot write them (the module's capable()
#    checks); with either capability root reads;
#  - a call site with no symbol (sa_test's, once unloaded) is printed as
#    %pK prints it: under kptr_restrict 0 a hashed value, under 1 the real
#    address for root (checked against /proc/kallsyms) and zeros for a
#    reader without CAP_SYSLOG (root without it, or an unprivileged uid
#    reading a file root opened), under 2 zeros for everyone.
. "$(dirname "$0")/../../lib.sh"
flavour=${1:?kernel flavour}
SETPRIV=$(command -v setpriv) || fail "no setpriv (util-linux)"

cat >"$TEST_TMP/guest.sh" <<'GUEST'
set -e
sp=/opt/setpriv
nobody="$sp --reuid=65534 --regid=65534 --clear-groups"
# sa_test first: while slab_account.ko's ftrace hook (on the allocation
# wrappers) is registered, ftrace keeps the names of a module's init
# functions once their text is freed, and a module loaded after
# slab_account.ko may land in its freed init text, where kallsyms would
# still name sa_test's call site once sa_test is gone.
insmod $MODDIR/sa_test.ko
insmod $MODDIR/slab_account.ko
files="/proc/slab_account /proc/slab_account_reclaim /proc/slab_account_oom"
# try NAME CMD...: the command's exit status and first error line
try() {
	local name=$1 rc=0
	shift
	"$@" >/dev/null 2>$OUT/err || rc=$?
	echo "$name $rc $(head -n 1 $OUT/err)" >> $OUT/try
}
for f in $files; do
	stat -c "%a %u $f" $f >> $OUT/modes
	try "nobody-read $f" $nobody cat $f
	try "nocap-read $f" $sp --bounding-set=-syslog,-sys_admin cat $f
	try "syslog-read $f" $sp --bounding-set=-sys_admin cat $f
	try "sysadmin-read $f" $sp --bounding-set=-syslog cat $f
done
for f in /proc/slab_account /proc/slab_account_reclaim; do
	try "nobody-write $f" $nobody sh -c "echo reset > $f"
	try "syslog-write $f" $sp --bounding-set=-sys_admin sh -c "echo reset > $f"
done
try "syslog-write-top" $sp --bounding-set=-sys_admin sh -c "echo 'top 7' > /proc/slab_account"
try "sysadmin-write-top" $sp --bounding-set=-syslog sh -c "echo 'top 9' > /proc/slab_account"
grep '^top: ' /proc/slab_account > $OUT/top
echo 'top 0' > /proc/slab_account

# a call site with no symbol: sa_test's, after rmmod
echo kmalloc 10 100 10 > /proc/sa_test
grep -E ' sa_test_kmalloc_loop(\s|$)' /proc/kallsyms > $OUT/kallsyms
grep ' sa_test_kmalloc_loop+' /proc/slab_account > $OUT/row
echo free > /proc/sa_test
rmmod sa_test
for kr in 0 1 2; do
	echo $kr > /proc/sys/kernel/kptr_restrict
	cat /proc/slab_account > $OUT/root-$kr
	$sp --bounding-set=-syslog cat /proc/slab_account > $OUT/nosyslog-$kr
	exec 3< /proc/slab_account
	$nobody cat <&3 > $OUT/nobody-fd-$kr
	exec 3<&-
done
echo 0 > /proc/sys/kernel/kptr_restrict
rmmod slab_account
GUEST
guest_run "$flavour" "$TEST_TMP/guest.sh" -t 240 -f "$SETPRIV:/opt/setpriv" ||
	fail "guest run failed"
o=$TEST_TMP/out
cat "$o/try"

for f in slab_account slab_account_reclaim slab_account_oom; do
	assert_eq "mode and owner of /proc/$f" "400 0 /proc/$f" \
		"$(grep " /proc/$f\$" "$o/modes")"
done
# result NAME: "STATUS first-error-line" of a try
result() { sed -n "s|^$1 ||p" "$o/try"; }
denied() {
	case $(result "$1") in
	"0 "*) fail "$1 was allowed" ;;
	*"$2"*) note "$1 refused: $2" ;;
	*) fail "$1: expected '$2', got '$(result "$1")'" ;;
	esac
}
allowed() {
	case $(result "$1") in
	"0 "*) note "$1 allowed" ;;
	*) fail "$1 refused: $(result "$1")" ;;
	esac
}
for f in /proc/slab_account /proc/slab_account_reclaim /proc/slab_account_oom; do
	denied "nobody-read $f" "Permission denied"
	denied "nocap-read $f" "Operation not permitted"
	allowed "syslog-read $f"
	allowed "sysadmin-read $f"
done
for f in /proc/slab_account /proc/slab_account_reclaim; do
	denied "nobody-write $f" "Permission denied"
	denied "syslog-write $f" "Operation not permitted"
done
denied syslog-write-top "Operation not permitted"
allowed sysadmin-write-top
assert_eq "top after the writes" "top: 9" "$(cat "$o/top")"

# %pK: the real address of sa_test's call site, from kallsyms and the
# row's offset, before the module went away
read -r sym _ _ <"$o/kallsyms"
off=$(sed -n 's/.* sa_test_kmalloc_loop+\(0x[0-9a-f]*\)\/.*/\1/p' "$o/row")
[ -n "$sym" ] && [ -n "$off" ] || fail "no address for sa_test_kmalloc_loop"
real=$(printf '%016x' $((0x$sym + off)))
note "sa_test_kmalloc_loop+$off was at $real"
# shown FILE: the caller of the row that was sa_test's (10/10 allocs)
shown() {
	awk '/^# *total/ { r = 1; next } r && $6 == "10/10" && $7 == "kmalloc" &&
		$8 !~ /\+/ { print $8 }' "$1"
}
zeros=0000000000000000
for kr in 0 1 2; do
	for who in root nosyslog nobody-fd; do
		[ -s "$o/$who-$kr" ] || fail "$who read nothing under kptr_restrict $kr"
		note "kptr_restrict $kr, $who: $(shown "$o/$who-$kr" | tr '\n' ' ')"
	done
done
hashed=$(shown "$o/root-0")
[ -n "$hashed" ] || fail "no row without a symbol for sa_test's call site"
case $hashed in
"$real" | "$zeros") fail "kptr_restrict 0: %pK printed $hashed, not a hashed value" ;;
esac
assert_eq "kptr_restrict 0, not root either" "$hashed" "$(shown "$o/nobody-fd-0")"
assert_eq "kptr_restrict 1, root" "$real" "$(shown "$o/root-1")"
assert_eq "kptr_restrict 1, root without CAP_SYSLOG" $zeros "$(shown "$o/nosyslog-1")"
assert_eq "kptr_restrict 1, an unprivileged reader of root's file" $zeros \
	"$(shown "$o/nobody-fd-1")"
for who in root nosyslog nobody-fd; do
	assert_eq "kptr_restrict 2, $who" $zeros "$(shown "$o/$who-2")"
done
exit 0
