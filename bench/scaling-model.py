#!/usr/bin/env python3
"""bench/scaling-model.py -- predicted speedup of a parallel roccsim run.

A model on paper (issue 17), not a measurement: it takes the costs measured
on this machine (per packet-hop, per cut record, per window synchronisation)
and predicts the speedup of the windowed conservative engine for fat-trees of
about 1k, 10k and 100k hosts on 8, 64 and 512 ranks.

The model.  The engine runs in windows of one lookahead L (the smallest
propagation delay of a cut link).  In a window every rank handles its own
packet-hops, then all ranks swap the frames that crossed a cut and agree on
the next window (one all-to-all and one all-reduce).  So a window costs

    T_window(P) = max_r (hops_r * c_hop + records_r * c_rec) + t_sync(P)

against hops_total * c_hop for one rank; the speedup is the ratio.  Where a
packet's hops land (which rank does the work, which hops cross a cut) is
counted, not assumed: the script builds the fat-tree, assigns nodes to ranks
the way roccsim's partitioner does for a fat-tree (whole pods per rank; pods
split by ToR when there are more ranks than pods; core switches dealt round
robin), and follows random ECMP paths of uniform random traffic.  Each hop is
worked by its two ends (half the cost each: the sender's serialiser event and
the receiver's arrival event); a hop whose ends are on different ranks is one
record.

t_sync(P) = a + b * log2(P) + c * P: a tree-shaped all-reduce, plus the
all-to-all of record counts, which touches every peer.  The busiest rank of
a window is taken, not the average one: frames enter at random, so each
rank's hops in a window vary, and the slowest of P ranks sets the pace.  Its defaults are assumptions, not measurements, for a cluster with
a low-latency fabric; pass your own (e.g. from the OSU micro-benchmarks).

Usage: bench/scaling-model.py [--c-hop NS] [--c-rec NS] [--sync-a US]
       [--sync-b US] [--lookahead US] [--hop-rate HOPS_PER_HOST_US]
       [--load RHO] [--paths N] [--seed S] [--k 16,34,74] [--ranks 8,64,512]
"""
import argparse
import heapq
import math
import random

SIZES = [(16, "1k"), (34, "10k"), (74, "100k")]     # k: hosts = k^3 / 4
RANKS = [8, 64, 512]


def sample_paths(k, paths, rng):
    """Random ECMP paths of uniform random traffic, as node-id lists.

    Node ids: ('h', host), ('t', pod, t), ('a', pod, a), ('c', core)."""
    half = k // 2
    n_hosts = k * half * half
    out = []
    for _ in range(paths):
        s = rng.randrange(n_hosts)
        d = rng.randrange(n_hosts - 1)
        d += d >= s
        sp, st = divmod(s // half, half)
        dp, dt = divmod(d // half, half)
        path = [("h", s), ("t", sp, st)]
        if sp == dp and st != dt:
            path += [("a", sp, rng.randrange(half)), ("t", dp, dt)]
        elif sp != dp:
            a = rng.randrange(half)
            path += [("a", sp, a), ("c", a * half + rng.randrange(half)), ("a", dp, a), ("t", dp, dt)]
        path.append(("h", d))
        out.append(path)
    return out


def partition(k, p):
    """Node -> rank, the way roccsim's partitioner cuts a fat-tree.

    A node's weight is its port count (roccsim: the sum of its port rates;
    every link runs at the same rate here).  Units -- whole pods while there
    are at least two per rank, else racks (a ToR with its hosts), else
    nothing -- go largest first to the least loaded rank, then the nodes in
    no unit one by one the same way."""
    half = k // 2
    units, loose = {}, []
    for pod in range(k):
        for t in range(half):
            hosts = [("h", (pod * half + t) * half + j) for j in range(half)]
            rack = [("t", pod, t)] + hosts
            if k >= 2 * p:
                units.setdefault(("pod", pod), []).extend(rack + [("a", pod, t)])
            elif p <= k * half:
                units[("rack", pod, t)] = rack
                loose.append(("a", pod, t))
            else:
                loose.extend(rack + [("a", pod, t)])
    loose.extend(("c", c) for c in range(half * half))
    weight = lambda node: 1 if node[0] == "h" else k
    heap = [(0, r) for r in range(p)]             # (load, rank): least loaded first
    rank = {}
    for group in (sorted(units.values(), key=lambda u: -sum(map(weight, u))),
                  sorted(([v] for v in loose), key=lambda u: -weight(u[0]))):
        for nodes in group:
            w, r = heapq.heappop(heap)
            for v in nodes:
                rank[v] = r
            heapq.heappush(heap, (w + sum(map(weight, nodes)), r))
    return rank


def walk(k, p, paths):
    """Per-packet hops, and per-rank hop work and cut records.

    A node's work is the mean work of its kind (host, ToR, aggregation,
    core) over the sampled paths -- uniform traffic loads all nodes of a kind
    alike, and the mean over a kind is far less noisy than a per-node count.
    The cut records of a rank are the sampled cut fraction of its work."""
    rank = partition(k, p)
    per_kind = {}
    hops = cut = 0
    for path in paths:
        for u, v in zip(path, path[1:]):
            hops += 1
            per_kind[u[0]] = per_kind.get(u[0], 0.0) + 0.5
            per_kind[v[0]] = per_kind.get(v[0], 0.0) + 0.5
            cut += rank[u] != rank[v]
    half = k // 2
    count = {"h": k * half * half, "t": k * half, "a": k * half, "c": half * half}
    n = len(paths)
    work = [0.0] * p
    for node, r in rank.items():
        work[r] += per_kind.get(node[0], 0.0) / count[node[0]] / n
    frac = cut / hops
    return hops / n, work, [w * frac for w in work]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--c-hop", type=float, default=150.0, help="ns per packet-hop on one core (from make bench)")
    ap.add_argument("--c-rec", type=float, default=60.0, help="ns per cut record, both ends (assumed)")
    ap.add_argument("--sync-a", type=float, default=3.0, help="us, fixed part of a window's synchronisation")
    ap.add_argument("--sync-b", type=float, default=1.5, help="us per doubling of the rank count")
    ap.add_argument("--sync-c", type=float, default=0.05,
                    help="us per peer rank (the all-to-all of record counts touches every peer)")
    ap.add_argument("--lookahead", type=float, default=1.0, help="us, the smallest delay of a cut link")
    ap.add_argument("--hop-rate", type=float, default=None,
                    help="packet-hops per host per simulated us at load 1 (measured); default: "
                         "MTU frames at 100 Gb/s, 1.1 hops of control per data hop")
    ap.add_argument("--load", type=float, default=0.7, help="offered load per host link")
    ap.add_argument("--paths", type=int, default=20000, help="sampled packets per fat-tree")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--k", default=",".join(str(k) for k, _ in SIZES),
                    help="fat-tree k values, comma-separated (default 16,34,74)")
    ap.add_argument("--ranks", default=",".join(str(p) for p in RANKS),
                    help="rank counts, comma-separated (default 8,64,512; e.g. 2 to set the "
                         "model beside a measured 2-rank run)")
    o = ap.parse_args()
    try:
        ks = [int(x) for x in o.k.split(",")]
        ranks = [int(x) for x in o.ranks.split(",")]
    except ValueError:
        ap.error("--k and --ranks take comma-separated integers")
    if any(k < 2 or k % 2 for k in ks) or any(p < 1 for p in ranks):
        ap.error("--k needs even values >= 2, --ranks values >= 1")
    rng = random.Random(o.seed)
    # Packets per host per us at line rate: 100 Gb/s over 1,048-byte frames
    # (1 KB payload plus RoCEv2 headers) is 11.9; each data hop brings about
    # 0.1 hop of ACK/CNP traffic (measured hop mix of the k = 16 benchmark).
    pk_per_us = o.hop_rate if o.hop_rate else 100e3 / (8 * 1048) * 1.1
    print(f"# c_hop {o.c_hop} ns, c_rec {o.c_rec} ns, t_sync(P) = {o.sync_a} + {o.sync_b}*log2(P) + {o.sync_c}*P us, "
          f"L {o.lookahead} us, load {o.load}, {pk_per_us:.2f} frames/host/us at load 1")
    print(f"{'hosts':>7} {'k':>3} {'ranks':>5} {'hops/win':>9} {'work/win':>9} {'imbal':>6} "
          f"{'cut%':>5} {'sync':>6} {'speedup':>8} {'effic':>6}")
    def predict(k, p, paths):
        hosts = k ** 3 // 4
        frames = hosts * pk_per_us * o.load * o.lookahead    # frames entering per window
        hops_pp, work, recs = walk(k, p, paths)
        total = frames * hops_pp                              # hops per window
        seq_us = total * o.c_hop / 1e3
        # The busiest rank of a window, not of the average: frames enter at
        # random, so a rank's hops in one window vary (Poisson frames of
        # hops_pp hops each); the largest of P such draws sits about
        # sqrt(2 ln P) standard deviations above its mean.
        z = math.sqrt(2 * math.log(p)) if p > 1 else 0.0
        per_rank = 0.0
        for w, r in zip(work, recs):
            hops_r = frames * w
            peak = hops_r + z * math.sqrt(hops_r * hops_pp)
            per_rank = max(per_rank, (peak * o.c_hop + frames * r * (peak / hops_r if hops_r else 1) * o.c_rec) / 1e3)
        mean_work = sum(work) / p
        sync = o.sync_a + o.sync_b * math.log2(p) + o.sync_c * p
        return dict(hosts=hosts, total=total, seq_us=seq_us, imbal=max(work) / mean_work,
                    cut=sum(recs) / hops_pp, sync=sync, speedup=seq_us / (per_rank + sync))

    for k in ks:
        label = dict(SIZES).get(k, f"{k ** 3 // 4:,}")
        paths = sample_paths(k, o.paths, rng)
        for p in ranks:
            m = predict(k, p, paths)
            print(f"{m['hosts']:>7} {k:>3} {p:>5} {m['total']:>9.0f} {m['seq_us']/1e3:>8.2f}m {m['imbal']:>6.2f} "
                  f"{100*m['cut']:>5.1f} {m['sync']:>5.1f}u {m['speedup']:>8.1f} {m['speedup']/p:>6.2f}")
        # Where it stops scaling: the rank count beyond which adding ranks
        # buys less than half of them (efficiency below 0.5), and the peak.
        best, last_half = (0.0, 1), 1
        p = 2
        while p <= min(8192, k ** 3 // 4):
            m = predict(k, p, paths)
            if m["speedup"] > best[0]:
                best = (m["speedup"], p)
            if m["speedup"] / p >= 0.5:
                last_half = p
            p *= 2
        print(f"# {label} hosts: efficiency >= 0.5 up to {last_half} ranks; "
              f"the speedup peaks at {best[0]:.0f} on {best[1]} ranks")

if __name__ == "__main__":
    main()
