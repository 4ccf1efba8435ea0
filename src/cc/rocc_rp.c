/*
 * rocc_rp.c -- RoCC RP rate limiter state machine (Alg. 2, CoNEXT 2020 §3.5).
 *
 *   unlimited --CNP accepted--> limited(R_cur = R_rcvd, CP_cur, timer armed)
 *   limited   --CNP accepted--> limited(new R_cur, CP_cur, timer re-armed)
 *   limited   --timer, R_cur <= Rmax--> limited(R_cur·2, timer re-armed)
 *   limited   --timer, R_cur >  Rmax--> unlimited (state as after init)
 *
 * Two deliberate readings of Alg. 2:
 *  - Line 10 says "remove this rate limiter if its queue is empty".  This
 *    module cannot see the flow's queue; it removes the limiter anyway.  The
 *    sending rate is Rmax either way (rocc_rp_rate_bps clamps R_cur), so a
 *    non-empty queue just drains at line rate.  The authors' code has no
 *    queue condition either (it stops limiting once rate >= Rmax).
 *  - Line 9 compares R_cur > Rmax strictly, so a limiter whose rate reaches
 *    exactly Rmax doubles once more and is removed one period later.  The
 *    authors' code removes it at rate >= Rmax (reference doc §1); we follow
 *    the paper.
 */
#include "rocc_rp.h"

#include <string.h>

/* ΔF = 10 Mb/s (§6). */
#define F_UNIT_MBPS     10u
/* Fast-recovery period: 55 µs, the authors' SELF_RISE_INTERVAL (reference
 * doc §1); §3.5 does not give a value. */
#define RECOVERY_PS     55000000ull
/* Rates are handled in Mb/s (Table 2, ‡). */
#define BPS_PER_MBPS    1000000ull

/* now + d, saturating below UINT64_MAX (which means "no timer"). */
static uint64_t deadline_after(uint64_t now, uint64_t d)
{
    if (now >= UINT64_MAX - 1 || d >= UINT64_MAX - 1 - now)
        return UINT64_MAX - 1;
    return now + d;
}

void rocc_rp_params_default(struct rocc_rp_params *p, uint64_t line_bps)
{
    p->f_unit_mbps = F_UNIT_MBPS;
    p->r_max_mbps = line_bps / BPS_PER_MBPS;
    p->recovery_ps = RECOVERY_PS;
}

void rocc_rp_init(struct rocc_rp *rp)
{
    memset(rp, 0, sizeof *rp);
    rp->rate_mbps = 0;
    rp->deadline_ps = UINT64_MAX;
    rp->cp_id = ROCC_CP_NONE;
    rp->limited = 0;
}

int rocc_rp_on_cnp(struct rocc_rp *rp, const struct rocc_rp_params *p, uint32_t rate_units, uint32_t cp_id, uint64_t now_ps)
{
    uint64_t r_rcvd = (uint64_t)rate_units * p->f_unit_mbps;          /* line 2 */
    uint64_t r_cur = rp->limited ? rp->rate_mbps : p->r_max_mbps;
    int same_cp = cp_id != ROCC_CP_NONE && cp_id == rp->cp_id;

    if (rate_units == 0 || !(r_rcvd <= r_cur || same_cp)) {          /* line 4 */
        rp->n_rejected++;
        return 0;
    }
    rp->rate_mbps = r_rcvd;                                           /* line 5 */
    rp->cp_id = cp_id;                                                /* line 6 */
    rp->limited = 1;
    rp->deadline_ps = deadline_after(now_ps, p->recovery_ps);         /* line 7 */
    rp->n_accepted++;
    return 1;
}

void rocc_rp_on_timer(struct rocc_rp *rp, const struct rocc_rp_params *p, uint64_t now_ps)
{
    uint64_t n_acc, n_rej, n_dbl, n_rem;

    if (!rp->limited || now_ps < rp->deadline_ps)
        return;
    if (rp->rate_mbps > p->r_max_mbps) {                              /* line 9 */
        n_acc = rp->n_accepted; n_rej = rp->n_rejected;
        n_dbl = rp->n_doublings; n_rem = rp->n_removed;
        rocc_rp_init(rp);                                             /* line 10 */
        rp->n_accepted = n_acc; rp->n_rejected = n_rej;
        rp->n_doublings = n_dbl; rp->n_removed = n_rem + 1;
        return;
    }
    rp->rate_mbps = rp->rate_mbps > UINT64_MAX / 2 ? UINT64_MAX : rp->rate_mbps * 2; /* line 12 */
    rp->deadline_ps = deadline_after(now_ps, p->recovery_ps);         /* line 13 */
    rp->n_doublings++;
}

uint64_t rocc_rp_rate_bps(const struct rocc_rp *rp, const struct rocc_rp_params *p)
{
    uint64_t mbps = p->r_max_mbps;

    if (rp->limited && rp->rate_mbps < mbps)
        mbps = rp->rate_mbps;
    return mbps * BPS_PER_MBPS;
}
