# The front page and the manual: README.md stays a front page (at most
# 15 KB); every relative link of README.md and docs/*.md resolves, to a
# file and, with a #fragment, to a heading of it (GitHub's anchors);
# every docs/ file has its table of contents, each entry a heading of
# it; and the commands the README shows exist: each `slabacct CMD` is a
# command of the binary's table and each --option it gives CMD is in
# CMD's --help, each `make TARGET` a target of the Makefile.
. "$(dirname "$0")/../../lib.sh"
[ -x "$SLABACCT" ] || fail "build/slabacct is missing (make all)"
size=$(wc -c <"$TOP/README.md")
[ "$size" -le 15360 ] || fail "README.md is $size bytes, over 15 KB: move reference text to docs/"
note "README.md: $size bytes"

python3 - "$TOP" <<'PY' || fail "broken links or contents (above)"
import os, re, sys
top = sys.argv[1]
def slug(h):
    s = re.sub(r'[^\w\- ]', '', h.strip().lower())
    return s.replace(' ', '-')
def anchors(path):
    out, fence = set(), False
    for l in open(path, encoding='utf-8'):
        if l.startswith('```'):
            fence = not fence
        m = re.match(r'^(#{1,6}) (.*)$', l)
        if m and not fence:
            out.add(slug(m.group(2)))
    return out
files = [os.path.join(top, 'README.md')] + sorted(
    os.path.join(top, 'docs', f) for f in os.listdir(os.path.join(top, 'docs'))
    if f.endswith('.md'))
bad = links = 0
for f in files:
    text = open(f, encoding='utf-8').read()
    for m in re.finditer(r'\]\(([^)\s]+)\)', text):
        t = m.group(1)
        if re.match(r'^[a-z]+:', t):
            continue                      # an absolute URL
        links += 1
        path, _, frag = t.partition('#')
        dest = os.path.normpath(os.path.join(os.path.dirname(f), path)) if path else f
        if not os.path.exists(dest):
            print(f'{os.path.relpath(f, top)}: link to {t}: no such file')
            bad += 1
        elif frag and dest.endswith('.md') and frag not in anchors(dest):
            print(f'{os.path.relpath(f, top)}: link to {t}: no such heading')
            bad += 1
    if os.path.basename(os.path.dirname(f)) == 'docs' and '**Contents**' not in text:
        print(f'{os.path.relpath(f, top)}: no table of contents')
        bad += 1
print(f'# {len(files)} files, {links} relative links')
sys.exit(1 if bad else 0)
PY

# the tree's files the manual names exist (a path of ours: userspace/,
# tests/, scripts/, qemu/, bench/, docs/, man/, debian/, kconfig-fragments/)
# (not a built file, .ko or under build/, not a glob, not the kernel's
# scripts/kconfig/)
missing=$(cd "$TOP" && grep -ohP '(?<![/\w.-])(userspace|tests|scripts|qemu|bench|docs|man|debian|kconfig-fragments)/[A-Za-z0-9_./-]*[A-Za-z0-9_](?![-\w]*\*)' \
	README.md docs/*.md | sort -u |
	grep -vE 'LAYER|NAME|ARCH|RELEASE|/X\.|\.ko$|^scripts/kconfig/' |
	while read -r p; do [ -e "$p" ] || echo "$p"; done)
[ -z "$missing" ] || fail "README.md and docs/ name files that do not exist: $missing"

# the commands of the README's examples
cmds=" $("$SLABACCT" --names commands | tr '\n' ' ') "
n=0
while read -r cmd rest; do
	case $cmds in *" $cmd "*) ;; *) fail "README.md shows 'slabacct $cmd', not a command" ;; esac
	help=$("$SLABACCT" "$cmd" --help 2>&1; [ "$cmd" = boot ] &&
		{ "$SLABACCT" boot cmdline --help; "$SLABACCT" boot collect --help; })
	for o in $(grep -oE -- '--[a-z][a-z-]*' <<<"$rest"); do
		grep -qE -- "(^|[ ,])$o([=[ ]|$)" <<<"$help" ||
			fail "README.md shows 'slabacct $cmd ... $o': not in its --help"
	done
	n=$((n + 1))
done < <(grep -oE 'slabacct [a-z]+[^#`|]*' "$TOP/README.md" |
	sed 's/^slabacct //' | grep -vE '^(is|COMMAND|CMD)\b' | sort -u)
for t in $(grep -oE '\bmake [a-z][a-z-]*' "$TOP/README.md" | awk '{ print $2 }' | sort -u); do
	grep -qE "^$t:" "$TOP/Makefile" || fail "README.md shows 'make $t': no such target"
	n=$((n + 1))
done
note "$n commands of the README checked against the binary and the Makefile"
exit 0
