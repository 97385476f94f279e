# shellcheck disable=SC2154 # _slabacct_commands: in the tables above
# The completion function; scripts/bash-completion puts the tables of the
# binary (_slabacct_commands, _slabacct_options, _slabacct_value,
# _slabacct_positional) above it.

# _slabacct_words WORDS CUR [PREFIX]: COMPREPLY, the WORDS that start
# with CUR, each after PREFIX
_slabacct_words()
{
	local w
	for w in $1; do
		[[ $w == "$2"* ]] && COMPREPLY+=("$3$w")
	done
}

# _slabacct_files file|dir: file or directory names (bash-completion's
# _filedir when it is there); cur is the caller's
_slabacct_files()
{
	if declare -F _filedir >/dev/null; then
		if [[ $1 == dir ]]; then _filedir -d; else _filedir; fi
		return
	fi
	compopt -o filenames 2>/dev/null
	if [[ $1 == dir ]]; then
		mapfile -t COMPREPLY < <(compgen -d -- "$cur")
	else
		mapfile -t COMPREPLY < <(compgen -f -- "$cur")
	fi
}

_slabacct()
{
	local cur=${COMP_WORDS[COMP_CWORD]} prev='' opt='' pre='' path='' spec w i
	local dashdash=0 nargs=0
	COMPREPLY=()
	((COMP_CWORD > 0)) && prev=${COMP_WORDS[COMP_CWORD - 1]}

	# the command ("report", "boot collect") and the arguments before the
	# cursor, leaving out options and their values
	for ((i = 1; i < COMP_CWORD; i++)); do
		w=${COMP_WORDS[i]}
		if ((dashdash)); then
			((nargs++))
		elif [[ $w == -- && -n $path ]]; then
			dashdash=1
		elif [[ $w == -* ]]; then
			# "--what LIST", "--what=LIST" ("--what" "=" "LIST"
			# where COMP_WORDBREAKS has '=')
			if [[ $w != *=* && -n $(_slabacct_value "$path" "$w") ]]; then
				if [[ ${COMP_WORDS[i + 1]} == = ]]; then
					((i += 2))
				else
					((i++))
				fi
			fi
		elif [[ -z $path ]]; then
			path=$w
		elif [[ $(_slabacct_positional "$path") == sub:* &&
			$path != *" "* ]]; then
			path="$path $w"
		else
			((nargs++))
		fi
	done

	# the value of an option: "--what ca", "--what=ca"
	if [[ $cur == = && $prev == -* ]]; then
		opt=$prev
		cur=
	elif [[ $prev == = ]] && ((COMP_CWORD >= 2)); then
		opt=${COMP_WORDS[COMP_CWORD - 2]}
	elif [[ $cur == --*=* ]]; then
		opt=${cur%%=*}
		pre=$opt=
		cur=${cur#*=}
	elif [[ $prev == -* && $prev != *=* ]] && ((!dashdash)); then
		# an optional value (eq:) is never the next word
		spec=$(_slabacct_value "$path" "$prev")
		[[ -n $spec && $spec != eq:* ]] && opt=$prev
	fi
	if [[ -n $opt && -n $path ]]; then
		spec=$(_slabacct_value "$path" "$opt")
		spec=${spec#eq:}
		case $spec in
		list:*)
			# a comma list: complete its last name, from the
			# names not in the list yet
			local head= w left=
			[[ $cur == *,* ]] && head=${cur%,*},
			for w in ${spec#list:}; do
				[[ ,$head == *,$w,* ]] || left+=" $w"
			done
			_slabacct_words "$left" "${cur##*,}" "$pre$head"
			;;
		word:*) _slabacct_words "${spec#word:}" "$cur" "$pre" ;;
		file | dir) [[ -z $pre ]] && _slabacct_files "$spec" ;;
		esac
		[[ -n $spec ]] && return 0
	fi

	if [[ -z $path ]]; then
		if [[ $cur == -* ]]; then
			_slabacct_words "--help --version" "$cur"
		else
			_slabacct_words "$_slabacct_commands" "$cur"
		fi
		return 0
	fi
	if ((dashdash)); then
		# slabacct record ... -- CMD ARGS
		if ((nargs == 0)); then
			mapfile -t COMPREPLY < <(compgen -c -- "$cur")
		else
			_slabacct_files file
		fi
		return 0
	fi
	if [[ $cur == -* ]]; then
		_slabacct_words "$(_slabacct_options "$path")" "$cur"
		return 0
	fi
	spec=$(_slabacct_positional "$path")
	case $spec in
	sub:*) _slabacct_words "${spec#sub:}" "$cur" ;;
	file) _slabacct_files file ;;
	esac
	return 0
}
complete -F _slabacct slabacct
