# The man pages (build/man/*.1, make man): one per command of `slabacct
# --names commands` and slabacct(1); each renders with man and groff with
# no warning, has a NAME that lexgrog (man-db's whatis parser) reads and
# the sections a page must have; every line of the command's --help is in
# its rendered page (they cannot disagree); build/man is what the
# generator makes of this binary now (not stale); make install puts the
# pages and the bash completion under DESTDIR/PREFIX.
. "$(dirname "$0")/../../lib.sh"
for t in man groff lexgrog col python3; do
	command -v $t >/dev/null || fail "$t is missing (scripts/install-deps)"
done
man=$TOP/build/man
[ -f "$man/slabacct.1" ] || fail "no $man/slabacct.1 (make man)"
commands=$("$SLABACCT" --names commands) || fail "slabacct --names commands"

# warnings LEVEL PAGE: what man and groff say while rendering PAGE
warnings() {
	{
		LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -l "$1" >/dev/null
		groff -ww -z -man -Tutf8 "$1" >/dev/null
	} 2>&1
}
# the check must see a warning when there is one
printf '.TH X 1\n.SH NAME\nx \\- y\n.XX\n\\fBunclosed\n.B\n' >"$TEST_TMP/bad.1"
[ -n "$(warnings "$TEST_TMP/bad.1")" ] ||
	fail "man --warnings and groff -ww say nothing of a broken page"

# rendered PAGE as plain ASCII text
render() {
	LC_ALL=C MANWIDTH=80 man -l "$1" 2>/dev/null | col -bx
}
# the lines of TEXT not in PAGE's rendering, whitespace aside; the help's
# "Usage:", "Options:" and the labels the page turns into sections
# ("Exit status:", "Examples:") are left out
missing_lines() {
	python3 - "$1" "$2" <<'EOF'
import re, sys
help_text = open(sys.argv[1], encoding="utf-8").read().replace("\u2026", "...")
page = re.sub(r"\s+", "", open(sys.argv[2], encoding="utf-8").read())
for line in help_text.split("\n"):
    line = line.strip()
    if line in ("Usage:", "Options:", "Examples:", "EXAMPLES:", "Example:",
                "commands:"):
        continue
    line = re.sub(r"^Exit status:\s*", "", line)
    if re.sub(r"\s+", "", line) not in page:
        print(line)
EOF
}

n=0
for c in slabacct $commands; do
	p=$man/${c/#/slabacct-}.1
	[ "$c" = slabacct ] && p=$man/slabacct.1
	[ -f "$p" ] || fail "no man page for '$c' ($p)"
	w=$(warnings "$p")
	[ -z "$w" ] || fail "$p: warnings: $w"
	name=${p##*/}
	name=${name%.1}
	lexgrog "$p" | grep -q "^$p: \"$name - " ||
		fail "$p: lexgrog does not read its NAME: $(lexgrog "$p" 2>&1)"
	render "$p" >"$TEST_TMP/page.txt"
	need="NAME SYNOPSIS DESCRIPTION EXIT.STATUS SEE.ALSO"
	case $c in
	slabacct) need="$need COMMANDS FILES" ;;
	version) ;;
	*) need="$need OPTIONS FILES" ;;
	esac
	for s in $need; do
		grep -q "^$s\$" "$TEST_TMP/page.txt" || fail "$p: no section ${s/./ }"
	done
	# the help, all of it, is in the page
	case $c in
	slabacct) "$SLABACCT" --help | sed -n '/^commands:/,/^$/p' ;;
	version) ;;
	boot)
		for s in cmdline collect; do
			"$SLABACCT" boot $s --help
		done ;;
	*) "$SLABACCT" "$c" --help ;;
	esac >"$TEST_TMP/help.txt"
	# an optional argument reads --long[=ARG], never GOption's --long=[ARG]
	grep -E '^  (-., )?--[a-z-]+=\[' "$TEST_TMP/help.txt" &&
		fail "$c --help: an optional argument written --long=[ARG] (above)"
	grep -Eq '^(Examples|EXAMPLES|Example):' "$TEST_TMP/help.txt" &&
		! grep -q '^EXAMPLES$' "$TEST_TMP/page.txt" &&
		fail "$p: the help's examples are not in an EXAMPLES section"
	miss=$(missing_lines "$TEST_TMP/help.txt" "$TEST_TMP/page.txt")
	[ -z "$miss" ] || fail "$p: lines of '$c --help' not in the page:
$miss"
	n=$((n + 1))
done
note "$n pages render without warnings and hold their command's --help"

# The pages of every BPF tool of the registry, and no page of no command
for p in "$man"/*.1; do
	c=${p##*/slabacct-}
	c=${c%.1}
	[ "$p" = "$man/slabacct.1" ] && continue
	echo "$commands" | grep -qx "$c" || fail "$p: no command '$c'"
done
# slabacct(1) lists every command
render "$man/slabacct.1" | tr -s ' \n' '  ' >"$TEST_TMP/top.txt"
for c in $commands; do
	grep -q "See slabacct-$c(1)" "$TEST_TMP/top.txt" ||
		fail "slabacct(1) does not list '$c'"
done

# Not stale: the generator, run again on this binary, writes the same
"$TOP/scripts/man-pages" "$SLABACCT" "$TOP/man/extra.txt" "$TEST_TMP/man" \
	"$("$SLABACCT" --version | cut -d' ' -f2)" ||
	fail "scripts/man-pages failed"
diff -r "$man" "$TEST_TMP/man" >"$TEST_TMP/stale.diff" ||
	fail "build/man differs from the binary's help (make man): $(head -20 "$TEST_TMP/stale.diff")"
note "build/man is what scripts/man-pages makes of build/slabacct"

# make install: the pages and the completion under DESTDIR/PREFIX
make -s -C "$TOP" install DESTDIR="$TEST_TMP/inst" PREFIX=/usr \
	>"$TEST_TMP/install.log" 2>&1 ||
	fail "make install failed: $(cat "$TEST_TMP/install.log")"
inst=$TEST_TMP/inst/usr
[ -x "$inst/bin/slabacct" ] || fail "make install: no bin/slabacct"
for p in "$man"/*.1; do
	cmp -s "$p" "$inst/share/man/man1/${p##*/}" ||
		fail "make install: ${p##*/} not in share/man/man1"
done
cmp -s "$TOP/build/completion/slabacct" \
	"$inst/share/bash-completion/completions/slabacct" ||
	fail "make install: no share/bash-completion/completions/slabacct"
MANPATH=$inst/share/man LC_ALL=C man slabacct-report 2>/dev/null |
	grep -q 'slabacct-report - ' || fail "man finds no installed slabacct-report"
note "make install: $(ls "$inst/share/man/man1" | wc -l) pages, the completion"
exit 0
