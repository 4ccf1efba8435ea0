/*
 * attack.h -- hosts that inject forged CNPs or junk ICMP type-253 frames
 * (issue 11 part 5): one [attack.NAME] section each, docs/config.md.
 *
 * Model: an attacking host sends, at a fixed wire rate from `start` to
 * `stop`, frames that reach the fabric through its own NIC (the control
 * class: what a real NIC would let an application send at top priority):
 *   spoof_cp    RoCC CNPs claiming a real CP's address and CP id, with a
 *               low fair rate, to the sources of the target group's flows;
 *   fake_cp_id  the same from that CP's address, with a made-up CP id;
 *   junk        type-253 frames that are no valid CNP (`size` bytes), to
 *               the destinations of the target group's flows, so they
 *               cross the same bottleneck as the victim's data.
 *   dint        HPCC* direct INTs (LSCC §III-D) claiming the switch of the
 *               port `cp` (the local egress), with Q* = 100 MB and B =
 *               rate_units Mb/s, to the target group's sources;
 *   dint_malformed  the same with, alternately, B = 0 and nhop = 0.
 * The defence, [network] cnp_filter, is in src/net (switch.c, host.c);
 * a malformed direct INT is refused at the source in any case (host.c,
 * hpcc_star.c).
 */
#ifndef ROCC_ATTACK_H
#define ROCC_ATTACK_H

#include "engine/config.h"
#include "core/eventlist.h"

struct scenario;

/* Hook ids at and above this are attacks (below: the sampler and [events]). */
#define ATTACK_HOOK_BASE 0x80000000u

struct attack {
    char     name[48];
    uint32_t port;               /* the attacking host's NIC port */
    int      kind;               /* enum attack_kind (attack.c) */
    uint32_t first, count, next; /* target group's flows; the next one to quote */
    uint32_t cnp_src, cp_id, rate_units;
    uint32_t bytes;              /* frame bytes */
    simtime_t stop, gap;
    uint64_t sent;
};

/* Read every [attack.NAME] and schedule them.  -1 with err on bad input. */
int  attack_build(struct scenario *sc, struct cfg *c, struct cfg_err *err);
/* The hook of attack k: send one frame, schedule the next. */
void attack_fire(struct scenario *sc, uint32_t k);

#endif
