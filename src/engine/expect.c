/* expect.c -- parse and evaluate [expect]; see expect.h. */
#include "engine/expect.h"
#include "engine/oqsel.h"
#include "engine/lsccsel.h"
#include "engine/fcsel_escape.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/units.h"
#include "engine/deadlock.h"
#include "engine/xbarsel.h"
#include "engine/fct.h"
#include "engine/maxmin.h"
#include "engine/metrics.h"
#include "net/agent_rocc.h"

enum unit { U_RATE, U_BYTES, U_TIME, U_NUM, U_FRAC };
enum sel { SEL_NONE, SEL_GROUP, SEL_PORT, SEL_TRAFFIC };
enum op { OP_TOL, OP_GE, OP_LE, OP_RANGE, OP_EQ };

static const struct metric_def {
    const char *name;
    enum unit unit;
    enum sel sel;
} metrics[] = {
    { "rate", U_RATE, SEL_GROUP },      { "rate_mean", U_RATE, SEL_GROUP },
    { "jain", U_NUM, SEL_GROUP },       { "completed", U_FRAC, SEL_GROUP },
    { "cnp_reached", U_FRAC, SEL_GROUP },   /* flows that got at least one CNP (RoCC flow tables) */
    { "rate_ratio", U_NUM, SEL_GROUP },     /* fairness: slowest / fastest flow */
    { "queue_mean", U_BYTES, SEL_PORT }, { "queue_p99", U_BYTES, SEL_PORT },
    { "queue_max", U_BYTES, SEL_PORT }, { "fair_rate", U_RATE, SEL_PORT },
    { "settle", U_TIME, SEL_PORT },     { "util", U_FRAC, SEL_PORT },
    { "md", U_NUM, SEL_PORT },
    { "drops", U_NUM, SEL_NONE },       { "pfc_pauses", U_NUM, SEL_NONE },
    { "timeouts", U_NUM, SEL_NONE },    { "retx_bytes", U_BYTES, SEL_NONE },
    { "cnps", U_NUM, SEL_NONE },
    { "credit_loss", U_FRAC, SEL_NONE },     /* credits dropped / credits made (ExpressPass; packet totals) */
    { "qlimit_drops", U_NUM, SEL_NONE },     /* frames dropped by design at class queue limits (credits) */
    { "escape_outstanding", U_NUM, SEL_NONE },  { "escape_frames", U_NUM, SEL_NONE },   /* fcsel_escape.c */
    { "escape_order_risk", U_NUM, SEL_NONE },
    { "oq_value", U_NUM, SEL_NONE },  { "oq_value_share", U_FRAC, SEL_NONE },   /* oqsel.c: OpenQueue ports */
    { "oq_drops", U_NUM, SEL_NONE },  { "oq_pushed_out", U_NUM, SEL_NONE },
    { "oq_marked", U_NUM, SEL_NONE },
    /* LSCC long-haul ports (lsccsel.c): Qcur, Q*, R over the window */
    { "lscc_queue_mean", U_BYTES, SEL_PORT }, { "lscc_queue_p50", U_BYTES, SEL_PORT },
    { "lscc_queue_p99", U_BYTES, SEL_PORT },  { "lscc_queue_max", U_BYTES, SEL_PORT },
    { "lscc_near_qref", U_FRAC, SEL_PORT },   { "lscc_pseudo_mean", U_BYTES, SEL_PORT },
    { "lscc_pseudo_max", U_BYTES, SEL_PORT }, { "lscc_rate", U_RATE, SEL_PORT },
    { "lscc_direct_cnps", U_NUM, SEL_PORT },
    { "maxmin_error", U_FRAC, SEL_GROUP },   /* expect_maxmin.c */
    { "fct_avg", U_TIME, SEL_TRAFFIC },      { "fct_p99", U_TIME, SEL_TRAFFIC },
    { "slowdown_avg", U_NUM, SEL_TRAFFIC },  { "slowdown_p99", U_NUM, SEL_TRAFFIC },
    /* flow control (docs/escape.md) */
    { "deadlock", U_NUM, SEL_NONE },         /* none | detected: the deadlock detector's finding */
    { "out_of_order", U_NUM, SEL_NONE },     /* data frames that arrived out of order (host.c) */
    /* buffered crossbar (xbarsel.c) */
    { "xbar_drops", U_NUM, SEL_NONE },      { "xbar_voq_drops", U_NUM, SEL_NONE },
    { "xbar_xp_drops", U_NUM, SEL_NONE },   { "xbar_oq_drops", U_NUM, SEL_NONE },
    { "xbar_sent", U_NUM, SEL_NONE },       { "xbar_in_blocked", U_NUM, SEL_NONE },
    { "xbar_out_blocked", U_NUM, SEL_NONE }, { "xbar_voq_max", U_NUM, SEL_NONE },
};

struct expect {
    const struct metric_def *m;
    char key[160], target[96];
    uint32_t group;          /* NONE32 = all */
    int      traffic;        /* SEL_TRAFFIC: -1 all, 0 background, 1 incast */
    uint32_t mon;
    simtime_t t0, t1;
    enum op op;
    double a, b;             /* OP_TOL: value, tolerance (absolute); RANGE: lo, hi */
    struct maxmin *mm;       /* maxmin_error: the oracle, built at parse time */
};

struct expectations {
    struct expect *e;
    size_t n;
};

static int parse_value(enum unit u, const char *s, double *out)
{
    uint64_t v;
    switch (u) {
    case U_RATE:  if (units_parse_rate_bps(s, &v)) return -1; *out = (double)v; return 0;
    case U_BYTES: if (units_parse_bytes(s, &v)) return -1; *out = (double)v; return 0;
    case U_TIME:  if (units_parse_time_ps(s, &v)) return -1; *out = (double)v; return 0;
    case U_FRAC:
        if (strchr(s, '%'))
            return units_parse_percent(s, out);
        return units_parse_double(s, out);
    case U_NUM:   return units_parse_double(s, out);
    }
    return -1;
}

static const char *unit_hint(enum unit u)
{
    static const char *const h[] = { "a rate like 4Gbps", "a size like 150KB", "a time like 2ms",
                                     "a number", "a fraction like 95% or 0.95" };
    return h[u];
}

static char *trim(char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    size_t n = strlen(s);
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
        s[--n] = 0;
    return s;
}

static int parse_target(struct expect *x, const struct cfg_entry *e, struct cfg_err *err)
{
    char buf[256];
    snprintf(buf, sizeof buf, "%s", e->value);
    char *v = trim(buf);
    enum unit u = x->m->unit;
    char *tol = strstr(v, "+-");
    size_t tlen = 2;
    if (!tol) {
        tol = strstr(v, "\xc2\xb1");              /* "±" in UTF-8 */
        tlen = 2;
    }
    if (!strncmp(v, ">=", 2) || !strncmp(v, "<=", 2)) {
        x->op = v[0] == '>' ? OP_GE : OP_LE;
        if (parse_value(u, trim(v + 2), &x->a))
            return cfg_errorf(err, e, "expected %s after '%.2s'", unit_hint(u), v);
    } else if (tol) {
        *tol = 0;
        char *t = trim(tol + tlen);
        x->op = OP_TOL;
        if (parse_value(u, trim(v), &x->a))
            return cfg_errorf(err, e, "expected %s before the tolerance", unit_hint(u));
        size_t tl = strlen(t);
        if (tl && t[tl - 1] == '%') {
            double pct;
            if (units_parse_percent(t, &pct) || pct < 0)
                return cfg_errorf(err, e, "bad tolerance '%s'", t);
            x->b = fabs(x->a) * pct;
        } else if (parse_value(u, t, &x->b) || x->b < 0) {
            return cfg_errorf(err, e, "bad tolerance '%s': %s or a percentage", t, unit_hint(u));
        }
    } else if (strstr(v, "..")) {
        char *dots = strstr(v, "..");
        *dots = 0;
        x->op = OP_RANGE;
        if (parse_value(u, trim(v), &x->a) || parse_value(u, trim(dots + 2), &x->b) || x->b < x->a)
            return cfg_errorf(err, e, "expected LOW..HIGH, each %s", unit_hint(u));
    } else {
        x->op = OP_EQ;
        if (parse_value(u, v, &x->a))
            return cfg_errorf(err, e, "expected %s, or a form like 'X +- 5%%', '>= X', 'X..Y'", unit_hint(u));
    }
    snprintf(x->target, sizeof x->target, "%s", e->value);
    return 0;
}

struct parse_ctx { struct scenario *sc; struct expectations *ex; struct cfg_err *err; int rc; };

static void parse_one(const struct cfg_entry *e, void *arg)
{
    struct parse_ctx *pc = arg;
    if (pc->rc)
        return;
    struct scenario *sc = pc->sc;
    struct expect x;
    memset(&x, 0, sizeof x);
    snprintf(x.key, sizeof x.key, "%s", e->key);
    char buf[256];
    snprintf(buf, sizeof buf, "%s", e->key);
    x.t0 = sc->measure_start;
    x.t1 = sc->measure_end;
    char *at = strchr(buf, '@');
    if (at) {
        *at = 0;
        char *w = trim(at + 1), *dots = strstr(w, "..");
        uint64_t t0, t1;
        if (!dots) {
            pc->rc = cfg_errorf(pc->err, e, "window must be '@ T0..T1'");
            return;
        }
        *dots = 0;
        if (units_parse_time_ps(trim(w), &t0) || units_parse_time_ps(trim(dots + 2), &t1) || t1 <= t0 ||
            t1 > sc->duration) {
            char d[32];
            pc->rc = cfg_errorf(pc->err, e, "bad window: need T0..T1 with times like 10ms, T0 < T1 <= duration (%s)",
                                units_fmt_time(sc->duration, d, sizeof d));
            return;
        }
        x.t0 = t0;
        x.t1 = t1;
    }
    char *name = strtok(buf, " "), *sel = strtok(NULL, " "), *extra = strtok(NULL, " ");
    for (size_t i = 0; name && i < sizeof metrics / sizeof metrics[0]; i++)
        if (!strcmp(metrics[i].name, name))
            x.m = &metrics[i];
    if (!x.m) {
        pc->rc = cfg_errorf(pc->err, e, "unknown metric '%s' (rate, rate_mean, jain, rate_ratio, completed, cnp_reached, queue_mean, "
                            "queue_p99, queue_max, fair_rate, settle, util, md, drops, pfc_pauses, timeouts, retx_bytes, cnps, credit_loss, "
                            "qlimit_drops, "
                            "maxmin_error, fct_avg, fct_p99, slowdown_avg, slowdown_p99, deadlock, out_of_order, xbar_drops, "
                            "xbar_voq_drops, xbar_xp_drops, xbar_oq_drops, xbar_sent, xbar_in_blocked, xbar_out_blocked, "
                            "xbar_voq_max, lscc_queue_mean, lscc_queue_p50, lscc_queue_p99, lscc_queue_max, lscc_near_qref, "
                            "lscc_pseudo_mean, lscc_pseudo_max, lscc_rate, lscc_direct_cnps)",
                            name ? name : "");
        return;
    }
    if (extra) {
        pc->rc = cfg_errorf(pc->err, e, "unexpected '%s' (write METRIC SELECTOR @ T0..T1)", extra);
        return;
    }
    if (x.m->sel == SEL_TRAFFIC) {
        if (at) {
            pc->rc = cfg_errorf(pc->err, e, "%s covers the flows of the [fct] window; it takes no '@' window", x.m->name);
            return;
        }
        if (!sel || (strcmp(sel, "all") && strcmp(sel, "background") && strcmp(sel, "incast"))) {
            pc->rc = cfg_errorf(pc->err, e, "%s needs 'all', 'background' or 'incast'", x.m->name);
            return;
        }
        x.traffic = !strcmp(sel, "all") ? -1 : !strcmp(sel, "incast");
    }
    if (x.m->sel == SEL_NONE && at) {
        pc->rc = cfg_errorf(pc->err, e, "%s counts the whole run; it takes no '@ T0..T1' window", x.m->name);
        return;
    }
    if (!strcmp(x.m->name, "completed") && at) {
        pc->rc = cfg_errorf(pc->err, e, "completed counts flows finished by the end of the run; it takes no window");
        return;
    }
    if (!strcmp(x.m->name, "cnp_reached") && at) {
        pc->rc = cfg_errorf(pc->err, e, "cnp_reached counts CNPs over the whole run; it takes no window");
        return;
    }
    if (x.m->sel == SEL_NONE && sel) {
        pc->rc = cfg_errorf(pc->err, e, "%s takes no selector", x.m->name);
        return;
    }
    if (x.m->sel != SEL_NONE && !sel) {
        pc->rc = cfg_errorf(pc->err, e, "%s needs a %s", x.m->name,
                            x.m->sel == SEL_GROUP ? "flow group (or 'all')" : "port like SW->NEXT");
        return;
    }
    if (x.m->sel == SEL_GROUP) {
        x.group = NONE32;
        if (strcmp(sel, "all") != 0) {
            const struct group *g = scenario_group(sc, sel);
            if (!g) {
                pc->rc = cfg_errorf(pc->err, e, "no flow group '%s'", sel);
                return;
            }
            x.group = (uint32_t)(g - sc->groups);
        }
        if ((!strcmp(x.m->name, "rate") || !strcmp(x.m->name, "rate_mean") || !strcmp(x.m->name, "jain") ||
             !strcmp(x.m->name, "rate_ratio")) &&
            !sc->flow_series) {
            pc->rc = cfg_errorf(pc->err, e, "per-flow rates are not sampled (more flows than [sim] flow_series_max)");
            return;
        }
    } else if (x.m->sel == SEL_PORT) {
        const struct monitor *m = scenario_monitor(sc, sel);
        if (!m) {
            pc->rc = cfg_errorf(pc->err, e, "no switch egress port '%s' (write SWITCH->NEIGHBOUR)", sel);
            return;
        }
        x.mon = (uint32_t)(m - sc->mon);
        if ((!strcmp(x.m->name, "fair_rate") || !strcmp(x.m->name, "settle") || !strcmp(x.m->name, "md"))
            && m->agent == NONE32) {
            pc->rc = cfg_errorf(pc->err, e, "port %s has no RoCC CP", sel);
            return;
        }
        if (!strncmp(x.m->name, "lscc_", 5) && lsccsel_find(sc, m->port) < 0) {
            pc->rc = cfg_errorf(pc->err, e, "port %s is not a long-haul port running LSCC ([lscc] enable = longhaul)", sel);
            return;
        }
    }
    if (!strncmp(x.m->name, "xbar_", 5) && !sc->xbar) {
        pc->rc = cfg_errorf(pc->err, e, "needs a [crossbar] section");
        return;
    }
    if (!strcmp(x.m->name, "deadlock")) {
        char tv[32];
        snprintf(tv, sizeof tv, "%s", e->value);
        const char *v = trim(tv);
        if (strcmp(v, "none") && strcmp(v, "detected")) {
            pc->rc = cfg_errorf(pc->err, e, "expected 'none' or 'detected'");
            return;
        }
        if (!sc->dl) {
            pc->rc = cfg_errorf(pc->err, e, "needs the deadlock detector: set [flowcontrol] deadlock_check");
            return;
        }
        x.op = OP_EQ;
        x.a = !strcmp(v, "detected");
        snprintf(x.target, sizeof x.target, "%s", v);
    } else if (parse_target(&x, e, pc->err)) {
        pc->rc = -1;
        return;
    }
    if (!strcmp(x.m->name, "maxmin_error") && !(x.mm = expect_maxmin_parse(sc, x.group, x.t0, x.t1, e, pc->err))) {
        pc->rc = -1;
        return;
    }
    struct expect *ne = realloc(pc->ex->e, (pc->ex->n + 1) * sizeof *ne);
    if (!ne) {
        expect_maxmin_free(x.mm);
        pc->rc = cfg_errorf(pc->err, e, "out of memory");
        return;
    }
    pc->ex->e = ne;
    pc->ex->e[pc->ex->n++] = x;
}

struct expectations *expect_parse(struct scenario *sc, struct cfg_err *err)
{
    struct expectations *ex = calloc(1, sizeof *ex);
    if (!ex)
        return NULL;
    struct parse_ctx pc = { sc, ex, err, 0 };
    cfg_entries(sc->cfg, "expect", parse_one, &pc);
    if (pc.rc) {
        expect_free(ex);
        return NULL;
    }
    return ex;
}

size_t expect_count(const struct expectations *ex) { return ex->n; }

void expect_free(struct expectations *ex)
{
    if (ex) {
        for (size_t i = 0; i < ex->n; i++)
            expect_maxmin_free(ex->e[i].mm);
        free(ex->e);
        free(ex);
    }
}

static int check(const struct expect *x, double v)
{
    if (isnan(v))
        return 0;
    switch (x->op) {
    case OP_TOL:   return fabs(v - x->a) <= x->b * (1 + 1e-12);
    case OP_GE:    return v >= x->a;
    case OP_LE:    return v <= x->a;
    case OP_RANGE: return v >= x->a && v <= x->b;
    case OP_EQ:    return v == x->a;
    }
    return 0;
}

static const char *fmt(enum unit u, double v, char *buf, size_t len)
{
    switch (u) {
    case U_RATE:  return units_fmt_rate(v, buf, len);
    case U_BYTES: return units_fmt_bytes(v, buf, len);
    case U_TIME:  return units_fmt_time((uint64_t)v, buf, len);
    case U_FRAC:  snprintf(buf, len, "%.2f%%", v * 100); return buf;
    case U_NUM:   snprintf(buf, len, "%.6g", v); return buf;
    }
    return "";
}

int expect_eval(const struct expectations *ex, const struct scenario *sc, struct expect_result *res)
{
    int fails = 0;
    const struct net *n = &sc->net;
    for (size_t i = 0; i < ex->n; i++) {
        const struct expect *x = &ex->e[i];
        struct expect_result *r = &res[i];
        snprintf(r->check, sizeof r->check, "%s", x->key);
        snprintf(r->target, sizeof r->target, "%s", x->target);
        char b1[48], b2[48];
        const char *mn = x->m->name;
        double v = NAN;
        uint32_t f0 = 0, fc = n->n_flows;
        if (x->m->sel == SEL_GROUP && x->group != NONE32) {
            f0 = sc->groups[x->group].first;
            fc = sc->groups[x->group].count;
        }
        if (x->mm) {
            v = expect_maxmin_eval(x->mm, sc, x->group, r->measured, sizeof r->measured);
            r->pass = check(x, v);
        } else if (!strcmp(mn, "deadlock")) {
            v = sc->dl && ((const struct deadlock *)sc->dl)->detected;
            r->pass = check(x, v);
            deadlock_describe(sc, r->measured, sizeof r->measured);
        } else if (!strcmp(mn, "rate") || !strcmp(mn, "rate_mean") || !strcmp(mn, "jain") || !strcmp(mn, "rate_ratio")) {
            double *rates = malloc((fc ? fc : 1) * sizeof *rates);
            double lo = INFINITY, hi = -INFINITY, sum = 0;
            uint32_t bad = 0;
            for (uint32_t k = 0; rates && k < fc; k++) {
                rates[k] = metrics_flow_rate(sc, f0 + k, x->t0, x->t1);
                lo = rates[k] < lo ? rates[k] : lo;
                hi = rates[k] > hi ? rates[k] : hi;
                sum += rates[k];
                bad += !check(x, rates[k]);
            }
            if (!strcmp(mn, "rate")) {
                r->pass = rates && fc && bad == 0;
                snprintf(r->measured, sizeof r->measured, "%u flows, min %s max %s%s", fc,
                         fmt(U_RATE, lo, b1, sizeof b1), fmt(U_RATE, hi, b2, sizeof b2),
                         bad ? " (some outside)" : "");
            } else if (!strcmp(mn, "rate_ratio")) {
                /* A mean can hide a starved flow (37.9 Gb/s next to 27 Mb/s
                 * passes rate_mean); the slowest over the fastest cannot. */
                v = rates && fc && hi > 0 ? lo / hi : NAN;
                r->pass = check(x, v);
                snprintf(r->measured, sizeof r->measured, "%.4g (min %s, max %s)", v, fmt(U_RATE, lo, b1, sizeof b1),
                         fmt(U_RATE, hi, b2, sizeof b2));
            } else {
                v = !strcmp(mn, "jain") ? metrics_jain(rates, fc) : sum / fc;
                r->pass = check(x, v);
                snprintf(r->measured, sizeof r->measured, "%s", fmt(x->m->unit, v, b1, sizeof b1));
            }
            free(rates);
        } else {
            if (x->m->sel == SEL_TRAFFIC) {
                struct fct_stats st;
                fct_bin_stats(sc, x->traffic, 0, UINT64_MAX, sc->fct_start, sc->fct_end, &st);
                v = !strcmp(mn, "fct_avg") ? st.avg * PS_PER_S : !strcmp(mn, "fct_p99") ? st.p99 * PS_PER_S
                  : !strcmp(mn, "slowdown_avg") ? st.s_avg : st.s_p99;
            } else if (!strcmp(mn, "completed")) {
                uint32_t done = 0;
                for (uint32_t k = 0; k < fc; k++)
                    done += (n->flows[f0 + k].flags & FL_RX_DONE) != 0;
                v = fc ? (double)done / fc : NAN;
            } else if (!strcmp(mn, "cnp_reached")) {
                uint32_t got = 0;
                for (uint32_t k = 0; k < fc; k++)
                    got += n->flows[f0 + k].cnps_rx != 0;
                v = fc ? (double)got / fc : NAN;
            } else if (!strncmp(mn, "lscc_", 5)) {
                v = lsccsel_metric(sc, lsccsel_find(sc, sc->mon[x->mon].port), x->t0, x->t1, mn);
            } else if (!strncmp(mn, "queue_", 6)) {
                struct qstats q;
                metrics_queue(sc, x->mon, x->t0, x->t1, &q);
                v = !strcmp(mn, "queue_mean") ? q.mean : !strcmp(mn, "queue_p99") ? q.p99 : q.max;
            } else if (!strcmp(mn, "fair_rate")) {
                double lo, hi;
                metrics_fair(sc, x->mon, x->t0, x->t1, &v, &lo, &hi);
            } else if (!strcmp(mn, "settle")) {
                v = metrics_fair_settle(sc, x->mon, x->t0, x->t1, 0.10);
            } else if (!strcmp(mn, "md")) {
                v = metrics_md(sc, x->mon, x->t0, x->t1);
            } else if (!strcmp(mn, "util")) {
                v = metrics_util(sc, x->mon, x->t0, x->t1);
            } else if (!strncmp(mn, "escape_", 7)) {
                v = fcsel_escape_metric(n, mn);
            } else if (!strncmp(mn, "oq_", 3)) {
                v = oqsel_metric(sc, mn);
            } else if (!strncmp(mn, "xbar_", 5)) {
                v = xbarsel_metric(sc, mn);
            } else {
                double tot = 0;
                for (uint32_t p = 0; p < n->n_ports; p++) {
                    if (!strcmp(mn, "drops"))
                        tot += (double)n->ports[p].st.drops;
                    else if (!strcmp(mn, "pfc_pauses"))
                        tot += (double)n->ports[p].st.pfc_sent;
                }
                if (!strcmp(mn, "out_of_order"))
                    tot = (double)n->out_of_order;
                if (!strcmp(mn, "qlimit_drops"))
                    tot = (double)n->qlimit_drops;
                if (!strcmp(mn, "credit_loss"))
                    tot = n->created[PKT_CREDIT] ? (double)n->dropped[PKT_CREDIT] / (double)n->created[PKT_CREDIT] : 0;
                if (!strcmp(mn, "cnps"))
                    for (uint32_t a = 0; a < n->n_agents; a++)
                        if (n->agents[a].ops == &rocc_agent_ops)
                            tot += (double)((const struct rocc_agent *)n->agents[a].state)->cnps_sent;
                for (uint32_t f = 0; f < n->n_flows; f++) {
                    if (!strcmp(mn, "timeouts"))
                        tot += (double)n->flows[f].timeouts;
                    else if (!strcmp(mn, "retx_bytes"))
                        tot += (double)n->flows[f].retx_bytes;
                }
                v = tot;
            }
            r->pass = check(x, v);
            fmt(x->m->unit, v, r->measured, sizeof r->measured);
        }
        fails += !r->pass;
    }
    return fails;
}
