/*
 * fcsel_escape.h -- Escape's engine side (fcsel_escape.c): the setup of
 * `[flowcontrol] scheme = escape` and its [escape] section, its block of
 * summary.json and its [expect] counters.
 */
#ifndef ROCC_ENGINE_FCSEL_ESCAPE_H
#define ROCC_ENGINE_FCSEL_ESCAPE_H

#include <stdio.h>

#include "engine/fcsel.h"

/* The registry's setup (fcsel.h): reads [escape], installs Escape on every
 * switch, sets the 2-byte Escape header on every RoCEv2 frame. */
int    fcsel_escape_setup(struct scenario *sc, struct cfg *c, const struct fc_scheme *self, struct cfg_err *err);
/* summary.json's "escape" member (one line, with its trailing comma);
 * nothing when no switch runs Escape. */
void   fcsel_escape_summary(FILE *f, const struct net *n);
/* [expect] run counters: escape_outstanding (tokens charged to pools and
 * not given back at the end), escape_frames (frames escaped),
 * escape_order_risk; 0 without Escape, NaN for another name. */
double fcsel_escape_metric(const struct net *n, const char *name);

#endif
