/*
 * test_rocc_rp.c -- unit tests of the RoCC RP rate limiter (Alg. 2).
 *
 * Params: 40G NIC (Rmax 40000 Mb/s), ΔF 10 Mb/s, recovery 55 µs.
 */
#include "test.h"

#include "cc/rocc_rp.h"

#define US 1000000ull   /* ps per µs */

static struct rocc_rp_params P;

static void setup(struct rocc_rp *rp)
{
    rocc_rp_params_default(&P, 40000000000ull);
    rocc_rp_init(rp);
}

TEST(defaults_and_init)
{
    struct rocc_rp rp;

    setup(&rp);
    CHECK_EQ(P.f_unit_mbps, 10);
    CHECK_EQ(P.r_max_mbps, 40000);
    CHECK_EQ(P.recovery_ps, 55 * US);
    CHECK_EQ(rp.limited, 0);
    CHECK(rp.deadline_ps == UINT64_MAX);
    CHECK(rp.cp_id == ROCC_CP_NONE);
    CHECK_EQ(rp.n_accepted + rp.n_rejected + rp.n_doublings, 0);
    CHECK(rocc_rp_rate_bps(&rp, &P) == 40000000000ull);
}

TEST(first_cnp_installs_limiter)
{
    struct rocc_rp rp;

    setup(&rp);
    /* 400 units = 4000 Mb/s <= Rmax: accepted. */
    CHECK_EQ(rocc_rp_on_cnp(&rp, &P, 400, 7, 1000 * US), 1);
    CHECK_EQ(rp.limited, 1);
    CHECK_EQ(rp.rate_mbps, 4000);
    CHECK_EQ(rp.cp_id, 7);
    CHECK(rp.deadline_ps == 1055 * US);
    CHECK(rocc_rp_rate_bps(&rp, &P) == 4000000000ull);
    CHECK_EQ(rp.n_accepted, 1);
}

TEST(first_cnp_above_rmax_rejected)
{
    struct rocc_rp rp;

    setup(&rp);
    /* 4001 units = 40010 Mb/s > Rmax while unlimited: rejected (R_cur = Rmax). */
    CHECK_EQ(rocc_rp_on_cnp(&rp, &P, 4001, 7, 0), 0);
    CHECK_EQ(rp.limited, 0);
    CHECK_EQ(rp.n_rejected, 1);
    /* Exactly Rmax is accepted (<=). */
    CHECK_EQ(rocc_rp_on_cnp(&rp, &P, 4000, 7, 0), 1);
    CHECK_EQ(rp.limited, 1);
    CHECK_EQ(rp.rate_mbps, 40000);
}

TEST(zero_rate_rejected)
{
    struct rocc_rp rp;

    setup(&rp);
    CHECK_EQ(rocc_rp_on_cnp(&rp, &P, 0, 7, 0), 0);
    CHECK_EQ(rp.limited, 0);
    CHECK_EQ(rocc_rp_on_cnp(&rp, &P, 100, 7, 0), 1);
    CHECK_EQ(rocc_rp_on_cnp(&rp, &P, 0, 7, 0), 0);      /* even same CP */
    CHECK_EQ(rp.rate_mbps, 1000);
}

TEST(accept_reject_rule)
{
    struct rocc_rp rp;

    setup(&rp);
    CHECK_EQ(rocc_rp_on_cnp(&rp, &P, 400, 1, 0), 1);            /* CP 1, 4 G */
    /* Another CP, lower rate: accepted, CP_cur becomes 2. */
    CHECK_EQ(rocc_rp_on_cnp(&rp, &P, 300, 2, 10 * US), 1);
    CHECK_EQ(rp.rate_mbps, 3000); CHECK_EQ(rp.cp_id, 2);
    CHECK(rp.deadline_ps == 65 * US);
    /* Another CP, equal rate: accepted (R_rcvd <= R_cur), CP_cur = 1. */
    CHECK_EQ(rocc_rp_on_cnp(&rp, &P, 300, 1, 20 * US), 1);
    CHECK_EQ(rp.cp_id, 1);
    /* Another CP, higher rate: rejected, nothing changes. */
    CHECK_EQ(rocc_rp_on_cnp(&rp, &P, 301, 2, 30 * US), 0);
    CHECK_EQ(rp.rate_mbps, 3000); CHECK_EQ(rp.cp_id, 1);
    CHECK(rp.deadline_ps == 75 * US);                          /* timer not reset */
    /* Same CP, higher rate: accepted. */
    CHECK_EQ(rocc_rp_on_cnp(&rp, &P, 3500, 1, 40 * US), 1);
    CHECK_EQ(rp.rate_mbps, 35000);
    CHECK(rp.deadline_ps == 95 * US);
    /* Same CP, above Rmax: accepted too (line 4's second clause). */
    CHECK_EQ(rocc_rp_on_cnp(&rp, &P, 5000, 1, 50 * US), 1);
    CHECK_EQ(rp.rate_mbps, 50000);
    CHECK(rocc_rp_rate_bps(&rp, &P) == 40000000000ull);       /* clamped */
    /* Same CP, lower rate. */
    CHECK_EQ(rocc_rp_on_cnp(&rp, &P, 10, 1, 60 * US), 1);
    CHECK_EQ(rp.rate_mbps, 100);
    CHECK_EQ(rp.n_accepted, 6); CHECK_EQ(rp.n_rejected, 1);
}

TEST(cp_none_never_matches)
{
    struct rocc_rp rp;

    setup(&rp);
    /* A CNP claiming ROCC_CP_NONE is judged by rate alone. */
    CHECK_EQ(rocc_rp_on_cnp(&rp, &P, 400, ROCC_CP_NONE, 0), 1);
    CHECK_EQ(rocc_rp_on_cnp(&rp, &P, 500, ROCC_CP_NONE, 0), 0);
    CHECK_EQ(rocc_rp_on_cnp(&rp, &P, 300, ROCC_CP_NONE, 0), 1);
}

TEST(timer_doubling_and_deadlines)
{
    struct rocc_rp rp;
    uint64_t t = 100 * US;

    setup(&rp);
    CHECK_EQ(rocc_rp_on_cnp(&rp, &P, 300, 5, t), 1);           /* 3000 Mb/s */
    CHECK(rp.deadline_ps == t + 55 * US);
    /* Early call: no-op. */
    rocc_rp_on_timer(&rp, &P, t + 54 * US);
    CHECK_EQ(rp.rate_mbps, 3000); CHECK_EQ(rp.n_doublings, 0);
    /* 3000 -> 6000 -> 12000 -> 24000 -> 48000 (> Rmax) -> removed. */
    t += 55 * US;
    rocc_rp_on_timer(&rp, &P, t);
    CHECK_EQ(rp.rate_mbps, 6000); CHECK(rp.deadline_ps == t + 55 * US);
    t += 55 * US; rocc_rp_on_timer(&rp, &P, t);
    CHECK_EQ(rp.rate_mbps, 12000);
    t += 55 * US; rocc_rp_on_timer(&rp, &P, t);
    CHECK_EQ(rp.rate_mbps, 24000);
    CHECK(rocc_rp_rate_bps(&rp, &P) == 24000000000ull);
    /* A late call re-arms relative to now, not to the old deadline. */
    t += 70 * US; rocc_rp_on_timer(&rp, &P, t);
    CHECK_EQ(rp.rate_mbps, 48000);
    CHECK(rp.deadline_ps == t + 55 * US);
    CHECK_EQ(rp.limited, 1);
    CHECK(rocc_rp_rate_bps(&rp, &P) == 40000000000ull);       /* clamp */
    CHECK_EQ(rp.n_doublings, 4);
    /* R_cur 48000 > Rmax: limiter removed, state as after init. */
    t += 55 * US; rocc_rp_on_timer(&rp, &P, t);
    CHECK_EQ(rp.limited, 0);
    CHECK(rp.deadline_ps == UINT64_MAX);
    CHECK(rp.cp_id == ROCC_CP_NONE);
    CHECK_EQ(rp.rate_mbps, 0);
    CHECK_EQ(rp.n_doublings, 4); CHECK_EQ(rp.n_removed, 1);
    CHECK_EQ(rp.n_accepted, 1);                                /* kept */
    CHECK(rocc_rp_rate_bps(&rp, &P) == 40000000000ull);
    /* Further timer calls do nothing. */
    rocc_rp_on_timer(&rp, &P, t + 1000 * US);
    CHECK_EQ(rp.limited, 0); CHECK_EQ(rp.n_doublings, 4);
    /* Unlimited again: the old CP gets no special treatment. */
    CHECK_EQ(rocc_rp_on_cnp(&rp, &P, 4001, 5, t), 0);
}

TEST(exactly_rmax_doubles_once_more)
{
    struct rocc_rp rp;

    /* R_cur = Rmax is not > Rmax (line 9 is strict): it doubles to 80000
     * and the limiter goes one period later. */
    setup(&rp);
    CHECK_EQ(rocc_rp_on_cnp(&rp, &P, 2000, 1, 0), 1);          /* 20000 */
    rocc_rp_on_timer(&rp, &P, 55 * US);
    CHECK_EQ(rp.rate_mbps, 40000); CHECK_EQ(rp.limited, 1);
    rocc_rp_on_timer(&rp, &P, 110 * US);
    CHECK_EQ(rp.rate_mbps, 80000); CHECK_EQ(rp.limited, 1);
    rocc_rp_on_timer(&rp, &P, 165 * US);
    CHECK_EQ(rp.limited, 0);
}

TEST(cnp_resets_timer)
{
    struct rocc_rp rp;

    setup(&rp);
    CHECK_EQ(rocc_rp_on_cnp(&rp, &P, 100, 1, 0), 1);
    CHECK_EQ(rocc_rp_on_cnp(&rp, &P, 100, 1, 50 * US), 1);
    CHECK(rp.deadline_ps == 105 * US);
    rocc_rp_on_timer(&rp, &P, 55 * US);                        /* stale */
    CHECK_EQ(rp.rate_mbps, 1000); CHECK_EQ(rp.n_doublings, 0);
    rocc_rp_on_timer(&rp, &P, 105 * US);
    CHECK_EQ(rp.rate_mbps, 2000);
}

TEST(deadline_saturates)
{
    struct rocc_rp rp;

    setup(&rp);
    CHECK_EQ(rocc_rp_on_cnp(&rp, &P, 100, 1, UINT64_MAX - 10), 1);
    CHECK(rp.deadline_ps == UINT64_MAX - 1);                   /* not "none" */
    rocc_rp_on_timer(&rp, &P, UINT64_MAX - 1);
    CHECK_EQ(rp.rate_mbps, 2000);
    CHECK(rp.deadline_ps == UINT64_MAX - 1);
}

TEST(rate_bps_clamp_other_line_rates)
{
    struct rocc_rp rp;
    struct rocc_rp_params p;

    rocc_rp_params_default(&p, 100000000000ull);
    CHECK_EQ(p.r_max_mbps, 100000);
    rocc_rp_init(&rp);
    CHECK(rocc_rp_rate_bps(&rp, &p) == 100000000000ull);
    CHECK_EQ(rocc_rp_on_cnp(&rp, &p, 9999, 3, 0), 1);
    CHECK(rocc_rp_rate_bps(&rp, &p) == 99990000000ull);
    CHECK_EQ(rocc_rp_on_cnp(&rp, &p, 20000, 3, 0), 1);       /* same CP */
    CHECK(rocc_rp_rate_bps(&rp, &p) == 100000000000ull);
}

int main(void)
{
    test_binary_ = "test_rocc_rp";
    RUN(defaults_and_init);
    RUN(first_cnp_installs_limiter);
    RUN(first_cnp_above_rmax_rejected);
    RUN(zero_rate_rejected);
    RUN(accept_reject_rule);
    RUN(cp_none_never_matches);
    RUN(timer_doubling_and_deadlines);
    RUN(exactly_rmax_doubles_once_more);
    RUN(cnp_resets_timer);
    RUN(deadline_saturates);
    RUN(rate_bps_clamp_other_line_rates);
    return test_summary();
}
