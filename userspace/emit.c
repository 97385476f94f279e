// SPDX-License-Identifier: GPL-2.0
/*
 * The emitter dispatcher: the format's header, then each selected
 * section's emitter from sa_report_table[], then the footer.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "agg-callsite.h"
#include "emit.h"
#include "textfold.h"

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

const char *sa_kind_name(int kind)
{
	return kind == SA_KIND_KMALLOC ? "kmalloc" : "cache";
}

char *sa_human(char buf[16], guint64 v)
{
	static const char units[] = "KMGTPE";
	double d = v;
	int u = -1;

	if (v < 100000) {
		snprintf(buf, 16, "%" G_GUINT64_FORMAT, v);
		return buf;
	}
	while (d >= 1000.0 && u < 5) {
		d /= 1024.0;
		u++;
	}
	snprintf(buf, 16, d < 10.0 ? "%.2f%c" : d < 100.0 ? "%.1f%c" :
		 "%.0f%c", d, units[u]);
	return buf;
}

/*
 * Text: the emitters write to a buffer, which goes out folded to the
 * width (textfold.h): what they lay out to fit is left as it is.
 */
int sa_text_begin(struct sa_emit *e, struct sa_text_buf *t)
{
	t->out = e->out;
	t->buf = NULL;
	t->len = 0;
	if (e->width <= 0)
		return 0;
	e->out = open_memstream(&t->buf, &t->len);
	if (!e->out) {
		e->out = t->out;
		return -1;
	}
	return 0;
}

int sa_text_end(struct sa_emit *e, struct sa_text_buf *t)
{
	int ret = 0;

	if (e->out == t->out)
		return 0;
	if (fclose(e->out))
		ret = -1;
	e->out = t->out;
	if (!ret && sa_text_fold_write(e->out, t->buf, t->len, e->width))
		ret = -1;
	free(t->buf);
	t->buf = NULL;
	return ret;
}

int sa_emit_report(struct sa_emit *e, const struct sa_report *rep)
{
	const struct sa_section *sec;
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
	for (i = 0, sec = sa_report_table; sec->what; sec++, i++) {
		sa_emit_fn fn;

		if (!(rep->sections & (1u << i)) || !rep->result[i])
			continue;
		fn = e->fmt == SA_FMT_JSON || e->fmt == SA_FMT_HTML ? sec->json :
		     e->fmt == SA_FMT_CSV ? sec->csv : sec->text;
		fn(e, rep, rep->result[i]);
	}
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
