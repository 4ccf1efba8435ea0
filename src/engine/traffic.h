/*
 * traffic.h -- generated workloads: the [traffic.NAME] sections.
 *
 * Each section becomes one flow group whose flows come from a generator
 * (workload.c): Poisson arrivals with sizes from a CDF over a traffic matrix
 * (all_to_all, permutation, groups), Poisson incast events, or the flows of
 * an HPCC simulator flow file.  Keys and defaults: docs/config.md.  Shipped
 * CDFs are found by name (websearch, fb_hadoop, alistorage2019,
 * googlerpc2008, vl2_datamining) under $ROCC_DATA/cdf, then next to the
 * executable (../data/cdf), then ./data/cdf; a path is taken relative to the
 * scenario file.
 */
#ifndef ROCC_TRAFFIC_H
#define ROCC_TRAFFIC_H

#include "engine/scenario.h"

/* Build the flows of section `sec` ("traffic.NAME"); -1 with err. */
int traffic_build(struct scenario *sc, const char *sec, int dflt_cc, int *any_rocc, struct cfg_err *err);

#endif
