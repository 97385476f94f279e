// SPDX-License-Identifier: GPL-2.0
/*
 * slab_account: attach probes to tracepoints described by a table.
 *
 * An entry with a reg function uses the kernel's exported
 * register_trace_<event>(); the others are looked up by name with
 * for_each_kernel_tracepoint() and attached with
 * tracepoint_probe_register(). A missing optional event is logged and
 * skipped; a missing required one fails the whole table, undoing what was
 * done.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/string.h>
#include <linux/tracepoint.h>

#include "slab_account.h"

struct sa_tp_lookup {
	struct sa_tp *tbl;
	unsigned int n;
};

static void sa_tp_match(struct tracepoint *tp, void *priv)
{
	struct sa_tp_lookup *l = priv;
	unsigned int i;

	for (i = 0; i < l->n; i++)
		if (!l->tbl[i].reg && !strcmp(tp->name, l->tbl[i].name))
			l->tbl[i].tp = tp;
}

void sa_tp_unregister(struct sa_tp *tbl, unsigned int n)
{
	unsigned int i;

	for (i = n; i-- > 0;) {
		struct sa_tp *t = &tbl[i];

		if (!t->on)
			continue;
		if (t->reg)
			t->unreg();
		else
			tracepoint_probe_unregister(t->tp, t->probe, NULL);
		t->on = false;
	}
}

int sa_tp_register(struct sa_tp *tbl, unsigned int n)
{
	struct sa_tp_lookup l = { .tbl = tbl, .n = n };
	unsigned int i;
	int ret;

	for (i = 0; i < n; i++)
		tbl[i].tp = NULL;
	for_each_kernel_tracepoint(sa_tp_match, &l);
	for (i = 0; i < n; i++) {
		struct sa_tp *t = &tbl[i];

		if (!t->reg && !t->tp) {
			if (t->optional) {
				pr_warn("tracepoint %s not found, skipped\n",
					t->name);
				continue;
			}
			pr_err("tracepoint %s not found\n", t->name);
			ret = -ENOENT;
			goto err;
		}
		if (t->reg)
			ret = t->reg();
		else
			ret = tracepoint_probe_register(t->tp, t->probe, NULL);
		if (ret) {
			pr_err("cannot attach to %s: %d\n", t->name, ret);
			goto err;
		}
		t->on = true;
	}
	return 0;

err:
	sa_tp_unregister(tbl, n);
	return ret;
}
