/*
 * rng.h -- the per-run pseudo-random generator.
 *
 * xoshiro256** (Blackman & Vigna), seeded through splitmix64 so any 64-bit
 * seed gives a well-mixed state.  Each run owns its generators (no global
 * state): same seed, same event order, same numbers -- runs are reproducible
 * byte for byte.  Who draws from what:
 *  - a flow generator ([traffic.NAME], a [flows.NAME] start_jitter) has a
 *    stream of its own, rng_stream_seed(seed, "traffic" or "flows", NAME):
 *    its arrivals (sources, destinations, sizes, start times) depend on the
 *    seed and its own section only -- not on the topology's switches, the
 *    CC algorithm, the flow-control scheme or the other groups
 *    (tests/scenario/flow_draws.sh);
 *  - a RoCC CP's flow-table sampling seed is its port's own
 *    (rng_stream_seed(seed, "rocc_ft", "SWITCH->PEER#k"));
 *  - the set-up stream (struct net: rng, rng_seed(seed)) gives each switch
 *    its ECMP seed, in switch order: a switch's seed depends on the seed and
 *    its position among the switches, so switches added at the end of the
 *    node list (crossdc's relays) move no other switch's seed, one inserted
 *    earlier in a topology file moves those after it;
 *  - draws made while the run goes come from one stream per node (net.h:
 *    net_node_rng), seeded from the seed and the node's index, so they do
 *    not depend on other nodes' events.
 */
#ifndef ROCC_RNG_H
#define ROCC_RNG_H

#include <stdint.h>

struct rng { uint64_t s[4]; };

void     rng_seed(struct rng *r, uint64_t seed);
uint64_t rng_next(struct rng *r);
/* Uniform in [0, 1) with 53 random bits. */
double   rng_uniform(struct rng *r);
/* Uniform integer in [0, n), n > 0, without modulo bias. */
uint64_t rng_below(struct rng *r, uint64_t n);
/* Exponential with the given mean (for Poisson arrivals). */
double   rng_exp(struct rng *r, double mean);
/* A stateless 64-bit mixer (splitmix64 finaliser) for hashing. */
uint64_t mix64(uint64_t x);
/* The seed of a named stream: the run's seed mixed with a label (who
 * draws: "traffic", "flows", "rocc_ft") and a name, FNV-1a over the
 * two strings, so streams of different (label, name) are unrelated. */
uint64_t rng_stream_seed(uint64_t seed, const char *label, const char *name);

#endif
