/*
 * oq_entity.c -- OpenQueue checker, second half: queues, buffers and ports
 * (their constructors, the queue-to-port and queue-to-buffer relations),
 * attribute assignments (read-only properties refused, unknown attributes
 * named with a suggestion), defaults, and the check of definitions nothing
 * uses.  Shared state: oq_chk.h.
 */
#include "openqueue/oq_chk.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------- entities */

struct attrdef { const char *name; uint8_t type; int8_t slot, state; };
static const struct attrdef attrs[] = {
    { "admPrio", E_QUEUE, SL_ADM, -1 }, { "procPrio", E_QUEUE, SL_PROC, -1 },
    { "congestion", E_QUEUE, SL_CONG, -1 }, { "congAction", E_QUEUE, SL_CONGACT, -1 },
    { "postAdmAct", E_QUEUE, SL_POST, -1 },
    { "admState", E_QUEUE, -1, 0 }, { "schedState", E_QUEUE, -1, 1 },
    { "weightAdm", E_QUEUE, -1, 2 }, { "weightSched", E_QUEUE, -1, 3 },
    { "queuePrio", E_BUFFER, SL_ADM, -1 }, { "admPrio", E_BUFFER, SL_ADM, -1 },
    { "congestion", E_BUFFER, SL_CONG, -1 }, { "congAction", E_BUFFER, SL_CONGACT, -1 },
    { "postAdmAct", E_BUFFER, SL_POST, -1 }, { "admState", E_BUFFER, -1, 0 },
    { "schedPrio", E_PORT, SL_ADM, -1 }, { "postSchedAct", E_PORT, SL_POST, -1 },
    { "queueSelect", E_PORT, SL_SEL, -1 }, { "schedState", E_PORT, -1, 1 },
};

static int edits_le2(const char *a, const char *b)
{
    /* Damerau-free edit distance <= 2 on short names (case-insensitive). */
    size_t la = strlen(a), lb = strlen(b);
    if (la > 30 || lb > 30 || (la > lb ? la - lb : lb - la) > 2)
        return 0;
    int d[32][32];
    for (size_t i = 0; i <= la; i++)
        d[i][0] = (int)i;
    for (size_t j = 0; j <= lb; j++)
        d[0][j] = (int)j;
    for (size_t i = 1; i <= la; i++)
        for (size_t j = 1; j <= lb; j++) {
            int ca = a[i - 1] | 32, cb = b[j - 1] | 32;
            int x = d[i - 1][j - 1] + (ca != cb), y = d[i - 1][j] + 1, z = d[i][j - 1] + 1;
            d[i][j] = x < y ? (x < z ? x : z) : (y < z ? y : z);
        }
    return d[la][lb] <= 2;
}

static int attr_error(struct chk *k, int tok, int type)
{
    struct oq_src *s = k->u;
    char name[64], list[300] = "";
    oq_tok_text(s, tok, name, sizeof name);
    int prop, w, ref;
    if (oq_lookup_prop(type, name, &prop, &w, &ref) == 0)
        return oq_error_tok(s, tok, "'%s' of %s is read-only%s", name, oq_etype_name(type),
                            prop == P_QSIZE || prop == P_RATE ? " (set by the constructor)" : " (kept by the runtime)");
    const char *hint = NULL;
    size_t kk = 0;
    for (size_t i = 0; i < sizeof attrs / sizeof attrs[0]; i++) {
        if (attrs[i].type != type)
            continue;
        if (!hint && edits_le2(name, attrs[i].name))
            hint = attrs[i].name;
        int wr = snprintf(list + kk, sizeof list - kk, "%s%s", kk ? ", " : "", attrs[i].name);
        if (wr > 0 && (size_t)wr < sizeof list - kk)
            kk += (size_t)wr;
    }
    if (hint)
        return oq_error_tok(s, tok, "unknown attribute '%s' of %s: did you mean '%s'?", name, oq_etype_name(type), hint);
    return oq_error_tok(s, tok, "unknown attribute '%s' of %s (%s)", name, oq_etype_name(type), list);
}

/* The queue named by argument node a (of an entity constructor). */
static int queue_arg(struct chk *k, int a)
{
    struct oq_src *s = k->u;
    const struct node *n = &s->nodes[a];
    char name[64];
    oq_tok_text(s, n->tok, name, sizeof name);
    int si = n->kind == N_NAME ? chk_lookup_tok(k, s, n->tok) : -1;
    if (si < 0 || k->syms[si].kind != SY_QUEUE) {
        if (n->kind == N_NAME && si < 0)
            return oq_error_tok(s, n->tok, "unknown queue '%s'", name);
        return oq_error_tok(s, n->tok, "expected a queue here");
    }
    return k->syms[si].idx;
}

static int size_arg(struct chk *k, int a, const char *what, double *size, uint8_t *unit)
{
    double v;
    int u;
    if (a < 0)
        return oq_error_tok(k->u, (int)k->u->ntoks - 1, "%s needs a size", what);
    if (chk_eval_const(k, k->u, a, &v, &u, 0) < 0)
        return -1;
    if (u != U_NONE && u != U_BYTES && u != U_PKTS)
        return oq_error_tok(k->u, k->u->nodes[a].tok, "a %s size is in bytes (B, KB, ...) or packets (p, pkts)", what);
    if (!(v >= 1) || v > 1e15)
        return oq_error_tok(k->u, k->u->nodes[a].tok, "a %s size must be at least 1 (and below 1e15)", what);
    *size = floor(v);
    *unit = u == U_PKTS ? U_PKTS : U_BYTES;
    return 0;
}

int chk_build_entity(struct chk *k, uint32_t si_stmt)
{
    struct oq_src *s = k->u;
    struct oq_policy *p = k->pol;
    const struct stmt *st = &s->stmts[si_stmt];
    int si = chk_lookup_tok(k, s, st->name);
    int idx = k->syms[si].idx;
    int a = st->body;
    if (st->ctor == E_QUEUE) {
        struct oq_queue *q = &p->q[idx];
        if (size_arg(k, a, "queue", &q->size, &q->unit) < 0)
            return -1;
        if (s->nodes[a].next >= 0)
            return oq_error_tok(s, s->nodes[s->nodes[a].next].tok, "Queue(size) takes one argument");
        return 0;
    }
    if (st->ctor == E_BUFFER) {
        struct oq_buffer *b = &p->b[idx];
        if (size_arg(k, a, "buffer", &b->size, &b->unit) < 0)
            return -1;
        b->first_q = p->nqlist;
        for (int qa = s->nodes[a].next; qa >= 0; qa = s->nodes[qa].next) {
            int qi = queue_arg(k, qa);
            if (qi < 0)
                return -1;
            if (p->q[qi].buffer >= 0)
                return oq_error_tok(s, s->nodes[qa].tok, "queue '%s' is already in buffer '%s'", p->q[qi].name, p->b[p->q[qi].buffer].name);
            p->q[qi].buffer = idx;
            p->qlist[p->nqlist++] = (uint32_t)qi;
            b->nq++;
        }
        if (b->nq == 0)
            return oq_error_tok(s, st->attr, "a buffer needs at least one queue: Buffer(size, q1, ..., qk)");
        return 0;
    }
    struct oq_port *pt = &p->pt[idx];
    pt->rate_kind = OQ_RATE_PERCENT;
    pt->rate = 100;
    if (a >= 0 && !(s->nodes[a].kind == N_NAME && chk_lookup_tok(k, s, s->nodes[a].tok) >= 0 &&
                    k->syms[chk_lookup_tok(k, s, s->nodes[a].tok)].kind == SY_QUEUE)) {
        double v;
        int u;
        if (chk_eval_const(k, s, a, &v, &u, 0) < 0)
            return -1;
        if (u == U_PERCENT) {
            if (!(v > 0 && v <= 100))
                return oq_error_tok(s, s->nodes[a].tok, "a port rate in %% must be in (0, 100]");
        } else if (u == U_BPS) {
            if (!(v >= 1))
                return oq_error_tok(s, s->nodes[a].tok, "a port rate must be positive");
            pt->rate_kind = OQ_RATE_BPS;
        } else {
            return oq_error_tok(s, s->nodes[a].tok, "a port rate needs a unit: %% of the link or bps, kbps, Mbps, Gbps");
        }
        pt->rate = v;
        a = s->nodes[a].next;
    }
    pt->first_q = p->nqlist;
    for (; a >= 0; a = s->nodes[a].next) {
        int qi = queue_arg(k, a);
        if (qi < 0)
            return -1;
        if (p->q[qi].port >= 0)
            return oq_error_tok(s, s->nodes[a].tok, "queue '%s' is already attached to port '%s'", p->q[qi].name, p->pt[p->q[qi].port].name);
        p->q[qi].port = idx;
        p->qlist[p->nqlist++] = (uint32_t)qi;
        pt->nq++;
    }
    if (pt->nq == 0)
        return oq_error_tok(s, st->attr, "empty port: Port([rate,] q1, ..., qk) needs at least one queue");
    return 0;
}

int chk_set_attr(struct chk *k, uint32_t i)
{
    struct oq_src *s = k->u;
    const struct stmt *st = &s->stmts[i];
    char name[64];
    oq_tok_text(s, st->name, name, sizeof name);
    int si = chk_lookup_tok(k, s, st->name);
    if (si < 0)
        return oq_error_tok(s, st->name, "unknown entity '%s'", name);
    const struct sym *y = &k->syms[si];
    if (y->kind > SY_PORT)
        return oq_error_tok(s, st->name, "'%s' is not a queue, buffer or port", name);
    int type = y->kind == SY_QUEUE ? E_QUEUE : y->kind == SY_BUFFER ? E_BUFFER : E_PORT;
    struct ent *e = type == E_QUEUE ? &k->eq[y->idx] : type == E_BUFFER ? &k->eb[y->idx] : &k->ep[y->idx];
    char an[64];
    oq_tok_text(s, st->attr, an, sizeof an);
    const struct attrdef *ad = NULL;
    for (size_t j = 0; j < sizeof attrs / sizeof attrs[0]; j++)
        if (attrs[j].type == type && !strcmp(attrs[j].name, an))
            ad = &attrs[j];
    if (!ad)
        return attr_error(k, st->attr, type);
    int *prev = ad->slot >= 0 ? &e->slot[ad->slot] : &e->state_set[ad->state];
    if (*prev >= 0)
        return oq_error_tok(s, st->attr, "%s.%s is already set at line %d", name, an, s->toks[s->stmts[*prev].attr].line);
    *prev = (int)i;
    if (ad->state >= 0) {
        double v;
        int u;
        if (chk_eval_const(k, s, st->body, &v, &u, 0) < 0)
            return -1;
        struct oq_policy *p = k->pol;
        if (type == E_QUEUE)
            p->q[y->idx].init[ad->state] = v;
        else if (type == E_BUFFER)
            p->b[y->idx].admstate = v;
        else
            p->pt[y->idx].schedstate = v;
    }
    return 0;
}

static int slot_value(struct chk *k, const struct ent *e, int slot)
{
    return e->slot[slot] >= 0 ? k->u->stmts[e->slot[slot]].body : -1;
}

static int queue_select(struct chk *k, int nd)
{
    struct oq_src *s = k->u;
    const struct node *n = &s->nodes[nd];
    if (n->kind == N_NAME) {
        if (oq_tok_is(s, n->tok, "select_first") || oq_tok_is(s, n->tok, "select_admission_queue"))
            return QS_FIRST;
        if (oq_tok_is(s, n->tok, "select_flow"))
            return QS_FLOW;
        if (oq_tok_is(s, n->tok, "select_random"))
            return QS_RANDOM;
    }
    return oq_error_tok(s, n->tok, "queueSelect is one of select_first (the classifier's queue, else the first), select_admission_queue (the same), select_flow, select_random");
}

/* Compile every attribute, in entity order; defaults for the rest. */
int chk_finish_entities(struct chk *k)
{
    struct oq_policy *p = k->pol;
    struct oq_src *s = k->u;
    const int fifo_stmt = 0;    /* the library's first routine: fifo (not the policy's) */
    for (uint32_t i = 0; i < p->nq; i++) {
        struct oq_queue *q = &p->q[i];
        const struct ent *e = &k->eq[i];
        int v;
        int subj = s->stmts[k->syms[chk_lookup(k, q->name, (uint32_t)strlen(q->name))].stmt].name;
        if (q->port < 0)
            return oq_error_tok(s, subj, "queue '%s' is attached to no port (Port(q1, ...))", q->name);
        q->adm = (v = slot_value(k, e, SL_ADM)) >= 0 ? chk_cmp_value(k, v, E_PACKET) : chk_compile_cmp(k, 1, fifo_stmt, E_PACKET);
        q->proc = (v = slot_value(k, e, SL_PROC)) >= 0 ? chk_cmp_value(k, v, E_PACKET) : chk_compile_cmp(k, 1, fifo_stmt, E_PACKET);
        if (q->adm < 0 || q->proc < 0)
            return -1;
        int act = slot_value(k, e, SL_CONGACT);
        if (act >= 0 && (act = chk_cong_action(k, act)) < 0)
            return -1;
        q->congestion = (v = slot_value(k, e, SL_CONG)) >= 0 ? chk_cond_value(k, v, E_QUEUE, 1, subj, act) : -1;
        if (v < 0 && act >= 0)
            return oq_error_tok(s, s->nodes[act].tok, "congAction without a congestion predicate");
        q->postadm = (v = slot_value(k, e, SL_POST)) >= 0 ? chk_cond_value(k, v, E_QUEUE, 0, subj, -1) : -1;
        if (s->failed)
            return -1;
    }
    for (uint32_t i = 0; i < p->nb; i++) {
        struct oq_buffer *b = &p->b[i];
        const struct ent *e = &k->eb[i];
        int v;
        int subj = s->stmts[k->syms[chk_lookup(k, b->name, (uint32_t)strlen(b->name))].stmt].name;
        b->qprio = (v = slot_value(k, e, SL_ADM)) >= 0 ? chk_cmp_value(k, v, E_QUEUE) : -1;
        int act = slot_value(k, e, SL_CONGACT);
        if (act >= 0 && (act = chk_cong_action(k, act)) < 0)
            return -1;
        b->congestion = (v = slot_value(k, e, SL_CONG)) >= 0 ? chk_cond_value(k, v, E_BUFFER, 1, subj, act) : -1;
        if (v < 0 && act >= 0)
            return oq_error_tok(s, s->nodes[act].tok, "congAction without a congestion predicate");
        b->postadm = (v = slot_value(k, e, SL_POST)) >= 0 ? chk_cond_value(k, v, E_BUFFER, 0, subj, -1) : -1;
        if (s->failed)
            return -1;
    }
    for (uint32_t i = 0; i < p->np; i++) {
        struct oq_port *pt = &p->pt[i];
        const struct ent *e = &k->ep[i];
        int v;
        int subj = s->stmts[k->syms[chk_lookup(k, pt->name, (uint32_t)strlen(pt->name))].stmt].name;
        pt->sched = (v = slot_value(k, e, SL_ADM)) >= 0 ? chk_cmp_value(k, v, E_QUEUE) : -1;
        pt->postsched = (v = slot_value(k, e, SL_POST)) >= 0 ? chk_cond_value(k, v, E_PORT, 0, subj, -1) : -1;
        pt->qselect = (v = slot_value(k, e, SL_SEL)) >= 0 ? queue_select(k, v) : QS_FIRST;
        if (s->failed)
            return -1;
    }
    return 0;
}

/* Definitions nothing uses are checked too: a comparator for Packet then
 * Queue, a condition for Queue then Buffer then Port; the error of the
 * first try is the one reported when none fits. */
int chk_check_unused(struct chk *k)
{
    struct oq_src *s = k->u;
    struct oq_policy *p = k->pol;
    for (uint32_t i = 0; i < s->nstmts; i++) {
        const struct stmt *st = &s->stmts[i];
        if (st->kind != S_DEF)
            continue;
        int is_cmp = st->nparams == 2;
        int types[3] = { is_cmp ? E_PACKET : E_QUEUE, is_cmp ? E_QUEUE : E_BUFFER, is_cmp ? -1 : E_PORT };
        if (is_cmp && (k->cmp_cache[i * 2] >= 0 || k->cmp_cache[i * 2 + 1] >= 0))
            continue;
        if (!is_cmp) {
            int used = 0;
            for (int j = 0; j < 6; j++)
                used |= k->cond_cache[i * 6 + (uint32_t)j] >= 0;
            if (used)
                continue;
        }
        char first[400] = "";
        for (int t = 0; t < 3 && types[t] >= 0; t++) {
            uint32_t save[6] = { p->ncode, p->nconsts, p->nloads, p->ncmps, p->nconds, p->ncases };
            uint32_t save_acts = p->nacts;
            int r = is_cmp ? chk_compile_cmp(k, 0, (int)i, types[t]) : chk_compile_cond_def(k, 0, (int)i, types[t], 1);
            if (r >= 0) {
                first[0] = '\0';
                break;
            }
            if (!first[0])
                snprintf(first, sizeof first, "%s", s->err);
            s->failed = 0;
            p->ncode = save[0];
            p->nconsts = save[1];
            p->nloads = save[2];
            p->ncmps = save[3];
            p->nconds = save[4];
            p->ncases = save[5];
            p->nacts = save_acts;
            if (is_cmp)
                k->cmp_cache[i * 2 + (types[t] == E_QUEUE)] = -1;
            else
                for (int j = 0; j < 6; j++)
                    k->cond_cache[i * 6 + (uint32_t)j] = -1;
        }
        if (first[0]) {
            snprintf(s->err, s->errlen, "%s", first);
            s->failed = 1;
            return -1;
        }
    }
    return 0;
}

