/*
 * scenario_sections.h -- the section readers scenario_build() (scenario.c)
 * calls, one file per concept, so that scenario.c keeps only the order of
 * the build, [sim]/[network]/[fct]/[output], sampling and the run:
 *   scenario_topo.c    [topology]: built-in shapes and datacenter fabrics
 *   scenario_rocc.c    [rocc]: the CPs on switch egress ports, RP recovery
 *   scenario_flows.c   [flows.NAME] groups and [traffic.NAME] sections
 *   scenario_lscc.c    [lscc]: LSCC agents on long-haul links
 * Internal to src/engine; other layers use scenario.h.
 */
#ifndef ROCC_SCENARIO_SECTIONS_H
#define ROCC_SCENARIO_SECTIONS_H

#include "engine/scenario.h"

/* Return -1 from the caller when a cfg_* reader (or a reader below) fails. */

/* [topology] type = ...: add the nodes and links to sc->net (before
 * net_finalize).  0, or -1 with err. */
int scenario_topology(struct scenario *sc, struct cfg *c, struct cfg_err *err);
/* [flows.NAME] then [traffic.NAME] sections, in file order within each kind:
 * the flow groups and their flows.  The number of such sections (0: none),
 * or -1 with err; *any_rocc = 1 if a group uses RoCC. */
int scenario_flows(struct scenario *sc, struct cfg *c, int dflt_cc, int *any_rocc, struct cfg_err *err);
/* [rocc]: attach a CP to the chosen switch egress ports (enable = auto: all,
 * if any_rocc) and set the RP parameters.  After the flows (the flow table
 * is sized by them).  0, or -1 with err. */
int scenario_rocc(struct scenario *sc, struct cfg *c, int any_rocc, struct cfg_err *err);
/* [lscc]: LSCC on both ends of every long-haul link (enable = longhaul).
 * After ccsel_bind (it turns ECN off at the egress switches).  0, or -1. */
int scenario_lscc(struct scenario *sc, struct cfg *c, struct cfg_err *err);

#endif
