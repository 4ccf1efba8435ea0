/*
 * fc_swing.c -- SWING's relay on the simulator's switches (fc_swing.h).
 */
#include "net/fc_swing.h"

#include <stdlib.h>

int fc_swing_is_relay(const struct net *n, const struct sw *s, uint32_t *lh, uint32_t *dn)
{
    const struct node *nd = &n->nodes[s->node];
    if (nd->n_ports != 2)
        return -1;
    int a = n->ports[nd->first_port].longhaul, b = n->ports[nd->first_port + 1].longhaul;
    if (a == b)
        return -1;
    *lh = a ? 0 : 1;
    *dn = a ? 1 : 0;
    return 0;
}

static void act(struct net *n, struct sw *s, const struct fc_swing_sw *st, uint8_t cls, enum swing_action a)
{
    if (a != SWING_NONE)
        fc_send_pause(n, fc_port(n, s, st->lh_local), cls, a == SWING_PAUSE);
}

/* The MMU's XOFF/XON of an ingress (FC_F_NO_PAUSE: nothing is sent unless
 * we send it). */
static void on_ingress(struct net *n, struct sw *s, uint32_t in_local, uint8_t cls, int on)
{
    struct fc_swing_sw *st = s->fc_state;
    if (cls >= NCLASS)
        return;
    if (in_local == st->lh_local)
        act(n, s, st, cls, swing_on_own(&st->r[cls], on));
    else
        fc_send_pause(n, fc_port(n, s, in_local), cls, on);
}

/* The egress switch paused or resumed our port toward it: relay. */
static void on_pause(struct net *n, struct sw *s, uint32_t port, uint8_t cls, int on)
{
    struct fc_swing_sw *st = s->fc_state;
    if (cls < NCLASS && port == fc_port(n, s, st->dn_local))
        act(n, s, st, cls, swing_on_down(&st->r[cls], on));
}

const struct fc_ops fc_swing_ops = {
    .name = "swing",
    .flags = FC_F_NO_PAUSE,
    .on_ingress = on_ingress,
    .on_pause = on_pause,
    .destroy = free,
};
