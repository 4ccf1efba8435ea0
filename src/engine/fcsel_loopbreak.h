/*
 * fcsel_loopbreak.h -- [loop_breaker] and [deadlock_breaker]: the setup of
 * the flow-control schemes loop_breaker and deadlock_breaker (registry
 * entries in fcsel.c; the schemes are src/net/fc_loopbreak.h).
 */
#ifndef ROCC_ENGINE_FCSEL_LOOPBREAK_H
#define ROCC_ENGINE_FCSEL_LOOPBREAK_H

#include <stdio.h>

#include "engine/fcsel.h"

int fcsel_loop_breaker_setup(struct scenario *sc, struct cfg *c, const struct fc_scheme *self, struct cfg_err *err);
int fcsel_deadlock_breaker_setup(struct scenario *sc, struct cfg *c, const struct fc_scheme *self,
                                 struct cfg_err *err);

/* Outputs of runs with either scheme (nothing otherwise, so other runs'
 * files are unchanged): summary.json "loop_breaker" object (call between
 * two members; writes its own trailing ",\n"), summary.tsv lines lb_*, and
 * one stdout line after the packet totals.  docs/outputs.md. */
void fcsel_loopbreak_json(FILE *f, const struct net *n);
void fcsel_loopbreak_tsv(FILE *f, const struct net *n);
void fcsel_loopbreak_print(FILE *f, const struct net *n);

#endif
