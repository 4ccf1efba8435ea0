/* fuzz_topology.c -- roccsim's own topology files ([topology] type = file:
 * "host NAME...", "switch NAME...", "link A B RATE DELAY"), read by
 * scenario.c through a scenario that names the input as its file, so the
 * net it describes is also finalized (ports, ECMP routes, connectivity
 * check) and a flow h0 -> h1 placed on it when those hosts exist. */
#include "engine/config.h"
#include "engine/scenario.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_file(data, size);
    if (!path) return 0;
    char ini[512];
    int n = snprintf(ini, sizeof ini,
                     "[sim]\nduration = 1ms\n[topology]\ntype = file\nfile = %s\n"
                     "[flows.a]\nsrc = h0\ndst = h1\n", path);
    struct cfg_err err;
    struct cfg *c = cfg_parse("fuzz.ini", ini, (size_t)n, &err);
    if (!c) abort();                   /* the wrapper itself is valid */
    struct scenario sc;
    scenario_build(&sc, c, &err);
    scenario_free(&sc);
    cfg_free(c);
    return 0;
}
