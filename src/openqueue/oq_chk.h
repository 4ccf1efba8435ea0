/* oq_chk.h -- state shared by the OpenQueue checker's two files:
 * oq_check.c (names, constants, routines, comparators, conditions) and
 * oq_entity.c (queues, buffers, ports and their attributes).  Internal. */
#ifndef ROCC_OQ_CHK_H
#define ROCC_OQ_CHK_H

#include "openqueue/oq_expr.h"

enum sym_kind { SY_QUEUE, SY_BUFFER, SY_PORT, SY_DEF, SY_CONST };
struct sym {
    uint8_t kind, state, unit, builtin;
    uint32_t stmt;         /* in its source */
    int idx;               /* entity index */
    double val;
    const char *name;
    uint32_t len;
};

/* Attribute slots of an entity. */
enum { SL_ADM, SL_PROC, SL_CONG, SL_CONGACT, SL_POST, SL_SEL, SL_N };
struct ent { int slot[SL_N]; int state_set[4]; };

struct chk {
    struct oq_src *u, *b;
    struct oq_policy *pol;
    struct sym *syms; uint32_t nsyms;
    uint32_t *ht; uint32_t hcap;
    int *cmp_cache;        /* [src][stmt][2 types] */
    int *cond_cache;       /* [src][stmt][3 types][2 drop] */
    struct ent *eq, *eb, *ep;
    size_t strused, strcap;
};

struct oq_src *chk_src_of(struct chk *k, int builtin);
int chk_lookup(struct chk *k, const char *s, uint32_t n);
int chk_lookup_tok(struct chk *k, struct oq_src *s, int tok);
const char *chk_keep(struct chk *k, struct oq_src *s, int tok);
int chk_eval_const(struct chk *k, struct oq_src *s, int nd, double *v, int *unit, int depth);
int chk_compile_cmp(struct chk *k, int builtin, int stmt, int type);
int chk_cmp_value(struct chk *k, int nd, int type);
int chk_compile_cond_def(struct chk *k, int builtin, int stmt, int type, int allow_drop);
int chk_cond_value(struct chk *k, int nd, int type, int allow_drop, int subj, int act);
int chk_cong_action(struct chk *k, int nd);

int chk_build_entity(struct chk *k, uint32_t stmt);
int chk_set_attr(struct chk *k, uint32_t stmt);
int chk_finish_entities(struct chk *k);
int chk_check_unused(struct chk *k);

#endif
