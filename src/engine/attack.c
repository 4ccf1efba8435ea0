/* attack.c -- [attack.NAME] sections: hosts injecting forged CNPs and
 * direct INTs; see attack.h. */
#include "engine/attack.h"
#include "engine/scenario.h"
#include "net/agent_rocc.h"
#include "hpcc_star.h"
#include "rocc_cnp.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum attack_kind { ATK_SPOOF_CP = 0, ATK_FAKE_CP_ID = 1, ATK_JUNK = 2, ATK_DINT = 3, ATK_DINT_BAD = 4 };
static const char *const kind_names[] = { "spoof_cp", "fake_cp_id", "junk", "dint", "dint_malformed", NULL };
#define IS_DINT(k) ((k) == ATK_DINT || (k) == ATK_DINT_BAD)
/* The pseudo-queue length a forged direct INT claims: 100 MB, enough to
 * collapse W* if it were believed (ours: any Q* far above B·T would do). */
#define DINT_FORGED_QLEN 100000000ull


struct atk_ctx { struct scenario *sc; struct cfg *c; struct cfg_err *err; int rc; };

static int build_one(struct scenario *sc, struct cfg *c, const char *sec, struct cfg_err *err)
{
    struct net *n = &sc->net;
    struct attack a;
    const char *from, *target, *cp;
    uint64_t rate, size, start, stop, units, id;
    int kind;

    memset(&a, 0, sizeof a);
    if (strlen(sec) - strlen("attack.") >= sizeof a.name || !sec[strlen("attack.")])
        return cfg_section_errorf(err, c, sec, "attack names are 1..47 characters: [attack.NAME]");
    snprintf(a.name, sizeof a.name, "%s", sec + strlen("attack."));
    if (!cfg_find(c, sec, "from") || !cfg_find(c, sec, "kind") || !cfg_find(c, sec, "target") ||
        !cfg_find(c, sec, "rate"))
        return cfg_section_errorf(err, c, sec, "an attack needs 'from', 'kind', 'target' and 'rate'");
    TRY(cfg_enum(c, sec, "kind", kind_names, 0, &kind, err));
    a.kind = kind;
    TRY(cfg_str(c, sec, "from", NULL, &from, err));
    uint32_t node = scenario_node(sc, from);
    if (node == NONE32 || n->nodes[node].kind != NODE_HOST)
        return cfg_errorf(err, cfg_find(c, sec, "from"), "no host named '%s'", from);
    a.port = n->hosts[n->nodes[node].idx].port;
    TRY(cfg_str(c, sec, "target", NULL, &target, err));
    const struct group *g = scenario_group(sc, target);
    if (!g || g->count == 0)
        return cfg_errorf(err, cfg_find(c, sec, "target"), "no flow group named '%s'", target);
    a.first = g->first;
    a.count = g->count;

    /* Frame size: a CNP's (rocc_cnp.h), or the junk's own. */
    TRY(cfg_bytes(c, sec, "size", 1000, &size, err));
    if (kind == ATK_JUNK) {
        if (size < 64 || size > 9000)
            return cfg_errorf(err, cfg_find(c, sec, "size"), "junk frames are 64..9000 bytes");
        a.bytes = (uint32_t)size;
    } else {
        if (cfg_find(c, sec, "size"))
            return cfg_errorf(err, cfg_find(c, sec, "size"), "only kind = junk has a size (CNPs are %d B)",
                              ROCC_CNP_FRAME_BYTES);
        a.bytes = IS_DINT(kind) ? ROCE_CNP_FRAME + HPCC_STAR_INT_BYTES : ROCC_CNP_FRAME_BYTES;
    }
    TRY(cfg_rate(c, sec, "rate", 0, &rate, err));
    if (rate == 0 || rate > n->ports[a.port].rate_bps)
        return cfg_errorf(err, cfg_find(c, sec, "rate"), "must be > 0 and at most the host's link rate");
    a.gap = tx_time_ps((uint64_t)a.bytes + n->cfg.preamble_ifg, rate);
    TRY(cfg_time(c, sec, "start", 0, &start, err));
    TRY(cfg_time(c, sec, "stop", sc->duration, &stop, err));
    if (start >= stop || stop > sc->duration)
        return cfg_section_errorf(err, c, sec, "need start < stop <= duration");
    a.stop = stop;

    /* Whose CP the forged CNPs claim, and what they say. */
    TRY(cfg_u64(c, sec, "rate_units", 1, &units, err));
    if (units < 1 || units > (IS_DINT(kind) ? HPCC_STAR_B_MAX : UINT32_MAX))
        return cfg_errorf(err, cfg_find(c, sec, "rate_units"), IS_DINT(kind) ? "must be 1..16777215 (B, Mb/s)"
                                                                            : "must be 1..4294967295 (ΔF units)");
    a.rate_units = (uint32_t)units;
    TRY(cfg_u64(c, sec, "cp_id", 0xdead00, &id, err));   /* switch 0xdead: made up */
    if (kind == ATK_JUNK) {
        if (cfg_find(c, sec, "cp"))
            cfg_str(c, sec, "cp", NULL, &cp, err);        /* accepted, unused: junk claims no CP */
    } else if (IS_DINT(kind)) {
        /* The switch port whose switch the direct INT claims to come from
         * (HPCC*'s local egress: the long-haul port). */
        if (!cfg_find(c, sec, "cp"))
            return cfg_section_errorf(err, c, sec, "kind = %s needs 'cp = SWITCH->NEIGHBOUR' (the local egress it claims)",
                                      kind_names[kind]);
        TRY(cfg_str(c, sec, "cp", NULL, &cp, err));
        const struct monitor *m = scenario_monitor(sc, cp);
        if (!m)
            return cfg_errorf(err, cfg_find(c, sec, "cp"), "no switch port named '%s'", cp);
        a.cnp_src = n->ports[m->port].node;
    } else {
        if (!cfg_find(c, sec, "cp"))
            return cfg_section_errorf(err, c, sec, "kind = %s needs 'cp = SWITCH->NEIGHBOUR' (the CP it claims)",
                                      kind_names[kind]);
        TRY(cfg_str(c, sec, "cp", NULL, &cp, err));
        const struct monitor *m = scenario_monitor(sc, cp);
        if (!m || m->agent == NONE32)
            return cfg_errorf(err, cfg_find(c, sec, "cp"), "no RoCC CP on a port named '%s'", cp);
        const struct rocc_agent *ag = n->agents[m->agent].state;
        a.cnp_src = n->ports[m->port].node;
        a.cp_id = kind == ATK_SPOOF_CP ? ag->cp_id : (uint32_t)id;
        if (kind == ATK_FAKE_CP_ID && (a.cp_id >> 8) == a.cnp_src)
            return cfg_errorf(err, cfg_find(c, sec, "cp_id"), "is a real CP id of that switch (use spoof_cp)");
    }
    if (kind != ATK_FAKE_CP_ID && cfg_find(c, sec, "cp_id"))
        return cfg_errorf(err, cfg_find(c, sec, "cp_id"), "only kind = fake_cp_id takes a cp_id");

    struct attack *na = realloc(sc->attacks, (sc->n_attacks + 1) * sizeof *na);
    if (!na)
        return cfg_section_errorf(err, c, sec, "out of memory");
    sc->attacks = na;
    sc->attacks[sc->n_attacks] = a;
    if (net_schedule(n, start, EV_HOOK, ATTACK_HOOK_BASE + sc->n_attacks))
        return cfg_section_errorf(err, c, sec, "out of memory");
    sc->n_attacks++;
    return 0;
}

static void attack_cb(const char *sec, void *arg)
{
    struct atk_ctx *ac = arg;
    if (ac->rc == 0)
        ac->rc = build_one(ac->sc, ac->c, sec, ac->err);
}

int attack_build(struct scenario *sc, struct cfg *c, struct cfg_err *err)
{
    struct atk_ctx ac = { sc, c, err, 0 };
    cfg_sections(c, "attack.", attack_cb, &ac);
    return ac.rc;
}

void attack_fire(struct scenario *sc, uint32_t k)
{
    struct net *n = &sc->net;
    struct attack *a = &sc->attacks[k];
    simtime_t now = n->el.now;
    if (now >= a->stop)
        return;
    uint32_t fi = a->first + a->next;
    a->next = a->next + 1 == a->count ? 0 : a->next + 1;
    const struct flow *f = &n->flows[fi];
    /* A hook runs on every rank of a partitioned run (net.h "Event
     * order"): only the attacker's own rank makes the frame, which then
     * leaves through its NIC like any other (over cut links as a record);
     * every rank keeps the round robin, `sent` and the next firing. */
    if (!net_node_local(n, n->ports[a->port].node))
        goto next;
    uint32_t pi = net_new_packet(n, PKT_CNP);
    if (pi == PKT_NONE)
        return;
    struct packet *p = pkt(&n->pool, pi);
    p->flow = fi;
    p->prio = n->cfg.ctrl_prio;
    p->bytes = (uint16_t)a->bytes;
    p->ts = now;
    if (a->kind == ATK_JUNK) {
        p->cnp_kind = CNP_JUNK;
        p->dst = f->dst;              /* across the victim's bottleneck */
    } else if (IS_DINT(a->kind)) {
        /* A direct INT to the victim's source, claiming the local egress:
         * one long-haul hop with a huge Q* (dint).  dint_malformed
         * sends B = 0 and nhop = 0 in alternate rounds over the target's
         * flows; the source refuses both. */
        p->cnp_kind = CNP_DINT;
        p->dst = f->src;
        p->cnp_src = a->cnp_src;
        int odd_round = (int)(a->sent / a->count & 1);   /* each flow gets both kinds in turn */
        p->rate_units = a->kind == ATK_DINT_BAD && !odd_round ? 0 : a->rate_units;
        if (n->intr) {
            p->flags = PF_INT;
            p->nhop = a->kind == ATK_DINT_BAD && odd_round ? 0 : 1;
            struct int_hop *h = &n->intr[pi].hop[0];
            h->ts = now;
            h->tx_bytes = a->sent * DINT_FORGED_QLEN;   /* a made-up input rate, growing */
            h->qlen = DINT_FORGED_QLEN;
            h->rate_bps = (uint64_t)a->rate_units * HPCC_STAR_B_UNIT_BPS;
        }
    } else {
        p->cnp_kind = CNP_ROCC;
        p->dst = f->src;              /* to the rate limiter it wants to set */
        p->cp_id = a->cp_id;
        p->cnp_src = a->cnp_src;
        p->rate_units = a->rate_units;
    }
    port_enqueue_ctrl(n, a->port, pi);
next:
    a->sent++;
    if (now + a->gap < a->stop)
        net_schedule(n, now + a->gap, EV_HOOK, ATTACK_HOOK_BASE + k);
}
