/*
 * fc_gfc.h -- the flow-control scheme `gfc` (Gentle Flow Control, Qian et
 * al., SIGCOMM'19) on the simulator's switches and NICs; the algorithm is
 * src/cc/gfc.h, the glue src/net/fc_gfc.c, the model docs/escape.md "GFC".
 */
#ifndef ROCC_NET_FC_GFC_H
#define ROCC_NET_FC_GFC_H

#include "net/net.h"

struct gfc_params;
struct gfc_up;

/* [gfc] start, stages, hysteresis (docs/escape.md "GFC"). */
struct fc_gfc_cfg {
    uint32_t start_pct;         /* B0 as % of the counter's XOFF threshold (default 50) */
    uint64_t start_bytes;       /* B0 in bytes instead (0: use start_pct) */
    uint32_t stages;            /* N (default 8) */
    uint64_t hyst_bytes;        /* H when hyst_set, else S/2 */
    int      hyst_set;
    int      at_bm_last;        /* [gfc] at_bm = last_stage: level N+1 keeps level N's rate
                                   (never 0; a what-if, not lossless: docs/escape.md) */
};

struct fc_gfc_stats {
    uint64_t fb_sent;           /* feedback frames sent (level changes) */
    uint64_t fb_zero;           /* of which zero rate (occupancy reached Bm) */
    uint64_t fb_rcvd;           /* applied at upstream ports (switches and NICs) */
    uint32_t max_level;         /* highest level any counter reached */
    uint32_t stages;            /* N: level N+1 is rate 0 */
};

/* One per run: shared by every switch's scheme state and the NICs. */
struct fc_gfc_run {
    struct fc_gfc_cfg cfg;
    struct fc_gfc_stats st;
    struct gfc_up *up;          /* [n_ports * NCLASS]: the rate each port's class was given */
    uint8_t *stopped;           /* [n_ports]: classes GFC stopped (rate 0) via the pause state */
    uint32_t n_ports;
    uint8_t  lossless_mask;     /* classes GFC runs on (the PFC-protected ones) */
    uint32_t refs;              /* switches holding it */
    void (*release)(void *run); /* called by each switch's destroy */
};

/* Subtype of GFC's PKT_FCTL frames (packet.fc_sub). */
#define FC_SUB_GFC 0x47         /* 'G' */

/* The run's totals, if switch 0 runs gfc (else all zero); 0 / -1. */
int  fc_gfc_stats(const struct net *n, struct fc_gfc_stats *out);

extern const struct fc_ops fc_gfc;

/* The staircase of a counter with XOFF threshold thr under c (Bm = thr). */
int  fc_gfc_params(const struct fc_gfc_cfg *c, uint64_t thr, struct gfc_params *p);
int  fc_gfc_run_init(struct fc_gfc_run *r, const struct net *n, const struct fc_gfc_cfg *cfg, uint8_t lossless_mask);
void fc_gfc_run_free(struct fc_gfc_run *r);
/* Install the scheme on switch s; -1 without memory. */
int  fc_gfc_install(struct net *n, struct sw *s, struct fc_gfc_run *r);
/* A GFC frame p arrived on `port` (switch egress or NIC): 0 applied, -1
 * malformed (wrong subtype, class not lossless, rate > 32768): no effect. */
int  fc_gfc_apply(struct net *n, struct fc_gfc_run *r, uint32_t port, const struct packet *p);

#endif
