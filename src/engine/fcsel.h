/*
 * fcsel.h -- the [flowcontrol] section: which flow-control scheme the
 * switches run (src/net/flowctl.h), and the registry of schemes.
 *
 * A scheme is one entry of the table in fcsel.c: its name (the value of
 * `[flowcontrol] scheme`), its net-level ops, and an optional setup that
 * reads the scheme's own config section and installs the ops with
 * per-switch state on every switch (fc_install).  Without a setup the ops
 * are installed with no state.  Adding a scheme = its own files + one
 * entry in that table.
 */
#ifndef ROCC_ENGINE_FCSEL_H
#define ROCC_ENGINE_FCSEL_H

#include <stdio.h>

#include "engine/scenario.h"
#include "net/flowctl.h"

struct fc_scheme {
    const char *name;
    const struct fc_ops *ops;
    /* Called once the net, its flows and agents exist; -1 with err. */
    int (*setup)(struct scenario *sc, struct cfg *c, const struct fc_scheme *self, struct cfg_err *err);
    /* Why a run over several MPI ranks refuses the scheme (parallel_cfg.c,
     * docs/parallel.md), NULL if it may run there: its handlers touch only
     * their own switch and send only frames over links, and its counters
     * are merged over the ranks (scenario.fc_merge). */
    const char *par_refused;
};

/* The registry, NULL-terminated by name. */
extern const struct fc_scheme fc_schemes[];

/* The registry entry whose ops are `ops`, or NULL. */
const struct fc_scheme *fcsel_by_ops(const struct fc_ops *ops);
/* The scheme named `name`, or NULL. */
const struct fc_scheme *fcsel_find(const char *name);
/* Read [flowcontrol] and install the scheme on every switch. */
int fcsel_build(struct scenario *sc, struct cfg *c, struct cfg_err *err);
/* Outputs of the flow-control checks (docs/outputs.md): summary.json
 * members ",\n  \"in_order\": {...}" (when the scenario has a
 * [flowcontrol] section: runs without one keep their outputs) and
 * "deadlock" (detector on); the console lines. */
void fcsel_json(const struct scenario *sc, FILE *f);
void fcsel_print(const struct scenario *sc, FILE *out);

#endif
