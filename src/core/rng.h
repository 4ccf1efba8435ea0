/*
 * rng.h -- the per-run pseudo-random generator.
 *
 * xoshiro256** (Blackman & Vigna), seeded through splitmix64 so any 64-bit
 * seed gives a well-mixed state.  Each run owns one generator (no global
 * state): same seed, same event order, same numbers -- runs are reproducible
 * byte for byte.  Components that need their own stream (a switch's ECMP
 * seed, a flow table's sampler) take a seed from it with rng_next() at build
 * time.  All set-up draws come from this one stream, so adding a component
 * (a switch, a jittered flow group) shifts the draws of everything built
 * after it: compare runs of one scenario, not of edited scenarios, draw by
 * draw.  Draws made while the run goes come from one stream per node
 * (net.h: net_node_rng), so they do not depend on other nodes' events.
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

#endif
