/* fuzz_scenario.c -- a scenario file end to end up to the run: cfg_parse,
 * scenario_build (topology, network, [rocc], flow groups, [traffic.*] with
 * their CDFs, [fct], [output], [events]) and expect_parse, then the unused-key
 * checks, as `roccsim run --check` does.  Nothing is simulated.
 *
 * Inputs that ask for a large build are skipped, because a valid scenario
 * may legitimately take seconds and gigabytes to build (a fat-tree with
 * k = 64, a long run of generated traffic), and the fuzzer would report
 * that as a timeout or out-of-memory instead of a bug: a [traffic.*] stop
 * over 2 ms, a number over 16 in [topology] or over 64 in a flow or traffic
 * section, a [traffic.*] size under 10 KB (incast of 100 B flows at 4% load
 * is 900,000 flows in 5 ms: valid, and seconds to build), a [rocc]
 * table_size over 4096, or a value naming a device or /proc file (a "file"
 * of /dev/zero never ends).  The limits are checked on a separate parse.
 * Generated traffic grows with the run, so a scenario with a [traffic.*]
 * section and a duration over 2 ms gets "--set sim.duration=2ms" (the
 * seeds run longer; skipping them would lose their coverage); anything
 * else is built exactly as written. */
#include "engine/config.h"
#include "engine/expect.h"
#include "engine/scenario.h"
#include "core/units.h"
#include "fuzz.h"

static int too_big, has_traffic;
static const char *cur_sec;

static void check_value(const struct cfg_entry *e, void *arg)
{
    uint64_t max = *(const uint64_t *)arg, v;
    if (strstr(e->value, "/dev") || strstr(e->value, "/proc") || strstr(e->value, "/sys")) too_big = 1;
    if (units_parse_u64(e->value, &v) == 0 && v > max) too_big = 1;
    if (!strncmp(cur_sec, "traffic.", 8)) {
        has_traffic = 1;
        if (!strcmp(e->key, "size") && (units_parse_bytes(e->value, &v) != 0 || v < 10000)) too_big = 1;
        if (!strcmp(e->key, "stop") && (units_parse_time_ps(e->value, &v) != 0 || v > 2 * PS_PER_MS)) too_big = 1;
    }
}

static void check_section(const char *sec, void *arg)
{
    struct cfg *c = arg;
    uint64_t max = UINT64_MAX;
    if (!strcmp(sec, "topology")) max = 16;
    else if (!strncmp(sec, "flows.", 6) || !strncmp(sec, "traffic.", 8)) max = 64;
    else if (!strcmp(sec, "rocc")) max = 4096;
    cur_sec = sec;
    cfg_entries(c, sec, check_value, &max);
}

/* 0: skip the input; 1: build it; 2: build it with the duration capped. */
static int acceptable(const uint8_t *data, size_t size)
{
    struct cfg_err err;
    struct cfg *c = cfg_parse("fuzz.ini", (const char *)data, size, &err);
    if (!c) return 1;                  /* the real parse reports it */
    uint64_t dur;
    int long_run = cfg_time(c, "sim", "duration", 0, &dur, &err) == 0 && dur > 2 * PS_PER_MS;
    too_big = has_traffic = 0;
    cfg_sections(c, NULL, check_section, c);
    cfg_free(c);
    return too_big ? 0 : has_traffic && long_run ? 2 : 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    int how = acceptable(data, size);
    if (!how) return 0;
    struct cfg_err err;
    struct cfg *c = cfg_parse("fuzz.ini", (const char *)data, size, &err);
    if (!c) return 0;
    if (how == 2 && cfg_set(c, "sim.duration=2ms", 1, &err)) abort();
    struct scenario sc;
    struct expectations *ex = NULL;
    if (scenario_build(&sc, c, &err) == 0 && (ex = expect_parse(&sc, &err)) != NULL)
        cfg_check_unused(c, &err);
    else
        cfg_check_unused_done(c, &err);
    expect_free(ex);
    scenario_free(&sc);
    cfg_free(c);
    return 0;
}
