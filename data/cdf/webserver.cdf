# webserver.cdf -- Facebook web-server flow-size distribution (Web Server).
# Format: rocc CDF, one point per line "SIZE_BYTES CUMULATIVE_FRACTION" (see README.md).
#
# Workload: intra-cluster flow sizes of a Facebook web-server cluster, Roy et al., "Inside the Social
#   Network's (Datacenter) Network", SIGCOMM 2015.  Used as "web server" by RCC
#   (ref. [11] of ../shared/papers/rcc-receiver-driven-rdma-cc.txt).
# Origin: github.com/PlatformLab/HomaSimulation, commit 23b5164f3861e1da43d26ac2aa63e6765dca5dbd,
#   file RpcTransportDesign/OMNeT++Simulation/homatransport/sizeDistributions/Facebook_WebServerDist_IntraCluster.txt
#   (44 rows "bytes fraction" after a first line holding the mean, 68936.79 B).
# Conversion: the mean line dropped, a "0 0" row added; sizes and fractions unchanged.  That mean
#   (68936.79 B) is close to this file's step mean (68,936.72 B), not to its interpolated mean
#   (62,481 B): sample it with `sampling = step` to match the HomaSimulation.
#
# SIZE_BYTES CUMULATIVE_FRACTION
0 0
84 0.061
153 0.126
301 0.215
500 0.226
639 0.2407
800 0.2537
900 0.2667
1000 0.2926
1085 0.3130
1357 0.3352
1534 0.3500
1664 0.3722
1843 0.3963
2000 0.4093
3000 0.4796
4000 0.5259
5000 0.5630
6000 0.5889
7000 0.6111
8000 0.6260
9000 0.6407
10000 0.6519
14140 0.6852
20000 0.7148
24512 0.7315
30000 0.7463
34660 0.7574
40000 0.7667
45171 0.7759
50000 0.7815
60000 0.7926
70000 0.8
80000 0.8074
100000 0.8148
144310 0.8241
200000 0.8574
260573 0.8944
300000 0.9222
353730 0.9556
400000 0.9741
442606 0.9833
565213 0.9907
778003 0.9963
1000000 1
