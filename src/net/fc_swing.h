/*
 * fc_swing.h -- the flow-control scheme `swing`: SWING's PFC relay
 * (src/cc/swing.h, the model and its sources) on the relay devices of a
 * long-haul link; docs/crossdc.md "SWING".
 *
 * A relay is a switch with exactly two ports, one of them on a long-haul
 * link (crossdc's relay0/relay1 with [topology] relays = yes, or such a
 * switch in a topology file).  On it the scheme owns the PAUSE frames
 * (FC_F_NO_PAUSE): over the long link it sends the OR of "the egress
 * switch pauses me" (on_pause of the other port) and its own ingress's XOFF
 * (on_ingress, the safety net); on the other port it sends what the MMU
 * asks, as PFC.  SWING has no frame of its own: a PKT_FCTL frame arriving
 * at a relay is refused (counted in packets.fctl_refused) like at any
 * switch without a taker.  Other switches run plain PFC (fc_pfc).
 */
#ifndef ROCC_NET_FC_SWING_H
#define ROCC_NET_FC_SWING_H

#include "net/flowctl.h"
#include "swing.h"

struct fc_swing_sw {
    uint32_t lh_local, dn_local;        /* the long-haul port, the port to the egress switch */
    struct swing_relay r[NCLASS];
};

extern const struct fc_ops fc_swing_ops;

/* The two ports of switch s if it is a relay (2 ports, one long-haul):
 * 0 with *lh, *dn set; -1 if not. */
int fc_swing_is_relay(const struct net *n, const struct sw *s, uint32_t *lh, uint32_t *dn);

#endif
