// SPDX-License-Identifier: GPL-2.0
/*
 * Decoding a tracepoint record into struct sa_rec: the fields of each
 * event the event table knows are looked up by name once per trace
 * (sa_decode_new), and read per record with no lookup. Plain numbers of
 * the common sizes are read inline; strings are interned once per
 * distinct value through a small cache.
 */
#include <stdint.h>
#include <string.h>

#include "trace/decode.h"
#include "trace/stack.h"
#include "util/notes.h"

/* How one tracepoint of the trace is decoded. */
#define NAME_CACHE	64		/* a power of 2 */
#define SA_MAX_EVENT_ID	65535

struct decoder {
	const struct sa_event_desc *row;
	struct tep_format_field *f[SA_REC_FIELDS];
	guint32 have;
	guint32 fast;			/* bit i: a plain number read inline */
	guint32 slow;			/* the other fields in the format */
	guint32 loc_inline;		/* bit i: a __data_loc read inline */
	/*
	 * The fast fields, read together when the record holds them all:
	 * the 8-byte ones, then the 4-byte ones, then the others, so that
	 * the common sizes are read with no switch.
	 */
	int nr_fast, nr_fast8, nr_fast4, fast_end;
	struct {
		int idx, off, size;
	} fastf[SA_REC_FIELDS];
	/* strings seen, direct-mapped by a hash, so each is interned once */
	struct {
		char text[48];
		unsigned int len;
		const char *interned;
	} names[NAME_CACHE];
	/* kernel_stack: its frames, and the stacks seen (NULL: not that) */
	struct sa_stack_cache *stacks;
	int caller_off, word;		/* the frames' offset and size */
	bool big_endian;
};

/* A plain field of 1, 2, 4 or 8 bytes in the host's byte order. */
static inline guint64 read_plain(const char *p, int size)
{
	guint8 u8;
	guint16 u16;
	guint32 u32;
	guint64 u64;

	switch (size) {
	case 1:
		memcpy(&u8, p, 1);
		return u8;
	case 2:
		memcpy(&u16, p, 2);
		return u16;
	case 4:
		memcpy(&u32, p, 4);
		return u32;
	default:
		memcpy(&u64, p, 8);
		return u64;
	}
}

/* The cache slot of the len bytes at s. */
static inline unsigned int name_slot(const char *s, unsigned int len)
{
	unsigned int i = len;

	if (len)
		i = (i * 31 + (guint8)s[0]) * 31 +
		    (guint8)s[len / 2] * 7 + (guint8)s[len - 1];
	return i & (NAME_CACHE - 1);
}

/*
 * The interned copy of the len bytes at s if the cache holds them, else
 * NULL. A cached text holds no NUL, so a hit also tells that s has none.
 */
static inline const char *name_cached(const struct decoder *dec,
				      const char *s, unsigned int len)
{
	unsigned int i = name_slot(s, len);

	if (len < sizeof(dec->names[0].text) && dec->names[i].interned &&
	    dec->names[i].len == len && !memcmp(dec->names[i].text, s, len))
		return dec->names[i].interned;
	return NULL;
}

static const char *intern_cached(struct decoder *dec, const char *s,
				 unsigned int len)
{
	unsigned int i = name_slot(s, len);
	const char *hit = name_cached(dec, s, len);
	char buf[64];

	if (hit)
		return hit;
	if (len >= sizeof(buf))
		len = sizeof(buf) - 1;
	memcpy(buf, s, len);
	buf[len] = 0;
	s = g_intern_string(buf);
	if (len < sizeof(dec->names[0].text)) {
		memcpy(dec->names[i].text, buf, len + 1);
		dec->names[i].len = len;
		dec->names[i].interned = s;
	}
	return s;
}

/*
 * A kernel_stack entry: its frames up to the end of the record, or to its
 * size field where that says fewer (older kernels end a fixed array
 * with ULONG_MAX instead), interned.
 */
static void decode_stack(struct decoder *dec, const struct tep_record *rec,
			 struct sa_rec *out)
{
	guint64 ip[SA_STACK_MAX];
	const char *p = (const char *)rec->data + dec->caller_off;
	guint32 n = 0, max = 0;

	if ((int)rec->size > dec->caller_off)
		max = ((int)rec->size - dec->caller_off) / dec->word;
	if ((dec->have & (1u << SA_ST_SIZE)) && out->v[SA_ST_SIZE] < max)
		max = out->v[SA_ST_SIZE];
	if (max > SA_STACK_MAX)
		max = SA_STACK_MAX;
	for (; n < max; n++, p += dec->word) {
		guint64 a;

		if (dec->word == 8) {
			memcpy(&a, p, 8);
			a = dec->big_endian ? GUINT64_FROM_BE(a) :
			    GUINT64_FROM_LE(a);
			if (a == G_MAXUINT64)
				break;
		} else {
			guint32 a32;

			memcpy(&a32, p, 4);
			a = dec->big_endian ? GUINT32_FROM_BE(a32) :
			    GUINT32_FROM_LE(a32);
			if (a == G_MAXUINT32)
				break;
		}
		if (!a)
			break;
		ip[n] = a;
	}
	out->stack = n ? sa_stack_intern_cached(dec->stacks, ip, n) : NULL;
}

/*
 * The context of a record, from its common_flags: the kernel's
 * TRACE_FLAG_NMI, _HARDIRQ and _SOFTIRQ (include/linux/trace_events.h),
 * the same bits since they were defined.
 */
static inline guint8 context_of(guint8 common_flags)
{
	return (common_flags & 0x40 ? SA_REC_NMI : 0) |
	       (common_flags & 0x08 ? SA_REC_HARDIRQ : 0) |
	       (common_flags & 0x10 ? SA_REC_SOFTIRQ : 0);
}

int sa_decode_record(const struct sa_decode *d, struct tep_handle *tep,
		     struct tep_record *rec, struct sa_rec *out)
{
	const char *data = rec->data;
	struct decoder *dec;
	guint32 todo;
	int id, i;

	if (rec->size < 4)
		return -1;
	if (d->type_size && d->type_off + d->type_size <= (int)rec->size)
		id = read_plain((const char *)rec->data + d->type_off,
				d->type_size);
	else
		id = tep_data_type(tep, rec);
	if (id < 0 || id > d->max_id || !d->by_id[id])
		return -1;
	dec = d->by_id[id];
	out->ts = rec->ts;
	out->cpu = rec->cpu;
	if (d->pid_size == 4 && d->pid_off + 4 <= (int)rec->size)
		out->pid = (gint32)read_plain((const char *)rec->data +
					      d->pid_off, 4);
	else
		out->pid = tep_data_pid(tep, rec);
	out->ev = dec->row->ev;
	out->have = 0;
	out->freed_alloc = 0;
	out->flags = d->flags_off >= 0 && d->flags_off < (int)rec->size ?
		     context_of(((const guint8 *)rec->data)[d->flags_off]) : 0;
	out->stack = NULL;
	memset(out->v, 0, sizeof(out->v));
	todo = dec->have;
	if ((int)rec->size >= dec->fast_end) {
		/* the common case: every plain number is in the record */
		for (i = 0; i < dec->nr_fast8; i++)
			out->v[dec->fastf[i].idx] =
				read_plain(data + dec->fastf[i].off, 8);
		for (; i < dec->nr_fast4; i++)
			out->v[dec->fastf[i].idx] =
				read_plain(data + dec->fastf[i].off, 4);
		for (; i < dec->nr_fast; i++)
			out->v[dec->fastf[i].idx] =
				read_plain(data + dec->fastf[i].off,
					   dec->fastf[i].size);
		out->have = dec->fast;
		todo = dec->slow;
	}
	while (todo) {
		struct tep_format_field *f;
		unsigned long long v = 0;
		const char *name;

		i = __builtin_ctz(todo);
		todo &= todo - 1;
		f = dec->f[i];
		if (f->offset + f->size > (int)rec->size)
			continue;
		if (dec->fast & (1u << i)) {
			out->v[i] = read_plain(data + f->offset, f->size);
		} else if (dec->row->fields[i].flags & SA_FLD_STRING) {
			unsigned int off = f->offset, len = f->size;

			if (dec->loc_inline & (1u << i))
				v = read_plain(data + f->offset, 4);
			else if ((f->flags & TEP_FIELD_IS_DYNAMIC) &&
				 tep_read_number_field(f, data, &v))
				continue;
			if (f->flags & TEP_FIELD_IS_DYNAMIC) {
				off = v & 0xffff;
				len = (v >> 16) & 0xffff;
				if (f->flags & TEP_FIELD_IS_RELATIVE)
					off += f->offset + f->size;
			}
			if ((gint64)off + len > (gint64)rec->size)
				continue;
			/*
			 * up to the terminating NUL, if any; a string that
			 * ends the field with it and is cached needs no scan
			 */
			name = len && !data[off + len - 1] ?
			       name_cached(dec, data + off, len - 1) : NULL;
			if (!name)
				name = intern_cached(dec, data + off,
						     strnlen(data + off, len));
			out->v[i] = (guint64)(uintptr_t)name;
		} else {
			if (tep_read_number_field(f, data, &v))
				continue;
			out->v[i] = v;
		}
		out->have |= 1u << i;
	}
	if (G_UNLIKELY(dec->stacks))
		decode_stack(dec, rec, out);
	return 0;
}

/* Where common_type and common_pid are, if they can be read inline. */
static void common_fields(struct sa_decode *d, struct tep_handle *tep,
			  struct tep_event *ev)
{
	struct tep_format_field *t = tep_find_common_field(ev, "common_type");
	struct tep_format_field *p = tep_find_common_field(ev, "common_pid");
	struct tep_format_field *fl = tep_find_common_field(ev,
							    "common_flags");

	if (fl && fl->size == 1)
		d->flags_off = fl->offset;
	if (tep_is_file_bigendian(tep) != tep_is_local_bigendian(tep) ||
	    !t || !p || (t->size != 1 && t->size != 2 && t->size != 4) ||
	    p->size != 4)
		return;
	d->type_off = t->offset;
	d->type_size = t->size;
	d->pid_off = p->offset;
	d->pid_size = p->size;
}

/*
 * Field f of dec is a plain number read inline. The list is kept in the
 * order 8-byte, 4-byte, other sizes.
 */
static void fast_add(struct decoder *dec, int f)
{
	const struct tep_format_field *fld = dec->f[f];
	int n, group = fld->size == 8 ? 0 : fld->size == 4 ? 1 : 2;

	n = group == 0 ? dec->nr_fast8 : group == 1 ? dec->nr_fast4 :
	    dec->nr_fast;
	memmove(&dec->fastf[n + 1], &dec->fastf[n],
		(dec->nr_fast - n) * sizeof(dec->fastf[0]));
	dec->nr_fast++;
	if (group < 2)
		dec->nr_fast4++;
	if (group < 1)
		dec->nr_fast8++;
	dec->fast |= 1u << f;
	dec->fastf[n].idx = f;
	dec->fastf[n].off = fld->offset;
	dec->fastf[n].size = fld->size;
	if (fld->offset + fld->size > dec->fast_end)
		dec->fast_end = fld->offset + fld->size;
}

/* Field f of dec is read otherwise; a plain 4-byte __data_loc inline. */
static void slow_add(struct decoder *dec, struct tep_handle *tep, int f)
{
	const struct tep_format_field *fld = dec->f[f];

	dec->slow |= 1u << f;
	if ((dec->row->fields[f].flags & SA_FLD_STRING) &&
	    (fld->flags & TEP_FIELD_IS_DYNAMIC) && fld->size == 4 &&
	    tep_is_file_bigendian(tep) == tep_is_local_bigendian(tep))
		dec->loc_inline |= 1u << f;
}

/*
 * The kernel_stack decoder: its frames are an array of words (the
 * trace's long size) from the caller field to the end of the record.
 */
static bool stack_setup(struct decoder *dec, struct tep_handle *tep,
			struct tep_event *ev)
{
	struct tep_format_field *f = dec->f[SA_ST_CALLER];
	int word = tep_get_long_size(tep);

	if (!f || (word != 4 && word != 8) || f->offset < 0)
		return false;
	dec->caller_off = f->offset;
	dec->word = word;
	dec->big_endian = tep_is_file_bigendian(tep);
	/* the caller array is read by decode_stack, not as a field */
	dec->have &= ~(1u << SA_ST_CALLER);
	dec->fast &= ~(1u << SA_ST_CALLER);
	dec->slow &= ~(1u << SA_ST_CALLER);
	dec->stacks = g_new0(struct sa_stack_cache, 1);
	return true;
}

/* Whether decs (id, decoder, id, decoder, ...) has a decoder of id. */
static bool id_taken(const GPtrArray *decs, int id)
{
	guint i;

	for (i = 0; i < decs->len; i += 2)
		if (GPOINTER_TO_INT(decs->pdata[i]) == id)
			return true;
	return false;
}

struct sa_decode *sa_decode_new(struct tep_handle *tep, bool *ev_present,
				GPtrArray *notes)
{
	struct sa_decode *d = g_new0(struct sa_decode, 1);
	const struct sa_event_desc *row;
	GPtrArray *decs = g_ptr_array_new();
	guint i;

	d->max_id = -1;
	d->stack_id = -1;
	d->flags_off = -1;
	for (row = sa_event_table(); row->name; row++) {
		struct tep_event *ev = tep_find_event_by_name(tep, row->system,
							      row->name);
		struct decoder *dec;
		int f;

		/*
		 * The table of decoders is indexed by id: a kernel's ids fit
		 * common_type, 16 bits; the file's say what they like.
		 */
		if (row->ev == SA_EV_NONE || !ev || ev->id < 0 ||
		    ev->id > SA_MAX_EVENT_ID)
			continue;
		dec = g_new0(struct decoder, 1);
		dec->row = row;
		if (ev_present)
			ev_present[row->ev] = true;
		for (f = 0; f < SA_REC_FIELDS; f++) {
			const struct sa_field_spec *fs = &row->fields[f];

			if (!fs->name)
				continue;
			dec->f[f] = tep_find_field(ev, fs->name);
			if (dec->f[f])
				dec->have |= 1u << f;
			if (dec->f[f] && !(fs->flags & SA_FLD_STRING) &&
			    !(dec->f[f]->flags & (TEP_FIELD_IS_DYNAMIC |
						  TEP_FIELD_IS_ARRAY)) &&
			    (dec->f[f]->size == 1 || dec->f[f]->size == 2 ||
			     dec->f[f]->size == 4 || dec->f[f]->size == 8) &&
			    tep_is_file_bigendian(tep) ==
			    tep_is_local_bigendian(tep))
				fast_add(dec, f);
			else if (dec->f[f])
				slow_add(dec, tep, f);
			/*
			 * a field the format lacks; one that is there but not
			 * read inline (a file of the other byte order) is read
			 * by libtraceevent, computed all the same
			 */
			if (!dec->f[f] && !(fs->flags & SA_FLD_OPTIONAL) && notes)
				sa_notes_add(notes, "%s:%s has no field '%s': "
					     "what needs it is not computed "
					     "for these events", row->system,
					     row->name, fs->name);
		}
		/* two formats of one id (a damaged file): the first is kept */
		if (id_taken(decs, ev->id) ||
		    (row->ev == SA_EV_STACK && !stack_setup(dec, tep, ev))) {
			g_free(dec);
			continue;
		}
		if (row->ev == SA_EV_STACK)
			d->stack_id = ev->id;
		if (ev->id > d->max_id)
			d->max_id = ev->id;
		if (!d->type_size)
			common_fields(d, tep, ev);
		if (d->flags_off < 0) {
			struct tep_format_field *cf =
				tep_find_common_field(ev, "common_flags");

			if (cf && cf->size == 1)
				d->flags_off = cf->offset;
		}
		/* stash the id in the pointer array next to the decoder */
		g_ptr_array_add(decs, GINT_TO_POINTER(ev->id));
		g_ptr_array_add(decs, dec);
	}
	d->by_id = g_new0(struct decoder *, d->max_id + 1);
	for (i = 0; i < decs->len; i += 2)
		d->by_id[GPOINTER_TO_INT(decs->pdata[i])] = decs->pdata[i + 1];
	g_ptr_array_free(decs, TRUE);
	return d;
}

void sa_decode_free(struct sa_decode *d)
{
	int i;

	if (!d)
		return;
	for (i = 0; i <= d->max_id; i++) {
		if (d->by_id[i])
			g_free(d->by_id[i]->stacks);
		g_free(d->by_id[i]);
	}
	g_free(d->by_id);
	g_free(d);
}
