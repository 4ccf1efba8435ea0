# bench/peers/lib.bash -- helpers shared by the peer comparisons
# (compare-ns3.sh, compare-htsim.sh).  Sourced, not run.

# median: one number per line on stdin -> the median.
median() { sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# peer_machine: "x86_64, 2 cpu, <model>" for the report.
peer_machine() {
    echo "$(uname -m), $(nproc) cpu, $(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | sed 's/.*: //' | tr -s ' ')"
}

# roccsim_fields FILE: roccsim's stdout -> "loop_s hops setup_s rss_mb events"
# (unrounded loop time recovered as hops / (M hops/s); the printed wall time
# has two decimals).
roccsim_fields() {
    sed -n '/^  simulated/{p;q}' "$1" | awk '{
        for (i = 1; i <= NF; i++) {
            if ($i == "events,") ev = $(i - 1)
            if ($i == "packet-hops") hops = $(i - 1)
            if ($i == "M" && $(i + 1) == "hops/s,") { m = $(i - 1); sub(/^\(/, "", m) }
            if ($i == "RSS") { rss = $(i + 1) }
            if ($i == "set-up") setup = $(i + 1)
        }
        printf "%.6f %d %s %s %d\n", (m > 0 ? hops / (m * 1e6) : 0), hops, setup, rss, ev }'
}

# cg_instr FILE: valgrind --tool=cachegrind's stderr -> instructions executed.
cg_instr() { sed -n 's/.*I *refs: *\([0-9,]*\).*/\1/p' "$1" | tr -d , | head -n 1; }
