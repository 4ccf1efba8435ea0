/* dp_common.c -- see dp_common.h. */
#include "dp_common.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

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

void dp_idle(uint64_t cycles_until_work, uint64_t hz)
{
    if (cycles_until_work > dp_us_to_cycles(10, hz))
        usleep(20);
    else
        rte_pause();
}
