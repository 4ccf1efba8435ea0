/*
 * oq_check.c -- OpenQueue checker and compiler: statements (oq_parse.c) ->
 * struct oq_policy.  Names, entities, attributes, defaults and every
 * static error of the language (docs/openqueue.md "Errors"); expressions
 * are compiled by oq_expr.c.
 *
 * Routines named in a policy come from the policy itself first, then from
 * the built-in library oq_builtin_src (OpenQueue source, below), so a
 * policy may redefine fifo or lqf (Fig. 2.8, 2.9 do) without a clash.
 */
#include "openqueue/oq_chk.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The built-in library: Fig. 2.8 and 2.9, plus value orders and the
 * congestion routines the figures name (tailDrop, defCongestion). */
const char oq_builtin_src[] =
    "fifo(p1, p2) = p1.arrival < p2.arrival;\n"
    "rfifo(p1, p2) = p1.arrival > p2.arrival;\n"
    "srpt(p1, p2) = p1.processing < p2.processing;\n"
    "rsrpt(p1, p2) = p1.processing > p2.processing;\n"
    "hvf(p1, p2) = p1.value > p2.value;\n"
    "lvf(p1, p2) = p1.value < p2.value;\n"
    "edf(p1, p2) = p1.arrival + p1.slack < p2.arrival + p2.slack;\n"
    "lqf(q1, q2) = q1.currSize > q2.currSize;\n"
    "sqf(q1, q2) = q1.currSize < q2.currSize;\n"
    "maxqf(q1, q2) = q1.schedState > q2.schedState;\n"
    "minqf(q1, q2) = q1.schedState < q2.schedState;\n"
    "crr(q1, q2) = q1.schedState < q2.schedState;\n"
    "lqd(q1, q2) = q1.currSize < q2.currSize;\n"
    "holValue(q1, q2) = q1.getHOL().value > q2.getHOL().value;\n"
    "tailDrop(q) = q.currSize >= q.size, drop(1);\n"
    "defCongestion(q) = q.currSize >= q.size, drop(1);\n";

struct oq_src *chk_src_of(struct chk *k, int builtin) { return builtin ? k->b : k->u; }

static uint32_t hash(const char *s, uint32_t n)
{
    uint32_t h = 2166136261u;
    for (uint32_t i = 0; i < n; i++)
        h = (h ^ (uint8_t)s[i]) * 16777619u;
    return h;
}

int chk_lookup(struct chk *k, const char *s, uint32_t n)
{
    for (uint32_t h = hash(s, n) & (k->hcap - 1);; h = (h + 1) & (k->hcap - 1)) {
        uint32_t i = k->ht[h];
        if (i == 0)
            return -1;
        struct sym *y = &k->syms[i - 1];
        if (y->len == n && !memcmp(y->name, s, n))
            return (int)i - 1;
    }
}

int chk_lookup_tok(struct chk *k, struct oq_src *s, int tok)
{
    return chk_lookup(k, s->text + s->toks[tok].start, s->toks[tok].len);
}

static int add_sym(struct chk *k, struct oq_src *s, int tok, int kind, uint32_t stmt, int builtin)
{
    int old = chk_lookup_tok(k, s, tok);
    if (old >= 0) {
        if (builtin)
            return 0;          /* the policy's own definition shadows the library's */
        const struct sym *y = &k->syms[old];
        const struct stmt *os = &k->u->stmts[y->stmt];
        char name[64];
        oq_tok_text(s, tok, name, sizeof name);
        return oq_error_tok(s, tok, "'%s' is already defined at line %d", name, k->u->toks[os->name].line);
    }
    struct sym *y = &k->syms[k->nsyms];
    memset(y, 0, sizeof *y);
    y->kind = (uint8_t)kind;
    y->stmt = stmt;
    y->builtin = (uint8_t)builtin;
    y->name = s->text + s->toks[tok].start;
    y->len = s->toks[tok].len;
    y->idx = -1;
    uint32_t h = hash(y->name, y->len) & (k->hcap - 1);
    while (k->ht[h])
        h = (h + 1) & (k->hcap - 1);
    k->ht[h] = ++k->nsyms;
    return 0;
}

/* A copy of a token's text in the policy's string table. */
const char *chk_keep(struct chk *k, struct oq_src *s, int tok)
{
    uint32_t n = s->toks[tok].len;
    if (k->strused + n + 1 > k->strcap)
        return "?";
    char *d = k->pol->strings + k->strused;
    memcpy(d, s->text + s->toks[tok].start, n);
    d[n] = '\0';
    k->strused += n + 1;
    return d;
}

/* ------------------------------------------------------------ constants */

int chk_eval_const(struct chk *k, struct oq_src *s, int nd, double *v, int *unit, int depth);

static int const_sym(struct chk *k, int si, int tok_use, double *v, int *unit, int depth)
{
    struct sym *y = &k->syms[si];
    if (y->state == 1) {
        char name[64];
        oq_tok_text(k->u, k->u->stmts[y->stmt].name, name, sizeof name);
        return oq_error_tok(k->u, k->u->stmts[y->stmt].name, "cycle of definitions through '%s'", name);
    }
    if (y->state == 0) {
        y->state = 1;
        double x;
        int un;
        if (chk_eval_const(k, k->u, k->u->stmts[y->stmt].body, &x, &un, depth + 1) < 0)
            return -1;
        y->val = x;
        y->unit = (uint8_t)un;
        y->state = 2;
    }
    (void)tok_use;
    *v = y->val;
    *unit = y->unit;
    return 0;
}

int chk_eval_const(struct chk *k, struct oq_src *s, int nd, double *v, int *unit, int depth)
{
    const struct node *n = &s->nodes[nd];
    if (depth > 200)
        return oq_error_tok(s, n->tok, "constants nested too deeply");
    double a, b;
    int ua, ub;
    char name[64];
    switch (n->kind) {
    case N_NUM:
        *v = n->num;
        *unit = n->unit;
        return 0;
    case N_NAME: {
        oq_tok_text(s, n->tok, name, sizeof name);
        int si = chk_lookup_tok(k, s, n->tok);
        if (si < 0)
            return oq_error_tok(s, n->tok, "unknown name '%s'", name);
        if (k->syms[si].kind != SY_CONST)
            return oq_error_tok(s, n->tok, "'%s' is not a number", name);
        return const_sym(k, si, n->tok, v, unit, depth);
    }
    case N_UN:
        if (chk_eval_const(k, s, n->a, &a, &ua, depth + 1) < 0)
            return -1;
        *v = n->op == T_MINUS ? -a : a == 0;
        *unit = n->op == T_MINUS ? ua : U_NONE;
        return 0;
    case N_BIN:
        if (chk_eval_const(k, s, n->a, &a, &ua, depth + 1) < 0 || chk_eval_const(k, s, n->b, &b, &ub, depth + 1) < 0)
            return -1;
        if ((n->op == T_PLUS || n->op == T_MINUS) && ua && ub && ua != ub)
            return oq_error_tok(s, n->tok, "adds quantities of different units");
        *unit = ua ? ua : ub;
        switch (n->op) {
        case T_PLUS: *v = a + b; break;
        case T_MINUS: *v = a - b; break;
        case T_STAR: *v = a * b; break;
        case T_SLASH: *v = b == 0 ? 0 : a / b; break;
        default:
            return oq_error_tok(s, n->tok, "a constant is a number (+ - * / only)");
        }
        if (!isfinite(*v))
            return oq_error_tok(s, n->tok, "constant out of range");
        return 0;
    default:
        return oq_error_tok(s, n->tok, "expected a constant number here");
    }
}

static int find_const_cb(void *user, int tok, double *v)
{
    struct chk *k = user;
    int si = chk_lookup_tok(k, k->u, tok);
    if (si < 0 || k->syms[si].kind != SY_CONST || k->syms[si].builtin)
        return -1;
    const struct node *body = &k->u->nodes[k->u->stmts[k->syms[si].stmt].body];
    if (body->kind == N_NAME) {
        int ti = chk_lookup_tok(k, k->u, body->tok);
        if (ti >= 0 && k->syms[ti].kind == SY_DEF)
            return -1;
    }
    int unit;
    return const_sym(k, si, tok, v, &unit, 0) < 0 ? -2 : 0;
}

static int find_entity_cb(void *user, const char *name)
{
    struct chk *k = user;
    int si = chk_lookup(k, name, (uint32_t)strlen(name));
    return si >= 0 && k->syms[si].kind <= SY_PORT ? si : -1;
}

/* ------------------------------------------------------------- routines */

/* The definition a routine name refers to (following aliases "a = b"):
 * sets *builtin and returns its statement index, or -1 with an error. */
static int routine(struct chk *k, struct oq_src *s, int tok, int *builtin)
{
    char name[64];
    oq_tok_text(s, tok, name, sizeof name);
    for (int hops = 0;; hops++) {
        int si = chk_lookup_tok(k, s, tok);
        if (si < 0)
            return oq_error_tok(s, tok, "unknown routine '%s' (neither defined in the policy nor built in: docs/openqueue.md)", name);
        struct sym *y = &k->syms[si];
        if (y->kind == SY_DEF) {
            *builtin = y->builtin;
            return (int)y->stmt;
        }
        if (y->kind != SY_CONST) {
            char nm[64];
            oq_tok_text(s, tok, nm, sizeof nm);
            return oq_error_tok(s, tok, "'%s' is an entity, not a routine", nm);
        }
        const struct stmt *st = &k->u->stmts[y->stmt];
        const struct node *body = &k->u->nodes[st->body];
        if (body->kind != N_NAME) {
            oq_tok_text(s, tok, name, sizeof name);
            return oq_error_tok(s, tok, "'%s' is a number, not a routine", name);
        }
        if (y->state == 1 || hops > (int)k->nsyms) {
            oq_tok_text(k->u, st->name, name, sizeof name);
            return oq_error_tok(k->u, st->name, "cycle of definitions through '%s'", name);
        }
        y->state = 1;
        s = k->u;
        tok = body->tok;
    }
}

static void reset_states(struct chk *k)
{
    for (uint32_t i = 0; i < k->nsyms; i++)
        if (k->syms[i].kind == SY_CONST && k->syms[i].state == 1)
            k->syms[i].state = 0;
}

static void ctx_init(struct chk *k, struct cctx *c, struct oq_src *s, int kind)
{
    memset(c, 0, sizeof *c);
    c->s = s;
    c->pol = k->pol;
    c->kind = kind;
    c->param[0] = c->param[1] = -1;
    c->find_const = s == k->u ? find_const_cb : NULL;
    c->find_entity = find_entity_cb;
    c->user = k;
}

static int grow_cmps(struct chk *k, struct oq_src *s, int tok)
{
    struct oq_policy *p = k->pol;
    if (p->ncmps && (p->ncmps & (p->ncmps - 1)))
        return 0;
    struct cmp *n = realloc(p->cmps, (p->ncmps ? p->ncmps * 2 : 8) * sizeof *n);
    if (!n)
        return oq_error_tok(s, tok, "out of memory");
    p->cmps = n;
    return 0;
}

static int same_mod_swap(const struct oq_policy *p, struct code l, struct code r)
{
    if (l.len != r.len)
        return 0;
    for (uint32_t i = 0; i < l.len; i++) {
        const struct insn *a = &p->code[l.start + i], *b = &p->code[r.start + i];
        if (a->op != b->op)
            return 0;
        if (a->op == OP_CONST && a->arg != b->arg)
            return 0;
        if (a->op == OP_LOAD) {
            struct load la = p->loads[a->arg], lb = p->loads[b->arg];
            if (la.base != LB_ARG0 || lb.base != LB_ARG1)
                return 0;
            lb.base = LB_ARG0;
            if (memcmp(&la, &lb, sizeof la))
                return 0;
        }
    }
    return 1;
}

/* Compile comparator definition stmt (of source s) for element type. */
int chk_compile_cmp(struct chk *k, int builtin, int stmt, int type)
{
    struct oq_src *s = chk_src_of(k, builtin);
    int *cache = &k->cmp_cache[((builtin ? k->u->nstmts : 0) + (uint32_t)stmt) * 2 + (type == E_QUEUE)];
    if (*cache >= 0)
        return *cache;
    const struct stmt *st = &s->stmts[stmt];
    if (st->nparams != 2) {
        char name[64];
        oq_tok_text(s, st->name, name, sizeof name);
        return oq_error_tok(s, st->name, "'%s' is a condition (one subject), but a comparator (x, y) is needed here", name);
    }
    struct cctx c;
    ctx_init(k, &c, s, CX_CMP);
    c.param[0] = st->params[0];
    c.param[1] = st->params[1];
    c.ptype[0] = c.ptype[1] = type;
    c.pbase[0] = LB_ARG0;
    c.pbase[1] = LB_ARG1;
    if (grow_cmps(k, s, st->name) < 0)
        return -1;
    struct cmp m;
    memset(&m, 0, sizeof m);
    m.name = st->name;
    m.label = chk_keep(k, s, st->name);
    m.type = (uint8_t)type;
    m.def = builtin ? -1 : stmt;
    m.mode = CM_GENERAL;
    const struct node *body = &s->nodes[st->body];
    int op = body->kind == N_BIN ? body->op : -1;
    c.sp = 0;
    if (op == T_LT || op == T_LE || op == T_GT || op == T_GE) {
        struct code l, r;
        m.full.start = k->pol->ncode;
        c.used_args = 0;
        if (oq_compile_expr(&c, body->a, &l) < 0)
            return -1;
        unsigned lu = c.used_args;
        c.used_args = 0;
        if (oq_compile_expr(&c, body->b, &r) < 0)
            return -1;
        unsigned ru = c.used_args;
        if (oq_emit(&c, op == T_LT ? OP_LT : op == T_LE ? OP_LE : op == T_GT ? OP_GT : OP_GE, 0, body->tok) < 0)
            return -1;
        m.full.len = k->pol->ncode - m.full.start;
        if (lu == 1 && ru == 2 && same_mod_swap(k->pol, l, r)) {
            m.mode = op == T_LT || op == T_LE ? CM_KEY_ASC : CM_KEY_DESC;
            m.key = l;
            const struct insn *in = &k->pol->code[l.start];
            m.arrival_order = m.mode == CM_KEY_ASC && l.len == 1 && in->op == OP_LOAD &&
                              k->pol->loads[in->arg].nhops == 0 && k->pol->loads[in->arg].prop == P_ARRIVAL;
        }
    } else if (oq_compile_expr(&c, st->body, &m.full) < 0) {
        return -1;
    }
    m.uses_dyn = (uint8_t)c.uses_dyn;
    k->pol->cmps[k->pol->ncmps] = m;
    return *cache = (int)k->pol->ncmps++;
}

/* inline{e}: e is a priority value of the element; larger ranks first. */
static int compile_inline_cmp(struct chk *k, int nd, int type)
{
    struct oq_src *s = k->u;
    const struct node *n = &s->nodes[nd];
    struct cctx c;
    ctx_init(k, &c, s, CX_CMP);
    c.is_inline = 1;
    c.ptype[0] = type;
    c.pbase[0] = LB_ARG0;
    if (grow_cmps(k, s, n->tok) < 0)
        return -1;
    struct cmp m;
    memset(&m, 0, sizeof m);
    m.name = -1;
    m.label = "inline";
    m.type = (uint8_t)type;
    m.def = -1;
    m.mode = CM_KEY_DESC;
    c.sp = 0;
    m.full.start = k->pol->ncode;
    if (oq_compile_expr(&c, n->a, &m.key) < 0)
        return -1;
    c.pbase[0] = LB_ARG1;
    struct code r;
    if (oq_compile_expr(&c, n->a, &r) < 0 || oq_emit(&c, OP_GT, 0, n->tok) < 0)
        return -1;
    m.full.len = k->pol->ncode - m.full.start;
    m.uses_dyn = (uint8_t)c.uses_dyn;
    k->pol->cmps[k->pol->ncmps] = m;
    return (int)k->pol->ncmps++;
}

/* A comparator attribute's value: name, name(), or inline{}. */
int chk_cmp_value(struct chk *k, int nd, int type)
{
    struct oq_src *s = k->u;
    const struct node *n = &s->nodes[nd];
    if (n->kind == N_INLINE)
        return compile_inline_cmp(k, nd, type);
    int tok;
    if (n->kind == N_NAME) {
        tok = n->tok;
    } else if (n->kind == N_CALL && s->nodes[n->a].kind == N_NAME) {
        if (n->b >= 0)
            return oq_error_tok(s, s->nodes[n->b].tok, "a comparator is named without arguments: fifo or fifo()");
        tok = s->nodes[n->a].tok;
    } else {
        return oq_error_tok(s, n->tok, "expected a comparator: a name (fifo), name() or inline{expression}");
    }
    int builtin, stmt = routine(k, s, tok, &builtin);
    reset_states(k);
    if (stmt < 0)
        return -1;
    if (chk_src_of(k, builtin)->stmts[stmt].nparams != 2) {
        char name[64];
        oq_tok_text(s, tok, name, sizeof name);
        return oq_error_tok(s, tok, "'%s' is a condition (one subject), but a comparator (x, y) is needed here", name);
    }
    return chk_compile_cmp(k, builtin, stmt, type);
}

/* ----------------------------------------------------------- conditions */

static int grow_arr(struct oq_src *s, int tok, void **arr, uint32_t n, uint32_t add, size_t elem)
{
    /* capacity: the next power of two >= n (at least 8) */
    uint32_t cap = 8;
    while (cap < n)
        cap *= 2;
    if (n + add <= cap && n != 0)
        return 0;
    while (cap < n + add)
        cap *= 2;
    void *na = realloc(*arr, (size_t)cap * elem);
    if (!na)
        return oq_error_tok(s, tok, "out of memory");
    *arr = na;
    return 0;
}

/* Actions of one case. */
static int compile_actions(struct chk *k, struct cctx *c, int first, int allow_drop, uint32_t *n_out)
{
    struct oq_src *s = c->s;
    struct oq_policy *p = k->pol;
    uint32_t n = 0;
    for (int a = first; a >= 0; a = s->nodes[a].next, n++) {
        const struct node *an = &s->nodes[a];
        if (grow_arr(s, an->tok, (void **)&p->acts, p->nacts, 1, sizeof *p->acts) < 0)
            return -1;
        struct action ac;
        memset(&ac, 0, sizeof ac);
        ac.kind = an->op;
        if (an->op == ACT_DROP) {
            if (!allow_drop)
                return oq_error_tok(s, an->tok, "drop is a congestion() action: postAdmAct and postSchedAct allow mark, notify and modify");
            if (an->a < 0) {
                ac.prob_const = 1;
                ac.prob = 1;
            } else {
                c->sp = 0;
                if (oq_compile_expr(c, an->a, &ac.expr) < 0)
                    return -1;
                double v;
                if (oq_const_value(c, ac.expr, &v) == 0) {
                    if (!(v >= 0 && v <= 1))
                        return oq_error_tok(s, s->nodes[an->a].tok, "drop probability %g is outside [0, 1]", v);
                    ac.prob_const = 1;
                    ac.prob = v;
                }
            }
        } else if (an->op == ACT_MODIFY) {
            if (oq_compile_target(c, an->b, &ac.target) < 0)
                return -1;
            c->sp = 0;
            if (oq_compile_expr(c, an->a, &ac.expr) < 0)
                return -1;
        }
        p->acts[p->nacts++] = ac;
    }
    *n_out = n;
    return 0;
}

/* Compile cases (an N_CASES node, or an inline predicate with one action
 * node chain) into a struct cond.  param: the subject's parameter token or
 * -1; type: the subject's type. */
static int compile_cases(struct chk *k, struct oq_src *s, int nd, int param, int type, int allow_drop,
                         int is_inline, const char *label, int pred_only_act)
{
    struct oq_policy *p = k->pol;
    struct cctx c;
    ctx_init(k, &c, s, CX_COND);
    c.param[0] = param;
    c.ptype[0] = type;
    c.pbase[0] = LB_SUBJECT;
    c.has_pkt = 1;
    c.is_inline = is_inline;
    if (grow_arr(s, s->nodes[nd].tok, (void **)&p->conds, p->nconds, 1, sizeof *p->conds) < 0)
        return -1;
    struct cond cd = { .label = label, .type = (uint8_t)type, .first_case = p->ncases, .ncases = 0 };
    if (is_inline) {
        /* inline{predicate}: one case, its action from congAction */
        if (grow_arr(s, s->nodes[nd].tok, (void **)&p->cases, p->ncases, 1, sizeof *p->cases) < 0)
            return -1;
        struct cond_case cc = { .first_action = p->nacts };
        c.sp = 0;
        if (oq_compile_expr(&c, s->nodes[nd].a, &cc.pred) < 0)
            return -1;
        if (pred_only_act >= 0) {
            if (compile_actions(k, &c, pred_only_act, allow_drop, &cc.nactions) < 0)
                return -1;
        } else {
            if (grow_arr(s, s->nodes[nd].tok, (void **)&p->acts, p->nacts, 1, sizeof *p->acts) < 0)
                return -1;
            struct action ac = { .kind = ACT_DROP, .prob_const = 1, .prob = 1 };
            p->acts[p->nacts++] = ac;
            cc.nactions = 1;
        }
        p->cases[p->ncases++] = cc;
        cd.ncases = 1;
    } else {
        for (int cn = s->nodes[nd].a; cn >= 0; cn = s->nodes[cn].next) {
            if (grow_arr(s, s->nodes[cn].tok, (void **)&p->cases, p->ncases, 1, sizeof *p->cases) < 0)
                return -1;
            struct cond_case cc = { .first_action = 0 };
            c.sp = 0;
            if (oq_compile_expr(&c, s->nodes[cn].a, &cc.pred) < 0)
                return -1;
            cc.first_action = p->nacts;
            if (compile_actions(k, &c, s->nodes[cn].b, allow_drop, &cc.nactions) < 0)
                return -1;
            p->cases[p->ncases++] = cc;
            cd.ncases++;
        }
    }
    p->conds[p->nconds] = cd;
    return (int)p->nconds++;
}

static int type_slot(int type) { return type == E_QUEUE ? 0 : type == E_BUFFER ? 1 : 2; }

int chk_compile_cond_def(struct chk *k, int builtin, int stmt, int type, int allow_drop)
{
    struct oq_src *s = chk_src_of(k, builtin);
    int *cache = &k->cond_cache[((builtin ? k->u->nstmts : 0) + (uint32_t)stmt) * 6 + type_slot(type) * 2 + allow_drop];
    if (*cache >= 0)
        return *cache;
    const struct stmt *st = &s->stmts[stmt];
    char name[64];
    oq_tok_text(s, st->name, name, sizeof name);
    if (st->nparams == 2)
        return oq_error_tok(s, st->name, "'%s' is a comparator (x, y), but a condition is needed here", name);
    const struct node *body = &s->nodes[st->body];
    if (body->kind != N_CASES)
        return oq_error_tok(s, body->tok, "condition '%s' needs (predicate, action) cases", name);
    int r = compile_cases(k, s, st->body, st->nparams ? st->params[0] : -1, type, allow_drop, 0, chk_keep(k, s, st->name), -1);
    return r < 0 ? -1 : (*cache = r);
}

/* A condition attribute's value.  subj: the token naming the subject
 * entity (for "tailDrop(q1)"); act: congAction's node or -1. */
int chk_cond_value(struct chk *k, int nd, int type, int allow_drop, int subj, int act)
{
    struct oq_src *s = k->u;
    const struct node *n = &s->nodes[nd];
    if (n->kind == N_INLINE)
        return compile_cases(k, s, nd, -1, type, allow_drop, 1, "inline", act);
    if (act >= 0)
        return oq_error_tok(s, s->nodes[act].tok, "congAction applies to an inline{predicate} congestion; this condition has its own actions");
    if (n->kind == N_CASES)
        return compile_cases(k, s, nd, -1, type, allow_drop, 0, "cases", -1);
    int tok;
    if (n->kind == N_NAME) {
        tok = n->tok;
    } else if (n->kind == N_CALL && s->nodes[n->a].kind == N_NAME) {
        tok = s->nodes[n->a].tok;
        if (n->b >= 0) {
            const struct node *arg = &s->nodes[n->b];
            char an[64], sn[64];
            oq_tok_text(s, arg->tok, an, sizeof an);
            oq_tok_text(s, subj, sn, sizeof sn);
            if (arg->kind != N_NAME || arg->next >= 0 || strcmp(an, sn))
                return oq_error_tok(s, arg->tok, "a condition attached to '%s' is instantiated with '%s' (write %s or leave the argument out)", sn, an, sn);
        }
    } else {
        return oq_error_tok(s, n->tok, "expected a condition: a name, name(subject), (predicate, action) cases or inline{predicate}");
    }
    int builtin, stmt = routine(k, s, tok, &builtin);
    reset_states(k);
    if (stmt < 0)
        return -1;
    if (chk_src_of(k, builtin)->stmts[stmt].nparams == 2) {
        char name[64];
        oq_tok_text(s, tok, name, sizeof name);
        return oq_error_tok(s, tok, "'%s' is a comparator (x, y), but a condition is needed here", name);
    }
    return chk_compile_cond_def(k, builtin, stmt, type, allow_drop);
}

/* congAction: drop, drop_tail, drop(P), drop_tail(P), mark, notify -> the
 * action node (parsed as an expression: rebuilt as N_ACT here). */
int chk_cong_action(struct chk *k, int nd)
{
    struct oq_src *s = k->u;
    struct node *n = &s->nodes[nd];
    int tok = n->kind == N_CALL ? s->nodes[n->a].tok : n->tok;
    if (n->kind != N_NAME && !(n->kind == N_CALL && s->nodes[n->a].kind == N_NAME))
        return oq_error_tok(s, n->tok, "congAction is an action: drop_tail, drop_tail(P), mark or notify");
    int op;
    if (oq_tok_is(s, tok, "drop") || oq_tok_is(s, tok, "drop_tail"))
        op = ACT_DROP;
    else if (oq_tok_is(s, tok, "mark"))
        op = ACT_MARK;
    else if (oq_tok_is(s, tok, "notify"))
        op = ACT_NOTIFY;
    else {
        char name[64];
        oq_tok_text(s, tok, name, sizeof name);
        return oq_error_tok(s, tok, "unknown action '%s' for congAction (drop_tail, drop_tail(P), mark, notify)", name);
    }
    int arg = n->kind == N_CALL ? n->b : -1;
    if (arg >= 0 && (op != ACT_DROP || s->nodes[arg].next >= 0))
        return oq_error_tok(s, s->nodes[arg].tok, "only drop takes an argument (its probability)");
    n->kind = N_ACT;
    n->op = (uint8_t)op;
    n->a = arg;
    n->b = -1;
    n->next = -1;
    n->tok = tok;
    return nd;
}

struct oq_policy *oq_check(struct oq_src *s)
{
    struct chk k;
    memset(&k, 0, sizeof k);
    k.u = s;
    struct oq_src b;
    memset(&b, 0, sizeof b);
    char berr[400];
    b.text = oq_builtin_src;
    b.len = strlen(oq_builtin_src);
    b.fname = "<builtin>";
    b.err = berr;
    b.errlen = sizeof berr;
    k.b = &b;
    struct oq_policy *p = calloc(1, sizeof *p);
    k.pol = p;
    if (!p || oq_lex(&b) < 0 || oq_parse(&b) < 0) {
        oq_error_at(s, 1, 1, "internal: the built-in library does not compile");
        goto fail;
    }
    uint32_t nsyms = s->nstmts + b.nstmts;
    k.hcap = 16;
    while (k.hcap < nsyms * 2)
        k.hcap *= 2;
    k.syms = calloc(nsyms + 1, sizeof *k.syms);
    k.ht = calloc(k.hcap, sizeof *k.ht);
    k.cmp_cache = malloc((size_t)(nsyms + 1) * 2 * sizeof(int));
    k.cond_cache = malloc((size_t)(nsyms + 1) * 6 * sizeof(int));
    k.strcap = s->len + b.len + 64;
    p->strings = malloc(k.strcap);
    p->fname = malloc(strlen(s->fname) + 1);
    if (!k.syms || !k.ht || !k.cmp_cache || !k.cond_cache || !p->strings || !p->fname) {
        oq_error_at(s, 1, 1, "out of memory");
        goto fail;
    }
    strcpy(p->fname, s->fname);
    for (uint32_t i = 0; i < (nsyms + 1) * 2; i++)
        k.cmp_cache[i] = -1;
    for (uint32_t i = 0; i < (nsyms + 1) * 6; i++)
        k.cond_cache[i] = -1;
    /* names */
    uint32_t nq = 0, nb = 0, np = 0, nqargs = 0;
    for (uint32_t i = 0; i < s->nstmts; i++) {
        const struct stmt *st = &s->stmts[i];
        if (st->kind == S_IMPORT) {
            p->nimports++;
            continue;
        }
        if (st->kind == S_ATTR)
            continue;
        int kind = st->kind == S_DEF ? SY_DEF : st->kind == S_CONST ? SY_CONST
                 : st->ctor == E_QUEUE ? SY_QUEUE : st->ctor == E_BUFFER ? SY_BUFFER : SY_PORT;
        if (add_sym(&k, s, st->name, kind, i, 0) < 0)
            goto fail;
        if (kind <= SY_PORT) {
            struct sym *y = &k.syms[k.nsyms - 1];
            y->idx = (int)(kind == SY_QUEUE ? nq++ : kind == SY_BUFFER ? nb++ : np++);
            if (nq + nb + np > OQ_MAX_ENTITIES) {
                oq_error_tok(s, st->name, "more than %d queues, buffers and ports", OQ_MAX_ENTITIES);
                goto fail;
            }
            for (int a = st->body; a >= 0; a = s->nodes[a].next)
                nqargs++;
        }
    }
    for (uint32_t i = 0; i < b.nstmts; i++)
        if (add_sym(&k, &b, b.stmts[i].name, SY_DEF, i, 1) < 0)
            goto fail;
    p->q = calloc(nq + 1, sizeof *p->q);
    p->b = calloc(nb + 1, sizeof *p->b);
    p->pt = calloc(np + 1, sizeof *p->pt);
    p->qlist = calloc(nqargs + 1, sizeof *p->qlist);
    p->imports = calloc(p->nimports + 1, sizeof *p->imports);
    k.eq = malloc((nq + 1) * sizeof *k.eq);
    k.eb = malloc((nb + 1) * sizeof *k.eb);
    k.ep = malloc((np + 1) * sizeof *k.ep);
    if (!p->q || !p->b || !p->pt || !p->qlist || !p->imports || !k.eq || !k.eb || !k.ep) {
        oq_error_at(s, 1, 1, "out of memory");
        goto fail;
    }
    memset(k.eq, 0xff, (nq + 1) * sizeof *k.eq);
    memset(k.eb, 0xff, (nb + 1) * sizeof *k.eb);
    memset(k.ep, 0xff, (np + 1) * sizeof *k.ep);
    p->nq = nq;
    p->nb = nb;
    p->np = np;
    p->nimports = 0;
    for (uint32_t i = 0; i < s->nstmts; i++) {
        const struct stmt *st = &s->stmts[i];
        if (st->kind == S_IMPORT) {
            p->imports[p->nimports++] = (char *)chk_keep(&k, s, st->name);
        } else if (st->kind == S_ENTITY) {
            const struct sym *y = &k.syms[chk_lookup_tok(&k, s, st->name)];
            const char *nm = chk_keep(&k, s, st->name);
            if (st->ctor == E_QUEUE) {
                struct oq_queue *q = &p->q[y->idx];
                q->name = nm;
                q->buffer = q->port = -1;
                q->line = s->toks[st->name].line;
                q->init[2] = q->init[3] = 1;    /* weights default to 1 */
            } else if (st->ctor == E_BUFFER) {
                p->b[y->idx].name = nm;
            } else {
                p->pt[y->idx].name = nm;
            }
        }
    }
    for (uint32_t i = 0; i < s->nstmts; i++) {
        const struct stmt *st = &s->stmts[i];
        if (st->kind == S_ENTITY && chk_build_entity(&k, i) < 0)
            goto fail;
        if (st->kind == S_CONST) {
            /* a constant must be a number or an alias of a routine */
            const struct node *body = &s->nodes[st->body];
            int si = chk_lookup_tok(&k, s, st->name);
            if (body->kind == N_NAME) {
                int ti = chk_lookup_tok(&k, s, body->tok), bi;
                if (ti >= 0 && k.syms[ti].kind != SY_CONST) {
                    if (k.syms[ti].kind != SY_DEF) {
                        char nm[64];
                        oq_tok_text(s, body->tok, nm, sizeof nm);
                        oq_error_tok(s, body->tok, "'%s' is an entity: a name can stand for a number or a routine only", nm);
                        goto fail;
                    }
                    if (routine(&k, s, st->name, &bi) < 0)
                        goto fail;
                    reset_states(&k);
                    continue;
                }
                if (ti >= 0 && routine(&k, s, st->name, &bi) >= 0) {
                    reset_states(&k);
                    continue;
                }
                reset_states(&k);
                if (s->failed && strstr(s->err, "cycle"))
                    goto fail;
                s->failed = 0;
            }
            double v;
            int u;
            if (const_sym(&k, si, st->name, &v, &u, 0) < 0)
                goto fail;
        }
    }
    for (uint32_t i = 0; i < s->nstmts; i++)
        if (s->stmts[i].kind == S_ATTR && chk_set_attr(&k, i) < 0)
            goto fail;
    if (p->nq == 0) {
        oq_error_at(s, 1, 1, "a policy declares at least one queue and one port");
        goto fail;
    }
    if (chk_finish_entities(&k) < 0 || chk_check_unused(&k) < 0)
        goto fail;
    free(k.syms); free(k.ht); free(k.cmp_cache); free(k.cond_cache); free(k.eq); free(k.eb); free(k.ep);
    free(b.toks); free(b.nodes); free(b.stmts);
    return p;
fail:
    if (!s->failed)
        oq_error_at(s, 1, 1, "internal error%s%s", b.failed ? " in the built-in library: " : "", b.failed ? berr : "");
    free(k.syms); free(k.ht); free(k.cmp_cache); free(k.cond_cache); free(k.eq); free(k.eb); free(k.ep);
    free(b.toks); free(b.nodes); free(b.stmts);
    oq_policy_free(p);
    return NULL;
}
