/* fuzz_config.c -- the INI parser (engine/config.c): cfg_parse on any bytes,
 * then every typed getter on every entry it accepted (the units parsers
 * behind cfg_time, cfg_rate, cfg_bytes...), a --set override built from the
 * input's first line, and the unused-key report. */
#include "engine/config.h"
#include "fuzz.h"

static void each_entry(const struct cfg_entry *e, void *arg)
{
    struct cfg *c = arg;
    struct cfg_err err;
    uint64_t u;
    double d;
    int b, k;
    const char *s;
    static const char *const names[] = { "a", "star", "file", NULL };
    cfg_time(c, e->section, e->key, 0, &u, &err);
    cfg_rate(c, e->section, e->key, 0, &u, &err);
    cfg_bytes(c, e->section, e->key, 0, &u, &err);
    cfg_u64(c, e->section, e->key, 0, &u, &err);
    cfg_double(c, e->section, e->key, 0, &d, &err);
    cfg_percent(c, e->section, e->key, 0, &d, &err);
    cfg_bool(c, e->section, e->key, 0, &b, &err);
    cfg_str(c, e->section, e->key, NULL, &s, &err);
    cfg_enum(c, e->section, e->key, names, 0, &k, &err);
    cfg_errorf(&err, e, "%s", e->value);
}

static void each_section(const char *sec, void *arg)
{
    struct cfg *c = arg;
    struct cfg_err err;
    cfg_entries(c, sec, each_entry, c);
    cfg_section_errorf(&err, c, sec, "x");
    cfg_section_done(c, sec);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct cfg_err err;
    struct cfg *c = cfg_parse("fuzz.ini", (const char *)data, size, &err);
    if (!c) return 0;
    const uint8_t *nl = memchr(data, '\n', size);
    char *first = fuzz_str(data, nl ? (size_t)(nl - data) : size);
    if (first) {
        cfg_set(c, first, 1, &err);
        free(first);
    }
    cfg_sections(c, NULL, each_section, c);
    cfg_check_unused_done(c, &err);
    cfg_check_unused(c, &err);
    cfg_free(c);
    return 0;
}
