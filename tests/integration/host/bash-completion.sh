# The bash completion (build/completion/slabacct, make completion): sourced
# in bash, alone and after bash-completion's own functions, it completes
# commands (the BPF tools of the registry too), options, report sections
# (--what), sort keys, event groups, the choices of options and file
# names, as the binary takes them; and it is what the generator makes of
# this binary now (not stale).
. "$(dirname "$0")/../../lib.sh"
comp=$TOP/build/completion/slabacct
[ -f "$comp" ] || fail "no $comp (make completion)"
command -v python3 >/dev/null || fail "python3 is missing"

# Not stale
"$TOP/scripts/bash-completion" "$SLABACCT" >"$TEST_TMP/comp" ||
	fail "scripts/bash-completion failed"
cmp -s "$comp" "$TEST_TMP/comp" ||
	fail "build/completion/slabacct differs from the binary's (make completion)"
bash -n "$comp" || fail "$comp is not valid bash"

mkdir -p "$TEST_TMP/files/dir"
touch "$TEST_TMP/files/boot.dat" "$TEST_TMP/files/base.dat"

# The cases: a command line (completed at its end) | what COMPREPLY holds,
# sorted, space-separated. A '=' is a word of its own, as readline splits
# at COMP_WORDBREAKS; a trailing space starts an empty word.
sections=$("$SLABACCT" --names sections | sort | tr '\n' ' ')
keys=$("$SLABACCT" --names sort-keys | sort | tr '\n' ' ')
groups=$("$SLABACCT" --names event-groups | sort | tr '\n' ' ')
report_opts=$("$SLABACCT" report --help |
	grep -oE '^  (-[a-zA-Z], )?--[a-z-]+' | grep -oE -- '--[a-z-]+' | sort -u |
	tr '\n' ' ')
# after "kmem," the groups not named yet, never kmem again
more_groups=$(for g in $groups; do [ "$g" = kmem ] || printf 'kmem,%s ' "$g"; done)
cat >"$TEST_TMP/cases" <<EOF
slabacct rep|report
slabacct re|record report
slabacct mem|memleak
slabacct vm|vmscan
slabacct --v|--version
slabacct boot |cmdline collect
slabacct boot cmdline -e km|kmem
slabacct boot collect --o|--output
slabacct report --wh|--what
slabacct report --what |${sections% }
slabacct report --what re|reclaim
slabacct report -w ti|timeline
slabacct report --what=|${sections% }
slabacct report --what=callsite,pa|callsite,pages
slabacct report --what=callsite,pages,o|callsite,pages,oom
slabacct report --sort |${keys% }
slabacct report --sort sl|slack
slabacct report -s bytes,l|bytes,live
slabacct report --format |account csv json openmetrics prometheus text
slabacct report --by |cache caller cgroup comm pid stack wrapper
slabacct report --top 3 --|${report_opts% }
slabacct report --what all --sort f|frag
slabacct report --build-tree $TEST_TMP/files/d|$TEST_TMP/files/dir
slabacct report $TEST_TMP/files/bo|$TEST_TMP/files/boot.dat
slabacct report --html $TEST_TMP/files/b|$TEST_TMP/files/base.dat $TEST_TMP/files/boot.dat
slabacct diff --sort |allocs bytes live slack
slabacct diff --by f|function
slabacct diff --format |csv json text
slabacct merge --format |csv html json openmetrics prometheus text
slabacct merge --ht|--html
slabacct merge --html $TEST_TMP/files/b|$TEST_TMP/files/base.dat $TEST_TMP/files/boot.dat
slabacct record -e |${groups% }
slabacct record -e kmem,pa|kmem,page
slabacct record -e kmem,|${more_groups% }
slabacct report --what=callsite,pages,|$(for w in $sections; do
	case $w in callsite|pages) ;; *) printf 'callsite,pages,%s ' "$w" ;; esac
done | sed 's/ $//')
slabacct record --stacks=|all wrappers
slabacct record --events=kmem,vms|kmem,vmscan
slabacct record -e kmem,pe|kmem,percpu
slabacct record --events=kmem,vma|kmem,vmalloc
slabacct events --miss|--missing
slabacct top --source |account auto trace
slabacct top -s |bytes live rate slack
slabacct memleak --ker|--kernel
slabacct faults --stack |both kernel user
slabacct pmc --by |function process
slabacct pmc --top |
slabacct report --top |
slabacct version |
EOF

# run_cases: every case in a fresh bash that sourced $@ and the completion
run_cases() {
	bash -c '
		for f in "$@"; do source "$f"; done
		n=0 bad=0
		while IFS="|" read -r line want; do
			read -ra COMP_WORDS <<<"${line//=/ = }"
			[[ $line == *" " ]] && COMP_WORDS+=("")
			COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
			COMP_LINE=$line COMP_POINT=${#line}
			COMPREPLY=()
			_slabacct slabacct "${COMP_WORDS[COMP_CWORD]}" \
				"${COMP_WORDS[COMP_CWORD - 1]}"
			got=$(printf "%s\n" "${COMPREPLY[@]}" | sed "/^$/d" |
				sort -u | tr "\n" " ")
			got=${got% }
			if [ "$got" != "$want" ]; then
				echo "not ok [$line]: got \"$got\", want \"$want\""
				bad=$((bad + 1))
			fi
			n=$((n + 1))
		done <"$CASES"
		echo "# $n cases, $bad wrong"
		[ $bad = 0 ]' bash "$@"
}
export CASES=$TEST_TMP/cases
run_cases "$comp" || fail "the completion, alone, completed wrongly"
# with bash-completion's _filedir and friends loaded first
bc=/usr/share/bash-completion/bash_completion
[ -f "$bc" ] || fail "bash-completion is not installed (scripts/install-deps)"
run_cases "$bc" "$comp" || fail "the completion, after bash-completion's, completed wrongly"

# the commands offered are the binary's, every one
got=$(bash -c 'source "$1"; COMP_WORDS=(slabacct ""); COMP_CWORD=1
	_slabacct; printf "%s\n" "${COMPREPLY[@]}"' bash "$comp" | sort)
[ "$got" = "$("$SLABACCT" --names commands | sort)" ] ||
	fail "the commands offered are not those of slabacct --names commands"
exit 0
