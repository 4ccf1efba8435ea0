/*
 * tp_hpcc.h -- the [hpcc] options (profile, eta, w_ai_flows, max_stage;
 * docs/config.md), shared by HPCC (tp_hpcc.c) and HPCC* (tp_hpcc_star.c),
 * whose two loops are HPCC with the same options.
 */
#ifndef ROCC_TP_HPCC_H
#define ROCC_TP_HPCC_H

#include <stdint.h>

#include "hpcc.h"

struct cfg;
struct cfg_err;
struct net;
struct packet;

struct hpcc_opt {
    int profile;                  /* 0 paper, 1 sim */
    int has_eta, has_max_stage;
    double eta;
    uint64_t w_ai_flows;          /* N in W_AI = W_init (1 - eta) / N */
    uint64_t max_stage;
};

/* Read [hpcc] into opt (a struct hpcc_opt); -1 with err set on a bad key. */
int hpcc_opt_read(struct cfg *c, void *opt, struct cfg_err *err);
/* Apply the options to p, made by hpcc_params_default for the NIC and T:
 * eta, W_AI (paper profile: W_init (1 - eta) / w_ai_flows), max_stage. */
void hpcc_opt_apply(const struct hpcc_opt *o, struct hpcc_params *p);

/* The INT record frame p carries (PF_INT, net->intr), decoded into hops
 * (room for HPCC_MAX_HOPS); returns the hop count (0: none). */
unsigned hpcc_int_hops(const struct net *n, const struct packet *p, struct hpcc_int_hop *hops);

#endif
