#!/usr/bin/env bash
# bench/peers/compare-htsim.sh [HTSIM_DIR] -- roccsim vs htsim (Broadcom
# csg-htsim), HPCC, in interleaved rounds.  A benchmark, not a test.
#
#   HTSIM_DIR (or HTSIM=...): a checkout of https://github.com/Broadcom/csg-htsim
#   (the directory holding sim/).  It is only read: the peers are built out of
#   tree into build/peers/htsim by bench/peers/htsim/Makefile (htsim's own
#   library objects and flags; pipe.cpp replaced by pipe_count.cpp, htsim's
#   Pipe plus a packet-hop counter).  htsim is never part of this repository.
#
# Pairs (PAIRS="db ft", default both):
#   db  the 16 -> 1 dumbbell: bench/dumbbell-16x100g-hpcc.ini against
#       build/peers/htsim/dumbbell_hpcc (bench/peers/htsim/dumbbell_hpcc.cpp,
#       modelled on htsim's sim/tests/main_dumbell_hpcc.cpp with the host
#       links roccsim's star has): 16 long-lived HPCC flows, 100 Gb/s, 1 us
#       links, MTU-byte data frames, DB_TIME simulated.
#   ft  the k = 16 fat-tree permutation: bench/fattree-k16-permutation.ini
#       with cc.algorithm = hpcc (1024 hosts, host i -> i + 512, 2 MB flows,
#       100 Gb/s, 1 us links) against htsim's own datacenter program
#       (sim/datacenter/main_hpcc.cpp: -nodes 1024, -strat ecmp_host, a
#       connection matrix with the same 1024 flows), FT_TIME simulated.
# Frames: MTU bytes on both sides (htsim's Packet size; roccsim's data frame,
# network.mtu = MTU - 104: 62 B of RoCEv2 headers and 42 B of HPCC INT).
#
# Each round runs, per pair, roccsim then htsim, back to back; every run is
# timed whole (date +%s.%N around /usr/bin/time, which gives the peak RSS;
# both simulators also report it themselves) and reports its own set-up
# (before the first event / first packet on a wire) and loop time.  Per
# round: both simulators' packet-hops per second of the loop and of the
# whole process, and their ratios; then the medians.  With CG=1 (default)
# each simulator also runs under valgrind --tool=cachegrind at CG_DB_TIME /
# CG_FT_TIME and at 1 us, once: instructions per packet-hop with the set-up
# subtracted, (I(T) - I(1us)) / (hops(T) - hops(1us)).
#
# Environment:
#   ROUNDS=3  DB_TIME=100ms  FT_TIME=100us  MTU=9000  PAIRS="db ft"
#   QUIET=0   1: htsim built with its per-ACK debug prints removed
#             (hpcc.cpp writes "CWND1/CWND2 ..." to stdout on every ACK;
#             the build deletes the two statements from a copy of the file)
#   CG=1  CG_DB_TIME=10ms  CG_FT_TIME=20us
#   ROCCSIM=build/roccsim   (rebuilt with make unless another path is given)
#   NICE=10                 niceness of the runs (the machine is shared)
set -eu
. "$(dirname "$0")/../../scripts/lib/help.bash"
script_help "$@"
cd "$(dirname "$0")/../.."
. bench/peers/lib.bash
HTSIM=${1:-${HTSIM:-}}
if [ -z "$HTSIM" ] || [ ! -f "$HTSIM/sim/Makefile" ] || [ ! -f "$HTSIM/sim/hpcc.cpp" ]; then
    echo "compare-htsim.sh: give the csg-htsim checkout (the directory holding sim/) as \$1 or HTSIM=" >&2
    echo "  e.g. git clone https://github.com/Broadcom/csg-htsim /tmp/csg-htsim" >&2
    exit 2
fi
HTSIM=$(cd "$HTSIM" && pwd)
ROUNDS=${ROUNDS:-3}
DB_TIME=${DB_TIME:-100ms}
FT_TIME=${FT_TIME:-100us}
MTU=${MTU:-9000}
PAIRS=${PAIRS:-db ft}
QUIET=${QUIET:-0}
CG=${CG:-1}
CG_DB_TIME=${CG_DB_TIME:-10ms}
CG_FT_TIME=${CG_FT_TIME:-20us}
ROCCSIM=${ROCCSIM:-build/roccsim}
NICE=${NICE:-10}
for c in g++ make awk; do command -v $c > /dev/null || { echo "compare-htsim.sh: needs $c" >&2; exit 2; }; done
[ -x /usr/bin/time ] || { echo "compare-htsim.sh: needs /usr/bin/time (Debian package 'time')" >&2; exit 2; }
[ "$CG" = 0 ] || command -v valgrind > /dev/null || { echo "compare-htsim.sh: CG=1 needs valgrind (or CG=0)" >&2; exit 2; }
[ "$MTU" -ge 256 ] && [ "$MTU" -le 9104 ] || { echo "compare-htsim.sh: MTU=$MTU outside 256..9104" >&2; exit 2; }

# to_us TIME: roccsim time (100ms, 20us, 1s) -> microseconds (htsim's unit).
to_us() {
    echo "$1" | awk '{ v = $1 + 0; u = $1; sub(/^[0-9.]+/, "", u)
        f = (u == "s") ? 1e6 : (u == "ms") ? 1e3 : (u == "us") ? 1 : (u == "ns") ? 1e-3 : -1
        if (f < 0) { print "bad"; exit } printf "%g\n", v * f }'
}
for t in "$DB_TIME" "$FT_TIME" "$CG_DB_TIME" "$CG_FT_TIME"; do
    [ "$(to_us "$t")" != bad ] || { echo "compare-htsim.sh: time '$t': use s, ms, us or ns" >&2; exit 2; }
done

# 1. Builds.
if [ "$ROCCSIM" = build/roccsim ]; then
    make -s all
elif [ ! -x "$ROCCSIM" ]; then
    echo "compare-htsim.sh: ROCCSIM=$ROCCSIM is not an executable file" >&2
    exit 2
fi
make -s -C bench/peers/htsim HTSIM="$HTSIM" BUILD="$PWD/build/peers/htsim" > /dev/null
HB=$PWD/build/peers/htsim
[ "$QUIET" = 1 ] && HB=$PWD/build/peers/htsim/quiet

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
# The fat-tree permutation as htsim's connection matrix: the ini's flows
# (h_i -> h_(i+512) mod 1024, 2 MB = 2,000,000 B, all at t = 0).
awk 'BEGIN { n = 1024; print "Nodes " n; print "Connections " n
    for (i = 0; i < n; i++) printf "%d->%d id %d start 0 size 2000000\n", i, (i + n / 2) % n, i + 1 }' > "$out/perm.cm"

R_MTU=(--set "network.mtu=$((MTU - 104))")
# cmd_roccsim PAIR TIME / cmd_htsim PAIR TIME: the argument vectors.
cmd_roccsim() {
    case $1 in
    db) echo "$ROCCSIM run bench/dumbbell-16x100g-hpcc.ini --set sim.duration=$2 ${R_MTU[*]} -o $out/r" ;;
    ft) echo "$ROCCSIM run bench/fattree-k16-permutation.ini --set cc.algorithm=hpcc --set sim.duration=$2 ${R_MTU[*]} -o $out/r" ;;
    esac
}
cmd_htsim() {
    local us; us=$(to_us "$2")
    case $1 in
    db) echo "$HB/dumbbell_hpcc --flows=16 --duration-us=$us --mtu=$MTU --rate-gbps=100 --delay-us=1" ;;
    # -end is whole microseconds; -q 1000: the dumbbell example's 1000-packet
    # queues (main_hpcc's default of 15 packets overflows behind its PFC
    # thresholds and prints a warning per packet); -paths only satisfies
    # main_hpcc's check for ECMP (ecmp_host hashes per flow over all paths).
    ft) echo "$HB/htsim_hpcc -nodes 1024 -tm $out/perm.cm -strat ecmp_host -paths 16 -q 1000 -mtu $MTU -end ${us%.*} -o $out/h.dat" ;;
    esac
}
# run_r PAIR TIME -> "loop_s hops setup_s rss_mb whole_s"
run_r() {
    local rc=0
    # shellcheck disable=SC2046
    local t0; t0=$(date +%s.%N)
    /usr/bin/time -f '%e %M' -o "$out/time" nice -n "$NICE" $(cmd_roccsim "$1" "$2") > "$out/r.txt" 2> "$out/r.err" || rc=$?
    echo "$t0 $(date +%s.%N)" > "$out/span"
    if [ "$rc" -gt 1 ]; then cat "$out/r.txt" "$out/r.err" >&2; exit "$rc"; fi   # 1: an [expect] failed; speed still counts
    read -r loop hops setup rss _ < <(roccsim_fields "$out/r.txt")
    echo "$loop $hops $setup $rss $(awk '{ printf "%.3f", $2 - $1 }' "$out/span")"
}
run_h() {
    # shellcheck disable=SC2046
    local t0; t0=$(date +%s.%N)
    # In $out: main_hpcc writes idmap.txt into its working directory.
    (cd "$out" && /usr/bin/time -f '%e %M' -o "$out/time" nice -n "$NICE" $(cmd_htsim "$1" "$2") > /dev/null 2> "$out/h.err") ||
        { tail -5 "$out/h.err" >&2; exit 3; }
    echo "$t0 $(date +%s.%N)" > "$out/span"
    local res; res=$(grep -m1 '^RESULT' "$out/h.err")
    f() { echo "$res" | tr ' ' '\n' | sed -n "s/^$1=//p"; }
    echo "$(f loop_s) $(f hops) $(f setup_s) $(f rss_mb) $(awk '{ printf "%.3f", $2 - $1 }' "$out/span")"
}

echo "machine: $(peer_machine); load average now: $(cut -d' ' -f1-3 /proc/loadavg) (shared: other jobs run beside these)"
echo "htsim: $HTSIM ($(git -C "$HTSIM" rev-parse --short HEAD 2>/dev/null || echo 'not a git checkout'))$([ "$QUIET" = 1 ] && echo ', QUIET (per-ACK prints removed)')"
echo "frames: $MTU B both; dumbbell $DB_TIME, fat-tree $FT_TIME simulated; $ROUNDS round(s)"
echo

# 2. Interleaved rounds.
for p in $PAIRS; do : > "$out/$p.rounds"; done
for round in $(seq "$ROUNDS"); do
    for p in $PAIRS; do
        t=$DB_TIME; [ "$p" = ft ] && t=$FT_TIME
        r=$(run_r "$p" "$t")
        h=$(run_h "$p" "$t")
        echo "$round $r $h" >> "$out/$p.rounds"
        echo "$r $h" | awk -v p="$p" -v n="$round" '{
            rl = $2 / $1 / 1e6; hl = $7 / $6 / 1e6; rw = $2 / $5 / 1e6; hw = $7 / $10 / 1e6
            printf "round %d %s: roccsim %.3f M hops/s (whole process %.3f), htsim %.3f (%.3f): ratio %.2fx loop, %.2fx whole\n",
                n, p, rl, rw, hl, hw, rl / hl, rw / hw }'
    done
done

# 3. Instructions per packet-hop (cachegrind, set-up subtracted).
cg() {   # cg SIM PAIR TIME -> "instructions hops"
    local cmd
    if [ "$1" = r ]; then cmd=$(cmd_roccsim "$2" "$3"); else cmd=$(cmd_htsim "$2" "$3"); fi
    # shellcheck disable=SC2086
    local rc=0
    (cd "$([ "$1" = h ] && echo "$out" || echo .)" &&
        nice -n "$NICE" valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null $cmd > "$out/cg.out" 2> "$out/cg.err") || rc=$?
    if [ "$rc" -gt 1 ] || { [ "$rc" = 1 ] && [ "$1" = h ]; }; then tail -5 "$out/cg.err" >&2; exit 3; fi
    local hops
    if [ "$1" = r ]; then hops=$(roccsim_fields "$out/cg.out" | awk '{ print $2 }')
    else hops=$(sed -n 's/^RESULT hops=\([0-9]*\).*/\1/p' "$out/cg.err"); fi
    echo "$(cg_instr "$out/cg.err") $hops"
}
if [ "$CG" = 1 ]; then
    for p in $PAIRS; do
        t=$CG_DB_TIME; [ "$p" = ft ] && t=$CG_FT_TIME
        for s in r h; do
            read -r i1 h1 < <(cg "$s" "$p" "$t")
            read -r i0 h0 < <(cg "$s" "$p" 1us)
            echo "$s $i1 $h1 $i0 $h0" >> "$out/$p.cg"
        done
    done
fi

# 4. Summary per pair: medians over the rounds.
echo
for p in $PAIRS; do
    name="dumbbell 16 -> 1, HPCC, $DB_TIME"; [ "$p" = ft ] && name="k = 16 fat-tree permutation, HPCC, $FT_TIME"
    echo "$name (medians of $ROUNDS round(s)):"
    printf '  %-8s %10s %9s %9s %9s %8s %10s %12s %12s\n' sim hops loop_s setup_s whole_s RSS_MB Mhops/s Mhops/s_whole instr/hop
    for s in r h; do
        if [ $s = r ]; then cols='$2, $3, $4, $5, $6'; label=roccsim; else cols='$7, $8, $9, $10, $11'; label=htsim; fi
        awk "{ print $cols }" "$out/$p.rounds" > "$out/cols"
        med() { awk -v c="$1" '{ print $c }' "$out/cols" | median; }
        ipk=-
        if [ -f "$out/$p.cg" ]; then
            ipk=$(awk -v s=$s '$1 == s { if ($3 > $5) printf "%.0f", ($2 - $4) / ($3 - $5); else print "-" }' "$out/$p.cg")
        fi
        mh=$(awk '{ print $2 / $1 / 1e6 }' "$out/cols" | median)
        mw=$(awk '{ print $2 / $5 / 1e6 }' "$out/cols" | median)
        printf '  %-8s %10d %9.3f %9.3f %9.2f %8.1f %10.3f %12.3f %12s\n' $label "$(med 2)" "$(med 1)" "$(med 3)" "$(med 5)" "$(med 4)" "$mh" "$mw" "$ipk"
    done
    echo "  ratio roccsim/htsim, packet-hops per second of the loop: median $(awk '{ print ($3 / $2) / ($8 / $7) }' "$out/$p.rounds" | median | awk '{ printf "%.2f", $1 }')x;" \
         "per round: $(awk '{ printf "%.2fx ", ($3 / $2) / ($8 / $7) }' "$out/$p.rounds")"
    echo "  ratio roccsim/htsim, packet-hops per second of the whole process: median $(awk '{ print ($3 / $6) / ($8 / $11) }' "$out/$p.rounds" | median | awk '{ printf "%.2f", $1 }')x;" \
         "per round: $(awk '{ printf "%.2fx ", ($3 / $6) / ($8 / $11) }' "$out/$p.rounds")"
    if [ -f "$out/$p.cg" ]; then
        awk '{ printf "  cachegrind (%s): %s %.0f instructions / %.0f hops, minus 1us: %.0f / %.0f\n", ($1 == "r" ? "roccsim" : "htsim"), "T", $2, $3, $4, $5 }' "$out/$p.cg"
    fi
    echo
done
echo "commands (roccsim; htsim):"
for p in $PAIRS; do
    t=$DB_TIME; [ "$p" = ft ] && t=$FT_TIME
    echo "  $(cmd_roccsim "$p" "$t" | sed "s|$out|OUT|g")"
    echo "  $(cmd_htsim "$p" "$t" | sed "s|$out|OUT|g; s|$PWD/||")"
done
