# vl2_datamining.cdf -- VL2 data-mining flow-size distribution.
# Format: rocc CDF, one point per line "SIZE_BYTES CUMULATIVE_FRACTION" (see README.md).
#
# Workload: data-mining cluster flow sizes from Greenberg et al., "VL2: A Scalable and Flexible
#   Data Center Network", SIGCOMM 2009.  Shipped with the RoCC authors' code; not used in the
#   RoCC paper (neither it nor the dissertation mentions VL2).  Heavy tail: 2% of
#   flows lie between 100 MB and 1 GB.
# Origin: github.com/danushkam/rocc, commit b5157496f5bdd48bc5275cfa942cbc41fc81297d,
#   file commons/VL2_CDF (git blob 4ded21f5399c88dca9c949a2cbf9c377a7fee046, 12 rows, "bytes fraction",
#   no "0 0" row, no final newline).
# Conversion: fractions unchanged; sizes in exponent notation written as integers
#   (3.16e+06 -> 3160000, 1e+08 -> 100000000, 1e+09 -> 1000000000); a "0 0" row added first.
#   The added row has probability 0 under step sampling (the RoCC code's INTER_DISCRETE mode), so
#   step samples are exactly those of the original file; under interpolated sampling the first 10%
#   of flows spread over 1..180 B (HPCC convention: every CDF starts at "0 0") instead of all
#   being 180 B.
#
# SIZE_BYTES CUMULATIVE_FRACTION
0 0
180 0.1
216 0.2
560 0.3
900 0.4
1100 0.5
1870 0.6
3160 0.7
10000 0.8
400000 0.9
3160000 0.95
100000000 0.98
1000000000 1
