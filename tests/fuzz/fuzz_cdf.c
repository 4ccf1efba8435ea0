/* fuzz_cdf.c -- flow-size CDF files (workload.c cdf_load, all three format
 * settings).  A CDF that loads is sampled both ways and must keep the
 * documented contract (workload.h): samples >= 1 and no larger than the
 * largest size (or 1), step samples only listed sizes, finite means. */
#include <math.h>

#include "engine/workload.h"
#include "fuzz.h"

static void check(const struct cdf *c)
{
    struct rng r;
    rng_seed(&r, 1);
    double top = fmax(1.0, floor(c->size[c->n - 1]));
    if (!isfinite(c->mean_interp) || !isfinite(c->mean_step) || c->mean_interp < 1 || c->mean_step < 1) abort();
    for (int i = 0; i < 16; i++) {
        uint64_t x = cdf_sample(c, CDF_INTERPOLATE, &r);
        if (x < 1 || (double)x > top) abort();
        uint64_t y = cdf_sample(c, CDF_STEP, &r), j;
        for (j = 0; j < c->n && (double)y != fmax(1.0, floor(c->size[j])); j++) {}
        if (j == c->n) abort();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const enum cdf_format fmts[] = { CDF_AUTO, CDF_FRACTION, CDF_PERCENT };
    const char *path = fuzz_file(data, size);
    if (!path) return 0;
    for (int f = 0; f < 3; f++) {
        struct cdf c;
        char err[512];
        if (cdf_load(&c, path, fmts[f], err, sizeof err) == 0) check(&c);
        cdf_free(&c);
    }
    return 0;
}
