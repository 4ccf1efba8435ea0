# cachefollower.cdf -- Facebook cache-follower flow-size distribution (Cache Follower).
# Format: rocc CDF, one point per line "SIZE_BYTES CUMULATIVE_FRACTION" (see README.md).
#
# Workload: intra-cluster flow sizes of a Facebook cache-follower cluster, Roy et al., "Inside the
#   Social Network's (Datacenter) Network", SIGCOMM 2015.  Used as "cache follower" by
#   RCC (ref. [11] of its paper).
# Origin: github.com/PlatformLab/HomaSimulation, commit 93bb0da45a4377e2cb0fdc5caa8160a061cff411,
#   file RpcTransportDesign/OMNeT++Simulation/homatransport/sizeDistributions/Facebook_CacheFollowerDist_IntraCluster.txt
#   (66 rows "bytes fraction" after a first line holding the mean, 718204.9 B).
# Conversion: the mean line dropped, a "0 0" row added; sizes and fractions unchanged.  That mean
#   (718204.9 B) is close to this file's step mean (718,204.86 B), not to its interpolated mean
#   (687,658 B): sample it with `sampling = step` to match the HomaSimulation.
#
# SIZE_BYTES CUMULATIVE_FRACTION
0 0
68 0.0204
144 0.0409
266 0.0539
340 0.1803
490 0.2770
577 0.3048
639 0.3178
707 0.3532
900 0.3643
1042 0.3773
1110 0.3996
1303 0.4052
1414 0.4126
1440 0.4238
2000 0.4368
2450 0.4461
3000 0.4535
3466 0.4572
4000 0.4610
5000 0.4665
6000 0.4703
8000 0.4758
10000 0.4777
13855 0.4833
16643 0.4870
18057 0.4888
25531 0.4944
28270 0.5000
36101 0.5037
44260 0.5091
62583 0.5186
72178 0.5223
81565 0.5260
92173 0.5297
102060 0.5335
110726 0.5390
127700 0.5465
141398 0.5558
156563 0.5651
169860 0.5743
184283 0.5836
199933 0.5923
212537 0.6022
225934 0.6115
245121 0.6208
260573 0.6301
276998 0.6394
326042 0.6580
391670 0.6766
531696 0.6952
588724 0.7138
1385457 0.7200
1503111 0.7230
1597864 0.7416
1681372 0.7602
1787361 0.7787
1842836 0.7974
1959004 0.8160
2125366 0.8346
2213771 0.8532
2329467 0.8717
2553169 0.9276
2827011 0.9740
3006219 0.9888
3260426 0.9944
3837698 1
