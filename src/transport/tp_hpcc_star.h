/*
 * tp_hpcc_star.h -- HPCC*'s outputs (tp_hpcc_star.c): the summary.json
 * member "hpcc_star" (docs/outputs.md), written by lsccsel_json after
 * "lscc" (HPCC* runs on LSCC's loop, LSCC paper §III-D).
 */
#ifndef ROCC_TP_HPCC_STAR_H
#define ROCC_TP_HPCC_STAR_H

#include <stdio.h>

struct scenario;

/* ",\n  \"hpcc_star\": {...}", nothing without a started hpcc_star flow. */
void hpcc_star_json(const struct scenario *sc, FILE *f);

#endif
