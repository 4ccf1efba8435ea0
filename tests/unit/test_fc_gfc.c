/*
 * test_fc_gfc.c -- GFC as the simulator's flow-control scheme `gfc`
 * (src/net/fc_gfc.c on the flowctl.h interface): the staircase a counter
 * gets from its XOFF threshold, malformed and forged feedback frames at a
 * switch port and at a NIC (counted, no effect), valid ones (rate gate,
 * zero-rate stop and its release), and a 2:1 incast whose senders GFC
 * paces to their share without a PAUSE frame.
 */
#include "test.h"
#include "test_fabric.h"

#include "gfc.h"
#include "net/fc_gfc.h"
#include "net/flowctl.h"

#define G40 40000000000ull
#define US  PS_PER_US

static struct net net_;
static struct fc_gfc_run *run_;
static uint64_t buffer_;        /* build(): the switch's buffer if set, else test_fabric's */
enum { H0, H1, R0, SW };

static int host_frame(struct net *n, void *state, uint32_t port, const struct packet *p)
{
    return fc_gfc_apply(n, state, port, p);
}

static void run_release(void *state)
{
    struct fc_gfc_run *r = state;
    if (r && --r->refs == 0) {
        fc_gfc_run_free(r);
        free(r);
    }
}

/* h0, h1 -> sw -> r0, 40 Gb/s, 1 us; test_fabric's switch (XOFF 500 KB
 * at 40G); GFC with B0 = 50% of XOFF, 8 stages, hysteresis auto. */
static struct net *build(void)
{
    struct net *n = &net_;
    struct switch_cfg c;
    char why[256];
    if (net_init(n, 1))
        return NULL;
    net_add_node(n, NODE_HOST, "h0");
    net_add_node(n, NODE_HOST, "h1");
    net_add_node(n, NODE_HOST, "r0");
    net_add_node(n, NODE_SWITCH, "sw");
    net_add_link(n, H0, SW, G40, 1 * US);
    net_add_link(n, H1, SW, G40, 1 * US);
    net_add_link(n, SW, R0, G40, 1 * US);
    test_swcfg(n, &c);
    if (buffer_)
        c.buffer_bytes = buffer_;
    if (net_finalize(n, &c, why, sizeof why)) {
        printf("  %s\n", why);
        return NULL;
    }
    struct fc_gfc_cfg g = { .start_pct = 50, .stages = 8 };
    run_ = calloc(1, sizeof *run_);
    if (!run_ || fc_gfc_run_init(run_, n, &g, c.lossless_mask))
        return NULL;
    run_->release = run_release;
    run_->refs = 1;
    if (fc_gfc_install(n, &n->sws[0], run_))
        return NULL;
    n->fc_host_frame = host_frame;
    n->fc_host_state = run_;
    return n;
}

static void done(void)
{
    net_free(&net_);
    run_ = NULL;
}

/* Endless line-rate flows h0 -> r0 and h1 -> r0: a 2:1 incast. */
static void add_incast(struct net *n)
{
    for (uint32_t s = 0; s < 2; s++) {
        struct flow f;
        memset(&f, 0, sizeof f);
        f.src = s;
        f.dst = 2;
        f.prio = n->cfg.data_prio;
        f.size = UINT64_MAX;
        f.flags = FL_ENDLESS;
        f.stop_ps = SIMTIME_NEVER;
        f.tp = &transport_line;
        f.sport = (uint16_t)(10000 + s);
        f.hash = s + 1;
        f.rhash = s + 7;
        net_add_flow(n, &f);
    }
}

static uint32_t frame(struct net *n, uint8_t sub, uint8_t cls, uint32_t value)
{
    uint32_t pi = fc_new_frame(n, sub);
    struct packet *p = pkt(&n->pool, pi);
    p->prio = cls;
    p->rate_units = value;
    return pi;
}

TEST(staircase_from_xoff)
{
    struct fc_gfc_cfg g = { .start_pct = 50, .stages = 8 };
    struct gfc_params p;
    fc_gfc_params(&g, 500000, &p);             /* 40G auto XOFF */
    CHECK_EQ(p.start_bytes, 250000);
    CHECK_EQ(p.stop_bytes, 500000);
    CHECK_EQ(p.stages, 8);
    CHECK_EQ(p.hyst_bytes, 15625);              /* S/2 = 250000/8/2 */
    CHECK_EQ(gfc_params_check(&p, NULL, 0), 0);
    g.start_bytes = 100000;                     /* bytes override the percentage */
    g.hyst_set = 1;
    g.hyst_bytes = 1000;
    fc_gfc_params(&g, 500000, &p);
    CHECK_EQ(p.start_bytes, 100000);
    CHECK_EQ(p.hyst_bytes, 1000);
    /* a dynamic threshold below the start: the stages are squeezed under it */
    fc_gfc_params(&g, 50000, &p);
    CHECK_EQ(p.stop_bytes, 50000);
    CHECK_EQ(p.start_bytes, 50000 - 8);
    CHECK_EQ(gfc_params_check(&p, NULL, 0), 0);
    fc_gfc_params(&g, 5, &p);                   /* below the stage count: one stage */
    CHECK_EQ(p.stages, 1);
    CHECK_EQ(p.start_bytes, 0);
    CHECK_EQ(gfc_params_check(&p, NULL, 0), 0);
    fc_gfc_params(&g, 0, &p);
    CHECK_EQ(gfc_params_check(&p, NULL, 0), 0);
}

/* A frame at the NIC (h0's port) and at a switch egress (sw->r0). */
static void feedback_case(uint32_t at_host)
{
    struct net *n = build();
    CHECK(n);
    uint32_t port = at_host ? net_port_between(n, H0, SW) : net_port_between(n, SW, R0);
    uint8_t d = n->cfg.data_prio;
    const struct port *pt = &n->ports[port];
    /* malformed or forged: above line rate, a class GFC does not run on, an
     * out-of-range class, another scheme's subtype */
    static const struct { uint8_t sub, cls_ctrl, cls_bad; uint32_t v; } bad[] = {
        { FC_SUB_GFC, 0, 0, GFC_Q15_ONE + 1 }, { FC_SUB_GFC, 0, 0, 0xffff }, { FC_SUB_GFC, 0, 0, UINT32_MAX },
        { FC_SUB_GFC, 1, 0, 16384 }, { FC_SUB_GFC, 0, 1, 16384 }, { FC_SUB_GFC + 1, 0, 0, 16384 },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        uint8_t cls = bad[i].cls_ctrl ? n->cfg.ctrl_prio : bad[i].cls_bad ? 9 : d;
        fc_receive(n, port, frame(n, bad[i].sub, cls, bad[i].v));
        CHECK_EQ(n->fctl_bad, i + 1);
        CHECK_EQ(pt->gated, 0);
        CHECK_EQ(pt->paused, 0);
        CHECK(n->fc_gates == NULL || n->fc_gates[port * NCLASS + d].rate_bps == 0);
        CHECK_EQ(run_->st.fb_rcvd, 0);
    }
    /* half rate: a 20 Gb/s gate on the data class */
    fc_receive(n, port, frame(n, FC_SUB_GFC, d, 16384));
    CHECK_EQ(n->fctl_bad, 6);
    CHECK_EQ(run_->st.fb_rcvd, 1);
    CHECK(n->fc_gates != NULL);
    CHECK_EQ(n->fc_gates[port * NCLASS + d].rate_bps, 20000000000ull);
    CHECK_EQ(pt->paused, 0);
    /* a malformed frame now leaves the gate as it is */
    fc_receive(n, port, frame(n, FC_SUB_GFC, d, 40000));
    CHECK_EQ(n->fc_gates[port * NCLASS + d].rate_bps, 20000000000ull);
    /* zero: the class stops (pause state), counted as paused */
    fc_receive(n, port, frame(n, FC_SUB_GFC, d, 0));
    CHECK_EQ(pt->paused, 1u << d);
    /* line rate: the stop is lifted and the gate removed */
    fc_receive(n, port, frame(n, FC_SUB_GFC, d, GFC_Q15_ONE));
    CHECK_EQ(pt->paused, 0);
    CHECK_EQ(n->fc_gates[port * NCLASS + d].rate_bps, 0);
    CHECK_EQ(pt->gated, 0);
    CHECK_EQ(run_->st.fb_rcvd, 3);
    CHECK_EQ(n->fctl_bad, 7);
    /* every frame was consumed */
    CHECK_EQ(n->created[PKT_FCTL], n->consumed[PKT_FCTL]);
    char why[256];
    CHECK_EQ(net_check_conservation(n, why, sizeof why), 0);
}

TEST(feedback_at_a_switch_port)
{
    feedback_case(0);
    done();
}

TEST(feedback_at_a_nic)
{
    feedback_case(1);
    done();
}

/* Two line-rate senders into one 40G receiver: GFC paces each NIC to
 * about 20 Gb/s from the switch's ingress occupancy; no PAUSE frame, no
 * drop, no zero-rate feedback.  The staircase (8 stages over 250..500 KB)
 * gives 22.2 Gb/s at level 4 and 17.8 at level 5: each ingress counter
 * settles at the level 4/5 boundary, 375 KB. */
TEST(incast_paced_without_pause)
{
    struct net *n = build();
    CHECK(n);
    add_incast(n);
    CHECK_EQ(net_flows_ready(n), 0);
    net_run_until(n, 5 * PS_PER_MS);
    uint64_t b0 = n->flows[0].rcv_nxt, b1 = n->flows[1].rcv_nxt;
    net_run_until(n, 10 * PS_PER_MS);
    uint64_t d0 = n->flows[0].rcv_nxt - b0, d1 = n->flows[1].rcv_nxt - b1;
    /* 5 ms at 20 Gb/s of frames of 1000 B payload in 1082+20 wire bytes:
     * 12.5 MB of wire time, 11.34 MB of payload; within 3% */
    double want = 5e-3 * 20e9 / 8 * 1000.0 / 1102.0;
    CHECK_NEAR((double)d0, want, want * 0.03);
    CHECK_NEAR((double)d1, want, want * 0.03);
    CHECK_EQ(n->created[PKT_PFC], 0);
    for (uint32_t p = 0; p < n->n_ports; p++)
        CHECK_EQ(n->ports[p].st.drops, 0);
    CHECK(run_->st.fb_sent > 0);
    CHECK_EQ(run_->st.fb_zero, 0);
    CHECK_EQ(run_->st.fb_rcvd, run_->st.fb_sent - (n->created[PKT_FCTL] - n->consumed[PKT_FCTL]));
    CHECK(run_->st.max_level >= 4 && run_->st.max_level <= 6);
    const struct sw *s = &n->sws[0];
    for (uint32_t k = 0; k < 2; k++) {
        const struct mmu_cnt *m = &s->cnt[k * NCLASS + n->cfg.data_prio];
        CHECK_NEAR((double)(m->shared + m->hdrm), 375000.0, 40000.0);
    }
    /* feedback overhead: frames of 64 B against the data carried */
    CHECK((double)run_->st.fb_sent * 84 < 0.005 * (double)n->ports[net_port_between(n, SW, R0)].st.tx_wire_bytes);
    char why[256];
    CHECK_EQ(net_check_conservation(n, why, sizeof why), 0);
    done();
}

/* The same incast into a 400 KB buffer: the shared pool (what is left
 * after reserves and headrooms) is smaller than one counter's static XOFF
 * of 500 KB, so the MMU's pause point is the pool running out, not the
 * threshold.  GFC's Bm follows it (fc_gfc.c bm_now): feedback slows the
 * senders before the pool is gone, and nothing is dropped.  With Bm = the
 * static threshold alone the staircase never started and frames were
 * dropped in lossless mode. */
TEST(incast_pool_smaller_than_xoff)
{
    buffer_ = 400000;
    struct net *n = build();
    buffer_ = 0;
    CHECK(n);
    const struct sw *s = &n->sws[0];
    CHECK(s->shared_pool < s->xoff[0]);
    add_incast(n);
    CHECK_EQ(net_flows_ready(n), 0);
    net_run_until(n, 5 * PS_PER_MS);
    CHECK(run_->st.fb_sent > 0);
    for (uint32_t p = 0; p < n->n_ports; p++)
        CHECK_EQ(n->ports[p].st.drops, 0);
    CHECK_EQ(n->created[PKT_PFC], 0);
    CHECK(s->shared_used <= s->shared_pool);
    done();
}

int main(void)
{
    test_crash_guard();
    test_binary_ = "test_fc_gfc";
    RUN(staircase_from_xoff);
    RUN(feedback_at_a_switch_port);
    RUN(feedback_at_a_nic);
    RUN(incast_paced_without_pause);
    RUN(incast_pool_smaller_than_xoff);
    return test_summary();
}
