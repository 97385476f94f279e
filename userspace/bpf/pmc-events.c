// SPDX-License-Identifier: GPL-2.0
/* pmc's event table and attr construction. */
#include <errno.h>
#include <string.h>

#include "pmc-events.h"

#define CACHE(id, op, res) \
	((id) | (PERF_COUNT_HW_CACHE_OP_##op << 8) | \
	 (PERF_COUNT_HW_CACHE_RESULT_##res << 16))

static const struct sa_pmc_event events[] = {
	/* name, type, config, hardware, default period, description */
	{ "cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES,
	  true, 1000000, "CPU cycles" },
	{ "instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS,
	  true, 1000000, "instructions retired" },
	{ "cache-references", PERF_TYPE_HARDWARE,
	  PERF_COUNT_HW_CACHE_REFERENCES,
	  true, 100000, "last-level cache accesses" },
	{ "cache-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES,
	  true, 10000, "last-level cache misses" },
	{ "branch-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES,
	  true, 10000, "mispredicted branches" },
	{ "LLC-loads", PERF_TYPE_HW_CACHE,
	  CACHE(PERF_COUNT_HW_CACHE_LL, READ, ACCESS),
	  true, 100000, "last-level cache loads" },
	{ "LLC-load-misses", PERF_TYPE_HW_CACHE,
	  CACHE(PERF_COUNT_HW_CACHE_LL, READ, MISS),
	  true, 10000, "last-level cache load misses" },
	{ "dTLB-loads", PERF_TYPE_HW_CACHE,
	  CACHE(PERF_COUNT_HW_CACHE_DTLB, READ, ACCESS),
	  true, 100000, "data TLB loads" },
	{ "dTLB-load-misses", PERF_TYPE_HW_CACHE,
	  CACHE(PERF_COUNT_HW_CACHE_DTLB, READ, MISS),
	  true, 10000, "data TLB load misses" },
	{ "page-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS,
	  false, 1, "page faults (software event)" },
	{ "cpu-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK,
	  false, 1000000, "CPU time in ns (software event)" },
	{ "task-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK,
	  false, 1000000, "task time in ns (software event)" },
	{ NULL },
};

static const struct sa_pmc_ratio ratios[] = {
	{ "LLC-load-misses", "LLC-loads", "LLC_miss%", true },
	{ "dTLB-load-misses", "dTLB-loads", "dTLB_miss%", true },
	{ "cache-misses", "cache-references", "cache_miss%", true },
	{ "instructions", "cycles", "IPC", false },
	{ NULL },
};

const struct sa_pmc_event *sa_pmc_events(void)
{
	return events;
}

const struct sa_pmc_ratio *sa_pmc_ratios(void)
{
	return ratios;
}

const struct sa_pmc_event *sa_pmc_event_find(const char *name)
{
	const struct sa_pmc_event *e;

	for (e = events; name && e->name; e++)
		if (!strcmp(e->name, name))
			return e;
	errno = EINVAL;
	return NULL;
}

int sa_pmc_attr(struct perf_event_attr *attr, const char *name,
		uint64_t period, bool freq)
{
	const struct sa_pmc_event *e = sa_pmc_event_find(name);

	if (!e) {
		errno = EINVAL;
		return -1;
	}
	if (!period)
		period = e->period;
	memset(attr, 0, sizeof(*attr));
	attr->size = sizeof(*attr);
	attr->type = e->type;
	attr->config = e->config;
	if (freq) {
		attr->freq = 1;
		attr->sample_freq = period;
	} else {
		attr->sample_period = period;
	}
	return 0;
}

const char *sa_pmc_explain(const struct sa_pmc_event *ev, int err,
			   bool *no_counter)
{
	*no_counter = false;
	switch (err) {
	case ENOENT:
	case EOPNOTSUPP:
	case ENODEV:
		if (ev->hardware) {
			*no_counter = true;
			return "this CPU exposes no hardware counter for it "
			       "(no PMU: a virtual machine without PMU "
			       "passthrough, or a TCG guest)";
		}
		return "the kernel does not support this event";
	case EACCES:
	case EPERM:
		return "not permitted: run as root, or lower "
		       "/proc/sys/kernel/perf_event_paranoid";
	case EMFILE:
		return "too many open files: raise the limit (ulimit -n)";
	case EINVAL:
		return "the kernel refused the event's settings (is the "
		       "period too small?)";
	case EBUSY:
		return "the counter is in use by another tool";
	default:
		return "perf_event_open failed";
	}
}
