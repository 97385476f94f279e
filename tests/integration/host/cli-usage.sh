# The CLI's usage errors and help, on the host.
. "$(dirname "$0")/../../lib.sh"

"$SLABACCT" --help | grep -q '^  events' || fail "--help does not list 'events'"
assert_status 2 "$SLABACCT"
assert_status 2 "$SLABACCT" no-such-command
assert_status 2 "$SLABACCT" events --no-such-option
msg=$("$SLABACCT" events -e kmem,bogus 2>&1)
assert_status 2 "$SLABACCT" events -e kmem,bogus
echo "$msg" | grep -q "unknown event group 'bogus'" || fail "bad group message: $msg"
"$SLABACCT" version | grep -Eq '^slabacct [0-9]+\.[0-9]+' || fail "version"
# plain `make` (the README's build) builds the CLI: with a source taken as
# changed, its plan must relink build/slabacct (it once built only the
# HTML assets: a rule above `all` had become the default goal)
make -n -C "$TOP" -W userspace/cli/cmd-version.c 2>/dev/null |
	grep -q -- '-o build/slabacct ' || fail "plain make does not build build/slabacct"

# No module here (the host loads none): account names the command the
# package's DKMS build is loaded with, modprobe, before insmod
if [ ! -e /proc/slab_account ]; then
	msg=$("$SLABACCT" account 2>&1) && fail "account without the module succeeded"
	case $msg in *"modprobe slab_account"*) ;;
	*) fail "account without the module does not suggest modprobe: $msg" ;; esac
fi
