/*
 * test_fc_loopbreak.c -- the simulator side of Loop Breaker / Deadlock
 * Breaker (src/net/fc_loopbreak.c) and the generic hook it added,
 * fc_grant_buffer (src/net/switch.c), on a one-switch fabric h0, h1 -> sw
 * -> r whose egress to r is held (never transmits), so frames from h0
 * pile up at sw's ingress h0 and we can count exactly when XOFF/XON go.
 */
#include "net/fc_loopbreak.h"

#include "test.h"
#include "test_fabric.h"

enum { H0, H1, SW, R };
#define G40 40000000000ull
#define FRAME 1062u

static struct net net_;
static int live_;

static struct net *mk(void)
{
    struct net *n = test_star(&net_, &live_, 2);
    if (!n)
        return NULL;
    test_add_flow(n, 0, 2, 100000000, 77);
    n->ports[n->nodes[SW].first_port + 2].busy_until = SIMTIME_NEVER - 1;   /* sw -> r never sends */
    return n;
}

static uint32_t sw_in(const struct net *n) { return n->nodes[SW].first_port + 0; }   /* sw's port facing h0 */

static void arrive(struct net *n, uint64_t k)
{
    test_arrive(n, PKT_DATA, 0, k, n->cfg.data_prio, 0);
}

/* Frames from h0 until sw asks h0 for XOFF (at most `max`). */
static uint32_t fill_to_xoff(struct net *n, uint32_t max, uint64_t *k)
{
    uint32_t c = 0;
    while (!fc_ingress_requested(&n->sws[0], 0, n->cfg.data_prio) && c < max) {
        arrive(n, (*k)++);
        c++;
    }
    return c;
}

TEST(grant_sends_xon_and_admits_exactly_the_grant)
{
    struct net *n = mk();
    CHECK(n != NULL);
    struct sw *s = &n->sws[0];
    uint8_t cls = n->cfg.data_prio;
    uint64_t k = 0;
    fill_to_xoff(n, 100000, &k);
    CHECK(fc_ingress_requested(s, 0, cls));
    for (int i = 0; i < 5; i++)                 /* in flight after the XOFF: into headroom */
        arrive(n, k++);
    CHECK(s->cnt[0 * NCLASS + cls].hdrm > 0);
    uint64_t pool_used = s->shared_used + s->hdrm_used;
    CHECK_EQ(fc_grant_buffer(n, s, 0, cls, 20000), 0);
    CHECK_EQ(s->cnt[0 * NCLASS + cls].hdrm, 0);          /* headroom moved to the shared pool */
    CHECK_EQ(s->shared_used + s->hdrm_used, pool_used);  /* same bytes, other account */
    CHECK(!fc_ingress_requested(s, 0, cls));             /* XON went out at once */
    /* exactly ceil(20000 / 1062) = 19 more frames before the next XOFF */
    CHECK_EQ(fill_to_xoff(n, 1000, &k), 19);
    /* withdraw: nothing happens now (XOFF already sent), the threshold is back */
    CHECK_EQ(fc_grant_buffer(n, s, 0, cls, 0), 0);
    CHECK_EQ(s->xoff_extra[0 * NCLASS + cls], 0);
    CHECK(fc_ingress_requested(s, 0, cls));
}

TEST(grant_without_pause_only_raises)
{
    struct net *n = mk();
    CHECK(n != NULL);
    struct sw *s = &n->sws[0];
    uint8_t cls = n->cfg.data_prio;
    uint64_t k = 0;
    uint32_t plain = fill_to_xoff(n, 100000, &k);      /* frames to the MMU's own XOFF */
    n = mk();
    s = &n->sws[0];
    k = 0;
    CHECK(s->xoff_extra == NULL);                      /* no table until a grant */
    CHECK_EQ(fc_grant_buffer(n, s, 0, cls, 0), 0);
    CHECK(s->xoff_extra == NULL);
    CHECK_EQ(fc_grant_buffer(n, s, 0, cls, 10 * FRAME), 0);
    CHECK_EQ(fill_to_xoff(n, 100000, &k), plain + 10);
}

TEST(token_from_host_is_refused)
{
    struct net *n = mk();
    CHECK(n != NULL);
    struct sw *s = &n->sws[0];
    struct lb_params p;
    lb_default_params(&p, LB_MODE_BUFFER, G40, PS_PER_US, FRAME);
    void *st = fc_lb_new(n, s, &p);
    CHECK(st != NULL);
    fc_install(n, s, &fc_deadlock_breaker, st);
    /* a well-formed RELEASE whose origin is sw's own egress to r, from h0 */
    uint32_t pi = fc_new_frame(n, FC_SUB_LB_RELEASE);
    struct packet *t = pkt(&n->pool, pi);
    t->hops = 1;
    t->cp_id = ((uint32_t)(SW + 1) << 8) | 2;
    fc_receive(n, sw_in(n), pi);
    pi = fc_new_frame(n, 0x77);                        /* another scheme's subtype */
    fc_receive(n, sw_in(n), pi);
    CHECK_EQ(n->fctl_bad, 2);
    struct fc_lb_totals tot;
    fc_lb_totals(n, &tot);
    CHECK_EQ(tot.switches, 1);
    CHECK_EQ(tot.refused_host, 1);
    CHECK_EQ(tot.grants, 0);
    CHECK(s->xoff_extra == NULL);                      /* nothing granted */
    char why[256];
    CHECK_EQ(net_check_conservation(n, why, sizeof why), 0);
}

int main(void)
{
    test_crash_guard();
    test_binary_ = "test_fc_loopbreak";
    RUN(grant_sends_xon_and_admits_exactly_the_grant);
    RUN(grant_without_pause_only_raises);
    RUN(token_from_host_is_refused);
    if (live_)
        net_free(&net_);
    return test_summary();
}
