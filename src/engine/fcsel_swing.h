/*
 * fcsel_swing.h -- setup of the flow-control scheme `swing` (fcsel.h
 * registry; src/net/fc_swing.h, docs/crossdc.md "SWING").
 */
#ifndef ROCC_ENGINE_FCSEL_SWING_H
#define ROCC_ENGINE_FCSEL_SWING_H

#include "engine/fcsel.h"

int fcsel_swing_setup(struct scenario *sc, struct cfg *c, const struct fc_scheme *self, struct cfg_err *err);
/* summary.json "swing" and the console's "SWING:" line (docs/outputs.md). */
void fcsel_swing_json(const struct scenario *sc, FILE *f);
void fcsel_swing_print(const struct scenario *sc, FILE *out);

#endif
