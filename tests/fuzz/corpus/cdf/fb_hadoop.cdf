# fb_hadoop.cdf -- Facebook Hadoop flow-size distribution (FB_Hadoop).
# Format: rocc CDF, one point per line "SIZE_BYTES CUMULATIVE_FRACTION" (see README.md).
#
# Workload: Hadoop cluster flow sizes from Roy et al., "Inside the Social Network's (Datacenter)
#   Network", SIGCOMM 2015.  Used as "FB_Hadoop" by HPCC (Li et al., SIGCOMM 2019) and named
#   "FB_Hadoop" by RoCC (Menikkumbura et al., CoNEXT 2020, sec. 6.3, refs [28] Homa and [35] Roy et al.).
# Origin: github.com/alibaba-edu/High-Precision-Congestion-Control, commit 9f4be2a9ead8a90e8bf732c66bd758c00e58e5be,
#   file traffic_gen/FbHdp_distribution.txt (git blob fef5acab7824cca7c58cd099117c17f3dd0dc2eb, 20 rows,
#   "bytes percent").
# Conversion: percent -> fraction (decimal point moved two places, exact); sizes unchanged; no rows
#   added or removed.
#
# SIZE_BYTES CUMULATIVE_FRACTION
0 0
100 0.01
200 0.02
300 0.05
350 0.15
400 0.2
500 0.3
600 0.4
700 0.5
1000 0.6
2000 0.67
7000 0.7
30000 0.72
50000 0.82
80000 0.87
120000 0.9
300000 0.95
1000000 0.975
2000000 0.99
10000000 1
