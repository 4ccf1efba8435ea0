/*
 * events.c -- the [events] section (docs/config.md "[events]"): timed
 * changes of the fabric during a run.  One entry per event, the key a free
 * label:
 *   LABEL = TIME down|up NODE NODE[#k]             a link fails / comes back
 *   LABEL = TIME route SWITCH DST NEXT[,NEXT...]   a static route is installed
 * Entries are read and checked before the run (file/line errors); the
 * engine fires entry i as hook i + 1 (scenario.c), equal times in file
 * order.
 */
#include "engine/events.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/units.h"

struct ev_ctx { struct scenario *sc; struct cfg_err *err; int rc; };

static int ev_push(struct ev_ctx *ec, const struct cfg_entry *e, const struct sc_event *ev)
{
    struct scenario *sc = ec->sc;
    struct sc_event *ne = realloc(sc->events, (sc->n_events + 1) * sizeof *ne);
    if (!ne)
        return cfg_errorf(ec->err, e, "out of memory");
    sc->events = ne;
    sc->events[sc->n_events++] = *ev;
    return 0;
}

/* TIME down|up A B[#k]: the link between nodes A and B (the k-th parallel one). */
static int ev_link(struct ev_ctx *ec, const struct cfg_entry *e, simtime_t t, char **tok, int nt)
{
    struct scenario *sc = ec->sc;
    if (nt != 4)
        return cfg_errorf(ec->err, e, "expected 'TIME down|up NODE NODE' (e.g. 10ms down edge0 core1)");
    uint32_t nth = 1;
    char *hash = strchr(tok[3], '#');
    if (hash) {
        *hash = 0;
        nth = (uint32_t)strtoul(hash + 1, NULL, 10);
    }
    uint32_t a = scenario_node(sc, tok[2]), b = scenario_node(sc, tok[3]), port = NONE32;
    if (a != NONE32 && b != NONE32 && nth >= 1) {
        const struct node *nd = &sc->net.nodes[a];
        for (uint32_t k = 0, seen = 0; k < nd->n_ports && port == NONE32; k++)
            if (sc->net.ports[sc->net.ports[nd->first_port + k].peer].node == b && ++seen == nth)
                port = nd->first_port + k;
    }
    if (a == NONE32 || b == NONE32)
        return cfg_errorf(ec->err, e, "no node named '%s'", a == NONE32 ? tok[2] : tok[3]);
    if (port == NONE32) {
        if (hash && net_port_between(&sc->net, a, b) != NONE32)
            return cfg_errorf(ec->err, e, "'%s' and '%s' have fewer than %u parallel links", tok[2], tok[3], nth);
        return cfg_errorf(ec->err, e, "no link between '%s' and '%s'", tok[2], tok[3]);
    }
    struct sc_event ev = { .t = t, .kind = tok[1][0] == 'u' ? SC_EV_UP : SC_EV_DOWN, .port = port };
    return ev_push(ec, e, &ev);
}

/* TIME route SWITCH DST NEXT[,NEXT...]: the topology file's route statement
 * (docs/escape.md "Static routes"), for one destination host, at TIME. */
static int ev_route(struct ev_ctx *ec, const struct cfg_entry *e, simtime_t t, char **tok, int nt)
{
    struct scenario *sc = ec->sc;
    if (nt != 5)
        return cfg_errorf(ec->err, e, "expected 'TIME route SWITCH DST NEXT[,NEXT...]' (e.g. 10ms route s1 h16 s5)");
    if (!strcmp(tok[3], "*"))
        return cfg_errorf(ec->err, e, "'*' is for topology files: an [events] route names one destination host");
    uint32_t sw = scenario_node(sc, tok[2]), dst = scenario_node(sc, tok[3]);
    if (sw == NONE32 || dst == NONE32)
        return cfg_errorf(ec->err, e, "no node named '%s'", sw == NONE32 ? tok[2] : tok[3]);
    uint32_t next[256], cnt = 0;
    char *save = NULL;
    for (char *h = strtok_r(tok[4], ",", &save); h; h = strtok_r(NULL, ",", &save)) {
        if (cnt == 255)
            return cfg_errorf(ec->err, e, "more than 255 next hops");
        uint32_t v = scenario_node(sc, h);
        if (v == NONE32)
            return cfg_errorf(ec->err, e, "no node named '%s'", h);
        for (uint32_t i = 0; i < cnt; i++)
            if (next[i] == v)
                return cfg_errorf(ec->err, e, "next hop '%s' is listed twice", h);
        next[cnt++] = v;
    }
    char why[256];
    if (net_route_check(&sc->net, sw, dst, next, cnt, why, sizeof why))
        return cfg_errorf(ec->err, e, "%s", why);
    uint32_t *nn = realloc(sc->ev_next, (sc->n_ev_next + cnt) * sizeof *nn);
    if (!nn)
        return cfg_errorf(ec->err, e, "out of memory");
    sc->ev_next = nn;
    memcpy(nn + sc->n_ev_next, next, cnt * sizeof *nn);
    struct sc_event ev = { .t = t, .kind = SC_EV_ROUTE, .port = NONE32, .sw = sw, .dst = dst,
                           .next_off = sc->n_ev_next, .n_next = cnt };
    sc->n_ev_next += cnt;
    return ev_push(ec, e, &ev);
}

static void event_cb(const struct cfg_entry *e, void *arg)
{
    struct ev_ctx *ec = arg;
    struct scenario *sc = ec->sc;
    if (ec->rc)
        return;
    char buf[1024], *tok[6];
    if (strlen(e->value) >= sizeof buf) {
        ec->rc = cfg_errorf(ec->err, e, "value longer than %zu characters", sizeof buf - 1);
        return;
    }
    snprintf(buf, sizeof buf, "%s", e->value);
    int nt = 0;
    char *save = NULL;
    for (char *t = strtok_r(buf, " \t", &save); t && nt < 6; t = strtok_r(NULL, " \t", &save))
        tok[nt++] = t;
    if (nt < 2 || (strcmp(tok[1], "down") && strcmp(tok[1], "up") && strcmp(tok[1], "route"))) {
        ec->rc = cfg_errorf(ec->err, e, "expected 'TIME down|up NODE NODE' or 'TIME route SWITCH DST NEXT[,NEXT...]' "
                                        "(e.g. 10ms down edge0 core1)");
        return;
    }
    uint64_t t;
    if (units_parse_time_ps(tok[0], &t) || t > sc->duration) {
        ec->rc = cfg_errorf(ec->err, e, "bad time '%s' (a time like 10ms within the run)", tok[0]);
        return;
    }
    ec->rc = !strcmp(tok[1], "route") ? ev_route(ec, e, t, tok, nt) : ev_link(ec, e, t, tok, nt);
}

int events_read(struct scenario *sc, struct cfg *c, struct cfg_err *err)
{
    struct ev_ctx ec = { sc, err, 0 };
    cfg_entries(c, "events", event_cb, &ec);
    if (ec.rc)
        return ec.rc;
    if (sc->n_events && sc->net.cfg.rto_ps == 0 && !cfg_find(c, "network", "rto"))
        sc->net.cfg.rto_ps = 500 * PS_PER_US;    /* a failure loses packets: recover them (HPCC: 500 us) */
    return 0;
}

int events_fire(struct scenario *sc, uint32_t i, char *why, size_t why_len)
{
    const struct sc_event *ev = &sc->events[i];
    if (ev->kind != SC_EV_ROUTE)
        return net_set_link(&sc->net, ev->port, ev->kind == SC_EV_UP, why, why_len);
    if (net_add_route(&sc->net, ev->sw, ev->dst, sc->ev_next + ev->next_off, ev->n_next, why, why_len))
        return -1;                            /* checked when read: only memory can fail here */
    return net_rebuild_routes(&sc->net, why, why_len);
}
