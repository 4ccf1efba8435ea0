/*
 * oq_policy.c -- OpenQueue compile entry points, the compiled policy's
 * accessors and its printed structure (roccsim oq check).
 */
#include "openqueue/oq_int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/text.h"

struct oq_policy *oq_compile(const char *text, size_t len, const char *fname, char *err, size_t errlen)
{
    struct oq_src s;
    memset(&s, 0, sizeof s);
    s.text = text;
    s.len = len;
    s.fname = fname ? fname : "<policy>";
    s.err = err;
    s.errlen = errlen;
    if (errlen)
        err[0] = '\0';
    struct oq_policy *p = NULL;
    if (oq_lex(&s) == 0 && oq_parse(&s) == 0)
        p = oq_check(&s);
    if (!p && errlen && !err[0])
        snprintf(err, errlen, "%s:1:1: invalid policy", s.fname);
    free(s.toks);
    free(s.nodes);
    free(s.stmts);
    return p;
}

struct oq_policy *oq_compile_file(const char *path, char *err, size_t errlen)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        text_escape_inplace(err, errlen);
        return NULL;
    }
    char *buf = malloc(OQ_MAX_FILE + 1);
    size_t n = buf ? fread(buf, 1, OQ_MAX_FILE + 1, f) : 0;
    int bad = ferror(f);
    fclose(f);
    if (!buf || bad || n > OQ_MAX_FILE) {
        snprintf(err, errlen, "%s: %s", path, !buf ? "out of memory" : bad ? "read error" : "larger than 1 MiB");
        text_escape_inplace(err, errlen);
        free(buf);
        return NULL;
    }
    struct oq_policy *p = oq_compile(buf, n, path, err, errlen);
    free(buf);
    return p;
}

void oq_policy_free(struct oq_policy *p)
{
    if (!p)
        return;
    free(p->fname); free(p->strings); free(p->q); free(p->b); free(p->pt); free(p->qlist);
    free(p->cmps); free(p->conds); free(p->cases); free(p->acts); free(p->code); free(p->consts);
    free(p->loads); free(p->imports);
    free(p);
}

uint32_t oq_nqueues(const struct oq_policy *p) { return p->nq; }
uint32_t oq_nbuffers(const struct oq_policy *p) { return p->nb; }
uint32_t oq_nports(const struct oq_policy *p) { return p->np; }
const char *oq_queue_name(const struct oq_policy *p, uint32_t q) { return q < p->nq ? p->q[q].name : NULL; }
const char *oq_port_name(const struct oq_policy *p, uint32_t i) { return i < p->np ? p->pt[i].name : NULL; }
const char *oq_buffer_name(const struct oq_policy *p, uint32_t i) { return i < p->nb ? p->b[i].name : NULL; }
uint32_t oq_queue_port(const struct oq_policy *p, uint32_t q) { return q < p->nq ? (uint32_t)p->q[q].port : UINT32_MAX; }
uint32_t oq_port_nqueues(const struct oq_policy *p, uint32_t i) { return i < p->np ? p->pt[i].nq : 0; }
uint32_t oq_port_queue(const struct oq_policy *p, uint32_t i, uint32_t j)
{
    return i < p->np && j < p->pt[i].nq ? p->qlist[p->pt[i].first_q + j] : UINT32_MAX;
}

int oq_queue_index(const struct oq_policy *p, const char *name)
{
    for (uint32_t i = 0; i < p->nq; i++)
        if (!strcmp(p->q[i].name, name))
            return (int)i;
    return -1;
}

int oq_port_index(const struct oq_policy *p, const char *name)
{
    for (uint32_t i = 0; i < p->np; i++)
        if (!strcmp(p->pt[i].name, name))
            return (int)i;
    return -1;
}

void oq_port_rate(const struct oq_policy *p, uint32_t i, int *kind, double *value)
{
    *kind = i < p->np ? p->pt[i].rate_kind : OQ_RATE_PERCENT;
    *value = i < p->np ? p->pt[i].rate : 100;
}

/* ---------------------------------------------------------------- print */

#define PSLOT 200

static void load_text(const struct load *l, int cmp, char *buf, size_t cap)
{
    static const char *const bases[] = { "x", "y", "self", "pkt", "now", "const" };
    size_t k = (size_t)snprintf(buf, cap, "%s", l->base == LB_SUBJECT && !cmp ? "self" : bases[l->base]);
    if (l->base == LB_NOW)
        return;
    for (int i = 0; i < l->nhops && k < cap; i++)
        k += (size_t)snprintf(buf + k, cap - k, ".%s", oq_hop_name(l->hops[i]));
    if (k < cap)
        snprintf(buf + k, cap - k, ".%s", oq_prop_name(l->prop));
}

/* The infix form of compiled code (decompiled from the stack code). */
static void code_text(const struct oq_policy *p, struct code c, char *out, size_t cap)
{
    static const char *const ops[] = { "", "", "+", "-", "*", "/", "-", "!", "<", "<=", ">", ">=", "==", "!=", "&&", "||" };
    char st[OQ_STACK + 1][PSLOT];
    int sp = 0;
    for (uint32_t i = c.start; i < c.start + c.len && sp <= OQ_STACK; i++) {
        const struct insn *in = &p->code[i];
        if (in->op == OP_CONST) {
            snprintf(st[sp++], PSLOT, "%.10g", p->consts[in->arg]);
        } else if (in->op == OP_LOAD) {
            load_text(&p->loads[in->arg], 1, st[sp++], PSLOT);
        } else if (in->op == OP_NEG || in->op == OP_NOT) {
            char t[PSLOT];
            snprintf(t, sizeof t, "%s(%s)", ops[in->op], st[sp - 1]);
            memcpy(st[sp - 1], t, PSLOT);
        } else if (sp >= 2) {
            char t[PSLOT];
            snprintf(t, sizeof t, "(%.90s %s %.90s)", st[sp - 2], ops[in->op], st[sp - 1]);
            sp--;
            memcpy(st[sp - 1], t, PSLOT);
        }
    }
    snprintf(out, cap, "%s", sp ? st[0] : "?");
}

static void rpn_text(const struct oq_policy *p, struct code c, FILE *out)
{
    static const char *const names[] = { "const", "load", "add", "sub", "mul", "div", "neg", "not",
                                         "lt", "le", "gt", "ge", "eq", "ne", "and", "or" };
    for (uint32_t i = c.start; i < c.start + c.len; i++) {
        const struct insn *in = &p->code[i];
        char t[PSLOT];
        if (in->op == OP_CONST)
            fprintf(out, " const %.10g;", p->consts[in->arg]);
        else if (in->op == OP_LOAD) {
            load_text(&p->loads[in->arg], 1, t, sizeof t);
            fprintf(out, " load %s;", t);
        } else
            fprintf(out, " %s;", names[in->op]);
    }
}

static void print_cmp(const struct oq_policy *p, int i, FILE *out)
{
    if (i < 0) {
        fprintf(out, "(none: port order)\n");
        return;
    }
    const struct cmp *m = &p->cmps[i];
    char t[400];
    if (m->mode != CM_GENERAL) {
        code_text(p, m->key, t, sizeof t);
        fprintf(out, "%s: rank key %s, %s%s\n", m->label, t, m->mode == CM_KEY_ASC ? "smallest first" : "largest first",
                m->arrival_order ? " (arrival order)" : "");
    } else {
        code_text(p, m->full, t, sizeof t);
        fprintf(out, "%s: comparator %s, bytecode:", m->label, t);
        rpn_text(p, m->full, out);
        fputc('\n', out);
    }
}

static void print_cond(const struct oq_policy *p, int i, FILE *out)
{
    if (i < 0) {
        fprintf(out, "-\n");
        return;
    }
    const struct cond *cd = &p->conds[i];
    fprintf(out, "%s, %u case%s\n", cd->label, cd->ncases, cd->ncases == 1 ? "" : "s");
    for (uint32_t c = 0; c < cd->ncases; c++) {
        const struct cond_case *cc = &p->cases[cd->first_case + c];
        char t[400];
        code_text(p, cc->pred, t, sizeof t);
        fprintf(out, "      case %u: if %s ->", c + 1, t);
        for (uint32_t a = 0; a < cc->nactions; a++) {
            const struct action *ac = &p->acts[cc->first_action + a];
            fputs(a ? " ." : "", out);
            if (ac->kind == ACT_DROP) {
                if (ac->prob_const)
                    fprintf(out, " drop(%g)", ac->prob);
                else {
                    code_text(p, ac->expr, t, sizeof t);
                    fprintf(out, " drop(%s, clamped to [0, 1])", t);
                }
            } else if (ac->kind == ACT_MODIFY) {
                char l[PSLOT];
                load_text(&ac->target, 0, l, sizeof l);
                code_text(p, ac->expr, t, sizeof t);
                fprintf(out, " modify(%s := %s)", l, t);
            } else {
                fputs(ac->kind == ACT_MARK ? " mark" : " notify", out);
            }
        }
        fputc('\n', out);
    }
}

static const char *unit_name(int u) { return u == U_PKTS ? "packets" : "bytes"; }

void oq_policy_print(const struct oq_policy *p, FILE *out)
{
    fprintf(out, "policy %s: %u queue%s, %u buffer%s, %u port%s\n", p->fname, p->nq, p->nq == 1 ? "" : "s",
            p->nb, p->nb == 1 ? "" : "s", p->np, p->np == 1 ? "" : "s");
    for (uint32_t i = 0; i < p->nimports; i++)
        fprintf(out, "import %s (routines come from the built-in library)\n", p->imports[i]);
    for (uint32_t i = 0; i < p->nq; i++) {
        const struct oq_queue *q = &p->q[i];
        fprintf(out, "queue %s: size %.0f %s, port %s, buffer %s\n", q->name, q->size, unit_name(q->unit),
                p->pt[q->port].name, q->buffer >= 0 ? p->b[q->buffer].name : "-");
        fprintf(out, "    state: admState %g, schedState %g, weightAdm %g, weightSched %g\n",
                q->init[0], q->init[1], q->init[2], q->init[3]);
        fprintf(out, "    admPrio     ");
        print_cmp(p, q->adm, out);
        fprintf(out, "    procPrio    ");
        print_cmp(p, q->proc, out);
        const struct cmp *a = &p->cmps[q->adm], *b = &p->cmps[q->proc];
        fprintf(out, "    structure   %s\n", a->arrival_order && b->arrival_order ? "ring buffer in arrival order, O(1)"
                : "two binary heaps (admission, processing), O(log n)");
        fprintf(out, "    congestion  ");
        print_cond(p, q->congestion, out);
        fprintf(out, "    postAdmAct  ");
        print_cond(p, q->postadm, out);
    }
    for (uint32_t i = 0; i < p->nb; i++) {
        const struct oq_buffer *b = &p->b[i];
        fprintf(out, "buffer %s: size %.0f %s, queues", b->name, b->size, unit_name(b->unit));
        for (uint32_t j = 0; j < b->nq; j++)
            fprintf(out, " %s", p->q[p->qlist[b->first_q + j]].name);
        fprintf(out, "\n    queuePrio   ");
        if (b->qprio < 0)
            fprintf(out, "(none: the arrival's queue)\n");
        else
            print_cmp(p, b->qprio, out);
        fprintf(out, "    congestion  ");
        print_cond(p, b->congestion, out);
        fprintf(out, "    postAdmAct  ");
        print_cond(p, b->postadm, out);
    }
    for (uint32_t i = 0; i < p->np; i++) {
        const struct oq_port *pt = &p->pt[i];
        static const char *const sel[] = { "select_first", "select_flow", "select_random" };
        if (pt->rate_kind == OQ_RATE_PERCENT)
            fprintf(out, "port %s: rate %g%%, queues", pt->name, pt->rate);
        else
            fprintf(out, "port %s: rate %.0f bps, queues", pt->name, pt->rate);
        for (uint32_t j = 0; j < pt->nq; j++)
            fprintf(out, " %s", p->q[p->qlist[pt->first_q + j]].name);
        fprintf(out, "\n    queueSelect %s\n    schedPrio   ", sel[pt->qselect]);
        print_cmp(p, pt->sched, out);
        fprintf(out, "    postSchedAct ");
        print_cond(p, pt->postsched, out);
    }
    fprintf(out, "compiled: %u comparators, %u conditions, %u instructions, %u constants, %u field loads\n",
            p->ncmps, p->nconds, p->ncode, p->nconsts, p->nloads);
}
