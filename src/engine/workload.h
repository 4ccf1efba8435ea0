/*
 * workload.h -- flow-size distributions and traffic generators for
 * datacenter-scale runs: pure functions of their arguments and a struct rng,
 * no I/O except the file readers/writers, no globals.
 *
 * FLOW-SIZE CDF FILES (data/cdf/README.md has the full story)
 *   UTF-8 text; '#' starts a comment (to the end of the line); blank lines
 *   ignored; otherwise one point per line, "SIZE_BYTES CUMULATIVE" (blanks
 *   or tabs between; decimal or exponent notation: "1e+06").  Sizes are
 *   finite, >= 0, <= 2^53 and non-decreasing; cumulative values are in
 *   [0, 1] (fraction) or [0, 100] (percent), non-decreasing, and the last
 *   one is exactly 1 or 100.  A leading "0 0" row is optional.  This reads
 *   three dialects unchanged:
 *     - ours (data/cdf/NAME.cdf): fractions, comments allowed;
 *     - HPCC's traffic_gen files (alibaba-edu/High-Precision-Congestion-
 *       Control traffic_gen/NAME.txt): percent 0..100, first row "0 0";
 *     - the RoCC authors' files (danushkam/rocc commons/NAME_CDF): fractions
 *       without a 0 row, sizes like "3e+07", maybe no final newline.
 *   CDF_AUTO takes percent if the last value is 100, fraction if it is 1,
 *   and rejects anything else; CDF_PERCENT / CDF_FRACTION insist on 100 / 1.
 *   Points are stored as fractions (percent / 100, so 100 -> exactly 1).
 *
 * SAMPLING.  Let the points be (x_0, F_0) ... (x_{n-1}, F_{n-1}), F_{n-1} = 1.
 *   CDF_INTERPOLATE (HPCC traffic_gen.py, custom_rand.py
 *   getValueFromPercentile): u uniform in [0, 1).  If u <= F_0 the size is
 *   x_0 (a point mass F_0 at x_0; HPCC files have F_0 = 0 so it never
 *   happens there).  Otherwise take the first i >= 1 with u <= F_i and
 *   x = x_{i-1} + (x_i - x_{i-1}) (u - F_{i-1}) / (F_i - F_{i-1}): x is
 *   uniform on each segment.  The sample is trunc(x) (Python int()), and 1
 *   if that is 0 (HPCC: "if size <= 0: size = 1").
 *   CDF_STEP (RoCC's OMNeT++ app, ns-2 EmpiricalRandomVariable in
 *   INTER_DISCRETE mode): u uniform in (0, 1]; the sample is the smallest
 *   x_i with F_i >= u, truncated, at least 1.  So x_i has probability
 *   F_i - F_{i-1} (x_0: F_0), only listed sizes come out, and a "0 0" row
 *   has probability 0.
 *
 * MEANS.  cdf_mean() is the exact mean of what cdf_sample() returns,
 *   truncation and the floor of 1 included:
 *     step:         sum_i max(1, floor x_i) (F_i - F_{i-1})
 *     interpolate:  F_0 max(1, floor x_0) + sum_{i>=1} (F_i - F_{i-1}) E_i,
 *                   E_i = mean of max(1, floor X), X uniform on [x_{i-1}, x_i]
 *   The interpolated mean is within 1 byte of the continuous trapezoid mean
 *   HPCC's getAvg() uses, sum (x_{i-1} + x_i)/2 (F_i - F_{i-1}) (+ F_0 x_0):
 *   truncation takes about half a byte off, the floor of 1 adds < 1 byte.
 *
 * POISSON BACKGROUND (wl_poisson).  HPCC traffic_gen.py's model: every
 *   source host is an independent Poisson process with mean inter-arrival
 *   gap mean_size * 8 / (link_bps * load), so each source offers `load` of
 *   its own link in bytes (0 < load <= 1: a source cannot offer more than
 *   its link carries).  mean_size is cdf_mean(c, smp), the exact mean of
 *   the sampling used (HPCC uses the trapezoid, < 1 byte off).  Arrivals are
 *   on the picosecond grid: the first at t0 + G_1, the next at + G_2, ...,
 *   each exponential G rounded to the nearest ps (HPCC truncates to whole
 *   ns); those in [t0, t1) are kept (HPCC also drops an arrival whose *next*
 *   gap passes the end; we keep every arrival before t1).  Destinations:
 *     WL_ALL_TO_ALL   uniform over dsts other than the source (HPCC);
 *     WL_GROUPS       srcs and dsts must be disjoint sets; uniform over dsts
 *                     (RoCC §6.3: hosts behind two edge switches send to
 *                     every host behind the third);
 *     WL_PERMUTATION  each source sends all its flows to one destination,
 *                     drawn once as a uniformly random injective map
 *                     srcs -> dsts with no source mapped to itself (a
 *                     derangement when srcs == dsts); needs nsrc <= ndst.
 *   Host ids in srcs (and in dsts) must be distinct.
 *
 * INCAST (wl_incast).  The HPCC maintainer's recipe (HPCC issue #36): incast
 *   events form a Poisson process whose byte rate is `load` of the summed
 *   link capacity of `hosts`, i.e. mean gap m * size * 8 / (load * sum bps);
 *   each event picks a receiver uniformly from hosts and m distinct senders
 *   uniformly from the other hosts; the m flows of `size` bytes start at the
 *   event time with incast = 1.  Events in [t0, t1) are kept.
 *
 * DETERMINISM.  Both generators take exactly one 64-bit seed per stream
 *   from r (wl_poisson: 1 for the permutation + 1 per source, in srcs
 *   order; wl_incast: 1) and draw everything else from private generators
 *   seeded with them.  So r advances by a fixed count whatever t1, load or
 *   the CDF, the same seed gives the same flows byte for byte, and a longer
 *   window [t0, t1') yields the flows of [t0, t1) plus later ones.
 *
 * OUTPUT.  Generators and readers APPEND to a wl_list (background and
 *   incast can share one list); on error the list keeps its old length.
 *   wl_poisson appends in source order, wl_incast in event order; call
 *   wl_sort_by_start before use.  Errors are one line in err (err may be
 *   NULL): "PATH:LINE: what" for files, "wl_poisson: what" /
 *   "wl_incast: what" for the generators.
 *
 * HPCC FLOW FILES (FLOW_FILE of HPCC simulation/scratch/third.cc; written
 *   by traffic_gen.py): line 1 is the flow count N, then N lines
 *   "src dst pg dport size start_s" sorted by start.  The reader checks
 *   the count, 6 integer/decimal fields, src != dst, ids < nhosts,
 *   size > 0, a plain non-negative decimal start of at most 12 fractional
 *   digits (converted to ps exactly); blank lines are ignored; unsorted
 *   files are accepted and sorted (stable).  dport 200 marks incast
 *   (HPCC analysis/fct_analysis.py); pg is checked to be an integer and
 *   dropped.  The writer needs a list sorted by start; it writes pg 3,
 *   dport 100/200 and start as seconds with 9 decimals (%.9f, rounded
 *   to the ns exactly in integers), to PATH.tmp<pid>.<k>, then rename()s.
 */
#ifndef ROCC_WORKLOAD_H
#define ROCC_WORKLOAD_H

#include <stddef.h>
#include <stdint.h>

#include "core/rng.h"

/* HPCC flow-file constants.  pg 3 = the data priority group of every line
 * traffic_gen.py writes ("%d %d 3 100 %d %.9f"); dport 100 / 200 = normal /
 * incast in HPCC analysis/fct_analysis.py. */
#define WL_HPCC_PG            3
#define WL_HPCC_DPORT         100
#define WL_HPCC_DPORT_INCAST  200

/* Incast defaults for the scenario builder: the HPCC maintainer's recipe in
 * HPCC issue #36 -- Poisson incast at 2% of network load, each event 60
 * senders x 500 KB to one random receiver. */
#define WL_INCAST_DEFAULT_LOAD 0.02
#define WL_INCAST_DEFAULT_M    60u
#define WL_INCAST_DEFAULT_SIZE 500000u

/* Largest accepted CDF size: 2^53 bytes, the largest range of doubles in
 * which every integer is exact (so truncation is well defined). */
#define CDF_MAX_SIZE 9007199254740992.0

struct cdf {
    double  *size;        /* bytes, non-decreasing */
    double  *frac;        /* cumulative fraction, non-decreasing, frac[n-1] == 1 */
    uint32_t n;           /* >= 1 */
    double   mean_interp; /* cdf_mean(c, CDF_INTERPOLATE) */
    double   mean_step;   /* cdf_mean(c, CDF_STEP) */
};
enum cdf_format { CDF_AUTO, CDF_FRACTION, CDF_PERCENT };
/* HPCC traffic_gen: linear interpolation; RoCC / ns-2 INTER_DISCRETE: step. */
enum cdf_sampling { CDF_INTERPOLATE, CDF_STEP };

/* 0, or -1 with "PATH:LINE: what" ("PATH: what" without a line) in err and
 * *c zeroed.  cdf_free(c) releases a loaded cdf (and is harmless on a
 * zeroed one). */
int      cdf_load(struct cdf *c, const char *path, enum cdf_format fmt, char *err, size_t errlen);
void     cdf_free(struct cdf *c);
/* One flow size in bytes, >= 1; consumes one rng_next() draw. */
uint64_t cdf_sample(const struct cdf *c, enum cdf_sampling s, struct rng *r);
/* Exact mean of cdf_sample() in bytes (see MEANS above). */
double   cdf_mean(const struct cdf *c, enum cdf_sampling s);

struct wl_flow {
    uint32_t src, dst; /* host indices */
    uint64_t size;     /* bytes, >= 1 */
    uint64_t start_ps;
    uint8_t  incast;   /* 1: part of an incast event (HPCC dport 200) */
};
struct wl_list { struct wl_flow *v; size_t n, cap; };
enum wl_pattern { WL_ALL_TO_ALL, WL_PERMUTATION, WL_GROUPS };

void wl_list_free(struct wl_list *l);
/* Append one flow; 0 or -1 when out of memory. */
int  wl_list_push(struct wl_list *l, const struct wl_flow *f);

/* Background Poisson traffic, see above.  srcs / dsts: host ids;
 * src_link_bps[i] > 0 is the link rate of srcs[i]; 0 < load <= 1;
 * t0 < t1 in ps. */
int  wl_poisson(struct wl_list *out, const uint32_t *srcs, size_t nsrc, const uint32_t *dsts, size_t ndst,
                enum wl_pattern pat, const uint64_t *src_link_bps, double load, const struct cdf *c,
                enum cdf_sampling smp, uint64_t t0, uint64_t t1, struct rng *r, char *err, size_t errlen);
/* Poisson incast events, see above.  hosts distinct, 1 <= m < nhosts,
 * size >= 1, 0 < load <= 1, t0 < t1. */
int  wl_incast(struct wl_list *out, const uint32_t *hosts, size_t nhosts, const uint64_t *host_link_bps,
               double load, uint32_t m, uint64_t size, uint64_t t0, uint64_t t1, struct rng *r, char *err,
               size_t errlen);
/* Stable sort by start, then src, then dst. */
void wl_sort_by_start(struct wl_list *l);

/* HPCC flow files, see above. */
int  wl_read_hpcc(struct wl_list *out, const char *path, uint32_t nhosts, char *err, size_t errlen);
int  wl_write_hpcc(const struct wl_list *l, const char *path, char *err, size_t errlen);

#endif
