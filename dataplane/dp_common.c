/* dp_common.c -- see dp_common.h. */
#include "dp_common.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <rte_cycles.h>

#include <rte_ethdev.h>
#include <rte_pause.h>

/* Descriptor counts asked for; af_packet sizes its rings from framecnt
 * instead, and dp_port_init lets the PMD adjust them. */
#define DP_RXD 1024
#define DP_TXD 1024

int dp_port_init(uint16_t port, struct rte_mempool *pool)
{
    struct rte_eth_conf conf;
    struct rte_eth_dev_info info;
    uint16_t nrx = DP_RXD, ntx = DP_TXD;
    int ret;

    memset(&conf, 0, sizeof conf);
    ret = rte_eth_dev_info_get(port, &info);
    if (ret) { fprintf(stderr, "port %u: dev_info_get: %s\n", port, strerror(-ret)); return ret; }
    ret = rte_eth_dev_configure(port, 1, 1, &conf);
    if (ret) { fprintf(stderr, "port %u: configure: %s\n", port, strerror(-ret)); return ret; }
    ret = rte_eth_dev_adjust_nb_rx_tx_desc(port, &nrx, &ntx);
    if (ret) { fprintf(stderr, "port %u: adjust desc: %s\n", port, strerror(-ret)); return ret; }
    ret = rte_eth_rx_queue_setup(port, 0, nrx, rte_eth_dev_socket_id(port), NULL, pool);
    if (ret) { fprintf(stderr, "port %u: rx queue: %s\n", port, strerror(-ret)); return ret; }
    ret = rte_eth_tx_queue_setup(port, 0, ntx, rte_eth_dev_socket_id(port), NULL);
    if (ret) { fprintf(stderr, "port %u: tx queue: %s\n", port, strerror(-ret)); return ret; }
    ret = rte_eth_dev_start(port);
    if (ret) { fprintf(stderr, "port %u: start: %s\n", port, strerror(-ret)); return ret; }
    /* Frames are addressed to the veth's MAC anyway; promiscuous mode only
     * matters if a test rewires MACs, and failure to set it is harmless. */
    (void)rte_eth_promiscuous_enable(port);
    return 0;
}

void dp_port_close(uint16_t port)
{
    (void)rte_eth_dev_stop(port);
    (void)rte_eth_dev_close(port);
}

uint64_t dp_cycles_to_ps(uint64_t cycles, uint64_t hz)
{
    /* Split into whole seconds and remainder: rem < hz, and rem * 10^12
     * fits in 128 bits; whole seconds * 10^12 fits in 64 bits for 213 days. */
    uint64_t secs = cycles / hz, rem = cycles % hz;
    __extension__ unsigned __int128 frac = (unsigned __int128)rem * 1000000000000ull / hz;
    return secs * 1000000000000ull + (uint64_t)frac;
}

uint64_t dp_us_to_cycles(uint64_t us, uint64_t hz)
{
    return (uint64_t)((__extension__ (unsigned __int128)us * hz) / 1000000u);
}

uint64_t dp_idle(uint64_t cycles_until_work, uint64_t hz)
{
    if (cycles_until_work > dp_us_to_cycles(10, hz)) {
        usleep(20);
        return dp_us_to_cycles(20, hz);
    }
    rte_pause();
    return 0;
}

void dp_clock_init(struct dp_clock *c, uint64_t hz)
{
    c->ns0 = dp_realtime_ns();
    c->hz = hz;
    c->tsc0 = rte_get_tsc_cycles();
}

uint64_t dp_realtime_ns(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_REALTIME, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

uint64_t dp_clock_ns(const struct dp_clock *c, uint64_t tsc)
{
    return c->ns0 + dp_cycles_to_ps(tsc - c->tsc0, c->hz) / 1000u;
}

int dp_cap_open(struct dp_cap *cap, const char *path, uint32_t snaplen, uint64_t hz)
{
    if (!path) return 0;
    if (dp_pcap_open(&cap->pc, path, snaplen)) {
        fprintf(stderr, "--pcap %s: %s\n", path, strerror(errno));
        return -1;
    }
    dp_clock_init(&cap->clk, hz);
    return 0;
}

int dp_cap_close(struct dp_cap *cap, const char *path)
{
    if (!dp_pcap_close(&cap->pc)) return 0;
    fprintf(stderr, "--pcap %s: %" PRIu64 " write errors: the capture is incomplete\n", path, cap->pc.errors);
    return -1;
}

void dp_cap_print_final(const struct dp_cap *cap, const char *path)
{
    if (path)
        printf("final pcap file=%s frames=%" PRIu64 " bytes=%" PRIu64 " errors=%" PRIu64 "\n", path,
               cap->pc.frames, cap->pc.bytes, cap->pc.errors);
}

int dp_cap_parse_dir(struct dp_cap *cap, const char *v)
{
    if (!strcmp(v, "rx")) { cap->rx = true; cap->tx = false; }
    else if (!strcmp(v, "tx")) { cap->rx = false; cap->tx = true; }
    else if (!strcmp(v, "both")) cap->rx = cap->tx = true;
    else return -1;
    return 0;
}

static void cap_mbuf(struct dp_cap *cap, const struct rte_mbuf *m, uint64_t tsc)
{
    /* Single-segment frames are written directly; a chained one is
     * linearised into a stack buffer up to the snap length. */
    if (m->nb_segs == 1) {
        dp_pcap_write(&cap->pc, rte_pktmbuf_mtod(m, const uint8_t *), rte_pktmbuf_pkt_len(m),
                      dp_clock_ns(&cap->clk, tsc));
    } else {
        uint8_t buf[2048];
        uint32_t len = rte_pktmbuf_pkt_len(m), take = len < sizeof buf ? len : (uint32_t)sizeof buf;
        const void *p = rte_pktmbuf_read(m, 0, take, buf);
        if (!p) { cap->pc.errors++; return; }
        /* Record the captured prefix with the frame's real length. */
        if (take < cap->pc.snaplen && take < len) {
            uint32_t keep = cap->pc.snaplen;
            cap->pc.snaplen = take;
            dp_pcap_write(&cap->pc, p, len, dp_clock_ns(&cap->clk, tsc));
            cap->pc.snaplen = keep;
        } else {
            dp_pcap_write(&cap->pc, p, len, dp_clock_ns(&cap->clk, tsc));
        }
    }
}

void dp_cap_rx(struct dp_cap *cap, const struct rte_mbuf *m, uint64_t tsc)
{
    if (cap->rx && cap->pc.f) cap_mbuf(cap, m, tsc);
}

uint16_t dp_tx_burst(uint16_t port, struct rte_mbuf **tx, uint16_t n, struct dp_cap *cap, uint64_t tsc)
{
    uint16_t sent;

    if (!cap || !cap->tx || !cap->pc.f) return rte_eth_tx_burst(port, 0, tx, n);
    for (uint16_t i = 0; i < n; i++) rte_mbuf_refcnt_update(tx[i], 1);
    sent = rte_eth_tx_burst(port, 0, tx, n);
    for (uint16_t i = 0; i < n; i++) {
        if (i < sent) {
            cap_mbuf(cap, tx[i], tsc);
            rte_pktmbuf_free(tx[i]);          /* our extra reference */
        } else {
            rte_mbuf_refcnt_update(tx[i], -1);
        }
    }
    return sent;
}

int dp_getopt(int argc, char **argv, const struct option *opts, struct dp_opt *o)
{
    int idx = -1;
    o->code = getopt_long(argc, argv, "h", opts, &idx);
    o->name = idx >= 0 ? opts[idx].name : "";
    snprintf(o->orig, sizeof o->orig, "%s", optarg ? optarg : "");
    if (o->code == '?' || o->code == ':') {
        fprintf(stderr, "unknown option or missing value: %s\n", argv[optind - 1]);
        return -1;
    }
    return 0;
}
