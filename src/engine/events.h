/*
 * events.h -- the [events] section: link failures, repairs and static-route
 * changes at given times of a run (events.c; docs/config.md "[events]").
 */
#ifndef ROCC_EVENTS_H
#define ROCC_EVENTS_H

#include "engine/scenario.h"

/* Read and check every [events] entry into sc->events (after the topology
 * is built); enables the retransmission timeout when there is an event and
 * [network] rto is not set.  -1 with err naming file, line and key. */
int events_read(struct scenario *sc, struct cfg *c, struct cfg_err *err);
/* Apply event i now.  -1 with why (out of memory). */
int events_fire(struct scenario *sc, uint32_t i, char *why, size_t why_len);

#endif
