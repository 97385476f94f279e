/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pmc's events: names as perf names them, their perf_event_attr, the
 * ratios between pairs of them, and what a perf_event_open() failure
 * means. Pure functions, unit-tested (tests/unit/bpf/test-pmc.c).
 */
#ifndef SLABACCT_PMC_EVENTS_H
#define SLABACCT_PMC_EVENTS_H

#include <linux/perf_event.h>
#include <stdbool.h>
#include <stdint.h>

struct sa_pmc_event {
	const char *name;	/* as perf stat -e names it */
	uint32_t type;		/* PERF_TYPE_* */
	uint64_t config;
	bool hardware;		/* needs a CPU counter */
	uint64_t period;	/* the default sampling period */
	const char *desc;
};

/* A ratio reported when both events are sampled: num / den. */
struct sa_pmc_ratio {
	const char *num, *den;
	const char *label;
	bool percent;		/* print as a percentage */
};

/* The table, terminated by a NULL name. */
const struct sa_pmc_event *sa_pmc_events(void);
const struct sa_pmc_ratio *sa_pmc_ratios(void);

/* The event called name, or NULL (errno EINVAL). */
const struct sa_pmc_event *sa_pmc_event_find(const char *name);

/*
 * Fill attr to sample the event called name every period events (or
 * period times a second if freq; period 0: the event's default period).
 * The program attached reads no sample data, so nothing is asked for
 * beyond the period. Returns 0, or -1 with errno EINVAL for an unknown
 * name.
 */
int sa_pmc_attr(struct perf_event_attr *attr, const char *name,
		uint64_t period, bool freq);

/*
 * Why perf_event_open() failed with err (a positive errno) for ev, in a
 * sentence. Sets *no_counter when the CPU has no counter for it (so the
 * software events are the way out).
 */
const char *sa_pmc_explain(const struct sa_pmc_event *ev, int err,
			   bool *no_counter);

/* The software events offered where there are no hardware counters. */
#define SA_PMC_FALLBACK	"page-faults,cpu-clock"

#endif /* SLABACCT_PMC_EVENTS_H */
