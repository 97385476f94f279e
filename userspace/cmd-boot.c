// SPDX-License-Identifier: GPL-2.0
#include "cmd.h"
int cmd_boot(int argc, char **argv)
{
	sa_err("boot", "not yet");
	return SA_EXIT_FAIL;
}
