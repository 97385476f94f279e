#!/bin/bash
# An armhf board of 128 MB with 2 CPUs (Debian's armmp 6.1 kernel),
# sized by `slabacct boot cmdline --mem 128 --cpus 2` (no stacks) run on
# the board itself with the slabacct cross-built for it (make
# ARCH=armhf), as guest/boot-board does for x86-64 guests, with the same
# checks (board-lib.bash): no panic, no OOM, no CPU kept from its buffer;
# `boot collect` and `slabacct report` work in the guest; where boot
# cmdline said the boot fits, no CPU overran; where it said it does not,
# the report's lost events equal the kernel's overrun count.
. "$(dirname "$0")/../../lib.sh"
. "$(dirname "$0")/board-lib.bash"
flavour=6.1-armmp
[ -n "$(guest_arch "$flavour")" ] || fail "no $flavour kernel (scripts/install-deps --arm)"
[ -n "$(cross_slabacct "$flavour")" ] || fail "no slabacct built for armhf (make ARCH=armhf)"
board_boot "$flavour" 128 "" 1
exit 0
