// SPDX-License-Identifier: GPL-2.0
/*
 * OOM kills from the kernel log.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "snapshot/sources/oomlog.h"
#include "snapshot/sources/parse.h"

static const char *const wanted[] = {
	"invoked oom-killer:", "oom-kill:", "Killed process ", "oom_reaper:",
};

bool sa_oomlog_line_wanted(const char *line)
{
	size_t i;

	for (i = 0; i < G_N_ELEMENTS(wanted); i++)
		if (strstr(line, wanted[i]))
			return true;
	return false;
}

static void keep_wanted(GString *out, const char *buf, size_t len)
{
	char *copy = g_strndup(buf, len);
	char **lines = g_strsplit(copy, "\n", -1), **l;

	for (l = lines; *l; l++)
		if (sa_oomlog_line_wanted(*l))
			g_string_append_printf(out, "%s\n", *l);
	g_strfreev(lines);
	g_free(copy);
}

char *sa_oomlog_capture(const char *root, GError **err)
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
			keep_wanted(out, pending->str, pending->len);
			g_string_truncate(pending, 0);
		}
	}
	keep_wanted(out, pending->str, pending->len);
	g_string_free(pending, TRUE);
	close(fd);
	g_free(path);
	return g_string_free(out, FALSE);
}

/* Strip the kmsg or dmesg prefix; the time in *t (-1 unknown). */
static const char *message(const char *line, double *t)
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

/* The number after "key" in s, as kB values look: "anon-rss:123kB". */
static guint64 num_after(const char *s, const char *key)
{
	const char *p = strstr(s, key);

	return p ? g_ascii_strtoull(p + strlen(key), NULL, 10) : 0;
}

static char *word_after(const char *s, const char *key, const char *stop)
{
	const char *p = strstr(s, key);

	if (!p)
		return NULL;
	p += strlen(key);
	return g_strndup(p, strcspn(p, stop));
}

static void kill_clear(gpointer p)
{
	struct sa_oom_kill *k = p;

	g_free(k->comm);
	g_free(k->constraint);
	g_free(k->invoker);
	g_free(k->gfp_mask);
}

GArray *sa_oomlog_parse(const char *text)
{
	GArray *kills = g_array_new(FALSE, TRUE, sizeof(struct sa_oom_kill));
	char **lines = g_strsplit(text ? text : "", "\n", -1), **l;
	char *invoker = NULL, *gfp = NULL, *constraint = NULL;
	int order = -1;

	g_array_set_clear_func(kills, kill_clear);
	for (l = lines; *l; l++) {
		double t;
		const char *m = message(*l, &t), *p;

		if ((p = strstr(m, " invoked oom-killer:"))) {
			g_free(invoker);
			g_free(gfp);
			invoker = g_strndup(m, p - m);
			gfp = word_after(m, "gfp_mask=", ",");
			p = strstr(m, "order=");
			order = p ? atoi(p + 6) : -1;
		} else if (g_str_has_prefix(m, "oom-kill:")) {
			g_free(constraint);
			constraint = word_after(m, "constraint=", ",");
		} else if ((p = strstr(m, "Killed process "))) {
			struct sa_oom_kill k = { .time = t, .order = -1 };
			const char *open = strchr(p, '('), *close;

			k.pid = atoi(p + strlen("Killed process "));
			close = open ? strrchr(open, ')') : NULL;
			if (!open || !close || k.pid <= 0)
				continue;
			k.comm = g_strndup(open + 1, close - open - 1);
			k.memcg = strstr(m, "Memory cgroup out of memory") != NULL;
			k.total_vm_kb = num_after(close, "total-vm:");
			k.anon_rss_kb = num_after(close, "anon-rss:");
			k.file_rss_kb = num_after(close, "file-rss:");
			k.shmem_rss_kb = num_after(close, "shmem-rss:");
			k.pgtables_kb = num_after(close, "pgtables:");
			k.uid = num_after(close, "UID:");
			p = strstr(close, "oom_score_adj:");
			k.oom_score_adj = p ? atoi(p + 14) : 0;
			k.invoker = g_steal_pointer(&invoker);
			k.gfp_mask = g_steal_pointer(&gfp);
			k.constraint = g_steal_pointer(&constraint);
			k.order = order;
			order = -1;
			g_array_append_val(kills, k);
		} else if ((p = strstr(m, "oom_reaper: reaped process "))) {
			int pid = atoi(p + strlen("oom_reaper: reaped process "));
			guint i;

			for (i = kills->len; i-- > 0;) {
				struct sa_oom_kill *k = &g_array_index(kills,
						struct sa_oom_kill, i);

				if (k->pid == pid) {
					k->reaped = true;
					break;
				}
			}
		}
	}
	g_free(invoker);
	g_free(gfp);
	g_free(constraint);
	g_strfreev(lines);
	return kills;
}
