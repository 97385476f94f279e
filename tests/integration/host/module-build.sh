# The module users load carries no testing knobs: for every kernel `make
# module` built for, slab_account.ko has none of the test build's
# parameters (fail_at, test_*), and the test build (test/slab_account.ko,
# SA_TEST=1) has them, so the check can fail.
. "$(dirname "$0")/../../lib.sh"

n=0
for krel in $("$TOP/scripts/kernels" --krel); do
	dir=$TOP/build/kmod/$krel
	[ -f "$dir/slab_account.ko" ] || fail "no $dir/slab_account.ko (run make module)"
	[ -f "$dir/test/slab_account.ko" ] ||
		fail "no test build $dir/test/slab_account.ko (run make module)"
	prod=$(modinfo -F parm "$dir/slab_account.ko" | cut -d: -f1 | sort | tr '\n' ' ')
	test=$(modinfo -F parm "$dir/test/slab_account.ko" | cut -d: -f1 | sort | tr '\n' ' ')
	note "$krel: parameters: $prod"
	note "$krel: test build: $test"
	case " $prod" in
	*" fail_at "* | *" test_"*) fail "$krel: slab_account.ko has a testing knob: $prod" ;;
	esac
	for p in fail_at test_sleep_in_probe; do
		case " $test" in
		*" $p "*) ;;
		*) fail "$krel: the test build lacks $p: $test" ;;
		esac
	done
	# the same parameters otherwise
	assert_eq "$krel: the test build's other parameters" "$prod" \
		"$(echo "$test" | tr ' ' '\n' | grep -v -e '^fail_at$' -e '^test_' |
			grep . | tr '\n' ' ')"
	n=$((n + 1))
done
[ $n -gt 0 ] || fail "no kernel to check"
exit 0
