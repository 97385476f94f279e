// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel log, read from root/dev/kmsg: see kmsg.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "procfs/kmsg.h"
#include "procfs/parse.h"

struct kmsg_keep {
	GString *out;
	bool (*wanted)(const char *line);
};

static gboolean keep_line(void *data, const char *s, size_t len,
			  GError **err)
{
	struct kmsg_keep *k = data;
	char *line = g_strndup(s, len);

	(void)err;
	if (*line && k->wanted(line))
		g_string_append_printf(k->out, "%s\n", line);
	g_free(line);
	return TRUE;
}

static void keep_wanted(GString *out, const char *buf, size_t len,
			bool (*wanted)(const char *line))
{
	struct kmsg_keep k = { out, wanted };

	/* the text ends at a NUL, as a record read has none */
	sa_text_lines(buf, strnlen(buf, len), keep_line, &k, NULL);
}

char *sa_kmsg_capture(const char *root, bool (*wanted)(const char *line),
		      GError **err)
{
	char *path = g_build_filename(root, "dev/kmsg", NULL);
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	GString *out, *pending;
	char buf[8192];

	if (fd < 0) {
		int e = errno;

		g_set_error(err, G_FILE_ERROR, g_file_error_from_errno(e),
			    "%s: %s", path, g_strerror(e));
		g_free(path);
		return NULL;
	}
	out = g_string_new(NULL);
	/* /dev/kmsg gives one record per read; a file, any chunk */
	pending = g_string_new(NULL);
	for (;;) {
		ssize_t n = read(fd, buf, sizeof(buf));

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EPIPE)	/* records overwritten */
			continue;
		if (n < 0 && errno == EAGAIN)
			break;
		if (n < 0) {
			int e = errno;

			g_set_error(err, G_FILE_ERROR,
				    g_file_error_from_errno(e), "%s: %s", path,
				    g_strerror(e));
			close(fd);
			g_free(path);
			g_string_free(pending, TRUE);
			g_string_free(out, TRUE);
			return NULL;
		}
		if (n == 0)
			break;
		g_string_append_len(pending, buf, n);
		if (pending->str[pending->len - 1] == '\n') {
			keep_wanted(out, pending->str, pending->len, wanted);
			g_string_truncate(pending, 0);
		}
		/* a file (a copied log) as large as a bound, no further */
		if (out->len > SA_SNAP_MAX_FILE)
			break;
	}
	keep_wanted(out, pending->str, pending->len, wanted);
	g_string_free(pending, TRUE);
	close(fd);
	g_free(path);
	return g_string_free(out, FALSE);
}

const char *sa_kmsg_message(const char *line, double *t)
{
	const char *semi = strchr(line, ';');
	const char *sp = strchr(line, ' ');

	*t = -1;
	if (g_ascii_isdigit(line[0]) && semi && (!sp || semi < sp)) {
		char **f = g_strsplit(line, ",", 4);
		guint64 us;

		if (g_strv_length(f) >= 3 && sa_parse_u64(f[2], &us))
			*t = us / 1e6;
		g_strfreev(f);
		return semi + 1;
	}
	if (line[0] == '[') {
		const char *end = strchr(line, ']');
		char *e;
		double v = g_ascii_strtod(line + 1, &e);

		if (end && e != line + 1)
			*t = v;
		if (end)
			return end[1] == ' ' ? end + 2 : end + 1;
	}
	return line;
}

struct kmsg_walk {
	sa_kmsg_fn fn;
	void *data;
};

static gboolean kmsg_line(void *data, const char *s, size_t len,
			  GError **err)
{
	struct kmsg_walk *w = data;
	char *line = g_strndup(s, len);
	const char *m;
	double t;

	(void)err;
	m = sa_kmsg_message(line, &t);
	w->fn(w->data, m, t);
	g_free(line);
	return TRUE;
}

void sa_kmsg_lines(const char *text, sa_kmsg_fn fn, void *data)
{
	struct kmsg_walk w = { fn, data };

	sa_procfile_lines(text, kmsg_line, &w, NULL);
}
