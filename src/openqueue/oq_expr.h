/* oq_expr.h -- OpenQueue expression compiler (oq_expr.c), used by the
 * checker (oq_check.c).  Internal. */
#ifndef ROCC_OQ_EXPR_H
#define ROCC_OQ_EXPR_H

#include "openqueue/oq_int.h"

enum cx_kind { CX_CMP, CX_COND, CX_CONST };

/* The context one expression is compiled in. */
struct cctx {
    struct oq_src *s;
    struct oq_policy *pol;
    int kind;              /* CX_* */
    int is_inline;         /* inline{}: type names stand for the element / subject */
    int param[2];          /* parameter name tokens, -1 none */
    int ptype[2];          /* their types (conditions: ptype[0] = the subject's) */
    int pbase[2];          /* their load bases (LB_ARG0/1, LB_SUBJECT) */
    int has_pkt;           /* conditions: pkt is in scope */
    /* numeric constants of the policy: 0 and *v, or -1 (not a constant) */
    int (*find_const)(void *user, int tok, double *v);
    int (*find_entity)(void *user, const char *name);
    void *user;
    int sp, maxsp, depth;
    unsigned used_args;    /* bit i: a field of argument i was read */
    int uses_dyn;
};

int oq_emit(struct cctx *c, int op, uint32_t arg, int tok);
int oq_add_const(struct cctx *c, double v, int tok, uint32_t *idx);
int oq_add_load(struct cctx *c, const struct load *l, int tok, uint32_t *idx);
/* Compile the expression nd (must be a number) into out; the stack
 * depth c->sp carries on (set it to 0 before a new expression). */
int oq_compile_expr(struct cctx *c, int nd, struct code *out);
/* The property written by modify(target := e): must be writable. */
int oq_compile_target(struct cctx *c, int nd, struct load *out);
/* Value of code without loads (0), or -1 if it reads anything. */
int oq_const_value(struct cctx *c, struct code code, double *out);
int oq_writable(int type, int prop);
int oq_lookup_prop(int type, const char *name, int *prop, int *writable, int *ref);

#endif
