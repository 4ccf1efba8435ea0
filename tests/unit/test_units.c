/*
 * test_units.c -- exact unit parsing and human formatting (core/units.h).
 *
 * Parsers are checked for exact integer results (no double rounding), for
 * every rejection rule (sign, missing/unknown unit, trailing text, overflow,
 * inexact fractions) and for leaving *out untouched on error.  Formatters
 * are checked for their output and for round-tripping through the parsers.
 */
#include "core/units.h"

#include "test.h"

#define SENTINEL 0xdeadbeefull

/* Parse s with f; the value, or SENTINEL if it failed (out untouched). */
static uint64_t P(int (*f)(const char *, uint64_t *), const char *s)
{
    uint64_t v = SENTINEL;
    if (f(s, &v) != 0) {
        if (v != SENTINEL) return 1; /* wrote on error: surely wrong */
        return SENTINEL;
    }
    return v;
}

#define T(s) P(units_parse_time_ps, s)
#define R(s) P(units_parse_rate_bps, s)
#define B(s) P(units_parse_bytes, s)
#define U(s) P(units_parse_u64, s)

TEST(time_units)
{
    CHECK_EQ(T("1ps"), 1);
    CHECK_EQ(T("1ns"), 1000);
    CHECK_EQ(T("1us"), 1000000);
    CHECK_EQ(T("1ms"), 1000000000);
    CHECK_EQ(T("1s"), 1000000000000ull);
    CHECK_EQ(T("0s"), 0);
    CHECK_EQ(T("0ps"), 0);
    CHECK_EQ(T("120ns"), 120000);
    CHECK_EQ(T("007ms"), 7000000000ull);
}

TEST(time_exact_fractions)
{
    CHECK_EQ(T("1.5us"), 1500000);
    CHECK_EQ(T("0.1ms"), 100000000);
    CHECK_EQ(T("0.3s"), 300000000000ull);
    CHECK_EQ(T("2.000ns"), 2000);
    CHECK_EQ(T("0.001ns"), 1);
    CHECK_EQ(T("1.000000000000s"), 1000000000000ull);
    CHECK_EQ(T("0.000000000001s"), 1);
    CHECK_EQ(T("1.50000000000000000000000000us"), 1500000); /* zeros beyond 19 digits */
    CHECK_EQ(T("12.345678ms"), 12345678000ull);
    CHECK_EQ(T("1.05us"), 1050000);
    CHECK_EQ(T("0.000001ms"), 1000);
}

TEST(time_micro_sign)
{
    CHECK_EQ(T("1.5µs"), 1500000);         /* U+00B5 as typed in the source */
    CHECK_EQ(T("3\xc2\xb5s"), 3000000);    /* U+00B5 MICRO SIGN */
    CHECK_EQ(T("3\xce\xbcs"), 3000000);    /* U+03BC GREEK SMALL LETTER MU */
    CHECK_EQ(T("3 µs"), 3000000);
    CHECK_EQ(T("3\xb5s"), SENTINEL);       /* Latin-1 byte alone is not UTF-8 */
    CHECK_EQ(T("3µ"), SENTINEL);
}

TEST(time_blanks)
{
    CHECK_EQ(T("10 ms"), 10000000000ull);
    CHECK_EQ(T("10\tms"), 10000000000ull);
    CHECK_EQ(T("  10ms  "), 10000000000ull);
    CHECK_EQ(T("1 0ms"), SENTINEL);
    CHECK_EQ(T("10 m s"), SENTINEL);
}

TEST(time_rejects)
{
    CHECK_EQ(T(""), SENTINEL);
    CHECK_EQ(T("   "), SENTINEL);
    CHECK_EQ(T("-1us"), SENTINEL);
    CHECK_EQ(T("+1us"), SENTINEL);
    CHECK_EQ(T("1.5"), SENTINEL);   /* unit required */
    CHECK_EQ(T("15"), SENTINEL);
    CHECK_EQ(T("10 furlongs"), SENTINEL);
    CHECK_EQ(T("us"), SENTINEL);
    CHECK_EQ(T(".5us"), SENTINEL);
    CHECK_EQ(T("5.us"), SENTINEL);
    CHECK_EQ(T("1..5us"), SENTINEL);
    CHECK_EQ(T("1e3us"), SENTINEL);
    CHECK_EQ(T("0x10us"), SENTINEL);
    CHECK_EQ(T("1usx"), SENTINEL);
    CHECK_EQ(T("1us 2us"), SENTINEL);
    CHECK_EQ(T("1Us"), SENTINEL);   /* case-sensitive */
    CHECK_EQ(T("1MS"), SENTINEL);
    CHECK_EQ(T("1sec"), SENTINEL);
    CHECK_EQ(T("nan s"), SENTINEL);
    CHECK_EQ(T("inf s"), SENTINEL);
    CHECK_EQ(T("0.5ps"), SENTINEL); /* not a whole picosecond */
    CHECK_EQ(T("0.0001ns"), SENTINEL);
    CHECK_EQ(T("1.0000000000001s"), SENTINEL);
}

TEST(time_overflow)
{
    CHECK_EQ(T("99999999999999999999s"), SENTINEL);
    CHECK_EQ(T("99999999999999999999ps"), SENTINEL);
    CHECK_EQ(T("18446744073709551615ps"), UINT64_MAX);
    CHECK_EQ(T("18446744073709551616ps"), SENTINEL);
    CHECK_EQ(T("18446744s"), 18446744000000000000ull);
    CHECK_EQ(T("18446745s"), SENTINEL);
    CHECK_EQ(T("18446744.073709551615s"), UINT64_MAX);
    CHECK_EQ(T("18446744.073709551616s"), SENTINEL); /* fraction pushes it over */
}

TEST(time_why)
{
    uint64_t v = 0;
    const char *why = NULL;
    CHECK_EQ(units_parse_time_ps_why("10 furlongs", &v, &why), -1);
    CHECK_STR(why, "unknown unit");
    /* Exponent notation is named as such, not as an unknown unit "e3us". */
    CHECK_EQ(units_parse_time_ps_why("1e3us", &v, &why), -1);
    CHECK(strstr(why, "exponent notation") != NULL);
    CHECK_EQ(units_parse_rate_bps_why("4E+1Gbps", &v, &why), -1);
    CHECK(strstr(why, "exponent notation") != NULL);
    CHECK_EQ(units_parse_bytes_why("1.5e6", &v, &why), -1);
    CHECK(strstr(why, "exponent notation") != NULL);
    CHECK_EQ(units_parse_time_ps_why("1.5", &v, &why), -1);
    CHECK(strstr(why, "missing unit") != NULL);
    CHECK_EQ(units_parse_time_ps_why("99999999999999999999s", &v, &why), -1);
    CHECK_STR(why, "out of range");
    CHECK_EQ(units_parse_time_ps_why("-1us", &v, &why), -1);
    CHECK(strstr(why, "negative") != NULL);
    CHECK_EQ(units_parse_time_ps_why("0.5ps", &v, &why), -1);
    CHECK(strstr(why, "whole number") != NULL);
    CHECK_EQ(units_parse_time_ps_why("", &v, &why), -1);
    CHECK_STR(why, "empty value");
    CHECK_EQ(units_parse_time_ps_why("x1us", &v, &why), -1);
    CHECK_STR(why, "malformed number");
    CHECK_EQ(units_parse_time_ps_why("1.00000000000000000001s", &v, &why), -1);
    CHECK_STR(why, "too many decimal digits");
    why = "unchanged";
    CHECK_EQ(units_parse_time_ps_why("2us", &v, &why), 0);
    CHECK_EQ(v, 2000000);
    CHECK_STR(why, "unchanged");
}

TEST(rate_units)
{
    CHECK_EQ(R("36Gbps"), 36000000000ull);
    CHECK_EQ(R("2.5G"), 2500000000ull);
    CHECK_EQ(R("40G"), 40000000000ull);
    CHECK_EQ(R("100Gb/s"), 100000000000ull);
    CHECK_EQ(R("100 Gbit/s"), 100000000000ull);
    CHECK_EQ(R("400Mbps"), 400000000);
    CHECK_EQ(R("400M"), 400000000);
    CHECK_EQ(R("10Kbps"), 10000);
    CHECK_EQ(R("10kbps"), 10000);
    CHECK_EQ(R("10k"), 10000);
    CHECK_EQ(R("1.6Tbps"), 1600000000000ull);
    CHECK_EQ(R("1T"), 1000000000000ull);
    CHECK_EQ(R("1200bps"), 1200);
    CHECK_EQ(R("1200 b/s"), 1200);
    CHECK_EQ(R("13.333333333Gbps"), 13333333333ull);
    CHECK_EQ(R("0G"), 0);
}

TEST(rate_rejects)
{
    CHECK_EQ(R("40"), SENTINEL); /* unit required */
    CHECK_EQ(R("1.5"), SENTINEL);
    CHECK_EQ(R("-1G"), SENTINEL);
    CHECK_EQ(R("40GB/s"), SENTINEL); /* bytes, not bits */
    CHECK_EQ(R("40GBps"), SENTINEL);
    CHECK_EQ(R("40gbps"), SENTINEL);
    CHECK_EQ(R("40mbps"), SENTINEL);
    CHECK_EQ(R("40Gbps/s"), SENTINEL);
    CHECK_EQ(R("40Gb"), SENTINEL);
    CHECK_EQ(R("10 furlongs"), SENTINEL);
    CHECK_EQ(R("0.5bps"), SENTINEL);
    CHECK_EQ(R("1.0000000001G"), SENTINEL);
    CHECK_EQ(R("99999999999999999999bps"), SENTINEL);
    CHECK_EQ(R("18446744073.709551616G"), SENTINEL);
    CHECK_EQ(R("18446744073.709551615G"), UINT64_MAX);
    CHECK_EQ(R("G"), SENTINEL);
    CHECK_EQ(R(""), SENTINEL);
}

TEST(bytes_units)
{
    CHECK_EQ(B("1500"), 1500);
    CHECK_EQ(B("1500B"), 1500);
    CHECK_EQ(B("1500 B"), 1500);
    CHECK_EQ(B("64KB"), 64000);
    CHECK_EQ(B("64kB"), 64000);
    CHECK_EQ(B("1.5MB"), 1500000);
    CHECK_EQ(B("2GB"), 2000000000ull);
    CHECK_EQ(B("1TB"), 1000000000000ull);
    CHECK_EQ(B("1KiB"), 1024);
    CHECK_EQ(B("1.5KiB"), 1536);
    CHECK_EQ(B("0.5KiB"), 512);
    CHECK_EQ(B("0.0009765625KiB"), 1); /* 1/1024 exactly */
    CHECK_EQ(B("2MiB"), 2097152);
    CHECK_EQ(B("1GiB"), 1073741824ull);
    CHECK_EQ(B("1TiB"), 1099511627776ull);
    CHECK_EQ(B("0"), 0);
}

TEST(bytes_rejects)
{
    CHECK_EQ(B("0.1B"), SENTINEL);
    CHECK_EQ(B("1.5"), SENTINEL);     /* bare number = bytes: must be whole */
    CHECK_EQ(B("0.001KiB"), SENTINEL);
    CHECK_EQ(B("-1"), SENTINEL);
    CHECK_EQ(B("1K"), SENTINEL);      /* ambiguous: 1000 or 1024? */
    CHECK_EQ(B("1kiB"), SENTINEL);
    CHECK_EQ(B("1Kb"), SENTINEL);
    CHECK_EQ(B("1 bytes"), SENTINEL);
    CHECK_EQ(B("10 furlongs"), SENTINEL);
    CHECK_EQ(B("16777216TiB"), SENTINEL); /* 2^64 */
    CHECK_EQ(B("16777215TiB"), 16777215ull << 40);
    CHECK_EQ(B(""), SENTINEL);
}

TEST(u64)
{
    CHECK_EQ(U("0"), 0);
    CHECK_EQ(U("42"), 42);
    CHECK_EQ(U(" 42 "), 42);
    CHECK_EQ(U("18446744073709551615"), UINT64_MAX);
    CHECK_EQ(U("18446744073709551616"), SENTINEL);
    CHECK_EQ(U("99999999999999999999"), SENTINEL);
    CHECK_EQ(U("-1"), SENTINEL);
    CHECK_EQ(U("+1"), SENTINEL);
    CHECK_EQ(U("1.0"), SENTINEL);
    CHECK_EQ(U("1e3"), SENTINEL);
    CHECK_EQ(U("0x10"), SENTINEL);
    CHECK_EQ(U("4 2"), SENTINEL);
    CHECK_EQ(U("12abc"), SENTINEL);
    CHECK_EQ(U(""), SENTINEL);
}

static int D(const char *s, double *v)
{
    *v = -12345;
    return units_parse_double(s, v);
}

TEST(double_parse)
{
    double v;
    CHECK_EQ(D("1.5", &v), 0);
    CHECK(v == 1.5);
    CHECK_EQ(D("-0.25", &v), 0);
    CHECK(v == -0.25);
    CHECK_EQ(D("1e-3", &v), 0);
    CHECK(v == 1e-3);
    CHECK_EQ(D(" 3 ", &v), 0);
    CHECK(v == 3);
    CHECK_EQ(D(".5", &v), 0);
    CHECK(v == 0.5);
    CHECK_EQ(D("", &v), -1);
    CHECK_EQ(D("nan", &v), -1);
    CHECK_EQ(D("inf", &v), -1);
    CHECK_EQ(D("-infinity", &v), -1);
    CHECK_EQ(D("1e999", &v), -1);
    CHECK_EQ(D("0x1p3", &v), -1);
    CHECK_EQ(D("1.5x", &v), -1);
    CHECK_EQ(D("1.5 2", &v), -1);
    CHECK_EQ(D("1e", &v), -1);
    CHECK_EQ(D("-", &v), -1);
    CHECK_EQ(D("e", &v), -1);
    CHECK(v == -12345); /* untouched on error */
}

TEST(bool_parse)
{
    static const char *const yes[] = {"true", "on", "yes", "1", "TRUE", "Yes", " on "};
    static const char *const no[] = {"false", "off", "no", "0", "False", "OFF"};
    static const char *const bad[] = {"", "2", "y", "n", "truth", "onn", "t", "-1", "yes no"};
    int v;
    for (size_t i = 0; i < sizeof yes / sizeof yes[0]; i++) {
        v = -1;
        CHECK_EQ(units_parse_bool(yes[i], &v), 0);
        CHECK_EQ(v, 1);
    }
    for (size_t i = 0; i < sizeof no / sizeof no[0]; i++) {
        v = -1;
        CHECK_EQ(units_parse_bool(no[i], &v), 0);
        CHECK_EQ(v, 0);
    }
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        v = -1;
        CHECK_EQ(units_parse_bool(bad[i], &v), -1);
        CHECK_EQ(v, -1);
    }
}

TEST(percent_parse)
{
    double v;
    CHECK_EQ(units_parse_percent("90%", &v), 0);
    CHECK(v == 0.90);
    CHECK_EQ(units_parse_percent("12.5 %", &v), 0);
    CHECK(v == 0.125);
    CHECK_EQ(units_parse_percent("0%", &v), 0);
    CHECK(v == 0);
    CHECK_EQ(units_parse_percent("150%", &v), 0);
    CHECK(v == 1.5);
    v = 7;
    CHECK_EQ(units_parse_percent("90", &v), -1);
    CHECK_EQ(units_parse_percent("0.9", &v), -1);
    CHECK_EQ(units_parse_percent("-5%", &v), -1);
    CHECK_EQ(units_parse_percent("%", &v), -1);
    CHECK_EQ(units_parse_percent("1e2%", &v), -1);
    CHECK_EQ(units_parse_percent("90%%", &v), -1);
    CHECK_EQ(units_parse_percent("90% x", &v), -1);
    CHECK_EQ(units_parse_percent("", &v), -1);
    CHECK(v == 7);
}

TEST(fmt_time)
{
    char b[32];
    CHECK_STR(units_fmt_time(1500000, b, sizeof b), "1.5us");
    CHECK_STR(units_fmt_time(10000000000ull, b, sizeof b), "10ms");
    CHECK_STR(units_fmt_time(120000, b, sizeof b), "120ns");
    CHECK_STR(units_fmt_time(0, b, sizeof b), "0s");
    CHECK_STR(units_fmt_time(1, b, sizeof b), "1ps");
    CHECK_STR(units_fmt_time(999, b, sizeof b), "999ps");
    CHECK_STR(units_fmt_time(1000, b, sizeof b), "1ns");
    CHECK_STR(units_fmt_time(1001, b, sizeof b), "1.001ns");
    CHECK_STR(units_fmt_time(1050, b, sizeof b), "1.05ns");
    CHECK_STR(units_fmt_time(12345678, b, sizeof b), "12.346us"); /* rounded */
    CHECK_STR(units_fmt_time(999999999, b, sizeof b), "1ms");     /* carry to next unit */
    CHECK_STR(units_fmt_time(2500000000000ull, b, sizeof b), "2.5s");
    CHECK_STR(units_fmt_time(3600000000000000ull, b, sizeof b), "3600s");
    CHECK_STR(units_fmt_time(UINT64_MAX, b, sizeof b), "18446744.074s");
    /* truncation keeps the buffer terminated; len 0 writes nothing */
    CHECK_STR(units_fmt_time(1500000, b, 4), "1.5");
    b[0] = 'x';
    CHECK(units_fmt_time(1500000, b, 0) == b && b[0] == 'x');
}

TEST(fmt_time_roundtrip)
{
    static const uint64_t v[] = {1, 7, 999, 1000, 1500, 123000, 1500000, 100000000,
                                 1000000000000ull, 2500000000000ull, 3600000000000000ull};
    char b[32];
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
        uint64_t back = 0;
        CHECK_EQ(units_parse_time_ps(units_fmt_time(v[i], b, sizeof b), &back), 0);
        CHECK_EQ(back, v[i]);
    }
}

TEST(fmt_rate_bytes)
{
    char b[32];
    uint64_t back;
    CHECK_STR(units_fmt_rate(13.333333e9, b, sizeof b), "13.33Gbps");
    CHECK_STR(units_fmt_rate(400e6, b, sizeof b), "400Mbps");
    CHECK_STR(units_fmt_rate(100e9, b, sizeof b), "100Gbps");
    CHECK_STR(units_fmt_rate(1.6e12, b, sizeof b), "1.6Tbps");
    CHECK_STR(units_fmt_rate(5e15, b, sizeof b), "5000Tbps");
    CHECK_STR(units_fmt_rate(999, b, sizeof b), "999bps");
    CHECK_STR(units_fmt_rate(999.999e6, b, sizeof b), "1Gbps"); /* carry */
    CHECK_STR(units_fmt_rate(0, b, sizeof b), "0bps");
    CHECK_STR(units_fmt_rate(0.5, b, sizeof b), "0.5bps");
    CHECK_STR(units_fmt_rate(-2.5e9, b, sizeof b), "-2.5Gbps");
    CHECK_STR(units_fmt_rate(NAN, b, sizeof b), "nan");
    CHECK_STR(units_fmt_rate(INFINITY, b, sizeof b), "infbps");
    CHECK_STR(units_fmt_bytes(150000, b, sizeof b), "150KB");
    CHECK_STR(units_fmt_bytes(1.2e6, b, sizeof b), "1.2MB");
    CHECK_STR(units_fmt_bytes(1.234e6, b, sizeof b), "1.23MB");
    CHECK_STR(units_fmt_bytes(64, b, sizeof b), "64B");
    CHECK_STR(units_fmt_bytes(1e9, b, sizeof b), "1GB");
    units_fmt_bytes(1e30, b, sizeof b); /* beyond exact hundredths: whole TB */
    CHECK_STR(b, "1000000000000000000TB");
    units_fmt_bytes(1e300, b, sizeof b); /* truncated, still terminated */
    CHECK_EQ(strlen(b), sizeof b - 1);
    CHECK_EQ(units_parse_rate_bps(units_fmt_rate(36e9, b, sizeof b), &back), 0);
    CHECK_EQ(back, 36000000000ull);
    CHECK_EQ(units_parse_bytes(units_fmt_bytes(1.5e6, b, sizeof b), &back), 0);
    CHECK_EQ(back, 1500000);
}

int main(void)
{
    test_binary_ = "test_units";
    RUN(time_units);
    RUN(time_exact_fractions);
    RUN(time_micro_sign);
    RUN(time_blanks);
    RUN(time_rejects);
    RUN(time_overflow);
    RUN(time_why);
    RUN(rate_units);
    RUN(rate_rejects);
    RUN(bytes_units);
    RUN(bytes_rejects);
    RUN(u64);
    RUN(double_parse);
    RUN(bool_parse);
    RUN(percent_parse);
    RUN(fmt_time);
    RUN(fmt_time_roundtrip);
    RUN(fmt_rate_bytes);
    return test_summary();
}
