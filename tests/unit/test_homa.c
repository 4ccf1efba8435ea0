/*
 * test_homa.c -- unit tests of Homa (homa.h): priority cut-offs from a
 * size distribution, the sender's limit and classes, the receiver's SRPT
 * grants with the overcommitment degree and lowest-classes-first, all on
 * hand-computed cases.
 *
 * The workload W used below (RTTbytes R = 1000, 8 classes):
 *   size   100  500  1000  4000
 *   P      .5   .3   .1    .1
 * unscheduled bytes per message min(s, R): 50 + 150 + 100 + 100 = 400,
 * all bytes: 50 + 150 + 100 + 400 = 700, share 4/7 = 0.571;
 * 8 · 4/7 = 4.57 -> 5 unscheduled classes (7..3), 3 scheduled (2..0).
 * Level k ends where the cumulative unscheduled bytes reach (k+1)/5 of 400
 * = 80, 160, 240, 320: after size 100: 50; 500: 200 (reaches 80 and 160);
 * 1000: 300 (240); 4000: 400 (320).  Cut-offs 500, 500, 1000, 4000, inf.
 */
#include "test.h"

#include "cc/homa.h"

static const uint64_t WS[] = { 100, 500, 1000, 4000 };
static const double WC[] = { 0.5, 0.8, 0.9, 1.0 };

static void params_w(struct homa_params *p)
{
    memset(p, 0, sizeof *p);
    p->rtt_bytes = 1000;
    p->n_prio = 8;
    CHECK_NEAR(homa_cutoffs(p, WS, WC, 4), 4.0 / 7, 1e-12);
}

TEST(cutoffs_by_hand)
{
    struct homa_params p;
    params_w(&p);
    if (test_cur_failed_)
        return;
    CHECK_EQ(p.n_unsched, 5);
    CHECK_EQ(p.cutoff[0], 500);
    CHECK_EQ(p.cutoff[1], 500);
    CHECK_EQ(p.cutoff[2], 1000);
    CHECK_EQ(p.cutoff[3], 4000);
    CHECK(p.cutoff[4] == UINT64_MAX);
    char why[80];
    CHECK_EQ(homa_params_check(&p, why, sizeof why), 0);
    CHECK_EQ(homa_overcommit(&p), 3);             /* one per scheduled class */
    /* smallest messages at the highest class; level 1 is empty */
    CHECK_EQ(homa_unsched_prio(&p, 1), 7);
    CHECK_EQ(homa_unsched_prio(&p, 500), 7);
    CHECK_EQ(homa_unsched_prio(&p, 501), 5);
    CHECK_EQ(homa_unsched_prio(&p, 1000), 5);
    CHECK_EQ(homa_unsched_prio(&p, 4000), 4);
    CHECK_EQ(homa_unsched_prio(&p, 4001), 3);
}

TEST(cutoffs_edge_cases)
{
    struct homa_params p = { .rtt_bytes = 10000, .n_prio = 8 };
    /* mostly huge messages: 50 + 300 + 2000 unscheduled of 200350 -> 1 level */
    const uint64_t s[] = { 100, 1000, 1000000 };
    const double c[] = { 0.5, 0.8, 1.0 };
    CHECK(homa_cutoffs(&p, s, c, 3) < 0.02);
    CHECK_EQ(p.n_unsched, 1);
    CHECK_EQ(homa_overcommit(&p), 7);
    CHECK_EQ(homa_unsched_prio(&p, 5), 7);
    /* everything fits in RTTbytes: all 8 classes unscheduled, 4 equal parts of bytes */
    const uint64_t t[] = { 10, 20, 30, 40 };
    const double d[] = { 0.4, 0.6, 0.8, 1.0 };   /* bytes 4, 4, 6, 8 of 22 */
    CHECK_NEAR(homa_cutoffs(&p, t, d, 4), 1.0, 1e-12);
    CHECK_EQ(p.n_unsched, 8);
    CHECK_EQ(homa_overcommit(&p), 1);
    /* one class: everything shares class 0 */
    struct homa_params q = { .rtt_bytes = 1000, .n_prio = 1 };
    CHECK(homa_cutoffs(&q, WS, WC, 4) > 0);
    CHECK_EQ(q.n_unsched, 1);
    CHECK_EQ(homa_unsched_prio(&q, 100), 0);
    CHECK_EQ(homa_sched_prio(&q, 0, 3), 0);
    /* malformed */
    const double bad[] = { 0.5, 0.4, 1.0 };
    CHECK(homa_cutoffs(&p, s, bad, 3) < 0);
    const double short_[] = { 0.5, 0.8, 0.9 };
    CHECK(homa_cutoffs(&p, s, short_, 3) < 0);
    CHECK(homa_cutoffs(&p, s, c, 0) < 0);
}

TEST(params_check)
{
    struct homa_params p;
    params_w(&p);
    char why[80];
    p.rtt_bytes = 0;
    CHECK_EQ(homa_params_check(&p, why, sizeof why), -1);
    params_w(&p);
    p.n_prio = 9;
    CHECK_EQ(homa_params_check(&p, why, sizeof why), -1);
    params_w(&p);
    p.n_unsched = 0;
    CHECK_EQ(homa_params_check(&p, why, sizeof why), -1);
    params_w(&p);
    p.cutoff[4] = 5000;                 /* the last level must take every size */
    CHECK_EQ(homa_params_check(&p, why, sizeof why), -1);
    params_w(&p);
    p.cutoff[2] = 100;                  /* decreasing */
    CHECK_EQ(homa_params_check(&p, why, sizeof why), -1);
}

TEST(sched_prio_lowest_first)
{
    struct homa_params p;
    params_w(&p);                       /* scheduled classes 2, 1, 0 */
    CHECK_EQ(homa_sched_prio(&p, 0, 1), 0);
    CHECK_EQ(homa_sched_prio(&p, 0, 2), 1);
    CHECK_EQ(homa_sched_prio(&p, 1, 2), 0);
    CHECK_EQ(homa_sched_prio(&p, 0, 3), 2);
    CHECK_EQ(homa_sched_prio(&p, 2, 3), 0);
    CHECK_EQ(homa_sched_prio(&p, 0, 5), 2);   /* more messages than classes: */
    CHECK_EQ(homa_sched_prio(&p, 4, 5), 0);   /* the rest share the lowest */
}

TEST(sender_limit_and_classes)
{
    struct homa_params p;
    params_w(&p);
    struct homa_tx t;
    homa_tx_init(&t, &p, 2500);
    CHECK_EQ(t.unsched, 1000);
    CHECK_EQ(homa_tx_limit(&t), 1000);        /* RTTbytes without a grant */
    CHECK_EQ(homa_tx_prio(&t, 0), 4);         /* 1000 < 2500 <= 4000: level 3 -> class 4 */
    CHECK_EQ(homa_tx_prio(&t, 999), 4);
    CHECK_EQ(homa_tx_grant(&t, 1500, 2), 1);
    CHECK_EQ(homa_tx_limit(&t), 1500);
    CHECK_EQ(homa_tx_prio(&t, 1000), 2);      /* granted bytes at the grant's class */
    CHECK_EQ(homa_tx_prio(&t, 500), 4);
    CHECK_EQ(homa_tx_grant(&t, 1200, 1), 0);  /* a late grant never shrinks the limit */
    CHECK_EQ(homa_tx_limit(&t), 1500);
    CHECK_EQ(homa_tx_prio(&t, 1400), 1);      /* but its class counts */
    CHECK_EQ(homa_tx_grant(&t, 99999, 0), 1);
    CHECK_EQ(homa_tx_limit(&t), 2500);        /* capped at the size */
    homa_tx_init(&t, &p, 300);                /* a small message: all unscheduled */
    CHECK_EQ(homa_tx_limit(&t), 300);
    CHECK_EQ(homa_tx_prio(&t, 0), 7);
}

/* A: 10000 B, B: 3000, C: 5000, D: 800 (unscheduled only), E: 20000;
 * one 1000 B packet each, then B to its end.  Overcommitment 3. */
TEST(receiver_srpt_overcommit)
{
    struct homa_params p;
    params_w(&p);
    struct homa_rx_msg slots[8];
    struct homa_rx r;
    struct homa_grant g[8];
    homa_rx_init(&r, slots, 8);

    CHECK_EQ(homa_rx_data(&r, &p, 1, 10000, 1000), 0);
    CHECK_EQ(homa_rx_grants(&r, &p, g), 1);
    CHECK_EQ(g[0].id, 1);
    CHECK_EQ(g[0].offset, 2000);              /* received + RTTbytes */
    CHECK_EQ(g[0].prio, 0);                   /* alone: the lowest scheduled class */

    CHECK_EQ(homa_rx_data(&r, &p, 2, 3000, 1000), 0);
    CHECK_EQ(r.m[0].id, 2);                   /* 2000 left before A's 9000 */
    CHECK_EQ(homa_rx_grants(&r, &p, g), 1);   /* A's offset did not move */
    CHECK_EQ(g[0].id, 2);
    CHECK_EQ(g[0].offset, 2000);
    CHECK_EQ(g[0].prio, 1);                   /* rank 0 of 2 */

    CHECK_EQ(homa_rx_data(&r, &p, 3, 5000, 1000), 0);
    CHECK_EQ(homa_rx_grants(&r, &p, g), 1);
    CHECK_EQ(g[0].id, 3);
    CHECK_EQ(g[0].prio, 1);                   /* rank 1 of 3 */

    CHECK_EQ(homa_rx_data(&r, &p, 5, 20000, 1000), 0);
    CHECK_EQ(homa_rx_grants(&r, &p, g), 0);   /* E is 4th: beyond the overcommitment */
    CHECK_EQ(homa_rx_data(&r, &p, 4, 800, 800), 0);
    CHECK_EQ(r.n, 4);                         /* D needs no grants: not tracked */

    CHECK_EQ(homa_rx_data(&r, &p, 2, 3000, 1000), 0);
    CHECK_EQ(homa_rx_grants(&r, &p, g), 1);
    CHECK_EQ(g[0].id, 2);
    CHECK_EQ(g[0].offset, 3000);
    CHECK_EQ(g[0].prio, 2);                   /* rank 0 of 3: the highest scheduled */

    CHECK_EQ(homa_rx_data(&r, &p, 2, 3000, 1000), 1);   /* B complete */
    CHECK_EQ(r.n, 3);
    CHECK_EQ(homa_rx_grants(&r, &p, g), 1);   /* E moves into the top 3 */
    CHECK_EQ(g[0].id, 5);
    CHECK_EQ(g[0].offset, 2000);
    CHECK_EQ(g[0].prio, 0);
    CHECK_EQ(r.grants, 5);
    CHECK_EQ(r.max_active, 4);
}

TEST(receiver_overcommit_one_and_full_table)
{
    struct homa_params p;
    params_w(&p);
    p.overcommit = 1;
    struct homa_rx_msg slots[2];
    struct homa_rx r;
    struct homa_grant g[1];
    homa_rx_init(&r, slots, 2);
    CHECK_EQ(homa_rx_data(&r, &p, 1, 10000, 1000), 0);
    CHECK_EQ(homa_rx_grants(&r, &p, g), 1);
    CHECK_EQ(homa_rx_data(&r, &p, 2, 5000, 1000), 0);
    CHECK_EQ(homa_rx_grants(&r, &p, g), 1);   /* the shorter one takes the only slot */
    CHECK_EQ(g[0].id, 2);
    CHECK_EQ(g[0].prio, 0);
    CHECK_EQ(homa_rx_data(&r, &p, 1, 10000, 1000), 0);
    CHECK_EQ(homa_rx_grants(&r, &p, g), 0);   /* A waits although its packet came */
    CHECK_EQ(homa_rx_data(&r, &p, 3, 7000, 1000), -1);   /* table full */
    CHECK_EQ(r.refused, 1);
    /* a fully granted message leaves the slot to the next */
    for (int i = 0; i < 3; i++) {
        CHECK_EQ(homa_rx_data(&r, &p, 2, 5000, 1000), 0);
        homa_rx_grants(&r, &p, g);
    }
    CHECK_EQ(slots[0].id, 2);
    CHECK_EQ(slots[0].granted, 5000);
    CHECK_EQ(homa_rx_grants(&r, &p, g), 1);
    CHECK_EQ(g[0].id, 1);
    CHECK_EQ(g[0].offset, 3000);              /* 2000 received + RTTbytes */
}

int main(void)
{
    test_crash_guard();
    test_binary_ = "test_homa";
    RUN(cutoffs_by_hand);
    RUN(cutoffs_edge_cases);
    RUN(params_check);
    RUN(sched_prio_lowest_first);
    RUN(sender_limit_and_classes);
    RUN(receiver_srpt_overcommit);
    RUN(receiver_overcommit_one_and_full_table);
    return test_summary();
}
