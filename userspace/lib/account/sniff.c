// SPDX-License-Identifier: GPL-2.0
/* Telling the text snapshots apart by content (see account/sniff.h). */
#include <string.h>

#include "account/account.h"
#include "account/allocinfo.h"
#include "account/hist.h"
#include "account/sniff.h"
#include "util/input-file.h"

enum sa_text_input sa_text_input_sniff(const char *path)
{
	static const char slab_tag[] = "# " SLAB_ACCOUNT_PROC_NAME " ";
	char head[32];
	gssize n = sa_input_head(path, head, sizeof(head));

	if (n < 0)
		return SA_TEXT_OTHER;
	if ((size_t)n >= sizeof(slab_tag) - 1 &&
	    !memcmp(head, slab_tag, sizeof(slab_tag) - 1))
		return SA_TEXT_SLAB_ACCOUNT;
	if (sa_allocinfo_sniff(head, n))
		return SA_TEXT_ALLOCINFO;
	if (sa_hist_sniff(head, n))
		return SA_TEXT_HIST;
	return SA_TEXT_OTHER;
}

const char *sa_text_input_name(enum sa_text_input k)
{
	return k == SA_TEXT_SLAB_ACCOUNT ? "/proc/" SLAB_ACCOUNT_PROC_NAME :
	       k == SA_TEXT_ALLOCINFO ? "/proc/allocinfo" :
	       k == SA_TEXT_HIST ? "hist" : "other";
}
