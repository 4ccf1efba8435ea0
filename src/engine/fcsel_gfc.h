/*
 * fcsel_gfc.h -- setup of the flow-control scheme `gfc` (fcsel.h registry).
 */
#ifndef ROCC_ENGINE_FCSEL_GFC_H
#define ROCC_ENGINE_FCSEL_GFC_H

#include "engine/fcsel.h"

int fcsel_gfc_setup(struct scenario *sc, struct cfg *c, const struct fc_scheme *self, struct cfg_err *err);
/* summary.json "gfc" and the console's "GFC:" line (docs/outputs.md). */
void fcsel_gfc_json(const struct scenario *sc, FILE *f);
void fcsel_gfc_print(const struct scenario *sc, FILE *out);

#endif
