# websearch.cdf -- WebSearch flow-size distribution.
# Format: rocc CDF, one point per line "SIZE_BYTES CUMULATIVE_FRACTION" (see README.md).
#
# Workload: web-search cluster flow sizes from Alizadeh et al., "Data Center TCP (DCTCP)",
#   SIGCOMM 2010.  Used as "WebSearch" by HPCC (Li et al., SIGCOMM 2019, traffic_gen) and by
#   RoCC (Menikkumbura et al., CoNEXT 2020, sec. 6.3, refs [2] DCTCP and [28] Homa).
# Origin: github.com/alibaba-edu/High-Precision-Congestion-Control, commit 9f4be2a9ead8a90e8bf732c66bd758c00e58e5be,
#   file traffic_gen/WebSearch_distribution.txt (git blob 00e0951da186d85d72fa73d73e53789da88a1b90, 12 rows,
#   "bytes percent").  The RoCC authors' copy, github.com/danushkam/rocc commit b5157496f5bdd48bc5275cfa942cbc41fc81297d
#   commons/DCTCP_CDF, has the same breakpoints as fractions without the "0 0" row.
# Conversion: percent -> fraction (decimal point moved two places, exact); sizes unchanged; no rows
#   added or removed.
#
# SIZE_BYTES CUMULATIVE_FRACTION
0 0
10000 0.15
20000 0.2
30000 0.3
50000 0.4
80000 0.53
200000 0.6
1000000 0.7
2000000 0.8
5000000 0.9
10000000 0.97
30000000 1
