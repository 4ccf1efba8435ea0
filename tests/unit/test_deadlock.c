/*
 * test_deadlock.c -- the deadlock detector's wait-for graph (deadlock.h)
 * on hand-made states of the ring experiments/escape/ring3.topo, so the
 * edge rule itself is tested: stuck port P waits for stuck port Q of the
 * next switch only if Q holds a frame that came in through P's peer.
 *
 * Ports by link order (h1-s1 h2-s2 h3-s3 s1-s2 s2-s3 s3-s1):
 *   s1: 0 -> h1, 1 -> s2, 2 -> s3     s2: 0 -> h2, 1 -> s1, 2 -> s3
 *   s3: 0 -> h3, 1 -> s2, 2 -> s1
 * The clockwise cycle: s1->s2 waits on s2's ingress 1, whose frames sit at
 * s2->s3 (in_port 1); s2->s3 waits on s3's ingress 1 (frames at s3->s1);
 * s3->s1 waits on s1's ingress 2 (frames at s1->s2, in_port 2).
 */
#include "engine/deadlock.h"

#include "test.h"

static const char *ini =
    "[sim]\nduration = 10ms\n"
    "[topology]\ntype = file\nfile = experiments/escape/ring3.topo\n"
    "[cc]\nalgorithm = none\n"
    "[flows.a]\nsrc = h1\ndst = h3\nstart = 20ms\n"
    "[flowcontrol]\ndeadlock_check = 100us\ndeadlock_timeout = 1ms\n";

static struct cfg *cfg_;
static struct scenario sc_;

static struct scenario *build(void)
{
    struct cfg_err err;
    cfg_ = cfg_parse("deadlock-test.ini", ini, strlen(ini), &err);
    if (!cfg_)
        return NULL;
    if (scenario_build(&sc_, cfg_, &err)) {
        printf("  %s\n", err.msg);
        return NULL;
    }
    return &sc_;
}

static void done(void)
{
    scenario_free(&sc_);
    cfg_free(cfg_);
    cfg_ = NULL;
}

static uint32_t port(const struct scenario *sc, const char *sw, uint32_t local)
{
    return sc->net.nodes[scenario_node(sc, sw)].first_port + local;
}

/* Pause class 3 of egress p and queue one data frame that came in on local
 * ingress in_port. */
static void stuck(struct scenario *sc, uint32_t p, uint16_t in_port)
{
    struct net *n = &sc->net;
    uint32_t pi = net_new_packet(n, PKT_DATA);
    struct packet *k = pkt(&n->pool, pi);
    k->bytes = 1062;
    k->prio = 3;
    k->in_port = in_port;
    port_q_push(n, &n->ports[p], 3, pi);
    n->ports[p].paused |= 1u << 3;
}

static const char *cycle_names(const struct scenario *sc, char *buf, size_t len)
{
    deadlock_describe(sc, buf, len);
    return buf;
}

TEST(cycle_found_when_frames_close_it)
{
    struct scenario *sc = build();
    CHECK(sc != NULL);
    CHECK(sc->dl != NULL);
    stuck(sc, port(sc, "s1", 1), 2);
    stuck(sc, port(sc, "s2", 2), 1);
    stuck(sc, port(sc, "s3", 2), 1);
    sc->net.el.now = 500 * PS_PER_US;            /* not yet stuck for 1 ms */
    deadlock_tick(sc);
    CHECK(!sc->dl->detected);
    sc->net.el.now = 1100 * PS_PER_US;
    deadlock_tick(sc);
    char b[256];
    CHECK(sc->dl->detected);
    CHECK_STR(cycle_names(sc, b, sizeof b), "detected at 1.1ms: s1->s2 s2->s3 s3->s1");
    CHECK_EQ(sc->dl->cycle_len, 3);
    done();
}

TEST(no_cycle_when_frames_came_from_hosts)
{
    struct scenario *sc = build();
    CHECK(sc != NULL);
    stuck(sc, port(sc, "s1", 1), 0);             /* every queued frame came from the local host */
    stuck(sc, port(sc, "s2", 2), 0);
    stuck(sc, port(sc, "s3", 2), 0);
    sc->net.el.now = 2 * PS_PER_MS;
    deadlock_tick(sc);
    CHECK(!sc->dl->detected);
    done();
}

TEST(no_cycle_when_one_port_progresses)
{
    struct scenario *sc = build();
    CHECK(sc != NULL);
    stuck(sc, port(sc, "s1", 1), 2);
    stuck(sc, port(sc, "s2", 2), 1);
    stuck(sc, port(sc, "s3", 2), 1);
    sc->net.el.now = 1500 * PS_PER_US;
    sc->net.ports[port(sc, "s2", 2)].st.tx_data_bytes = 1000;   /* it sent since the last check */
    deadlock_tick(sc);
    CHECK(!sc->dl->detected);
    sc->net.el.now = 2400 * PS_PER_US;           /* 0.9 ms after that progress */
    deadlock_tick(sc);
    CHECK(!sc->dl->detected);
    sc->net.el.now = 2500 * PS_PER_US;           /* 1 ms after it */
    deadlock_tick(sc);
    CHECK(sc->dl->detected);
    CHECK_EQ(sc->dl->t_stalled, 1500 * PS_PER_US);
    done();
}

TEST(unpaused_port_breaks_cycle)
{
    struct scenario *sc = build();
    CHECK(sc != NULL);
    stuck(sc, port(sc, "s1", 1), 2);
    stuck(sc, port(sc, "s2", 2), 1);
    stuck(sc, port(sc, "s3", 2), 1);
    sc->net.ports[port(sc, "s3", 2)].paused = 0;
    sc->net.el.now = 2 * PS_PER_MS;
    deadlock_tick(sc);
    CHECK(!sc->dl->detected);
    done();
}

/* A run over 3 ranks in one process: each switch (with its host) is a
 * rank.  The stand-in for MPI collects each rank's records (collect: the
 * rank sees only its own, so no cycle), then hands every rank's records,
 * last rank first, to one more check: the cycle across all three. */
static struct dl_rec gathered[64];
static size_t n_gathered;
static int collect;
static size_t seen;

static void *fake_allgather(struct scenario *sc, const void *buf, size_t bytes, size_t *all_bytes)
{
    seen = bytes / sizeof(struct dl_rec);
    if (collect) {
        memcpy(gathered + n_gathered, buf, bytes);   /* a ring3 rank has at most 3 */
        n_gathered += seen;
        *all_bytes = bytes;
        void *mine = malloc(bytes ? bytes : 1);
        memcpy(mine, buf, bytes);
        return mine;
    }
    struct dl_rec *all = malloc(n_gathered * sizeof *all);
    for (size_t i = 0; i < n_gathered; i++)
        all[i] = gathered[n_gathered - 1 - i];
    *all_bytes = n_gathered * sizeof *all;
    return all;
}

TEST(cycle_found_from_every_ranks_records)
{
    struct scenario *sc = build();
    CHECK(sc != NULL);
    struct net *n = &sc->net;
    uint16_t rank[6];
    const char *sw[3] = { "s1", "s2", "s3" }, *h[3] = { "h1", "h2", "h3" };
    for (uint16_t r = 0; r < 3; r++) {
        rank[scenario_node(sc, sw[r])] = r;
        rank[scenario_node(sc, h[r])] = r;
    }
    CHECK_EQ(n->n_nodes, 6);
    stuck(sc, port(sc, "s1", 1), 2);
    stuck(sc, port(sc, "s2", 2), 1);
    stuck(sc, port(sc, "s3", 2), 1);
    sc->par_allgather = fake_allgather;
    n->node_rank = rank;
    n->el.now = 1100 * PS_PER_US;
    collect = 1;
    n_gathered = 0;
    for (uint32_t r = 0; r < 3; r++) {
        n->my_rank = r;
        deadlock_tick(sc);
        CHECK(!sc->dl->detected);
        CHECK_EQ(seen, 2);                       /* its stuck port, and the ingress its frame came in on */
    }
    collect = 0;
    n->my_rank = 1;
    deadlock_tick(sc);
    char b[256];
    CHECK(sc->dl->detected);
    CHECK_STR(cycle_names(sc, b, sizeof b), "detected at 1.1ms: s1->s2 s2->s3 s3->s1");
    CHECK_EQ(sc->dl->t_stalled, 0);
    n->node_rank = NULL;
    sc->par_allgather = NULL;
    done();
}

static void *no_memory(struct scenario *sc, const void *buf, size_t bytes, size_t *all_bytes)
{
    return NULL;
}

TEST(failed_gather_stops_the_run)
{
    struct scenario *sc = build();
    CHECK(sc != NULL);
    stuck(sc, port(sc, "s1", 1), 2);
    stuck(sc, port(sc, "s2", 2), 1);
    stuck(sc, port(sc, "s3", 2), 1);
    sc->par_allgather = no_memory;
    sc->net.el.now = 1100 * PS_PER_US;
    deadlock_tick(sc);
    CHECK(!sc->dl->detected);
    CHECK(sc->net.oom);
    sc->par_allgather = NULL;
    done();
}

int main(void)
{
    test_crash_guard();
    test_binary_ = "test_deadlock";
    setvbuf(stdout, NULL, _IOLBF, 0);
    RUN(cycle_found_when_frames_close_it);
    RUN(no_cycle_when_frames_came_from_hosts);
    RUN(no_cycle_when_one_port_progresses);
    RUN(unpaused_port_breaks_cycle);
    RUN(cycle_found_from_every_ranks_records);
    RUN(failed_gather_stops_the_run);
    return test_summary();
}
