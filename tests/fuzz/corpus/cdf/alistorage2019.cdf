# alistorage2019.cdf -- Alibaba storage flow-size distribution (2019).
# Format: rocc CDF, one point per line "SIZE_BYTES CUMULATIVE_FRACTION" (see README.md).
#
# Workload: flow sizes of an Alibaba storage cluster, 2019, as described in the HPCC repository's
#   README (no paper given there).
# Origin: github.com/alibaba-edu/High-Precision-Congestion-Control, commit 9f4be2a9ead8a90e8bf732c66bd758c00e58e5be,
#   file traffic_gen/AliStorage2019.txt (git blob 64be263c166f3cc8ed51892efb24600d7aaf89c4, 9 rows,
#   "bytes percent").
# Conversion: percent -> fraction (decimal point moved two places, exact); sizes unchanged; no rows
#   added or removed.
#
# SIZE_BYTES CUMULATIVE_FRACTION
0 0
4000 0.2293
8000 0.6921
16000 0.8061
32000 0.9047
64000 0.9353
128000 0.9677
256000 0.9753
2000000 1
