/*
 * oqsel.c -- [openqueue]: OpenQueue policies on switch egress ports
 * (oqsel.h; the model is src/net/qd_oq.h).
 *
 *   [openqueue]
 *   policy     = FILE.oq              (required; relative to the scenario file)
 *   ports      = SW:PEER, SW:N, ...   (egress ports: toward node PEER, or local port N)
 *   switches   = SW ...               (every egress port of these switches)
 *   cycle      = wire | TIME          (time of one processing cycle; wire: the frame's wire time)
 *   seed       = N                    (the runtimes' drop(P) and processing draws; default [sim] seed)
 *   value[.SEL]      = NUMBER | class
 *   processing[.SEL] = N | LO-HI | class
 *   slack[.SEL]      = TIME
 *   queue[.SEL]      = QUEUE          (a queue of the policy's port; default: its queueSelect)
 *   policy_id[.SEL]  = N
 * SEL: a flow group (its flows) or classN (frames of 802.1p class N); a
 * group's rule beats a class's, a class's the section default.
 */
#include "engine/oqsel.h"
#include "engine/report_parts.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/units.h"
#include "net/qd_oq.h"

#define S "openqueue"
#define MAX_PROCESSING 65535u    /* bounds the cycles one frame can take (and a flush's work) */

struct oqsel {
    char path[4096];
    struct oq_policy *pol;
    struct oqc_table tab;
    uint64_t cycle_ps;
    uint32_t nq;                 /* queues of the policy */
    uint32_t n;                  /* OpenQueue ports */
    uint32_t *port;              /* [n] global port indices */
    struct oqp **st;             /* [n] their states (owned by the net) */
    uint64_t *s_bytes;           /* [k * n * nq + i * nq + q] */
    uint32_t cap;
    /* A run over several MPI ranks: rank 0's copy of every port's queue
     * counters after oqsel_merge ([i * nq + q]; used when merged). */
    struct oq_qstats *mstats;
    int merged;
};

/* Queue q of port i's counters: the runtime's, or the merged ones. */
static void queue_stats(const struct oqsel *o, uint32_t i, uint32_t q, struct oq_qstats *st)
{
    if (o->merged)
        *st = o->mstats[(size_t)i * o->nq + q];
    else
        oq_queue_stats(o->st[i]->rt, q, st);
}

/* ---------------------------------------------------------------- rules */

/* Which rule a key's selector names: the default (sel empty), a class, a group. */
struct rule_sets { struct oqc_rule dflt, cls[NCLASS]; uint8_t cls_set[NCLASS][5], dflt_set[5]; };

enum { F_VALUE, F_PROC, F_SLACK, F_QUEUE, F_PID, F_N };
static const char *const field_names[F_N] = { "value", "processing", "slack", "queue", "policy_id" };

static int parse_field(struct oqsel *o, int f, const struct cfg_entry *e, struct oqc_rule *r, struct cfg_err *err)
{
    const char *v = e->value;
    switch (f) {
    case F_VALUE:
        if (!strcmp(v, "class")) {
            r->value_kind = OQC_CLASS;
            return 0;
        }
        if (units_parse_double(v, &r->value) || !isfinite(r->value))
            return cfg_errorf(err, e, "expected a number or 'class', got '%s'", v);
        r->value_kind = OQC_CONST;
        return 0;
    case F_PROC: {
        if (!strcmp(v, "class")) {
            r->proc_kind = OQC_CLASS;
            return 0;
        }
        char buf[64];
        snprintf(buf, sizeof buf, "%s", v);
        char *dash = strstr(buf, "..");
        size_t skip = 2;
        if (!dash && (dash = strchr(buf, '-')) != NULL)
            skip = 1;
        uint64_t lo, hi;
        if (dash) {
            *dash = 0;
            if (units_parse_u64(buf, &lo) || units_parse_u64(dash + skip, &hi) || lo < 1 || hi < lo ||
                hi > MAX_PROCESSING)
                return cfg_errorf(err, e, "expected cycles LO-HI with 1 <= LO <= HI <= %u, got '%s'", MAX_PROCESSING, v);
            r->proc_kind = lo == hi ? OQC_CONST : OQC_UNIFORM;
        } else {
            if (units_parse_u64(buf, &lo) || lo < 1 || lo > MAX_PROCESSING)
                return cfg_errorf(err, e, "expected cycles 1..%u, LO-HI or 'class', got '%s'", MAX_PROCESSING, v);
            hi = lo;
            r->proc_kind = OQC_CONST;
        }
        r->proc_lo = (uint32_t)lo;
        r->proc_hi = (uint32_t)hi;
        return 0;
    }
    case F_SLACK:
        if (units_parse_time_ps(v, &r->slack_ps))
            return cfg_errorf(err, e, "expected a time like 10us, got '%s'", v);
        return 0;
    case F_QUEUE: {
        int q = oq_queue_index(o->pol, v);
        if (q < 0)
            return cfg_errorf(err, e, "policy %s has no queue '%s'", o->path, v);
        r->queue = q;
        return 0;
    }
    default: {
        uint64_t x;
        if (units_parse_u64(v, &x) || x > UINT32_MAX)
            return cfg_errorf(err, e, "expected an integer 0..%u, got '%s'", UINT32_MAX, v);
        r->policy_id = (uint32_t)x;
        return 0;
    }
    }
}

static void copy_field(int f, struct oqc_rule *to, const struct oqc_rule *from)
{
    switch (f) {
    case F_VALUE: to->value_kind = from->value_kind; to->value = from->value; break;
    case F_PROC: to->proc_kind = from->proc_kind; to->proc_lo = from->proc_lo; to->proc_hi = from->proc_hi; break;
    case F_SLACK: to->slack_ps = from->slack_ps; break;
    case F_QUEUE: to->queue = from->queue; break;
    default: to->policy_id = from->policy_id; break;
    }
}

struct rd {
    struct scenario *sc;
    struct oqsel *o;
    struct cfg_err *err;
    int rc;
    struct oqc_rule dflt, cls[NCLASS];
    uint8_t dset[F_N], cset[NCLASS][F_N];
    uint8_t (*gset)[F_N];        /* [n_groups] */
};

static void key_cb(const struct cfg_entry *e, void *arg)
{
    struct rd *r = arg;
    if (r->rc)
        return;
    static const char *const plain[] = { "policy", "ports", "switches", "cycle", "seed", NULL };
    for (int i = 0; plain[i]; i++)
        if (!strcmp(e->key, plain[i]))
            return;
    const char *dot = strchr(e->key, '.');
    size_t flen = dot ? (size_t)(dot - e->key) : strlen(e->key);
    int f = -1;
    for (int i = 0; i < F_N; i++)
        if (strlen(field_names[i]) == flen && !strncmp(e->key, field_names[i], flen))
            f = i;
    if (f < 0) {
        r->rc = cfg_errorf(r->err, e, "unknown key (known: policy, ports, switches, cycle, seed, and value, "
                                      "processing, slack, queue, policy_id, each also as KEY.GROUP or KEY.classN)");
        return;
    }
    struct oqc_rule *rule;
    uint8_t *set;
    if (!dot) {
        rule = &r->dflt;
        set = r->dset;
    } else {
        const char *sel = dot + 1;
        const struct group *g = scenario_group(r->sc, sel);
        if (g) {
            uint32_t gi = (uint32_t)(g - r->sc->groups);
            rule = &r->o->tab.group[gi];
            set = r->gset[gi];
        } else if (!strncmp(sel, "class", 5) && isdigit((unsigned char)sel[5]) && !sel[6] && sel[5] < '0' + NCLASS) {
            int c = sel[5] - '0';
            rule = &r->cls[c];
            set = r->cset[c];
        } else {
            r->rc = cfg_errorf(r->err, e, "'%s' is neither a flow group nor a class (class0..class7)", sel);
            return;
        }
    }
    if (parse_field(r->o, f, e, rule, r->err)) {
        r->rc = -1;
        return;
    }
    set[f] = 1;
}

/* ---------------------------------------------------------------- ports */

static int add_port(struct oqsel *o, uint32_t port, const struct cfg_entry *e, struct cfg_err *err)
{
    for (uint32_t i = 0; i < o->n; i++)
        if (o->port[i] == port)
            return cfg_errorf(err, e, "port listed twice");
    uint32_t *np = realloc(o->port, (o->n + 1) * sizeof *np);
    if (!np)
        return cfg_errorf(err, e, "out of memory");
    o->port = np;
    o->port[o->n++] = port;
    return 0;
}

static int read_ports(struct scenario *sc, struct oqsel *o, const struct cfg_entry *e, struct cfg_err *err)
{
    const struct net *n = &sc->net;
    char buf[CFG_MAX_LINE + 1];
    snprintf(buf, sizeof buf, "%s", e->value);
    for (char *tok = strtok(buf, " ,\t"); tok; tok = strtok(NULL, " ,\t")) {
        char *sep = strstr(tok, "->");
        size_t sl = 2;
        if (!sep) {
            sep = strchr(tok, ':');
            sl = 1;
        }
        if (!sep)
            return cfg_errorf(err, e, "'%s': expected SWITCH:PEER or SWITCH:N (local port N)", tok);
        *sep = 0;
        const char *peer = sep + sl;
        uint32_t sw = scenario_node(sc, tok);
        if (sw == NONE32 || n->nodes[sw].kind != NODE_SWITCH)
            return cfg_errorf(err, e, "'%s' is not a switch", tok);
        const struct node *nd = &n->nodes[sw];
        uint32_t port = NONE32;
        uint64_t k;
        if (!units_parse_u64(peer, &k)) {
            if (k >= nd->n_ports)
                return cfg_errorf(err, e, "switch %s has ports 0..%u, not %s", tok, nd->n_ports - 1, peer);
            port = nd->first_port + (uint32_t)k;
        } else {
            uint32_t pn = scenario_node(sc, peer);
            if (pn == NONE32)
                return cfg_errorf(err, e, "no node named '%s'", peer);
            port = net_port_between(n, sw, pn);
            if (port == NONE32)
                return cfg_errorf(err, e, "%s has no link to %s", tok, peer);
        }
        if (add_port(o, port, e, err))
            return -1;
    }
    return 0;
}

static int read_switches(struct scenario *sc, struct oqsel *o, const struct cfg_entry *e, struct cfg_err *err)
{
    uint32_t ids[4096];
    int k = scenario_nodes(sc, e, ids, 4096, err);
    if (k < 0)
        return -1;
    for (int i = 0; i < k; i++) {
        const struct node *nd = &sc->net.nodes[ids[i]];
        if (nd->kind != NODE_SWITCH)
            return cfg_errorf(err, e, "'%s' is not a switch", nd->name);
        for (uint32_t l = 0; l < nd->n_ports; l++)
            if (add_port(o, nd->first_port + l, e, err))
                return -1;
    }
    return 0;
}

/* ---------------------------------------------------------------- build */

int oqsel_build(struct scenario *sc, struct cfg *c, struct cfg_err *err)
{
    if (!cfg_has_section(c, S))
        return 0;
    static const char *const keys[] = { "policy", "ports", "switches", "cycle", "seed", NULL };
    cfg_touch(c, S, keys);
    struct oqsel *o = calloc(1, sizeof *o);
    if (!o)
        return cfg_section_errorf(err, c, S, "out of memory");
    sc->oq = o;
    const struct cfg_entry *pe = cfg_find(c, S, "policy");
    if (!pe)
        return cfg_missing(err, c, S, "policy", " (e.g. policy = ../../policies/alg_c.oq)");
    const char *base = cfg_path(c), *slash = strrchr(base, '/');
    if (pe->value[0] == '/' || !slash)
        snprintf(o->path, sizeof o->path, "%s", pe->value);
    else
        snprintf(o->path, sizeof o->path, "%.*s/%s", (int)(slash - base), base, pe->value);
    char msg[512];
    o->pol = oq_compile_file(o->path, msg, sizeof msg);
    if (!o->pol) {
        /* FILE:LINE:COL: message, as `roccsim oq check` prints it, then
         * where the scenario named the file */
        if (err)
            snprintf(err->msg, sizeof err->msg, "%.380s (policy of [openqueue] at %.80s:%d)", msg, pe->file,
                     pe->line);
        return -1;
    }
    if (oq_nports(o->pol) != 1)
        return cfg_errorf(err, pe, "policy %s declares %u ports; a switch port runs a policy with one Port",
                          o->path, oq_nports(o->pol));
    o->nq = oq_nqueues(o->pol);
    const struct cfg_entry *ce = cfg_find(c, S, "cycle");
    if (ce && strcmp(ce->value, "wire") != 0) {
        if (units_parse_time_ps(ce->value, &o->cycle_ps) || o->cycle_ps == 0)
            return cfg_errorf(err, ce, "expected 'wire' or a time above 0 like 100ns, got '%s'", ce->value);
    }
    uint64_t seed;
    if (cfg_u64(c, S, "seed", sc->seed, &seed, err))
        return -1;
    const struct cfg_entry *ports = cfg_find(c, S, "ports"), *sws = cfg_find(c, S, "switches");
    if (!ports && !sws)
        return cfg_missing(err, c, S, "ports", " (or switches = ...)");
    if (ports && read_ports(sc, o, ports, err))
        return -1;
    if (sws && read_switches(sc, o, sws, err))
        return -1;
    if (o->n == 0)
        return cfg_errorf(err, ports ? ports : sws, "no port");

    /* classification rules */
    struct rd r = { .sc = sc, .o = o, .err = err };
    r.dflt.value = 1;
    r.dflt.proc_lo = r.dflt.proc_hi = 1;
    r.dflt.queue = -1;
    uint32_t ng = sc->n_groups;
    o->tab.n_groups = ng;
    o->tab.group = calloc(ng ? ng : 1, sizeof *o->tab.group);
    o->tab.has_group = calloc(ng ? ng : 1, 1);
    r.gset = calloc(ng ? ng : 1, sizeof *r.gset);
    if (!o->tab.group || !o->tab.has_group || !r.gset) {
        free(r.gset);
        return cfg_section_errorf(err, c, S, "out of memory");
    }
    cfg_entries(c, S, key_cb, &r);
    if (r.rc) {
        free(r.gset);
        return -1;
    }
    /* resolve: class rules over the default, group rules over the default */
    for (int k = 0; k < NCLASS; k++) {
        struct oqc_rule x = r.dflt;
        for (int f = 0; f < F_N; f++)
            if (r.cset[k][f])
                copy_field(f, &x, &r.cls[k]);
        o->tab.cls[k] = x;
    }
    int any_group = 0;
    for (uint32_t g = 0; g < ng; g++) {
        struct oqc_rule x = r.dflt;
        int any = 0;
        for (int f = 0; f < F_N; f++)
            if (r.gset[g][f]) {
                copy_field(f, &x, &o->tab.group[g]);
                any = 1;
            }
        o->tab.group[g] = x;
        o->tab.has_group[g] = (uint8_t)any;
        any_group |= any;
    }
    free(r.gset);
    if (!any_group) {
        free(o->tab.group);
        free(o->tab.has_group);
        o->tab.group = NULL;
        o->tab.has_group = NULL;
    }

    /* one runtime per port */
    o->st = calloc(o->n, sizeof *o->st);
    size_t nstats = (size_t)o->n * o->nq;
    o->mstats = calloc(nstats ? nstats : 1, sizeof *o->mstats);
    if (!o->st || !o->mstats)
        return cfg_section_errorf(err, c, S, "out of memory");
    struct net *n = &sc->net;
    for (uint32_t i = 0; i < o->n; i++) {
        const struct port *pt = &n->ports[o->port[i]];
        struct oqp *q = oqp_new(o->pol, 0, &o->tab, o->port[i], o->cycle_ps, seed + o->port[i]);
        if (!q || qdisc_install(n, &n->sws[pt->owner], pt->local, &qd_openqueue, q)) {
            oqp_free(q);
            return cfg_section_errorf(err, c, S, "out of memory for the policy's queues");
        }
        o->st[i] = q;
        int kind;
        double rv;
        oq_port_rate(o->pol, 0, &kind, &rv);
        double frac = kind == OQ_RATE_PERCENT ? rv / 100 : rv / (double)pt->rate_bps;
        if (!(frac > 0))
            return cfg_errorf(err, pe, "policy %s: its Port's rate is 0", o->path);
        q->rate_frac = frac < 1 ? frac : 1;     /* above the link's: the link's */
    }
    cfg_section_done(c, S);
    return 0;
}

/* ---------------------------------------------------------------- outputs */

void oqsel_sample(struct scenario *sc, uint32_t k)
{
    struct oqsel *o = sc->oq;
    if (!o || !o->n)
        return;
    size_t cols = (size_t)o->n * o->nq;
    if (!o->s_bytes) {
        if (o->cap || !sc->cap_samples)
            return;
        o->s_bytes = malloc((size_t)sc->cap_samples * cols * sizeof *o->s_bytes);   /* once, at the first sample */
        o->cap = o->s_bytes ? sc->cap_samples : 1;   /* 1 without memory: no series, never retried */
        if (!o->s_bytes) {
            if (sc->net.node_rank)
                sc->net.oom = 1;      /* over ranks every rank must keep the series (oqsel_merge) */
            return;
        }
    }
    if (k >= o->cap)
        return;
    for (uint32_t i = 0; i < o->n; i++)
        for (uint32_t q = 0; q < o->nq; q++) {
            struct oq_qstats st;
            oq_queue_stats(o->st[i]->rt, q, &st);
            o->s_bytes[(size_t)k * cols + (size_t)i * o->nq + q] = st.bytes;
        }
}

static const char *port_name(const struct scenario *sc, uint32_t port, char *buf, size_t len)
{
    for (uint32_t m = 0; m < sc->n_mon; m++)
        if (sc->mon[m].port == port)
            return sc->mon[m].name;
    snprintf(buf, len, "port%u", port);
    return buf;
}

static void json_str(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\')
            fprintf(f, "\\%c", ch);
        else if (ch < 0x20)
            fprintf(f, "\\u%04x", ch);
        else
            fputc(ch, f);
    }
    fputc('"', f);
}

/* As report.c: integral values as integers, others with 9 digits, NaN null. */

void oqsel_json(const struct scenario *sc, FILE *f)
{
    const struct oqsel *o = sc->oq;
    if (!o || !o->pol)
        return;
    fprintf(f, ",\n  \"openqueue\": {\"policy\": ");
    json_str(f, o->path);
    fprintf(f, ", \"cycle_ps\": %llu, \"ports\": [", (unsigned long long)o->cycle_ps);
    for (uint32_t i = 0; i < o->n; i++) {
        const struct oqp *q = o->st[i];
        char nb[32];
        fprintf(f, "%s\n    {\"port\": ", i ? "," : "");
        json_str(f, port_name(sc, o->port[i], nb, sizeof nb));
        fprintf(f, ", \"value_in\": ");
        report_json_num(f, q->value_in);
        fprintf(f, ", \"value_sent\": ");
        report_json_num(f, q->value_sent);
        fprintf(f, ", \"value_dropped\": ");
        report_json_num(f, q->value_dropped);
        fprintf(f, ", \"busy_cycles\": %llu, \"ce_marked\": %llu, \"queues\": [",
                (unsigned long long)q->cycles_busy, (unsigned long long)q->ce_marked);
        for (uint32_t k = 0; k < o->nq; k++) {
            struct oq_qstats st;
            queue_stats(o, i, k, &st);
            fprintf(f, "%s\n      {\"name\": ", k ? "," : "");
            json_str(f, oq_queue_name(o->pol, k));
            fprintf(f, ", \"enqueued\": %llu, \"enqueued_bytes\": %llu, \"dequeued\": %llu, \"dequeued_bytes\": %llu, "
                       "\"dropped\": %llu, \"dropped_bytes\": %llu, \"pushed_out\": %llu, \"marked\": %llu, "
                       "\"max_len\": %u, \"max_bytes\": %llu, \"len\": %u, \"bytes\": %llu}",
                    (unsigned long long)st.enqueued, (unsigned long long)st.enq_bytes,
                    (unsigned long long)st.dequeued, (unsigned long long)st.deq_bytes,
                    (unsigned long long)st.dropped, (unsigned long long)st.drop_bytes,
                    (unsigned long long)st.pushed_out, (unsigned long long)st.marked,
                    q->qx[k].max_len, (unsigned long long)q->qx[k].max_bytes, st.len, (unsigned long long)st.bytes);
        }
        fprintf(f, "]}");
    }
    fprintf(f, "]}");
}

void oqsel_print(const struct scenario *sc, FILE *out)
{
    const struct oqsel *o = sc->oq;
    if (!o || !o->pol)
        return;
    for (uint32_t i = 0; i < o->n; i++) {
        const struct oqp *q = o->st[i];
        char nb[32];
        uint64_t enq = 0, deq = 0, drop = 0, po = 0;
        for (uint32_t k = 0; k < o->nq; k++) {
            struct oq_qstats st;
            queue_stats(o, i, k, &st);
            enq += st.enqueued;
            deq += st.dequeued;
            drop += st.dropped;
            po += st.pushed_out;
        }
        fprintf(out, "  openqueue %s: %llu frames admitted, %llu sent, %llu dropped (%llu pushed out); value sent %.6g "
                     "of %.6g offered\n", port_name(sc, o->port[i], nb, sizeof nb), (unsigned long long)enq,
                (unsigned long long)deq, (unsigned long long)drop, (unsigned long long)po, q->value_sent, q->value_in);
    }
}

int oqsel_has(const struct scenario *sc)
{
    return sc->oq && ((const struct oqsel *)sc->oq)->pol;
}

void oqsel_write_csv(FILE *f, const struct scenario *sc)
{
    const struct oqsel *o = sc->oq;
    fprintf(f, "time_s");
    for (uint32_t i = 0; i < o->n; i++) {
        char nb[32];
        for (uint32_t q = 0; q < o->nq; q++)
            fprintf(f, ",%s/%s", port_name(sc, o->port[i], nb, sizeof nb), oq_queue_name(o->pol, q));
    }
    fputc('\n', f);
    size_t cols = (size_t)o->n * o->nq;
    for (uint32_t k = 0; o->s_bytes && k < sc->n_samples && k < o->cap; k++) {
        fprintf(f, "%.9f", (double)((uint64_t)k * sc->sample_interval) / PS_PER_S);
        for (size_t j = 0; j < cols; j++)
            fprintf(f, ",%llu", (unsigned long long)o->s_bytes[(size_t)k * cols + j]);
        fputc('\n', f);
    }
}

double oqsel_metric(const struct scenario *sc, const char *name)
{
    const struct oqsel *o = sc->oq;
    if (!o || !o->pol)
        return NAN;
    double vin = 0, vs = 0, drops = 0, po = 0, ce = 0;
    for (uint32_t i = 0; i < o->n; i++) {
        const struct oqp *q = o->st[i];
        vin += q->value_in;
        vs += q->value_sent;
        ce += (double)q->ce_marked;
        for (uint32_t k = 0; k < o->nq; k++) {
            struct oq_qstats st;
            queue_stats(o, i, k, &st);
            drops += (double)st.dropped;
            po += (double)st.pushed_out;
        }
    }
    if (!strcmp(name, "oq_value"))
        return vs;
    if (!strcmp(name, "oq_value_share"))
        return vin > 0 ? vs / vin : NAN;
    if (!strcmp(name, "oq_drops"))
        return drops;
    if (!strcmp(name, "oq_pushed_out"))
        return po;
    if (!strcmp(name, "oq_marked"))
        return ce;
    return NAN;
}

/* Over several ranks (parallel.c): a port's runtime and counters change
 * only on the rank that owns its switch; every other rank's copy is zeroed
 * here before the sums, so rank 0 gets the owner's values exactly -- the
 * doubles too, summed as their bit patterns with zeros.  The queue series
 * (oqsel_sample) is summed the same way, column by column. */
void oqsel_merge(struct scenario *sc, void (*reduce)(uint64_t *v, size_t k, int max))
{
    struct oqsel *o = sc->oq;
    if (!o || !o->pol)
        return;
    const struct net *n = &sc->net;
    enum { NQV = 13 };
    for (uint32_t i = 0; i < o->n; i++) {
        struct oqp *q = o->st[i];
        int mine = net_node_local(n, n->ports[o->port[i]].node);
        uint64_t v[5];
        memcpy(&v[0], &q->value_in, 8);
        memcpy(&v[1], &q->value_sent, 8);
        memcpy(&v[2], &q->value_dropped, 8);
        v[3] = q->cycles_busy, v[4] = q->ce_marked;
        if (!mine)
            memset(v, 0, sizeof v);
        reduce(v, 5, 0);
        memcpy(&q->value_in, &v[0], 8);
        memcpy(&q->value_sent, &v[1], 8);
        memcpy(&q->value_dropped, &v[2], 8);
        q->cycles_busy = v[3], q->ce_marked = v[4];
        for (uint32_t k = 0; k < o->nq; k++) {
            struct oq_qstats st;
            oq_queue_stats(q->rt, k, &st);
            uint64_t w[NQV] = { st.enqueued, st.enq_bytes, st.dequeued, st.deq_bytes, st.dropped, st.drop_bytes,
                                st.pushed_out, st.marked, st.notified, st.len, st.bytes, q->qx[k].max_len,
                                q->qx[k].max_bytes };
            if (!mine)
                memset(w, 0, sizeof w);
            reduce(w, NQV, 0);
            o->mstats[(size_t)i * o->nq + k] = (struct oq_qstats){
                .enqueued = w[0], .enq_bytes = w[1], .dequeued = w[2], .deq_bytes = w[3], .dropped = w[4],
                .drop_bytes = w[5], .pushed_out = w[6], .marked = w[7], .notified = w[8], .len = (uint32_t)w[9],
                .bytes = w[10] };
            q->qx[k].max_len = (uint32_t)w[11];
            q->qx[k].max_bytes = w[12];
        }
    }
    size_t cols = (size_t)o->n * o->nq;
    if (o->s_bytes && sc->n_samples) {
        size_t k_n = sc->n_samples < o->cap ? sc->n_samples : o->cap;
        for (uint32_t i = 0; i < o->n; i++)
            if (!net_node_local(n, n->ports[o->port[i]].node))
                for (size_t k = 0; k < k_n; k++)
                    memset(&o->s_bytes[k * cols + (size_t)i * o->nq], 0, o->nq * sizeof *o->s_bytes);
        reduce(o->s_bytes, k_n * cols, 0);
    }
    o->merged = 1;
}

void oqsel_free(struct scenario *sc)
{
    struct oqsel *o = sc->oq;
    if (!o)
        return;
    oq_policy_free(o->pol);       /* the runtimes went with the net (qdisc destroy) */
    free(o->tab.group);
    free(o->tab.has_group);
    free(o->port);
    free(o->st);
    free(o->s_bytes);
    free(o->mstats);
    free(o);
    sc->oq = NULL;
}
