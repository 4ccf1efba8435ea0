/* fuzz_hpcc_flows.c -- HPCC flow files (workload.c wl_read_hpcc: a count,
 * then "src dst pg dport size start_s" lines), read for 320 hosts (HPCC's
 * fat.txt).  A file that reads is written back (wl_write_hpcc) and read
 * again: the same flows must come out, start times rounded to the ns as the
 * format prints them (and so sorted again). */
#include "engine/workload.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_file(data, size);
    if (!path) return 0;
    char err[512], out[96];
    struct wl_list l = { 0 }, back = { 0 };
    if (wl_read_hpcc(&l, path, 320, err, sizeof err) == 0) {
        snprintf(out, sizeof out, "%s.out", path);
        if (wl_write_hpcc(&l, out, err, sizeof err) == 0) {
            if (wl_read_hpcc(&back, out, 320, err, sizeof err) != 0 || back.n != l.n) abort();
            /* Rounding to the ns can reorder flows of nearly equal start
             * (the reader sorts by start, then src, dst): round, re-sort. */
            for (size_t i = 0; i < l.n; i++)
                l.v[i].start_ps = (l.v[i].start_ps / 1000 + (l.v[i].start_ps % 1000 >= 500)) * 1000;
            wl_sort_by_start(&l);
            for (size_t i = 0; i < l.n; i++) {
                const struct wl_flow *a = &l.v[i], *b = &back.v[i];
                if (a->src != b->src || a->dst != b->dst || a->size != b->size || a->incast != b->incast ||
                    a->start_ps != b->start_ps)
                    abort();
            }
            unlink(out);
        }
    }
    wl_list_free(&l);
    wl_list_free(&back);
    return 0;
}
