/* test_fabric.h -- the switch configuration the simulator's unit tests
 * build their small fabrics with (test_net.c, test_fct.c, test_qp.c): a
 * 32 MB shared buffer with PFC on the data class, static XOFF and headroom
 * left to net.c's automatic values, DRR quanta of 9000 B and the control
 * class in strict priority. */
#ifndef ROCC_TEST_FABRIC_H
#define ROCC_TEST_FABRIC_H

#include <string.h>

#include "net/net.h"

static inline void test_swcfg(const struct net *n, struct switch_cfg *c)
{
    memset(c, 0, sizeof *c);   /* headroom_bytes, xoff_bytes 0: auto from the link; dynamic 0 */
    c->buffer_bytes = 32000000;
    c->pfc = 1;
    c->reserve_bytes = 4000;
    c->alpha = 0.125;
    c->xon_offset = 3000;
    for (int i = 0; i < NCLASS; i++)
        c->quantum[i] = 9000;
    c->lossless_mask = (uint8_t)(1u << n->cfg.data_prio);
    c->strict_mask = (uint8_t)(1u << n->cfg.ctrl_prio);
}

#endif
