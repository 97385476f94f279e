// SPDX-License-Identifier: GPL-2.0
/* slabacct diff A B (being written) */
#include "cmd.h"

int cmd_diff(int argc, char **argv)
{
	sa_err("diff", "not yet");
	return SA_EXIT_FAIL;
}
