/*
 * test_pfc.c -- unit tests of the 802.1Qbb PFC state machine (src/cc/pfc.c)
 * on hand-computed sequences: quanta arithmetic, XOFF/XON thresholds and
 * their hysteresis, refresh before the announced pause runs out, pause
 * expiry, restart and resume on the receiving side.
 */
#include "test.h"

#include "cc/pfc.h"

static struct pfc_params P(uint64_t xoff, uint64_t xon, uint16_t quanta, uint64_t link_bps)
{
    struct pfc_params p;
    pfc_params_default(&p, link_bps);
    p.xoff_bytes = xoff;
    p.xon_bytes = xon;
    p.quanta = quanta;
    return p;
}

TEST(quantum_arithmetic)
{
    /* 512 bits: 51.2 ns at 10 Gb/s, 512 ns at 1 Gb/s, 1706.667 ns at 300 Mb/s. */
    CHECK_EQ(pfc_quantum_ps(10000000000ull), 51200);
    CHECK_EQ(pfc_quantum_ps(1000000000ull), 512000);
    CHECK_EQ(pfc_quantum_ps(300000000ull), 1706667);
    CHECK_EQ(pfc_quantum_ps(40000000000ull), 12800);
    CHECK_EQ(pfc_quantum_ps(0), 1);
    /* The longest pause at 1 Gb/s: 65535 × 512 ns = 33.55392 ms. */
    CHECK_EQ(pfc_pause_ps(PFC_QUANTA_MAX, 512000), 33553920000ull);
    CHECK_EQ(pfc_pause_ps(0, 512000), 0);
}

TEST(defaults_and_check)
{
    struct pfc_params p;
    char why[96] = "";
    pfc_params_default(&p, 1000000000ull);
    CHECK_EQ(p.xoff_bytes, 125000);
    CHECK_EQ(p.xon_bytes, 10000);
    CHECK_EQ(p.quanta, 0xffff);
    CHECK_EQ(p.lossless_mask, 0xff);
    CHECK_EQ(pfc_params_check(&p, why, sizeof why), 0);
    p.xon_bytes = p.xoff_bytes + 1;
    CHECK_EQ(pfc_params_check(&p, why, sizeof why), -1);
    CHECK(strstr(why, "XON") != NULL);
    p = P(1000, 0, 10, 1000000000ull);
    CHECK_EQ(pfc_params_check(&p, why, sizeof why), -1);
    p = P(0, 0, 10, 1000000000ull);
    CHECK_EQ(pfc_params_check(&p, why, sizeof why), -1);
    p = P(1000, 500, 0, 1000000000ull);
    CHECK_EQ(pfc_params_check(&p, why, sizeof why), -1);
    CHECK(strstr(why, "quanta") != NULL);
    p = P(1000, 1000, 1, 1000000000ull);           /* xon == xoff is allowed */
    CHECK_EQ(pfc_params_check(&p, NULL, 0), 0);
}

TEST(xoff_at_threshold_once)
{
    struct pfc_params p = P(3000, 1000, 100, 1000000000ull);
    struct pfc_ingress g;
    pfc_ingress_init(&g);
    CHECK_EQ(pfc_ingress_add(&g, &p, 3, 1500), 0);   /* 1500 */
    CHECK_EQ(pfc_ingress_add(&g, &p, 3, 1499), 0);   /* 2999: below */
    CHECK_EQ(g.xoff, 0);
    CHECK_EQ(pfc_ingress_add(&g, &p, 3, 1), 1);      /* 3000: reaches XOFF */
    CHECK_EQ(g.xoff, 1u << 3);
    CHECK_EQ(pfc_ingress_add(&g, &p, 3, 1500), 0);   /* already asserted: no second XOFF */
    CHECK_EQ(g.bytes[3], 4500);
    /* Other classes and ingresses are independent. */
    CHECK_EQ(pfc_ingress_add(&g, &p, 0, 2999), 0);
    CHECK_EQ(g.xoff, 1u << 3);
    /* A class out of range is ignored. */
    CHECK_EQ(pfc_ingress_add(&g, &p, 8, 100000), 0);
    CHECK_EQ(pfc_ingress_sub(&g, &p, 8, 100000), 0);
}

TEST(xon_below_threshold_with_hysteresis)
{
    struct pfc_params p = P(3000, 1000, 100, 1000000000ull);
    struct pfc_ingress g;
    pfc_ingress_init(&g);
    CHECK_EQ(pfc_ingress_add(&g, &p, 0, 4000), 1);
    CHECK_EQ(pfc_ingress_sub(&g, &p, 0, 1500), 0);   /* 2500: under XOFF, above XON: still XOFF */
    CHECK_EQ(g.xoff, 1);
    CHECK_EQ(pfc_ingress_add(&g, &p, 0, 600), 0);    /* 3100: still asserted, no new frame */
    CHECK_EQ(pfc_ingress_sub(&g, &p, 0, 2100), 0);   /* 1000: not below XON yet */
    CHECK_EQ(pfc_ingress_sub(&g, &p, 0, 1), 1);      /* 999: XON */
    CHECK_EQ(g.xoff, 0);
    CHECK_EQ(pfc_ingress_sub(&g, &p, 0, 999), 0);    /* released already: no second XON */
    CHECK_EQ(g.bytes[0], 0);
    CHECK_EQ(pfc_ingress_sub(&g, &p, 0, 50), 0);     /* never below zero */
    CHECK_EQ(g.bytes[0], 0);
    CHECK_EQ(pfc_ingress_add(&g, &p, 0, 3000), 1);   /* and asserts again */
}

TEST(lossy_class_never_paused)
{
    struct pfc_params p = P(3000, 1000, 100, 1000000000ull);
    struct pfc_ingress g;
    p.lossless_mask = 0x01;
    pfc_ingress_init(&g);
    CHECK_EQ(pfc_ingress_add(&g, &p, 1, 10000), 0);
    CHECK_EQ(g.xoff, 0);
    CHECK_EQ(g.bytes[1], 10000);
    CHECK_EQ(pfc_ingress_add(&g, &p, 0, 10000), 1);
}

TEST(refresh_at_half_the_pause)
{
    /* 100 quanta at 1 Gb/s = 51.2 us: refresh 25.6 us after each XOFF. */
    struct pfc_params p = P(3000, 1000, 100, 1000000000ull);
    struct pfc_ingress g;
    pfc_ingress_init(&g);
    CHECK_EQ(pfc_ingress_due(&g, 0), 0);
    CHECK_EQ(pfc_ingress_add(&g, &p, 2, 5000), 1);
    pfc_ingress_sent(&g, &p, 1u << 2, 1000000);      /* sent at 1 us */
    CHECK_EQ(g.refresh_ps[2], 1000000 + 25600000);
    CHECK_EQ(pfc_ingress_due(&g, 26599999), 0);
    CHECK_EQ(pfc_ingress_due(&g, 26600000), 1u << 2);
    pfc_ingress_sent(&g, &p, 1u << 2, 26700000);     /* refreshed */
    CHECK_EQ(pfc_ingress_due(&g, 26700000), 0);
    CHECK_EQ(pfc_ingress_due(&g, 52300000), 1u << 2);
    /* Released: nothing more to refresh. */
    CHECK_EQ(pfc_ingress_sub(&g, &p, 2, 5000), 1);
    CHECK_EQ(pfc_ingress_due(&g, UINT64_MAX), 0);
    /* sent() only schedules classes that are asserted. */
    pfc_ingress_sent(&g, &p, 0xff, 0);
    CHECK_EQ(pfc_ingress_due(&g, UINT64_MAX), 0);
}

TEST(egress_pause_expires_after_quanta)
{
    /* 300 Mb/s: 1706667 ps a quantum; 1000 quanta = 1.706667 ms. */
    struct pfc_egress e;
    uint16_t q[PFC_NCLASS] = {0};
    uint64_t qps = pfc_quantum_ps(300000000ull);
    pfc_egress_init(&e);
    CHECK_EQ(pfc_egress_paused(&e, 0), 0);
    CHECK_EQ(pfc_egress_next(&e), UINT64_MAX);
    q[0] = 1000;
    q[5] = 7;                                       /* not enabled in the vector: ignored */
    CHECK_EQ(pfc_egress_frame(&e, 0x01, q, qps, 10), 0x01);
    CHECK_EQ(e.until_ps[0], 10 + 1706667000ull);
    CHECK_EQ(pfc_egress_next(&e), 10 + 1706667000ull);
    CHECK_EQ(pfc_egress_paused(&e, 10 + 1706666999ull), 0x01);
    CHECK_EQ(pfc_egress_paused_total(&e, 0, 10 + 1000), 1000);
    CHECK_EQ(pfc_egress_paused(&e, 10 + 1706667000ull), 0);
    /* The pause counts until it ran out, not until it was noticed. */
    CHECK_EQ(e.paused_ps[0], 1706667000ull);
    CHECK_EQ(pfc_egress_paused_total(&e, 0, UINT64_MAX), 1706667000ull);
    CHECK_EQ(pfc_egress_paused_total(&e, 5, UINT64_MAX), 0);
}

TEST(egress_restart_and_resume)
{
    struct pfc_egress e;
    uint16_t q[PFC_NCLASS] = {0};
    pfc_egress_init(&e);
    q[1] = 10;
    q[3] = 20;
    /* quantum 1000 ps: class 1 until 10000, class 3 until 20000 */
    CHECK_EQ(pfc_egress_frame(&e, 0x0a, q, 1000, 0), 0x0a);
    CHECK_EQ(pfc_egress_next(&e), 10000);
    /* A refresh at 5000 restarts class 1: until 15000; nothing newly paused. */
    CHECK_EQ(pfc_egress_frame(&e, 0x02, q, 1000, 5000), 0);
    CHECK_EQ(e.until_ps[1], 15000);
    CHECK_EQ(pfc_egress_paused(&e, 12000), 0x0a);
    /* XON for class 3 at 13000 (quanta 0): resumed at once. */
    q[3] = 0;
    CHECK_EQ(pfc_egress_frame(&e, 0x08, q, 1000, 13000), 0x08u << 8);
    CHECK_EQ(pfc_egress_paused(&e, 13000), 0x02);
    CHECK_EQ(e.paused_ps[3], 13000);
    /* XON for a class not paused changes nothing. */
    CHECK_EQ(pfc_egress_frame(&e, 0x80, q, 1000, 13000), 0);
    /* Class 1 runs out at 15000. */
    CHECK_EQ(pfc_egress_paused(&e, 15000), 0);
    CHECK_EQ(e.paused_ps[1], 15000);
    /* A frame after expiry starts a new pause; an expired one is closed first. */
    q[1] = 1;
    CHECK_EQ(pfc_egress_frame(&e, 0x02, q, 1000, 30000), 0x02);
    CHECK_EQ(pfc_egress_frame(&e, 0x02, q, 1000, 40000), 0x02);   /* the first ran out at 31000 */
    CHECK_EQ(e.paused_ps[1], 15000 + 1000);
    CHECK_EQ(pfc_egress_paused_total(&e, 1, 40500), 15000 + 1000 + 500);
}

int main(void)
{
    test_binary_ = "test_pfc";
    RUN(quantum_arithmetic);
    RUN(defaults_and_check);
    RUN(xoff_at_threshold_once);
    RUN(xon_below_threshold_with_hysteresis);
    RUN(lossy_class_never_paused);
    RUN(refresh_at_half_the_pause);
    RUN(egress_pause_expires_after_quanta);
    RUN(egress_restart_and_resume);
    return test_summary();
}
