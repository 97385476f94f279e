// SPDX-License-Identifier: GPL-2.0
/*
 * The header of a snapshot input (/proc/slab_account, /proc/allocinfo),
 * in report and diff output; for /proc/slab_account:
 * what the input is (a snapshot of slab_account.ko's file, its format
 * version), its table sizes, what the module could not account and the
 * large kmallocs it counted once though traced twice, and how often its
 * probes took their slower path (a row, a map slot or a freed object not
 * in its home slot; shown only when the file has the counts). It
 * takes the place of a trace's origin: a snapshot has no CPUs, clock,
 * duration, records or lost events.
 */
#include "procfs/account.h"
#include "procfs/allocinfo.h"
#include "emit/emit.h"

#define U G_GUINT64_FORMAT

void sa_text_account_head(FILE *f, const char *lead,
			  const struct sa_account_head *h)
{
	fprintf(f, "%sinput: a /proc/slab_account snapshot, format %d\n",
		lead, h->version);
	fprintf(f, "%stables: %" U " call-site slots, %" U " live-object "
		"slots\n", lead, h->sites, h->objects);
	fprintf(f, "%snot counted: %" U " allocations (site table full), %"
		U " not tracked (map full)\n", lead, h->dropped, h->map_full);
	fprintf(f, "%sfrees of untracked objects: %" U ", lost frees: %" U
		"%s\n", lead, h->untracked_frees, h->lost_frees,
		h->cache_slot_exact ? "" : "; cache slot sizes unknown");
	if (h->kmalloc_repeats_known)
		fprintf(f, "%scounted once: %" U " large kmallocs traced "
			"twice\n", lead, h->kmalloc_repeats);
	if (h->slow_known)
		fprintf(f, "%sslower path: %" U " allocations, %" U " objects, %"
			U " frees (slow_*)\n", lead, h->slow_sites,
			h->slow_objects, h->slow_frees);
}

/* A key of uapi/slab_account.h's tables, named as the head's field */
#define JSON_U64(name)	sa_json_put_uint(b, #name, h->name)
#define CSV_U64(name) \
	fprintf(f, "# %s" #name ": %" U "\n", prefix, h->name)
#define JSON_SLOW(name, type, since, group)	JSON_##type(name);
#define CSV_SLOW(name, type, since, group)	CSV_##type(name);

void sa_json_account_head(JsonBuilder *b, const struct sa_account_head *h)
{
	json_builder_set_member_name(b, "input");
	json_builder_begin_object(b);
	sa_json_put_str(b, "kind", "/proc/slab_account");
	sa_json_put_int(b, "format_version", h->version);
	JSON_U64(sites);
	JSON_U64(objects);
	sa_json_put_str(b, "cache_slot_size", h->cache_slot_exact ? "exact" :
			"object");
	JSON_U64(dropped);
	JSON_U64(map_full);
	JSON_U64(untracked_frees);
	JSON_U64(lost_frees);
	/* null: a file from before the module had the key */
	json_builder_set_member_name(b, "kmalloc_repeats");
	if (h->kmalloc_repeats_known)
		json_builder_add_int_value(b, (gint64)h->kmalloc_repeats);
	else
		json_builder_add_null_value(b);
	sa_json_account_slow(b, h);
	json_builder_end_object(b);
}

void sa_json_account_slow(JsonBuilder *b, const struct sa_account_head *h)
{
	/* absent: a file from before the module had the keys */
	if (!h->slow_known)
		return;
	SLAB_ACCOUNT_SLOW_KEYS(JSON_SLOW)
}

void sa_csv_account_head(FILE *f, const char *prefix,
			 const struct sa_account_head *h)
{
	fprintf(f, "# %sinput: /proc/slab_account\n# %sformat_version: %d\n",
		prefix, prefix, h->version);
	CSV_U64(sites);
	CSV_U64(objects);
	fprintf(f, "# %scache_slot_size: %s\n", prefix,
		h->cache_slot_exact ? "exact" : "object");
	CSV_U64(dropped);
	CSV_U64(map_full);
	CSV_U64(untracked_frees);
	CSV_U64(lost_frees);
	if (h->kmalloc_repeats_known)
		CSV_U64(kmalloc_repeats);
	else
		fprintf(f, "# %skmalloc_repeats: unknown\n", prefix);
	if (h->slow_known) {
		SLAB_ACCOUNT_SLOW_KEYS(CSV_SLOW)
	}
}

/*
 * A /proc/allocinfo input: the kernel's allocation profiling, its format
 * version, its sites (code tags), how many have live allocations and how
 * many the kernel marks inaccurate.
 */
void sa_text_allocinfo_head(FILE *f, const char *lead,
			    const struct sa_allocinfo_head *h)
{
	fprintf(f, "%sinput: a /proc/allocinfo snapshot, format %u.%u\n",
		lead, h->major, h->minor);
	fprintf(f, "%ssites: %" U " allocation sites, %" U " with live "
		"allocations, %" U " marked inaccurate\n", lead, h->tags,
		h->live_tags, h->inaccurate);
}

void sa_json_allocinfo_head(JsonBuilder *b,
			    const struct sa_allocinfo_head *h)
{
	char *v = g_strdup_printf("%u.%u", h->major, h->minor);

	json_builder_set_member_name(b, "input");
	json_builder_begin_object(b);
	sa_json_put_str(b, "kind", "/proc/allocinfo");
	sa_json_put_str(b, "format_version", v);
	sa_json_put_uint(b, "tags", h->tags);
	sa_json_put_uint(b, "live_tags", h->live_tags);
	sa_json_put_uint(b, "inaccurate", h->inaccurate);
	json_builder_end_object(b);
	g_free(v);
}

void sa_csv_allocinfo_head(FILE *f, const char *prefix,
			   const struct sa_allocinfo_head *h)
{
	fprintf(f, "# %sinput: /proc/allocinfo\n# %sformat_version: %u.%u\n"
		"# %stags: %" U "\n# %slive_tags: %" U "\n"
		"# %sinaccurate: %" U "\n", prefix, prefix, h->major, h->minor,
		prefix, h->tags, prefix, h->live_tags, prefix, h->inaccurate);
}
