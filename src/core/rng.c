/* rng.c -- xoshiro256** with splitmix64 seeding; see rng.h. */
#include "core/rng.h"

#include <math.h>

uint64_t mix64(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

uint64_t rng_stream_seed(uint64_t seed, const char *label, const char *name)
{
    uint64_t h = 0xcbf29ce484222325ull;                 /* FNV-1a 64 offset basis */
    for (const char *s = label; *s; s++)
        h = (h ^ (unsigned char)*s) * 0x100000001b3ull; /* FNV-1a 64 prime */
    h = (h ^ 0xff) * 0x100000001b3ull;                  /* separator: ("ab", "c") is not ("a", "bc") */
    for (const char *s = name; *s; s++)
        h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
    return mix64(mix64(seed) ^ h);
}

void rng_seed(struct rng *r, uint64_t seed)
{
    for (int i = 0; i < 4; i++) {
        seed += 0x9e3779b97f4a7c15ull;
        r->s[i] = mix64(seed);
    }
}

static inline uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

uint64_t rng_next(struct rng *r)
{
    uint64_t *s = r->s;
    uint64_t result = rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

double rng_uniform(struct rng *r)
{
    return (double)(rng_next(r) >> 11) * (1.0 / 9007199254740992.0);
}

uint64_t rng_below(struct rng *r, uint64_t n)
{
    /* Rejection on the top of the range removes modulo bias. */
    uint64_t limit = UINT64_MAX - UINT64_MAX % n;
    uint64_t x;
    do
        x = rng_next(r);
    while (x >= limit);
    return x % n;
}

double rng_exp(struct rng *r, double mean)
{
    double u = rng_uniform(r);
    return -mean * log1p(-u);
}
