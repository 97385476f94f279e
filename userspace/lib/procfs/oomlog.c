// SPDX-License-Identifier: GPL-2.0
/*
 * OOM kills from the kernel log.
 */
#include <stdio.h>
#include <string.h>

#include "procfs/kmsg.h"
#include "procfs/oomlog.h"
#include "procfs/parse.h"

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

char *sa_oomlog_capture(const char *root, GError **err)
{
	return sa_kmsg_capture(root, sa_oomlog_line_wanted, err);
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

struct oom_walk {
	GArray *kills;
	char *invoker, *gfp, *constraint;
	int order;
};

static void oom_line(void *data, const char *m, double t)
{
	struct oom_walk *w = data;
	const char *p;

	if ((p = strstr(m, " invoked oom-killer:"))) {
		g_free(w->invoker);
		g_free(w->gfp);
		w->invoker = g_strndup(m, p - m);
		w->gfp = word_after(m, "gfp_mask=", ",");
		p = strstr(m, "order=");
		w->order = p ? atoi(p + 6) : -1;
	} else if (g_str_has_prefix(m, "oom-kill:")) {
		g_free(w->constraint);
		w->constraint = word_after(m, "constraint=", ",");
	} else if ((p = strstr(m, "Killed process "))) {
		struct sa_oom_kill k = { .time = t, .order = -1 };
		const char *open = strchr(p, '('), *close;

		k.pid = atoi(p + strlen("Killed process "));
		close = open ? strrchr(open, ')') : NULL;
		if (!open || !close || k.pid <= 0)
			return;
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
		k.invoker = g_steal_pointer(&w->invoker);
		k.gfp_mask = g_steal_pointer(&w->gfp);
		k.constraint = g_steal_pointer(&w->constraint);
		k.order = w->order;
		w->order = -1;
		g_array_append_val(w->kills, k);
	} else if ((p = strstr(m, "oom_reaper: reaped process "))) {
		int pid = atoi(p + strlen("oom_reaper: reaped process "));
		guint i;

		for (i = w->kills->len; i-- > 0;) {
			struct sa_oom_kill *k = &g_array_index(w->kills,
					struct sa_oom_kill, i);

			if (k->pid == pid) {
				k->reaped = true;
				break;
			}
		}
	}
}

GArray *sa_oomlog_parse(const char *text)
{
	struct oom_walk w = { .order = -1 };

	w.kills = g_array_new(FALSE, TRUE, sizeof(struct sa_oom_kill));
	g_array_set_clear_func(w.kills, kill_clear);
	sa_kmsg_lines(text, oom_line, &w);
	g_free(w.invoker);
	g_free(w.gfp);
	g_free(w.constraint);
	return w.kills;
}
