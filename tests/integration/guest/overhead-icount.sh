# slab_account.ko's cost per kmalloc(100)+kfree pair on kernel flavour $1,
# in instructions counted by QEMU (qemu/run --icount), must not rise more
# than 3% of the module's figure above the one written down in
# bench/module-overhead.ref (bench/module-overhead.sh --check). Under
# icount a count is the same from boot to boot whatever the host's load,
# so unlike a timing this can be a test. A change meant to move the figure
# writes the new one with bench/module-overhead.sh --update.
#
# Then the same for an allocation at an allocation wrapper's call site
# (kvmalloc above a page): bench/module-wrappers.sh --check against
# bench/module-wrappers.ref, so that losing the hook at the wrappers'
# entries (a stack walk per allocation: thousands of instructions) fails.
. "$(dirname "$0")/../../lib.sh"
flavour=${1:?kernel flavour}
"$TOP/bench/module-overhead.sh" --check -k "$flavour" || exit
"$TOP/bench/module-wrappers.sh" --check -r 1 -k "$flavour"
