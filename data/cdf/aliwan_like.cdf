# aliwan_like.cdf -- an "Ali-WAN-LIKE" flow-size distribution, BUILT BY US.  It is NOT the
#   Alibaba cross-datacenter WAN trace.
# Format: rocc CDF, one point per line "SIZE_BYTES CUMULATIVE_FRACTION" (see README.md).
#
# Why: LSCC (Long et al., ../shared/papers/lscc-cross-datacenter-rdma-cc.txt, §IV-C) runs "an
#   Alibaba cross-datacenter over WAN traffic distribution [24]" (ref. [24] is FlashPass, Zeng et
#   al., ICNP 2021, whose evaluation uses Alibaba's production WAN workload).  Neither paper
#   publishes the numbers of that distribution.
# Derivation: from the only properties LSCC states -- "characterized by mostly long flows, 40% of
#   the flows are larger than 50MB" -- and nothing else:
#   - F(50 MB) = 0.60 (40% of the flows above 50 MB), exactly the stated property;
#   - "mostly long flows": 70% of the flows above 1 MB, 55% above 10 MB (our choice);
#   - the rest log-uniform-ish down to 10 KB (our choice), and a largest flow of 200 MB with 30% of
#     the flows in 50..100 MB (our choice; it keeps the largest flows finishable in a
#     sub-second simulation).
#   Interpolated mean (HPCC trapezoid) 42,886,000 B; step mean 59,111,000 B.
# Results with it are labelled "Ali-WAN-like" (docs/crossdc.md); they compare algorithms on a
#   long-flow-dominated load, not on Alibaba's trace.
#
# SIZE_BYTES CUMULATIVE_FRACTION
0 0
10000 0.10
100000 0.20
1000000 0.30
10000000 0.45
50000000 0.60
100000000 0.90
200000000 1
