/*
 * units.h -- numbers with units: parsing for scenario files, formatting for
 * humans.
 *
 * Parsing is exact.  A quantity is DIGITS[.DIGITS], optional blanks, a unit.
 * The digits are read as integers (never through a double) and scaled by the
 * unit's integer factor, so "1.5us" is exactly 1500000 ps and "0.1ms" exactly
 * 100000000 ps.  A value that does not land on a whole base unit ("0.5ps",
 * "0.1B") is rejected, as are signs, exponents, a missing leading digit
 * (".5us"), overflow of uint64_t, unknown units and trailing text.  Blanks
 * around the whole string are ignored.  Every parser returns 0 on success
 * and -1 on error, leaves *out untouched on error, and never allocates.
 *
 * Units (case-sensitive):
 *   time   ps ns us µs ms s                        (unit required)
 *   rate   [k|K|M|G|T] followed by bps, b/s, bit/s, or alone ("40G");
 *          plain "bps" too; decimal prefixes, 1G = 1e9 (unit required)
 *   bytes  B kB KB MB GB TB (powers of 1000), KiB MiB GiB TiB (of 1024);
 *          a bare number is bytes
 * Uppercase "B" is never accepted in a rate: "GB/s" is bytes, not bits, and
 * silently reading it as Gbps would be off by 8.
 *
 * The *_why variants also report the reason for a failure as a static string
 * ("unknown unit", "out of range", ...) for error messages; pass NULL if not
 * needed.  The plain forms are the same call with why == NULL.
 *
 * Formatting picks the largest unit in which the value is >= 1 and prints at
 * most 3 (time) or 2 (rate, bytes) decimals, trailing zeros dropped, rounding
 * carried into the next unit ("999.9996us" -> "1ms").  Output always fits
 * the parsers' syntax.  32 bytes hold any time, and any rate or size below
 * 1e25 (longer output is truncated, still NUL-terminated).
 */
#ifndef ROCC_UNITS_H
#define ROCC_UNITS_H

#include <stddef.h>
#include <stdint.h>

#define UNITS_PS_PER_NS 1000ull
#define UNITS_PS_PER_US 1000000ull
#define UNITS_PS_PER_MS 1000000000ull
#define UNITS_PS_PER_S  1000000000000ull

int units_parse_time_ps(const char *s, uint64_t *out);
int units_parse_rate_bps(const char *s, uint64_t *out);
int units_parse_bytes(const char *s, uint64_t *out);
/* Plain non-negative decimal integer. */
int units_parse_u64(const char *s, uint64_t *out);
/* Finite decimal real, may be negative; exponents allowed ("1e-3"), no
 * hex, inf or nan. */
int units_parse_double(const char *s, double *out);
/* true/false, on/off, yes/no, 1/0 (letters case-insensitive). */
int units_parse_bool(const char *s, int *out);
/* "90%" -> 0.90; the '%' is required, the number is DIGITS[.DIGITS]. */
int units_parse_percent(const char *s, double *out);

int units_parse_time_ps_why(const char *s, uint64_t *out, const char **why);
int units_parse_rate_bps_why(const char *s, uint64_t *out, const char **why);
int units_parse_bytes_why(const char *s, uint64_t *out, const char **why);
int units_parse_u64_why(const char *s, uint64_t *out, const char **why);

/* Human output into buf (truncated to len, always terminated if len > 0);
 * return buf. */
const char *units_fmt_time(uint64_t ps, char *buf, size_t len);   /* "1.5us" */
const char *units_fmt_rate(double bps, char *buf, size_t len);    /* "13.33Gbps" */
const char *units_fmt_bytes(double bytes, char *buf, size_t len); /* "1.2MB" */

#endif
