// SPDX-License-Identifier: GPL-2.0
/*
 * slabacct version
 */
#include <stdio.h>

#include "cli/cmd.h"

#ifndef SLABACCT_VERSION
#define SLABACCT_VERSION "unknown"
#endif

int cmd_version(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	printf("slabacct %s\n", SLABACCT_VERSION);
	return SA_EXIT_OK;
}
