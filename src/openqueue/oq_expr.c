/*
 * oq_expr.c -- OpenQueue expression type checking and code generation: an
 * AST expression (oq_parse.c) in a context (a comparator over two
 * elements, a condition over its subject, a constant) becomes bytecode
 * (oq_int.h: OP_CONST, OP_LOAD of a field path, arithmetic, comparisons,
 * boolean operators) with a bounded stack depth.
 *
 * Names resolve, in order: the context's parameters (a comparator's x, y;
 * a condition's subject), "pkt" (the packet in scope of a condition), "now"
 * (conditions only), the type names of inline{} expressions (Packet,
 * Queue, Buffer, Port), a bare property of a condition's subject
 * (currSize), true/false, then the policy's numeric constants.
 */
#include "openqueue/oq_expr.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------- property tables */

struct propdef { const char *name; uint8_t type, prop, writable; uint8_t ref; };
/* ref != E_NONE: the property is an entity (hop). */
static const struct propdef props[] = {
    { "arrival", E_PACKET, P_ARRIVAL, 0, 0 }, { "size", E_PACKET, P_SIZE, 0, 0 },
    { "queue", E_PACKET, P_QUEUE, 0, 0 }, { "value", E_PACKET, P_VALUE, 1, 0 },
    { "processing", E_PACKET, P_PROCESSING, 0, 0 }, { "slack", E_PACKET, P_SLACK, 0, 0 },
    { "flow", E_PACKET, P_FLOW, 0, 0 }, { "policyId", E_PACKET, P_POLICYID, 0, 0 },

    { "size", E_QUEUE, P_QSIZE, 0, 0 }, { "currSize", E_QUEUE, P_CURRSIZE, 0, 0 },
    { "length", E_QUEUE, P_LENGTH, 0, 0 }, { "bytes", E_QUEUE, P_BYTES, 0, 0 },
    { "admState", E_QUEUE, P_ADMSTATE, 1, 0 }, { "schedState", E_QUEUE, P_SCHEDSTATE, 1, 0 },
    { "weightAdm", E_QUEUE, P_WEIGHTADM, 1, 0 }, { "weightSched", E_QUEUE, P_WEIGHTSCHED, 1, 0 },
    { "id", E_QUEUE, P_ID, 0, 0 }, { "dropped", E_QUEUE, P_DROPPED, 0, 0 },
    { "port", E_QUEUE, 0, 0, E_PORT }, { "buffer", E_QUEUE, 0, 0, E_BUFFER },

    { "size", E_BUFFER, P_QSIZE, 0, 0 }, { "currSize", E_BUFFER, P_CURRSIZE, 0, 0 },
    { "length", E_BUFFER, P_LENGTH, 0, 0 }, { "bytes", E_BUFFER, P_BYTES, 0, 0 },
    { "admState", E_BUFFER, P_ADMSTATE, 1, 0 }, { "id", E_BUFFER, P_ID, 0, 0 },
    { "dropped", E_BUFFER, P_DROPPED, 0, 0 }, { "currQueue", E_BUFFER, 0, 0, E_QUEUE },

    { "rate", E_PORT, P_RATE, 0, 0 }, { "schedState", E_PORT, P_SCHEDSTATE, 1, 0 },
    { "id", E_PORT, P_ID, 0, 0 }, { "currQueue", E_PORT, 0, 0, E_QUEUE },
};

static const struct propdef *find_prop(int type, const char *name)
{
    for (size_t i = 0; i < sizeof props / sizeof props[0]; i++)
        if (props[i].type == type && !strcmp(props[i].name, name))
            return &props[i];
    return NULL;
}

const char *oq_prop_name(int prop)
{
    static const char *const names[P_COUNT] = {
        "arrival", "size", "queue", "value", "processing", "slack", "flow", "policyId",
        "size", "currSize", "length", "bytes", "admState", "schedState", "weightAdm", "weightSched",
        "id", "dropped", "rate",
    };
    return prop >= 0 && prop < P_COUNT ? names[prop] : "?";
}

const char *oq_etype_name(int t)
{
    static const char *const names[] = { "nothing", "number", "Packet", "Queue", "Buffer", "Port" };
    return t >= 0 && t <= E_PORT ? names[t] : "?";
}

const char *oq_hop_name(int h)
{
    static const char *const names[] = { "port", "buffer", "currQueue", "getHOL()" };
    return h >= 0 && h <= H_HOL ? names[h] : "?";
}

/* The fields of a type, for "unknown field" messages. */
static void field_list(int type, char *buf, size_t cap)
{
    size_t k = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < sizeof props / sizeof props[0]; i++) {
        if (props[i].type != type)
            continue;
        int w = snprintf(buf + k, cap - k, "%s%s", k ? ", " : "", props[i].name);
        if (w < 0 || (size_t)w >= cap - k)
            break;
        k += (size_t)w;
    }
    if (type == E_QUEUE && k + 12 < cap)
        snprintf(buf + k, cap - k, ", getHOL()");
}

int oq_writable(int type, int prop)
{
    for (size_t i = 0; i < sizeof props / sizeof props[0]; i++)
        if (props[i].type == type && props[i].prop == prop && !props[i].ref)
            return props[i].writable;
    return 0;
}

int oq_lookup_prop(int type, const char *name, int *prop, int *writable, int *ref)
{
    const struct propdef *d = find_prop(type, name);
    if (!d)
        return -1;
    *prop = d->prop;
    *writable = d->writable;
    *ref = d->ref;
    return 0;
}

/* ------------------------------------------------------------ emitting */

/* Arrays grow at 16, 32, 64, ...: room for element n. */
static int room(struct oq_src *s, int tok, void **arr, uint32_t n, size_t elem)
{
    if (n != 0 && (n < 16 || (n & (n - 1))))
        return 0;
    uint32_t cap = n ? n * 2 : 16;
    void *na = realloc(*arr, (size_t)cap * elem);
    if (!na)
        return oq_error_tok(s, tok, "out of memory");
    *arr = na;
    return 0;
}

int oq_emit(struct cctx *c, int op, uint32_t arg, int tok)
{
    struct oq_policy *p = c->pol;
    if (room(c->s, tok, (void **)&p->code, p->ncode, sizeof *p->code) < 0)
        return -1;
    p->code[p->ncode].op = (uint8_t)op;
    p->code[p->ncode].arg = arg;
    p->ncode++;
    switch (op) {
    case OP_CONST: case OP_LOAD:
        if (++c->sp > c->maxsp)
            c->maxsp = c->sp;
        if (c->sp > OQ_STACK)
            return oq_error_tok(c->s, tok, "expression too complex: it needs more than %d stack slots", OQ_STACK);
        break;
    case OP_NEG: case OP_NOT:
        break;
    default:
        c->sp--;
    }
    return 0;
}

int oq_add_const(struct cctx *c, double v, int tok, uint32_t *idx)
{
    struct oq_policy *p = c->pol;
    for (uint32_t i = 0; i < p->nconsts; i++)
        if (p->consts[i] == v) {
            *idx = i;
            return 0;
        }
    if (room(c->s, tok, (void **)&p->consts, p->nconsts, sizeof *p->consts) < 0)
        return -1;
    p->consts[p->nconsts] = v;
    *idx = p->nconsts++;
    return 0;
}

int oq_add_load(struct cctx *c, const struct load *l, int tok, uint32_t *idx)
{
    struct oq_policy *p = c->pol;
    for (uint32_t i = 0; i < p->nloads; i++)
        if (!memcmp(&p->loads[i], l, sizeof *l)) {
            *idx = i;
            return 0;
        }
    if (room(c->s, tok, (void **)&p->loads, p->nloads, sizeof *p->loads) < 0)
        return -1;
    p->loads[p->nloads] = *l;
    *idx = p->nloads++;
    return 0;
}

/* ----------------------------------------------------------- resolution */

/* An expression's static value: a number already on the stack, or an
 * entity path not yet loaded. */
struct val {
    int type;              /* E_NUM or an entity type */
    struct load path;      /* entity: base and hops */
};

static int compile_val(struct cctx *c, int nd, struct val *v);

static int name_error(struct cctx *c, int tok, const char *name)
{
    if (c->kind == CX_CONST)
        return oq_error_tok(c->s, tok, "unknown name '%s' in a constant expression", name);
    if (c->kind == CX_CMP && (!strcmp(name, "now") || !strcmp(name, "pkt")))
        return oq_error_tok(c->s, tok, "'%s' in a comparator: a comparator sees only the fields of its two arguments", name);
    if (c->find_entity && c->find_entity(c->user, name) >= 0)
        return oq_error_tok(c->s, tok, "'%s' names an entity: an expression sees only its own arguments (a condition: its subject, pkt, now)", name);
    return oq_error_tok(c->s, tok, "unknown name '%s'", name);
}

static int resolve_name(struct cctx *c, int nd, struct val *v)
{
    struct oq_src *s = c->s;
    int tok = s->nodes[nd].tok;
    char name[64];
    oq_tok_text(s, tok, name, sizeof name);
    memset(v, 0, sizeof *v);
    for (int i = 0; i < 2; i++)
        if (c->param[i] >= 0 && s->toks[tok].len == s->toks[c->param[i]].len &&
            !memcmp(s->text + s->toks[tok].start, s->text + s->toks[c->param[i]].start, s->toks[tok].len)) {
            v->type = c->ptype[i];
            v->path.base = c->pbase[i];
            return 0;
        }
    if (c->kind == CX_COND) {
        if (!strcmp(name, "pkt") || (c->is_inline && !strcmp(name, "Packet"))) {
            if (!c->has_pkt)
                return oq_error_tok(s, tok, "no packet is in scope here");
            v->type = E_PACKET;
            v->path.base = LB_PKT;
            return 0;
        }
        if (!strcmp(name, "now")) {
            struct load l = { .base = LB_NOW };
            uint32_t idx;
            if (oq_add_load(c, &l, tok, &idx) < 0 || oq_emit(c, OP_LOAD, idx, tok) < 0)
                return -1;
            v->type = E_NUM;
            return 0;
        }
        if (c->is_inline && !strcmp(name, oq_etype_name(c->ptype[0]))) {
            v->type = c->ptype[0];
            v->path.base = LB_SUBJECT;
            return 0;
        }
        int prop, w, ref;
        if (oq_lookup_prop(c->ptype[0], name, &prop, &w, &ref) == 0) {
            v->path.base = LB_SUBJECT;
            if (ref) {
                v->type = ref;
                v->path.nhops = 1;
                v->path.hops[0] = ref == E_PORT ? H_PORT : ref == E_BUFFER ? H_BUFFER : H_CURQ;
                return 0;
            }
            v->path.prop = (uint8_t)prop;
            uint32_t idx;
            if (oq_add_load(c, &v->path, tok, &idx) < 0 || oq_emit(c, OP_LOAD, idx, tok) < 0)
                return -1;
            v->type = E_NUM;
            return 0;
        }
    }
    if (c->kind == CX_CMP && c->is_inline && !strcmp(name, oq_etype_name(c->ptype[0]))) {
        v->type = c->ptype[0];
        v->path.base = c->pbase[0];
        return 0;
    }
    double num;
    if (!strcmp(name, "true") || !strcmp(name, "false")) {
        num = name[0] == 't';
    } else if (!c->find_const || c->find_const(c->user, tok, &num) != 0) {
        if (s->failed)
            return -1;
        return name_error(c, tok, name);
    }
    uint32_t idx;
    if (oq_add_const(c, num, tok, &idx) < 0 || oq_emit(c, OP_CONST, idx, tok) < 0)
        return -1;
    v->type = E_NUM;
    return 0;
}

static int add_hop(struct cctx *c, int tok, struct val *v, int hop, int type)
{
    if (v->path.base == LB_NOW || v->path.nhops >= OQ_MAX_HOPS)
        return oq_error_tok(c->s, tok, "path too long: at most %d steps (port, buffer, currQueue, getHOL())", OQ_MAX_HOPS);
    v->path.hops[v->path.nhops++] = (uint8_t)hop;
    v->type = type;
    return 0;
}

static int compile_field(struct cctx *c, int nd, struct val *v)
{
    struct oq_src *s = c->s;
    const struct node *n = &s->nodes[nd];
    if (compile_val(c, n->a, v) < 0)
        return -1;
    char name[64];
    oq_tok_text(s, n->tok, name, sizeof name);
    if (v->type == E_NUM)
        return oq_error_tok(s, n->tok, "'.%s' on a number", name);
    int prop, w, ref;
    if (oq_lookup_prop(v->type, name, &prop, &w, &ref) < 0) {
        char list[300];
        field_list(v->type, list, sizeof list);
        if (!strcmp(name, "getHOL"))
            return oq_error_tok(s, n->tok, "getHOL is called: getHOL()");
        return oq_error_tok(s, n->tok, "unknown field '%s' of %s (%s)", name, oq_etype_name(v->type), list);
    }
    if (ref)
        return add_hop(c, n->tok, v, ref == E_PORT ? H_PORT : ref == E_BUFFER ? H_BUFFER : H_CURQ, ref);
    v->path.prop = (uint8_t)prop;
    uint32_t idx;
    if (oq_add_load(c, &v->path, n->tok, &idx) < 0 || oq_emit(c, OP_LOAD, idx, n->tok) < 0)
        return -1;
    if (c->kind == CX_CMP && v->path.base <= LB_ARG1)
        c->used_args |= 1u << v->path.base;
    if (prop == P_PROCESSING || prop == P_VALUE)
        c->uses_dyn = 1;
    v->type = E_NUM;
    return 0;
}

static int compile_call(struct cctx *c, int nd, struct val *v)
{
    struct oq_src *s = c->s;
    const struct node *n = &s->nodes[nd];
    const struct node *callee = &s->nodes[n->a];
    char name[64];
    oq_tok_text(s, callee->tok, name, sizeof name);
    int is_hol = (callee->kind == N_FIELD || callee->kind == N_NAME) && !strcmp(name, "getHOL");
    if (!is_hol) {
        if (c->kind == CX_CMP)
            return oq_error_tok(s, n->tok, "call to '%s' inside a comparator: comparators allow no calls (only the getHOL() primitive)", name);
        return oq_error_tok(s, n->tok, "call to '%s': expressions allow no calls (only the getHOL() primitive)", name);
    }
    if (n->b >= 0)
        return oq_error_tok(s, s->nodes[n->b].tok, "getHOL() takes no arguments");
    if (callee->kind == N_FIELD) {
        if (compile_val(c, callee->a, v) < 0)
            return -1;
    } else {
        if (c->kind != CX_COND || c->ptype[0] != E_QUEUE)
            return oq_error_tok(s, n->tok, "getHOL() needs a queue: write q.getHOL()");
        memset(v, 0, sizeof *v);
        v->type = E_QUEUE;
        v->path.base = LB_SUBJECT;
    }
    if (v->type != E_QUEUE)
        return oq_error_tok(s, n->tok, "getHOL() is a Queue primitive, not of %s", oq_etype_name(v->type));
    return add_hop(c, n->tok, v, H_HOL, E_PACKET);
}

static int binop_code(int k)
{
    switch (k) {
    case T_PLUS: return OP_ADD;
    case T_MINUS: return OP_SUB;
    case T_STAR: return OP_MUL;
    case T_SLASH: return OP_DIV;
    case T_LT: return OP_LT;
    case T_LE: return OP_LE;
    case T_GT: return OP_GT;
    case T_GE: return OP_GE;
    case T_EQ: return OP_EQ;
    case T_NE: return OP_NE;
    case T_AND: return OP_AND;
    default: return OP_OR;
    }
}

static int want_num(struct cctx *c, int nd, const struct val *v)
{
    if (v->type == E_NUM)
        return 0;
    return oq_error_tok(c->s, c->s->nodes[nd].tok, "this is a %s, not a number: name one of its fields", oq_etype_name(v->type));
}

static int compile_val(struct cctx *c, int nd, struct val *v)
{
    struct oq_src *s = c->s;
    if (nd < 0)
        return oq_error_at(s, 1, 1, "internal: missing expression");
    const struct node *n = &s->nodes[nd];
    uint32_t idx;
    if (++c->depth > OQ_MAX_DEPTH * 2)
        return oq_error_tok(s, n->tok, "expression nested too deeply");
    int rc = 0;
    switch (n->kind) {
    case N_NUM: {
        double x = n->unit == U_PERCENT ? n->num / 100 : n->num;
        rc = oq_add_const(c, x, n->tok, &idx);
        if (rc == 0)
            rc = oq_emit(c, OP_CONST, idx, n->tok);
        v->type = E_NUM;
        break;
    }
    case N_NAME:
        rc = resolve_name(c, nd, v);
        break;
    case N_FIELD:
        rc = compile_field(c, nd, v);
        break;
    case N_CALL:
        rc = compile_call(c, nd, v);
        break;
    case N_UN: {
        struct val a;
        rc = compile_val(c, n->a, &a);
        if (rc == 0)
            rc = want_num(c, n->a, &a);
        if (rc == 0)
            rc = oq_emit(c, n->op == T_MINUS ? OP_NEG : OP_NOT, 0, n->tok);
        v->type = E_NUM;
        break;
    }
    case N_BIN: {
        struct val a, b;
        rc = compile_val(c, n->a, &a);
        if (rc == 0)
            rc = want_num(c, n->a, &a);
        if (rc == 0)
            rc = compile_val(c, n->b, &b);
        if (rc == 0)
            rc = want_num(c, n->b, &b);
        if (rc == 0)
            rc = oq_emit(c, binop_code(n->op), 0, n->tok);
        v->type = E_NUM;
        break;
    }
    case N_INLINE:
        rc = oq_error_tok(s, n->tok, "inline{...} is an attribute value, not part of an expression");
        break;
    case N_CASES: case N_CASE: case N_ACT:
        rc = oq_error_tok(s, n->tok, "(predicate, action) cases where an expression is expected");
        break;
    default:
        rc = oq_error_tok(s, n->tok, "internal: bad node");
    }
    c->depth--;
    return rc;
}

int oq_compile_expr(struct cctx *c, int nd, struct code *out)
{
    out->start = c->pol->ncode;
    struct val v;
    if (compile_val(c, nd, &v) < 0 || want_num(c, nd, &v) < 0)
        return -1;
    out->len = c->pol->ncode - out->start;
    return 0;
}

int oq_compile_target(struct cctx *c, int nd, struct load *out)
{
    struct oq_src *s = c->s;
    const struct node *n = &s->nodes[nd];
    struct val v;
    memset(&v, 0, sizeof v);
    char name[64];
    oq_tok_text(s, n->tok, name, sizeof name);
    int type, prop, w, ref;
    if (n->kind == N_NAME) {
        v.type = c->ptype[0];
        v.path.base = LB_SUBJECT;
        type = c->ptype[0];
    } else if (n->kind == N_FIELD) {
        uint32_t save = c->pol->ncode;
        if (compile_val(c, n->a, &v) < 0)
            return -1;
        if (v.type == E_NUM)
            return oq_error_tok(s, n->tok, "'.%s' on a number", name);
        c->pol->ncode = save;   /* an entity path emits nothing, but be sure */
        type = v.type;
    } else {
        return oq_error_tok(s, n->tok, "modify() needs a property to write, e.g. modify(weightSched := 2)");
    }
    if (oq_lookup_prop(type, name, &prop, &w, &ref) < 0) {
        char list[300];
        field_list(type, list, sizeof list);
        return oq_error_tok(s, n->tok, "unknown field '%s' of %s (%s)", name, oq_etype_name(type), list);
    }
    if (ref || !w)
        return oq_error_tok(s, n->tok, "'%s' of %s is read-only (writable: admState, schedState, weightAdm, weightSched of a queue; admState of a buffer; schedState of a port; value of a packet)", name, oq_etype_name(type));
    *out = v.path;
    out->prop = (uint8_t)prop;
    return 0;
}

/* Constant expressions (sizes, rates, probabilities, initial state):
 * compiled like any expression in a context without names other than the
 * constants, then evaluated on the spot. */
static double fold(double x) { return x != x ? 0 : x; }

int oq_const_value(struct cctx *c, struct code code, double *out)
{
    const struct oq_policy *p = c->pol;
    double st[OQ_STACK + 1];
    int sp = 0;
    for (uint32_t i = code.start; i < code.start + code.len; i++) {
        const struct insn *in = &p->code[i];
        double b;
        switch (in->op) {
        case OP_CONST: st[sp++] = p->consts[in->arg]; break;
        case OP_LOAD: return -1;
        case OP_NEG: st[sp - 1] = -st[sp - 1]; break;
        case OP_NOT: st[sp - 1] = st[sp - 1] == 0; break;
        default:
            b = st[--sp];
            switch (in->op) {
            case OP_ADD: st[sp - 1] += b; break;
            case OP_SUB: st[sp - 1] -= b; break;
            case OP_MUL: st[sp - 1] *= b; break;
            case OP_DIV: st[sp - 1] = b == 0 ? 0 : st[sp - 1] / b; break;
            case OP_LT: st[sp - 1] = st[sp - 1] < b; break;
            case OP_LE: st[sp - 1] = st[sp - 1] <= b; break;
            case OP_GT: st[sp - 1] = st[sp - 1] > b; break;
            case OP_GE: st[sp - 1] = st[sp - 1] >= b; break;
            case OP_EQ: st[sp - 1] = st[sp - 1] == b; break;
            case OP_NE: st[sp - 1] = st[sp - 1] != b; break;
            case OP_AND: st[sp - 1] = st[sp - 1] != 0 && b != 0; break;
            default: st[sp - 1] = st[sp - 1] != 0 || b != 0; break;
            }
            st[sp - 1] = fold(st[sp - 1]);
        }
    }
    *out = sp == 1 ? st[0] : 0;
    return 0;
}
