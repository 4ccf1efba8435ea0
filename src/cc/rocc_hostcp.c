/*
 * rocc_hostcp.c -- host-side RoCC rate computation (§3.6); see rocc_hostcp.h.
 * The arithmetic is rocc_cp_compute (rocc_cp.c); nothing here recomputes
 * any part of Alg. 1.
 */
#include "rocc_hostcp.h"
#include "cc_util.h"

#include <stdlib.h>
#include <string.h>

void rocc_hostreg_init(struct rocc_hostreg *r, struct rocc_hostreg_entry *ent, size_t cap,
                       struct rocc_cp_params *prof, size_t cap_prof)
{
    memset(r, 0, sizeof *r);
    r->ent = ent;
    r->cap = ent ? cap : 0;
    r->prof = prof;
    r->cap_prof = prof ? cap_prof : 0;
    r->sorted = 1;               /* an empty registry is sorted */
}

/* The fields Alg. 1 reads (rocc_cp_compute): what a profile is keyed on. */
static int same_alg(const struct rocc_cp_params *a, const struct rocc_cp_params *b)
{
    return a->q_ref == b->q_ref && a->q_mid == b->q_mid && a->q_max == b->q_max &&
           a->f_min == b->f_min && a->f_max == b->f_max && a->alpha_q16 == b->alpha_q16 &&
           a->beta_q16 == b->beta_q16 && a->pi_round == b->pi_round && a->md_qmax == b->md_qmax;
}

int rocc_hostreg_add(struct rocc_hostreg *r, uint32_t cp_id, const struct rocc_cp_params *p,
                     char *why, size_t why_len)
{
    size_t k;

    if (rocc_cp_params_check(p, why, why_len)) return -1;
    for (size_t i = 0; i < r->n; i++)
        if (r->ent[i].cp_id == cp_id) {
            if (same_alg(&r->prof[r->ent[i].profile], p)) return 0;
            return cc_fail(why, why_len, "CP id registered twice with different parameters");
        }
    if (r->n >= r->cap) return cc_fail(why, why_len, "registry full");
    for (k = 0; k < r->nprof && !same_alg(&r->prof[k], p); k++)
        ;
    if (k == r->nprof) {
        if (r->nprof >= r->cap_prof) return cc_fail(why, why_len, "registry profiles full");
        r->prof[r->nprof++] = *p;
    }
    r->ent[r->n].cp_id = cp_id;
    r->ent[r->n].profile = (uint32_t)k;
    r->n++;
    r->sorted = 0;
    return 0;
}

static int cmp_ent(const void *a, const void *b)
{
    uint32_t x = ((const struct rocc_hostreg_entry *)a)->cp_id;
    uint32_t y = ((const struct rocc_hostreg_entry *)b)->cp_id;
    return (x > y) - (x < y);
}

void rocc_hostreg_seal(struct rocc_hostreg *r)
{
    if (r->n > 1)
        qsort(r->ent, r->n, sizeof *r->ent, cmp_ent);
    r->sorted = 1;
}

const struct rocc_cp_params *rocc_hostreg_find(const struct rocc_hostreg *r, uint32_t cp_id)
{
    size_t lo = 0, hi;

    if (!r || !r->sorted) return NULL;
    hi = r->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (r->ent[mid].cp_id < cp_id) lo = mid + 1;
        else hi = mid;
    }
    if (lo < r->n && r->ent[lo].cp_id == cp_id) return &r->prof[r->ent[lo].profile];
    return NULL;
}

void rocc_hostcp_put_params(struct rocc_cnp *c, const struct rocc_cp_params *p)
{
    c->q_ref = p->q_ref; c->q_mid = p->q_mid; c->q_max = p->q_max;
    c->f_min = p->f_min; c->f_max = p->f_max;
    c->alpha_q16 = p->alpha_q16; c->beta_q16 = p->beta_q16;
    c->hflags = (uint8_t)((p->pi_round == ROCC_CP_ROUND_AUTHORS ? ROCC_CNP_HF_PI_AUTHORS : 0) |
                          (p->md_qmax == ROCC_CP_MDQ_HALF ? ROCC_CNP_HF_MDQ_HALF : 0));
}

void rocc_hostcp_get_params(const struct rocc_cnp *c, struct rocc_cp_params *p)
{
    memset(p, 0, sizeof *p);
    p->q_ref = c->q_ref; p->q_mid = c->q_mid; p->q_max = c->q_max;
    p->f_min = c->f_min; p->f_max = c->f_max;
    p->alpha_q16 = c->alpha_q16; p->beta_q16 = c->beta_q16;
    p->pi_round = (c->hflags & ROCC_CNP_HF_PI_AUTHORS) ? ROCC_CP_ROUND_AUTHORS : ROCC_CP_ROUND_TRUNC;
    p->md_qmax = (c->hflags & ROCC_CNP_HF_MDQ_HALF) ? ROCC_CP_MDQ_HALF : ROCC_CP_MDQ_FMIN;
}

int rocc_hostcp_rate(const struct rocc_hostreg *reg, const struct rocc_cnp *c, uint32_t *rate,
                     struct rocc_hostcp_stats *st)
{
    struct rocc_cp_params full;
    const struct rocc_cp_params *p;

    switch (c->form) {
    case ROCC_CNP_FORM_RATE:
        if (st) st->n_rate++;
        *rate = c->rate_units;
        return 0;
    case ROCC_CNP_FORM_HOST_FULL:
        rocc_hostcp_get_params(c, &full);
        p = &full;
        if (st) st->n_full++;
        break;
    case ROCC_CNP_FORM_HOST_REG:
        p = rocc_hostreg_find(reg, c->cp_id);
        if (!p) {
            if (st) st->n_miss++;
            return ROCC_HOSTCP_EMISS;
        }
        if (c->rate_units < p->f_min || c->rate_units > p->f_max) {
            if (st) st->n_bad++;
            return ROCC_HOSTCP_EBAD;
        }
        if (st) st->n_reg++;
        break;
    default:
        if (st) st->n_bad++;
        return ROCC_HOSTCP_EBAD;
    }
    *rate = rocc_cp_compute(p, (int32_t)c->rate_units, c->q_cur, c->q_old, NULL);
    return 0;
}
