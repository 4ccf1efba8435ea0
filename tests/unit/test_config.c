/*
 * test_config.c -- INI scenario reader (engine/config.h).
 *
 * Each test writes its scenario to a fresh mkstemp() file in /tmp, loads it
 * and removes it at once (cfg_load reads the whole file), so messages carry
 * a real path.  Error tests check the exact "FILE:LINE: [section] key:"
 * prefix, which proves the file name, line number and key are all there.
 */
#include "engine/config.h"

#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include "test.h"

static struct cfg *load_n(const char *text, size_t len, char path[TEST_PATHLEN], struct cfg_err *err)
{
    struct cfg *c;
    err->msg[0] = '\0';
    if (test_write_tmp(text, len, path)) {
        strcpy(err->msg, "test: cannot write temp file");
        return NULL;
    }
    c = cfg_load(path, err);
    unlink(path);
    return c;
}

static struct cfg *load(const char *text, char path[TEST_PATHLEN], struct cfg_err *err)
{
    return load_n(text, strlen(text), path, err);
}

/* Does msg equal fmt formatted with path and line? */
static int msg_is(const char *msg, const char *fmt, const char *path, int line)
{
    char want[1024];
    snprintf(want, sizeof want, fmt, path, line);
    if (strcmp(msg, want) == 0) return 1;
    printf("  got:  %s\n  want: %s\n", msg, want);
    return 0;
}

/* Load text that must fail; the message must be exactly fmt(path, line). */
static int load_fails(const char *text, size_t len, const char *fmt, int line)
{
    char path[TEST_PATHLEN];
    struct cfg_err err;
    struct cfg *c = load_n(text, len, path, &err);
    if (c) {
        cfg_free(c);
        printf("  loaded, but should fail: %s\n", text);
        return 0;
    }
    return msg_is(err.msg, fmt, path, line);
}
#define FAILS(text, fmt, line) CHECK(load_fails(text, strlen(text), fmt, line))

static const char *const basic_text =
    "# scenario for the unit test\n"
    "; another comment style\n"
    "\n"
    "[run]\n"
    "duration = 10ms\n"
    "  seed=42   \n"
    "\ttrace = on # inline comment\n"
    "name = two words; not a comment\n"
    "expr = a=b\n"
    "tag = x#y\n"
    "\n"
    "[net]\n"
    "link_rate = 36Gbps ; comment\n"
    "host_rate = 2.5G\n"
    "delay = 1.5us\n"
    "rtt = 0.1ms\n"
    "buffer = 2MiB\n"
    "mtu = 1500\n"
    "ecn_frac = 12.5%\n"
    "gain = -0.25\n"
    "cc = hpcc\n"
    "\n"
    "[flows.bulk]\n"
    "rate = 40G  # comment\n"
    "[flows.mice]\n"
    "size = 64KB\n";

TEST(basic_values)
{
    char path[TEST_PATHLEN];
    struct cfg_err err;
    struct cfg *c = load(basic_text, path, &err);
    static const char *const ccs[] = {"dcqcn", "timely", "hpcc", NULL};
    uint64_t u;
    double d;
    int b;
    const char *s;

    CHECK(c != NULL);
    CHECK_STR(cfg_path(c), path);
    CHECK_EQ(cfg_time(c, "run", "duration", 0, &u, &err), 0);
    CHECK_EQ(u, 10000000000ull);
    CHECK_EQ(cfg_u64(c, "run", "seed", 0, &u, &err), 0);
    CHECK_EQ(u, 42);
    CHECK_EQ(cfg_bool(c, "run", "trace", 0, &b, &err), 0);
    CHECK_EQ(b, 1);
    CHECK_EQ(cfg_str(c, "run", "name", NULL, &s, &err), 0);
    CHECK_STR(s, "two words; not a comment");
    CHECK_EQ(cfg_str(c, "run", "expr", NULL, &s, &err), 0);
    CHECK_STR(s, "a=b");
    CHECK_EQ(cfg_str(c, "run", "tag", NULL, &s, &err), 0);
    CHECK_STR(s, "x#y");

    CHECK_EQ(cfg_rate(c, "net", "link_rate", 0, &u, &err), 0);
    CHECK_EQ(u, 36000000000ull);
    CHECK_EQ(cfg_rate(c, "net", "host_rate", 0, &u, &err), 0);
    CHECK_EQ(u, 2500000000ull);
    CHECK_EQ(cfg_time(c, "net", "delay", 0, &u, &err), 0);
    CHECK_EQ(u, 1500000);
    CHECK_EQ(cfg_time(c, "net", "rtt", 0, &u, &err), 0);
    CHECK_EQ(u, 100000000);
    CHECK_EQ(cfg_bytes(c, "net", "buffer", 0, &u, &err), 0);
    CHECK_EQ(u, 2097152);
    CHECK_EQ(cfg_bytes(c, "net", "mtu", 0, &u, &err), 0);
    CHECK_EQ(u, 1500);
    CHECK_EQ(cfg_percent(c, "net", "ecn_frac", 0, &d, &err), 0);
    CHECK(d == 0.125);
    CHECK_EQ(cfg_double(c, "net", "gain", 0, &d, &err), 0);
    CHECK(d == -0.25);
    CHECK_EQ(cfg_enum(c, "net", "cc", ccs, 0, &b, &err), 0);
    CHECK_EQ(b, 2);

    CHECK_EQ(cfg_rate(c, "flows.bulk", "rate", 0, &u, &err), 0);
    CHECK_EQ(u, 40000000000ull);
    CHECK_EQ(cfg_bytes(c, "flows.mice", "size", 0, &u, &err), 0);
    CHECK_EQ(u, 64000);
    CHECK_EQ(cfg_check_unused(c, &err), 0);
    cfg_free(c);
}

TEST(entry_fields)
{
    char path[TEST_PATHLEN];
    struct cfg_err err;
    struct cfg *c = load(basic_text, path, &err);
    const struct cfg_entry *e;
    CHECK(c != NULL);
    e = cfg_find(c, "net", "delay");
    CHECK(e != NULL);
    CHECK_STR(e->section, "net");
    CHECK_STR(e->key, "delay");
    CHECK_STR(e->value, "1.5us");
    CHECK_STR(e->file, path);
    CHECK_EQ(e->line, 15);
    CHECK_EQ(e->used, 1);
    CHECK(cfg_find(c, "net", "nope") == NULL);
    CHECK(cfg_find(c, "nope", "delay") == NULL);
    CHECK(cfg_find(c, "Net", "delay") == NULL); /* names are case-sensitive */
    cfg_free(c);
}

TEST(defaults_when_absent)
{
    char path[TEST_PATHLEN];
    struct cfg_err err;
    struct cfg *c = load("[a]\nx = 1\n", path, &err);
    static const char *const names[] = {"p", "q", NULL};
    uint64_t u;
    double d;
    int i;
    const char *s;
    CHECK(c != NULL);
    CHECK_EQ(cfg_time(c, "a", "t", 7, &u, &err), 0);
    CHECK_EQ(u, 7);
    CHECK_EQ(cfg_rate(c, "none", "r", 8, &u, &err), 0);
    CHECK_EQ(u, 8);
    CHECK_EQ(cfg_bytes(c, "a", "b", 9, &u, &err), 0);
    CHECK_EQ(u, 9);
    CHECK_EQ(cfg_u64(c, "a", "u", 10, &u, &err), 0);
    CHECK_EQ(u, 10);
    CHECK_EQ(cfg_double(c, "a", "d", 1.5, &d, &err), 0);
    CHECK(d == 1.5);
    CHECK_EQ(cfg_percent(c, "a", "p", 0.5, &d, &err), 0);
    CHECK(d == 0.5);
    CHECK_EQ(cfg_bool(c, "a", "b", 1, &i, &err), 0);
    CHECK_EQ(i, 1);
    CHECK_EQ(cfg_enum(c, "a", "e", names, 1, &i, &err), 0);
    CHECK_EQ(i, 1);
    CHECK_EQ(cfg_str(c, "a", "s", "dflt", &s, &err), 0);
    CHECK_STR(s, "dflt");
    s = "x";
    CHECK_EQ(cfg_str(c, "a", "s", NULL, &s, &err), 0);
    CHECK(s == NULL);
    CHECK_EQ(cfg_u64(c, "a", "x", 0, &u, &err), 0);
    CHECK_EQ(u, 1);
    cfg_free(c);
}

TEST(crlf_and_no_trailing_newline)
{
    char path[TEST_PATHLEN];
    struct cfg_err err;
    struct cfg *c = load("\xef\xbb\xbf[net]\r\nrate = 40G\r\n\r\n# c\r\ndelay = 2\xc2\xb5s\r\nlast = tail", path,
                         &err);
    uint64_t u;
    const char *s;
    const struct cfg_entry *e;
    CHECK(c != NULL);
    CHECK_EQ(cfg_rate(c, "net", "rate", 0, &u, &err), 0);
    CHECK_EQ(u, 40000000000ull);
    CHECK_EQ(cfg_time(c, "net", "delay", 0, &u, &err), 0); /* UTF-8 micro sign */
    CHECK_EQ(u, 2000000);
    CHECK_EQ(cfg_str(c, "net", "last", NULL, &s, &err), 0);
    CHECK_STR(s, "tail");
    e = cfg_find(c, "net", "last");
    CHECK_EQ(e->line, 6);
    cfg_free(c);

    /* CRLF does not shift line numbers in errors */
    FAILS("[a]\r\nx = 1\r\n\r\nx = 2\r\n", "%s:%d: [a] x: duplicate key (first set at line 2)", 4);
    /* an empty file and a file of comments are valid */
    c = load("", path, &err);
    CHECK(c != NULL);
    CHECK_EQ(cfg_check_unused(c, &err), 0);
    cfg_free(c);
    c = load("# nothing\n\n   ; here\n", path, &err);
    CHECK(c != NULL);
    CHECK_EQ(cfg_sections(c, NULL, NULL, NULL), 0);
    cfg_free(c);
}

TEST(comments)
{
    char path[TEST_PATHLEN];
    struct cfg_err err;
    struct cfg *c = load("[s] # header comment\n"
                         "a = 1 #c\n"
                         "b = 2\t;c\n"
                         "c = x;y\n"
                         "d = x#y # z\n"
                         "e = http://h/#frag\n"
                         "  # indented comment\n"
                         "\t; indented comment\n",
                         path, &err);
    const char *s;
    CHECK(c != NULL);
    CHECK_EQ(cfg_str(c, "s", "a", NULL, &s, &err), 0);
    CHECK_STR(s, "1");
    CHECK_EQ(cfg_str(c, "s", "b", NULL, &s, &err), 0);
    CHECK_STR(s, "2");
    CHECK_EQ(cfg_str(c, "s", "c", NULL, &s, &err), 0);
    CHECK_STR(s, "x;y");
    CHECK_EQ(cfg_str(c, "s", "d", NULL, &s, &err), 0);
    CHECK_STR(s, "x#y");
    CHECK_EQ(cfg_str(c, "s", "e", NULL, &s, &err), 0);
    CHECK_STR(s, "http://h/#frag");
    CHECK_EQ(cfg_entries(c, "s", NULL, NULL), 5);
    cfg_free(c);
}

TEST(keys_with_spaces)
{
    char path[TEST_PATHLEN];
    struct cfg_err err;
    struct cfg *c = load("[sched]\n"
                         "flow_rate all @ 10ms..20ms = 5G\n"
                         "  flow_rate   h1:h2\t@ (0..1)  =  1G  \n"
                         "a-b.c_d = 1\n",
                         path, &err);
    uint64_t u;
    CHECK(c != NULL);
    CHECK_EQ(cfg_rate(c, "sched", "flow_rate all @ 10ms..20ms", 0, &u, &err), 0);
    CHECK_EQ(u, 5000000000ull);
    CHECK_EQ(cfg_rate(c, "sched", "flow_rate h1:h2 @ (0..1)", 0, &u, &err), 0); /* runs collapsed */
    CHECK_EQ(u, 1000000000ull);
    CHECK_EQ(cfg_u64(c, "sched", "a-b.c_d", 0, &u, &err), 0);
    CHECK_EQ(u, 1);
    CHECK_EQ(cfg_check_unused(c, &err), 0);
    cfg_free(c);
    /* the same key spelled with other spacing is a duplicate */
    FAILS("[s]\na  b = 1\na b = 2\n", "%s:%d: [s] a b: duplicate key (first set at line 2)", 3);
}

TEST(syntax_errors)
{
    char err_key_first[] = "x = 1\n[s]\n";
    FAILS(err_key_first, "%s:%d: key 'x' before any [section]", 1);
    FAILS("# c\n\n  y=2\n", "%s:%d: key 'y' before any [section]", 3);
    FAILS("[s]\nx = 1\ny = 2\nx = 3\n", "%s:%d: [s] x: duplicate key (first set at line 2)", 4);
    FAILS("[s]\nx = 1\n[t]\nx = 1\n[s]\nx = 3\n", "%s:%d: [s] x: duplicate key (first set at line 2)", 6);
    FAILS("[s]\nx =\n", "%s:%d: [s] x: empty value", 2);
    FAILS("[s]\nx =   \n", "%s:%d: [s] x: empty value", 2);
    FAILS("[s]\nx = # only a comment\n", "%s:%d: [s] x: empty value", 2);
    FAILS("[s]\nx =#y\n", "%s:%d: [s] x: empty value", 2);
    FAILS("[s]\n= 5\n", "%s:%d: missing key before '='", 2);
    FAILS("[s]\njust words\n", "%s:%d: expected 'key = value', '[section]' or a comment, got 'just words'", 2);
    FAILS("[s]\na/b = 1\n", "%s:%d: invalid character '/' in key 'a/b'", 2);
    FAILS("[s]\na\"b = 1\n", "%s:%d: invalid character '\"' in key 'a\"b'", 2);
    FAILS("[s]\n\xc2\xb5 = 1\n", "%s:%d: invalid character byte 0xc2 in key '\xc2\xb5'", 2);
    FAILS("[s\nx = 1\n", "%s:%d: missing ']' in section header", 1);
    FAILS("[]\n", "%s:%d: empty section name", 1);
    FAILS("[  ]\n", "%s:%d: empty section name", 1);
    FAILS("[a b]\n", "%s:%d: invalid character ' ' in section name 'a b'", 1);
    FAILS("[a:b]\n", "%s:%d: invalid character ':' in section name 'a:b'", 1);
    FAILS("[a] x\n", "%s:%d: unexpected text after section header [a]", 1);
    FAILS("[a]\nx = 1\n[b]]\n", "%s:%d: unexpected text after section header [b]", 3);
    FAILS("[a]\nx = a\x01z\n", "%s:%d: control character 0x01 at column 6", 2);
    FAILS("[a]\nx = 1\ry = 2\n", "%s:%d: control character 0x0d at column 6", 2);
    CHECK(load_fails("[a]\nx = a\0b\n", 12, "%s:%d: control character 0x00 at column 6", 2));
}

TEST(line_length)
{
    char text[2 * CFG_MAX_LINE], path[TEST_PATHLEN];
    struct cfg_err err;
    struct cfg *c;
    const char *s;
    size_t n = (size_t)sprintf(text, "[s]\nk = ");
    /* a line of exactly CFG_MAX_LINE bytes (plus CRLF) is fine */
    memset(text + n, 'v', CFG_MAX_LINE - 4);
    strcpy(text + n + CFG_MAX_LINE - 4, "\r\n");
    c = load(text, path, &err);
    CHECK(c != NULL);
    CHECK_EQ(cfg_str(c, "s", "k", NULL, &s, &err), 0);
    CHECK_EQ(strlen(s), CFG_MAX_LINE - 4);
    cfg_free(c);
    /* one more byte is an error, with or without a final newline */
    memset(text + n, 'v', CFG_MAX_LINE - 3);
    strcpy(text + n + CFG_MAX_LINE - 3, "\n");
    FAILS(text, "%s:%d: line too long (4097 bytes, the limit is 4096)", 2);
    text[strlen(text) - 1] = '\0';
    FAILS(text, "%s:%d: line too long (4097 bytes, the limit is 4096)", 2);
}

TEST(missing_file)
{
    struct cfg_err err;
    char want[256];
    CHECK(cfg_load("/tmp/rocc-no-such-dir/x.ini", &err) == NULL);
    snprintf(want, sizeof want, "/tmp/rocc-no-such-dir/x.ini: cannot open: %s", strerror(ENOENT));
    CHECK_STR(err.msg, want);
    CHECK(cfg_load("/tmp", &err) == NULL); /* a directory */
    CHECK(strncmp(err.msg, "/tmp: ", 6) == 0);
    CHECK(cfg_load("/tmp/rocc-no-such-dir/x.ini", NULL) == NULL); /* err may be NULL */
}

/* Load "[sec]\nkey = value\n" and run one getter, which must fail with
 * exactly "PATH:2: [sec] key: <want>". */
enum getter { G_TIME, G_RATE, G_BYTES, G_U64, G_DOUBLE, G_PERCENT, G_BOOL, G_ENUM };

static int getter_fails(enum getter g, const char *value, const char *want)
{
    static const char *const names[] = {"dcqcn", "timely", "hpcc", NULL};
    char text[256], path[TEST_PATHLEN], full[1024];
    struct cfg_err err;
    struct cfg *c;
    uint64_t u = 77;
    double d = 77;
    int i = 77, rc = 0, ok;
    snprintf(text, sizeof text, "[net]\n\n# k\nkey = %s\n", value);
    if (!(c = load(text, path, &err))) {
        printf("  load failed: %s\n", err.msg);
        return 0;
    }
    switch (g) {
    case G_TIME: rc = cfg_time(c, "net", "key", 1, &u, &err); break;
    case G_RATE: rc = cfg_rate(c, "net", "key", 1, &u, &err); break;
    case G_BYTES: rc = cfg_bytes(c, "net", "key", 1, &u, &err); break;
    case G_U64: rc = cfg_u64(c, "net", "key", 1, &u, &err); break;
    case G_DOUBLE: rc = cfg_double(c, "net", "key", 1, &d, &err); break;
    case G_PERCENT: rc = cfg_percent(c, "net", "key", 1, &d, &err); break;
    case G_BOOL: rc = cfg_bool(c, "net", "key", 1, &i, &err); break;
    case G_ENUM: rc = cfg_enum(c, "net", "key", names, 1, &i, &err); break;
    }
    cfg_free(c);
    snprintf(full, sizeof full, "%s:4: [net] key: %s", path, want);
    /* On error the getter's output holds its default (1); the others stay. */
    uint64_t want_u = g <= G_U64 ? 1 : 77;
    double want_d = g == G_DOUBLE || g == G_PERCENT ? 1 : 77;
    int want_i = g == G_BOOL || g == G_ENUM ? 1 : 77;
    ok = rc == -1 && u == want_u && d == want_d && i == want_i;
    if (!ok) printf("  rc %d or output not the default for '%s'\n", rc, value);
    return ok && msg_is(err.msg, "%s", full, 0);
}
#define GFAILS(g, value, want) CHECK(getter_fails(g, value, want))

TEST(getter_errors)
{
    GFAILS(G_TIME, "xyz", "expected a time like 1.5us, got 'xyz' (malformed number)");
    GFAILS(G_TIME, "-1us", "expected a time like 1.5us, got '-1us' (negative values are not allowed)");
    GFAILS(G_TIME, "1.5", "expected a time like 1.5us, got '1.5' (missing unit: ps, ns, us, ms or s)");
    GFAILS(G_TIME, "10 furlongs", "expected a time like 1.5us, got '10 furlongs' (unknown unit)");
    GFAILS(G_TIME, "99999999999999999999s", "expected a time like 1.5us, got '99999999999999999999s' (out of range)");
    GFAILS(G_TIME, "0.5ps", "expected a time like 1.5us, got '0.5ps' (not a whole number of picoseconds)");
    GFAILS(G_RATE, "40", "expected a rate like 40Gbps, got '40' (missing unit, e.g. 40Gbps or 100M)");
    GFAILS(G_RATE, "40GB/s", "expected a rate like 40Gbps, got '40GB/s' (unknown unit)");
    GFAILS(G_BYTES, "1.5", "expected a size like 1500, 64KB or 2MiB, got '1.5' (not a whole number of bytes)");
    GFAILS(G_BYTES, "1K", "expected a size like 1500, 64KB or 2MiB, got '1K' (unknown unit)");
    GFAILS(G_U64, "-3", "expected a non-negative integer, got '-3' (negative values are not allowed)");
    GFAILS(G_U64, "3.0", "expected a non-negative integer, got '3.0' (not an integer)");
    GFAILS(G_U64, "18446744073709551616", "expected a non-negative integer, got '18446744073709551616' (out of range)");
    GFAILS(G_DOUBLE, "nan", "expected a number, got 'nan'");
    GFAILS(G_DOUBLE, "1,5", "expected a number, got '1,5'");
    GFAILS(G_PERCENT, "0.9", "expected a percentage like 90%, got '0.9'");
    GFAILS(G_BOOL, "maybe", "expected true/false, on/off, yes/no or 1/0, got 'maybe'");
    GFAILS(G_ENUM, "HPCC", "expected dcqcn, timely or hpcc, got 'HPCC'");
    /* a long value is cut in the message, on a UTF-8 boundary */
    GFAILS(G_TIME,
           "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\xc2\xb5\xc2\xb5 and more text",
           "expected a time like 1.5us, got 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa...' (malformed number)");
}

TEST(enum_edge_cases)
{
    char path[TEST_PATHLEN];
    struct cfg_err err;
    struct cfg *c = load("[s]\none = a\nnone = z\n", path, &err);
    static const char *const one[] = {"a", NULL};
    static const char *const empty[] = {NULL};
    int i;
    CHECK(c != NULL);
    CHECK_EQ(cfg_enum(c, "s", "one", one, 5, &i, &err), 0);
    CHECK_EQ(i, 0);
    CHECK_EQ(cfg_enum(c, "s", "none", one, 5, &i, &err), -1);
    CHECK(strstr(err.msg, ": [s] none: expected a, got 'z'") != NULL);
    CHECK_EQ(cfg_enum(c, "s", "none", empty, 5, &i, &err), -1);
    CHECK(strstr(err.msg, "got 'z'") != NULL);
    CHECK_EQ(cfg_enum(c, "s", "none", one, 5, &i, NULL), -1); /* err may be NULL */
    cfg_free(c);
}

TEST(overrides)
{
    char path[TEST_PATHLEN], want[256];
    struct cfg_err err;
    struct cfg *c = load("[net]\nrate = 40G\n[flows]\nn = 1\n[flows.bulk]\nrate = 10G\n", path, &err);
    const struct cfg_entry *e;
    const char *old;
    uint64_t u;
    CHECK(c != NULL);
    CHECK_EQ(cfg_str(c, "net", "rate", NULL, &old, &err), 0);

    /* replace: the origin becomes --set:argi, old pointers stay valid */
    CHECK_EQ(cfg_set(c, "net.rate=100G", 2, &err), 0);
    CHECK_STR(old, "40G");
    e = cfg_find(c, "net", "rate");
    CHECK_STR(e->value, "100G");
    CHECK_STR(e->file, "--set");
    CHECK_EQ(e->line, 2);
    CHECK_EQ(cfg_set(c, "  net.rate =  x  ", 5, &err), 0); /* later wins, trimmed */
    CHECK_EQ(cfg_rate(c, "net", "rate", 0, &u, &err), -1);
    CHECK_STR(err.msg, "--set:5: [net] rate: expected a rate like 40Gbps, got 'x' (malformed number)");
    CHECK_EQ(cfg_set(c, "net.rate=25G", 6, &err), 0);
    CHECK_EQ(cfg_rate(c, "net", "rate", 0, &u, &err), 0);
    CHECK_EQ(u, 25000000000ull);

    /* longest existing section wins; otherwise split at the first dot */
    CHECK_EQ(cfg_set(c, "flows.bulk.rate=1G", 3, &err), 0);
    CHECK_EQ(cfg_rate(c, "flows.bulk", "rate", 0, &u, &err), 0);
    CHECK_EQ(u, 1000000000ull);
    CHECK_EQ(cfg_set(c, "flows.mice.rate=2G", 4, &err), 0); /* [flows] exists: key "mice.rate" */
    CHECK(cfg_find(c, "flows", "mice.rate") != NULL);
    CHECK_EQ(cfg_set(c, "new.sub.key=v=w", 7, &err), 0); /* no section: first dot; value keeps '=' */
    e = cfg_find(c, "new", "sub.key");
    CHECK(e != NULL);
    CHECK_STR(e->value, "v=w");
    CHECK(cfg_has_section(c, "new"));
    CHECK_EQ(cfg_set(c, "flows.bulk.flow_rate   all @ 1ms..2ms = 3G", 8, &err), 0);
    CHECK(cfg_find(c, "flows.bulk", "flow_rate all @ 1ms..2ms") != NULL);
    CHECK_EQ(cfg_set(c, "net.comment=a # b", 9, &err), 0); /* literal: no comments */
    CHECK_STR(cfg_find(c, "net", "comment")->value, "a # b");

    /* added keys come last in the section, replaced ones keep their place */
    CHECK_EQ(cfg_entries(c, "flows.bulk", NULL, NULL), 2);

    /* malformed overrides */
    CHECK_EQ(cfg_set(c, "net.rate", 11, &err), -1);
    CHECK_STR(err.msg, "--set:11: expected 'section.key=value', got 'net.rate'");
    CHECK_EQ(cfg_set(c, "rate=1G", 12, &err), -1);
    CHECK_STR(err.msg, "--set:12: expected 'section.key=value', got 'rate=1G'");
    CHECK_EQ(cfg_set(c, ".rate=1G", 13, &err), -1);
    CHECK_STR(err.msg, "--set:13: expected 'section.key=value', got '.rate=1G'");
    CHECK_EQ(cfg_set(c, "net.=1G", 14, &err), -1);
    CHECK_STR(err.msg, "--set:14: expected 'section.key=value', got 'net.=1G'");
    CHECK_EQ(cfg_set(c, "net.rate=", 15, &err), -1);
    CHECK_STR(err.msg, "--set:15: [net] rate: empty value");
    CHECK_EQ(cfg_set(c, "net.rate=  ", 15, &err), -1);
    CHECK_STR(err.msg, "--set:15: [net] rate: empty value");
    CHECK_EQ(cfg_set(c, "n et.rate=1", 16, &err), -1);
    CHECK_STR(err.msg, "--set:16: invalid character ' ' in section name 'n et'");
    CHECK_EQ(cfg_set(c, "net.ra/te=1", 17, &err), -1);
    CHECK_STR(err.msg, "--set:17: invalid character '/' in key 'ra/te'");
    CHECK_EQ(cfg_set(c, "net.rate=a\tb\x02", 18, &err), -1);
    CHECK_STR(err.msg, "--set:18: [net] rate: control character 0x02 in value");
    CHECK_EQ(cfg_set(c, "", 19, &err), -1);
    CHECK_EQ(cfg_set(c, "=", 19, NULL), -1);

    /* unknown overridden keys are reported with their --set origin */
    CHECK_EQ(cfg_set(c, "net.rtae=1", 20, &err), 0);
    CHECK_EQ(cfg_u64(c, "flows", "n", 0, &u, &err), 0);
    cfg_find(c, "flows", "mice.rate");
    cfg_find(c, "new", "sub.key");
    cfg_find(c, "flows.bulk", "flow_rate all @ 1ms..2ms");
    cfg_find(c, "net", "comment");
    CHECK_EQ(cfg_check_unused(c, &err), -1);
    CHECK_STR(err.msg, "--set:20: [net] rtae: unknown key");
    cfg_set(c, "zz.top=1", 21, &err);
    cfg_find(c, "net", "rtae");
    CHECK_EQ(cfg_check_unused(c, &err), -1);
    CHECK_STR(err.msg, "--set:21: unknown section [zz]");
    snprintf(want, sizeof want, "%s", path);
    CHECK_STR(cfg_path(c), want);
    cfg_free(c);
}

TEST(override_too_long)
{
    char path[TEST_PATHLEN], big[CFG_MAX_LINE + 32];
    struct cfg_err err;
    struct cfg *c = load("[s]\n", path, &err);
    CHECK(c != NULL);
    memcpy(big, "s.k=", 4);
    memset(big + 4, 'v', CFG_MAX_LINE);
    big[CFG_MAX_LINE + 4] = '\0';
    CHECK_EQ(cfg_set(c, big, 1, &err), -1);
    CHECK_STR(err.msg, "--set:1: override too long (the limit is 4096 bytes)");
    big[CFG_MAX_LINE] = '\0';
    CHECK_EQ(cfg_set(c, big, 1, &err), 0);
    cfg_free(c);
}

static void collect(const char *section, void *arg)
{
    char *out = arg;
    strcat(out, section);
    strcat(out, ",");
}

TEST(sections)
{
    char path[TEST_PATHLEN], got[256] = "";
    struct cfg_err err;
    struct cfg *c = load("[flows.b]\nx = 1\n[net]\nx = 1\n[flows.a]\nx = 1\n[flows]\nx = 1\n[flows.b]\ny = 2\n"
                         "[flowsy]\n",
                         path, &err);
    CHECK(c != NULL);
    CHECK_EQ(cfg_sections(c, "flows.", collect, got), 2);
    CHECK_STR(got, "flows.b,flows.a,"); /* order of first appearance; reopened once */
    got[0] = '\0';
    CHECK_EQ(cfg_sections(c, "flows", collect, got), 4);
    CHECK_STR(got, "flows.b,flows.a,flows,flowsy,");
    CHECK_EQ(cfg_sections(c, NULL, NULL, NULL), 5);
    CHECK_EQ(cfg_sections(c, "", NULL, NULL), 5);
    CHECK_EQ(cfg_sections(c, "nope", collect, got), 0);
    CHECK(cfg_has_section(c, "flowsy")); /* empty but present */
    CHECK(cfg_has_section(c, "net"));
    CHECK(!cfg_has_section(c, "flows.c"));
    CHECK(!cfg_has_section(c, "flows."));
    CHECK_EQ(cfg_entries(c, "flows.b", NULL, NULL), 2); /* both openings */
    cfg_free(c);
}

struct seen { char text[256]; int n; };

static void seen_entry(const struct cfg_entry *e, void *arg)
{
    struct seen *s = arg;
    char line[64];
    snprintf(line, sizeof line, "%s=%s@%d,", e->key, e->value, e->line);
    strcat(s->text, line);
    s->n += e->used;
}

TEST(entries_free_form)
{
    char path[TEST_PATHLEN];
    struct cfg_err err;
    struct seen s = {"", 0};
    struct cfg *c = load("[expect]\nfct p99 @ (0..1) = 1ms\ndrops max = 0\n[other]\nq = 1\n", path, &err);
    CHECK(c != NULL);
    CHECK_EQ(cfg_entries(c, "expect", seen_entry, &s), 2);
    CHECK_STR(s.text, "fct p99 @ (0..1)=1ms@2,drops max=0@3,");
    CHECK_EQ(s.n, 2); /* marked used before the callback */
    CHECK_EQ(cfg_entries(c, "missing", seen_entry, &s), 0);
    CHECK_EQ(cfg_check_unused(c, &err), -1);
    cfg_free(c);
}

TEST(check_unused)
{
    char path[TEST_PATHLEN], want[256];
    struct cfg_err err;
    uint64_t u;
    struct cfg *c = load("[net]\nrate = 1G\nrtae = 2G\n\n[tpyo]\nx = 1\n", path, &err);
    CHECK(c != NULL);
    /* nothing read: the first entry's section was never looked at */
    CHECK_EQ(cfg_check_unused(c, &err), -1);
    snprintf(want, sizeof want, "%s:1: unknown section [net]", path);
    CHECK_STR(err.msg, want);
    /* reading one key makes the other an unknown key */
    CHECK_EQ(cfg_rate(c, "net", "rate", 0, &u, &err), 0);
    CHECK_EQ(cfg_check_unused(c, &err), -1);
    snprintf(want, sizeof want, "%s:3: [net] rtae: unknown key", path);
    CHECK_STR(err.msg, want);
    CHECK_EQ(cfg_check_unused(c, NULL), -1);
    cfg_find(c, "net", "rtae");
    CHECK_EQ(cfg_check_unused(c, &err), -1);
    snprintf(want, sizeof want, "%s:5: unknown section [tpyo]", path);
    CHECK_STR(err.msg, want);
    /* a lookup of an absent key still counts as looking at the section */
    CHECK_EQ(cfg_u64(c, "tpyo", "y", 0, &u, &err), 0);
    CHECK_EQ(cfg_check_unused(c, &err), -1);
    snprintf(want, sizeof want, "%s:6: [tpyo] x: unknown key", path);
    CHECK_STR(err.msg, want);
    /* a malformed value counts as read (its own error was reported) */
    cfg_free(c);
    c = load("[a]\nx = bad\n", path, &err);
    CHECK(c != NULL);
    CHECK_EQ(cfg_u64(c, "a", "x", 0, &u, &err), -1);
    CHECK_EQ(cfg_check_unused(c, &err), 0);
    cfg_free(c);
}

TEST(errorf_helpers)
{
    char path[TEST_PATHLEN], want[256];
    struct cfg_err err;
    struct cfg *c = load("# x\n[flows.bulk]\nrate = 400G\n", path, &err);
    const struct cfg_entry *e;
    CHECK(c != NULL);
    e = cfg_find(c, "flows.bulk", "rate");
    CHECK_EQ(cfg_errorf(&err, e, "must be at most %s", "100G"), -1);
    snprintf(want, sizeof want, "%s:3: [flows.bulk] rate: must be at most 100G", path);
    CHECK_STR(err.msg, want);
    CHECK_EQ(cfg_errorf(&err, NULL, "plain %d", 7), -1);
    CHECK_STR(err.msg, "plain 7");
    CHECK_EQ(cfg_section_errorf(&err, c, "flows.bulk", "missing required key '%s'", "src"), -1);
    snprintf(want, sizeof want, "%s:2: [flows.bulk]: missing required key 'src'", path);
    CHECK_STR(err.msg, want);
    CHECK_EQ(cfg_section_errorf(&err, c, "topology", "required section"), -1);
    snprintf(want, sizeof want, "%s: [topology]: required section", path);
    CHECK_STR(err.msg, want);
    CHECK_EQ(cfg_section_errorf(&err, c, NULL, "no flows"), -1);
    snprintf(want, sizeof want, "%s: no flows", path);
    CHECK_STR(err.msg, want);
    CHECK_EQ(cfg_errorf(NULL, e, "x"), -1);
    cfg_free(c);
}

/* A required key that is absent: a near miss in the same section is named
 * as the likely typo (one or two edits, a swap counting as one); a key two
 * sections away or three edits off is not. */
TEST(missing_key_near_miss)
{
    char path[TEST_PATHLEN], want[256];
    struct cfg_err err;
    struct cfg *c = load("[sim]\nduratoin = 1ms\nsed = 2\n[flows.a]\nduration = 3\n", path, &err);
    CHECK(c != NULL);
    CHECK_EQ(cfg_missing(&err, c, "sim", "duration", NULL), -1);
    snprintf(want, sizeof want, "%s:2: [sim] duratoin: unknown key 'duratoin': did you mean 'duration', which [sim] needs?",
             path);
    CHECK_STR(err.msg, want);
    CHECK_EQ(cfg_missing(&err, c, "sim", "seed", NULL), -1);        /* "sed": one deletion */
    snprintf(want, sizeof want, "%s:3: [sim] sed: unknown key 'sed': did you mean 'seed', which [sim] needs?", path);
    CHECK_STR(err.msg, want);
    CHECK_EQ(cfg_missing(&err, c, "sim", "load", " (e.g. load = 70%)"), -1);   /* nothing near */
    snprintf(want, sizeof want, "%s:1: [sim]: missing required key 'load' (e.g. load = 70%%)", path);
    CHECK_STR(err.msg, want);
    CHECK_EQ(cfg_missing(&err, c, "flows.a", "src", NULL), -1);     /* 'duration' in [flows.a]: far */
    snprintf(want, sizeof want, "%s:4: [flows.a]: missing required key 'src'", path);
    CHECK_STR(err.msg, want);
    cfg_free(c);
}

TEST(parse_from_memory)
{
    struct cfg_err err;
    const char text[] = "[a]\nx = 1\ny = 2\n";
    uint64_t u;
    struct cfg *c = cfg_parse("builtin", text, 10, &err); /* only "[a]\nx = 1\n" */
    CHECK(c != NULL);
    CHECK_STR(cfg_path(c), "builtin");
    CHECK_EQ(cfg_u64(c, "a", "x", 0, &u, &err), 0);
    CHECK_EQ(u, 1);
    CHECK(cfg_find(c, "a", "y") == NULL);
    CHECK_STR(cfg_find(c, "a", "x")->file, "builtin");
    cfg_free(c);
    CHECK(cfg_parse("builtin", "x = 1", 5, &err) == NULL);
    CHECK_STR(err.msg, "builtin:1: key 'x' before any [section]");
    c = cfg_parse(NULL, NULL, 0, &err);
    CHECK(c != NULL);
    CHECK_STR(cfg_path(c), "<config>");
    cfg_free(c);
    cfg_free(NULL);
}

TEST(many_sections)
{
    enum { N = 3000 };
    size_t cap = (size_t)N * 64, n = 0;
    char *text = malloc(cap), path[TEST_PATHLEN], sec[32];
    struct cfg_err err;
    struct cfg *c;
    uint64_t u, sum = 0;
    CHECK(text != NULL);
    for (int i = 0; i < N; i++)
        n += (size_t)snprintf(text + n, cap - n, "[flows.f%d]\nsize = %dKB\nrate = %dM\n", i, i, i + 1);
    c = load_n(text, n, path, &err);
    free(text);
    CHECK(c != NULL);
    CHECK_EQ(cfg_sections(c, "flows.", NULL, NULL), N);
    for (int i = 0; i < N; i++) {
        snprintf(sec, sizeof sec, "flows.f%d", i);
        CHECK_EQ(cfg_bytes(c, sec, "size", 0, &u, &err), 0);
        CHECK_EQ(u, (uint64_t)i * 1000);
        CHECK_EQ(cfg_rate(c, sec, "rate", 0, &u, &err), 0);
        sum += u;
    }
    CHECK_EQ(sum, (uint64_t)N * (N + 1) / 2 * 1000000);
    CHECK_EQ(cfg_check_unused(c, &err), 0);
    CHECK(cfg_find(c, "flows.f2999", "size")->line == 3 * 2999 + 2);
    cfg_free(c);
}

int main(void)
{
    test_binary_ = "test_config";
    RUN(basic_values);
    RUN(entry_fields);
    RUN(defaults_when_absent);
    RUN(crlf_and_no_trailing_newline);
    RUN(comments);
    RUN(keys_with_spaces);
    RUN(syntax_errors);
    RUN(line_length);
    RUN(missing_file);
    RUN(getter_errors);
    RUN(enum_edge_cases);
    RUN(overrides);
    RUN(override_too_long);
    RUN(sections);
    RUN(entries_free_form);
    RUN(check_unused);
    RUN(errorf_helpers);
    RUN(missing_key_near_miss);
    RUN(parse_from_memory);
    RUN(many_sections);
    return test_summary();
}
