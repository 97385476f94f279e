// SPDX-License-Identifier: GPL-2.0
/*
 * Interned kernel stacks, and the rule that attaches a kernel_stack entry
 * to its event (trace/stack.h).
 */
#include <string.h>

#include "trace/stack.h"

static GMutex lock;
static GHashTable *table;		/* struct sa_stack * -> itself */

static guint32 frames_hash(const guint64 *ip, guint32 n)
{
	guint64 h = 0xcbf29ce484222325ULL ^ n;
	guint32 i;

	for (i = 0; i < n; i++) {
		h ^= ip[i];
		h *= 0x100000001b3ULL;
		h ^= h >> 29;
	}
	return (guint32)(h ^ (h >> 32));
}

static guint stack_hash(gconstpointer p)
{
	return ((const struct sa_stack *)p)->hash;
}

static gboolean stack_equal(gconstpointer a, gconstpointer b)
{
	const struct sa_stack *x = a, *y = b;

	return x->n == y->n && !memcmp(x->ip, y->ip, x->n * sizeof(x->ip[0]));
}

static bool same(const struct sa_stack *st, guint32 hash, const guint64 *ip,
		 guint32 n)
{
	return st->hash == hash && st->n == n &&
	       !memcmp(st->ip, ip, n * sizeof(ip[0]));
}

static const struct sa_stack *intern(const guint64 *ip, guint32 n,
				     guint32 hash)
{
	struct sa_stack *key, *found;

	key = g_malloc(sizeof(*key) + n * sizeof(key->ip[0]));
	key->n = n;
	key->hash = hash;
	memcpy(key->ip, ip, n * sizeof(ip[0]));
	g_mutex_lock(&lock);
	if (!table)
		table = g_hash_table_new(stack_hash, stack_equal);
	found = g_hash_table_lookup(table, key);
	if (!found) {
		g_hash_table_add(table, key);
		found = key;
		key = NULL;
	}
	g_mutex_unlock(&lock);
	g_free(key);
	return found;
}

const struct sa_stack *sa_stack_intern(const guint64 *ip, guint32 n)
{
	if (n > SA_STACK_MAX)
		n = SA_STACK_MAX;
	return intern(ip, n, frames_hash(ip, n));
}

const struct sa_stack *sa_stack_intern_cached(struct sa_stack_cache *c,
					      const guint64 *ip, guint32 n)
{
	const struct sa_stack **slot;
	guint32 hash;

	if (n > SA_STACK_MAX)
		n = SA_STACK_MAX;
	hash = frames_hash(ip, n);
	slot = &c->slot[hash & (SA_STACK_CACHE - 1)];
	if (!*slot || !same(*slot, hash, ip, n))
		*slot = intern(ip, n, hash);
	return *slot;
}

bool sa_stack_has(const struct sa_stack *st, guint64 addr)
{
	guint32 i;

	for (i = 0; st && i < st->n; i++)
		if (st->ip[i] == addr)
			return true;
	return false;
}

/* Whether r was recorded by the task and in the context of s. */
static bool same_context(const struct sa_rec *r, const struct sa_rec *s)
{
	return r->pid == s->pid &&
	       (r->flags & SA_REC_CTX) == (s->flags & SA_REC_CTX);
}

enum sa_stack_found sa_stack_attach(struct sa_rec *recs, guint n,
				    const struct sa_rec *s, guint *scanned)
{
	guint i;

	for (i = n; i-- > 0 && *scanned < SA_STACK_SCAN;) {
		struct sa_rec *r = &recs[i];

		if (r->cpu != s->cpu)
			continue;
		++*scanned;
		if (!same_context(r, s)) {
			/* an interrupt's, or events lost before it */
			if (r->flags & SA_REC_GAP)
				return SA_STACK_UNMATCHED;
			continue;
		}
		if (r->stack)
			return SA_STACK_UNMATCHED;
		r->stack = s->stack;
		return SA_STACK_ATTACHED;
	}
	return *scanned < SA_STACK_SCAN ? SA_STACK_BEFORE : SA_STACK_UNMATCHED;
}
