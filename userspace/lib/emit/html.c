// SPDX-License-Identifier: GPL-2.0
/*
 * HTML output: one self-contained page (html/report.html with
 * report.css and the script's parts inlined, embedded at build time by
 * html/assets.S). The page carries the report's JSON model, built by the
 * JSON emitters through json-glib, in a <script type="application/json">
 * element; the script draws the treemap, tables and charts from it, so
 * the page shows exactly the numbers of `--json`. Nothing is fetched: it
 * opens from a file with no network.
 */
#include <errno.h>
#include <string.h>

#include "emit/emit.h"

extern const char sa_html_page_html[], sa_html_page_css[], sa_html_page_js[];

/*
 * The JSON text made safe inside a <script> element: '<' only occurs
 * inside JSON strings, where "\u003c" means the same, so no "</script>"
 * or "<!--" can end or confuse the element.
 */
static char *model_text(JsonNode *model)
{
	JsonGenerator *g = json_generator_new();
	GString *s = g_string_new(NULL);
	gchar *json, *p;

	json_generator_set_root(g, model);
	json = json_generator_to_data(g, NULL);
	for (p = json; *p; p++) {
		if (*p == '<')
			g_string_append(s, "\\u003c");
		else
			g_string_append_c(s, *p);
	}
	g_free(json);
	g_object_unref(g);
	return g_string_free(s, FALSE);
}

int sa_html_page(FILE *out, JsonNode *model, const char *title)
{
	static const char *const marks[] = { "@@TITLE@@", "@@CSS@@",
					     "@@MODEL@@", "@@JS@@" };
	char *json = model_text(model);
	char *etitle = g_markup_escape_text(title ? title : "slabacct", -1);
	const char *fill[] = { etitle, sa_html_page_css, json,
			       sa_html_page_js };
	const char *p = sa_html_page_html;

	for (;;) {
		const char *next = NULL;
		unsigned int i, which = 0;

		for (i = 0; i < G_N_ELEMENTS(marks); i++) {
			const char *m = strstr(p, marks[i]);

			if (m && (!next || m < next)) {
				next = m;
				which = i;
			}
		}
		if (!next) {
			fputs(p, out);
			break;
		}
		fwrite(p, 1, next - p, out);
		fputs(fill[which], out);
		p = next + strlen(marks[which]);
	}
	g_free(json);
	g_free(etitle);
	if (fflush(out) || ferror(out)) {
		if (!errno)
			errno = EIO;
		return -1;
	}
	return 0;
}

int sa_html_write(struct sa_emit *e)
{
	JsonNode *root = json_builder_get_root(e->jb);
	JsonObject *o = json_node_get_object(root);
	const char *tool = json_object_get_string_member_with_default(o,
		"tool", "slabacct");
	const char *file = json_object_get_string_member_with_default(o,
		"file", NULL);
	char *title = file ? g_strdup_printf("%s: %s", tool, file) :
			     g_strdup(tool);
	int ret = sa_html_page(e->out, root, title);

	g_free(title);
	json_node_unref(root);
	g_object_unref(e->jb);
	e->jb = NULL;
	return ret;
}

static int html_end(struct sa_emit *e, const struct sa_report *rep)
{
	sa_json_model_end(e);
	return sa_html_write(e);
}

const struct sa_format_ops sa_format_html = {
	.name = "html", .begin = sa_json_model_begin,
	.sections = sa_json_sections, .end = html_end,
};
