// SPDX-License-Identifier: GPL-2.0
/*
 * The emitter dispatcher: the format's header, then each selected
 * section's writer from the format's table, then the footer.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "emit/emit.h"
#include "util/textfold.h"

int sa_format_parse(const char *s, enum sa_format *fmt)
{
	static const char *const names[] = { "text", "json", "csv",
					     "account", "html" };
	unsigned int i;

	for (i = 0; i < G_N_ELEMENTS(names); i++)
		if (!strcmp(s, names[i])) {
			*fmt = i;
			return 0;
		}
	return -1;
}

int sa_emit_report(struct sa_emit *e, const struct sa_report *rep)
{
	const sa_emit_fn *fns;
	struct sa_text_buf tb = { 0 };
	int i;

	if (e->fmt == SA_FMT_ACCOUNT) {
		sa_account_emit(e, rep);
		goto out;
	}
	if (e->fmt == SA_FMT_JSON || e->fmt == SA_FMT_HTML) {
		e->jb = json_builder_new();
		json_builder_begin_object(e->jb);
		sa_json_header(e, rep);
		json_builder_set_member_name(e->jb, "sections");
		json_builder_begin_object(e->jb);
	} else if (e->fmt == SA_FMT_CSV) {
		sa_csv_header(e, rep);
	} else {
		if (sa_text_begin(e, &tb))
			return -1;
		sa_text_header(e, rep);
	}
	fns = e->fmt == SA_FMT_JSON || e->fmt == SA_FMT_HTML ?
		sa_json_sections : e->fmt == SA_FMT_CSV ? sa_csv_sections :
		sa_text_sections;
	for (i = 0; i < SA_SEC_NR; i++)
		if ((rep->sections & SA_SECBIT(i)) && rep->result[i])
			fns[i](e, rep, rep->result[i]);
	if (e->fmt == SA_FMT_JSON || e->fmt == SA_FMT_HTML) {
		json_builder_end_object(e->jb);
		json_builder_end_object(e->jb);
		if (e->fmt == SA_FMT_HTML ? sa_html_write(e) : sa_json_write(e))
			return -1;
	}
	if (e->fmt == SA_FMT_TEXT && sa_text_end(e, &tb))
		return -1;
out:
	if (fflush(e->out) || ferror(e->out)) {
		if (!errno)
			errno = EIO;
		return -1;
	}
	return 0;
}
