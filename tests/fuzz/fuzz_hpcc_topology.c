/* fuzz_hpcc_topology.c -- HPCC simulator topology files (topology.c
 * topo_load_hpcc: "NODES SWITCHES LINKS", the switch ids, then "SRC DST RATE
 * DELAY ERROR_RATE" lines), through a scenario with [topology] type = hpcc
 * so a file that loads is also finalized and gets a flow.  Node counts above
 * 4096 are skipped: a valid header may ask for up to 2^20 nodes, which
 * takes long to build and says nothing new. */
#include "engine/config.h"
#include "engine/scenario.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char head[32];
    size_t k = 0;
    while (k < size && k + 1 < sizeof head && data[k] != '\n') { head[k] = (char)data[k]; k++; }
    head[k] = '\0';
    if (strtoull(head, NULL, 10) > 4096) return 0;
    const char *path = fuzz_file(data, size);
    if (!path) return 0;
    char ini[512];
    int n = snprintf(ini, sizeof ini,
                     "[sim]\nduration = 1ms\n[topology]\ntype = hpcc\nfile = %s\n"
                     "[flows.a]\nsrc = h0\ndst = h1\n", path);
    struct cfg_err err;
    struct cfg *c = cfg_parse("fuzz.ini", ini, (size_t)n, &err);
    if (!c) abort();
    struct scenario sc;
    scenario_build(&sc, c, &err);
    scenario_free(&sc);
    cfg_free(c);
    return 0;
}
