#!/usr/bin/env bash
# scripts/crossdc-fct.sh [--quick] [-o DIR] [--algos LIST] [--workloads LIST]
#                        [--loads LIST] [--seeds LIST] [--duration T] [-j JOBS]
#
# LSCC §IV-C (Fig. 10-13), one command: experiments/crossdc/fct.ini (16
# servers of datacenter 0 -> 4 servers in 4 racks of datacenter 1, Poisson
# arrivals) for every algorithm, workload, long-haul load and seed; writes
#   DIR/table.tsv, DIR/table.txt  per run: flows in the FCT window,
#       UNFINISHED (never dropped from the table: an unfinished flow has no
#       FCT, so its absence would flatter a slow algorithm), average and p95
#       FCT of the finished ones, their difference from PFC only at the same
#       workload and load beside the paper's; since algorithms leave
#       different flows unfinished, also the mean over ALL the window's flows
#       with an unfinished flow counted at (end of run - its start), a lower
#       bound taken the same way for every algorithm, and the fraction of the
#       window's bytes delivered; PFC pause time (sum over the
#       switch ports, and normalized by PFC only's), and the egress
#       switches' buffer occupancy (p50, p95, fraction of samples < 10 MB);
#       the packets the run dropped (0 in a lossless run); the seed;
#   DIR/summary.tsv, DIR/summary.txt  per algorithm, workload and load: the
#       mean over the seeds and [min..max] of each of those numbers (the
#       differences from PFC only taken seed by seed: every algorithm of a
#       seed runs the same flows, src/core/rng.h);
#   DIR/buffer_cdf.dat  the occupancy CDF per algorithm, workload and load,
#       the samples of all seeds pooled (Fig. 13);
#   DIR/crossdc-fct.png (gnuplot, when installed): mean FCT (avg_all) against
#       load per workload, normalized pause time, and the buffer CDF at 50% load.
#
#   --algos LIST      default: pfc lscc hpcc_star swing dcqcn timely hpcc.
#                     pfc = no CC, long-haul XON/XOFF 5 MB (§IV-C); lscc =
#                     DCQCN sources + [lscc] on the long-haul link, Qref =
#                     Q*ref = 5 MB; hpcc_star and swing run when roccsim
#                     knows them (else reported and skipped)
#   --workloads LIST  default: websearch aliwan_like (data/cdf; aliwan_like
#                     is our Ali-WAN-LIKE distribution, not Alibaba's trace:
#                     data/cdf/README.md)
#   --loads LIST      long-haul link loads in percent (default 30 50 70); each
#                     source offers 0.3125 x that of its 40 Gb/s link
#   --seeds LIST      [sim] seeds (default 1 2 3; --quick: 1); runs go to
#                     DIR/W-L-A-sSEED
#   --duration T      simulated time per run (default 2s, the length of
#                     docs/crossdc.md's tables: WebSearch ~75 min, Ali-WAN-like
#                     ~45 min for the 3 seeds on 2 cores; --quick: 10ms,
#                     websearch, load 50); FCT over the flows that arrive in
#                     [duration/5, duration - duration/5]
#   -j JOBS           parallel runs (default 2)
#   --table-only      rebuild the table and plots from the runs already in
#                     DIR (same lists), run nothing
#   --keep            skip a run whose DIR/W-L-A-sSEED/summary.json exists
#                     (resume a sweep, or add seeds to one)
# ROCCSIM (default build/roccsim); ROCCSIM_PREBUILT=1 skips the build.
# Exit status: 0 if every run ran, 1 if a run failed, 2 on bad arguments.
set -u
. "$(dirname "$0")/lib/help.bash"
script_help "$@"
cd "$(dirname "$0")/.."
algos="pfc lscc hpcc_star swing dcqcn timely hpcc" workloads="" loads="" seeds="" duration="" jobs=2 table_only=0 keep=0
rest=()
while [ $# -gt 0 ]; do
    case "$1" in
        --algos) algos=${2:?--algos needs a list}; shift 2 ;;
        --workloads) workloads=${2:?--workloads needs a list}; shift 2 ;;
        --loads) loads=${2:?--loads needs a list}; shift 2 ;;
        --seeds) seeds=${2:?--seeds needs a list}; shift 2 ;;
        --duration) duration=${2:?--duration needs a time}; shift 2 ;;
        -j) jobs=${2:?-j needs a number}; shift 2 ;;
        --table-only) table_only=1; shift ;;
        --keep) keep=1; shift ;;
        *) rest+=("$1"); shift ;;
    esac
done
case "$jobs" in ''|*[!0-9]*|0) echo "crossdc-fct.sh: -j needs a positive number" >&2; exit 2 ;; esac
. scripts/lib/expargs.bash
[ $table_only -eq 0 ] || export ROCCSIM_PREBUILT=1
exp_args crossdc-fct.sh runs/crossdc-fct ${rest[@]+"${rest[@]}"}
if [ $table_only -eq 0 ]; then
    cp "$ROCCSIM" "$out/roccsim" || exit 2     # a rebuild during the runs must not change it
    ROCCSIM=$out/roccsim
fi
if [ "$quick" -eq 1 ]; then
    : "${duration:=10ms}" "${workloads:=websearch}" "${loads:=50}" "${seeds:=1}"
else
    : "${duration:=2s}" "${workloads:=websearch aliwan_like}" "${loads:=30 50 70}" "${seeds:=1 2 3}"
fi
for l in $loads; do
    case "$l" in ''|*[!0-9.]*) echo "crossdc-fct.sh: a load is a number of percent, not '$l'" >&2; exit 2 ;; esac
done
[ -n "$seeds" ] || { echo "crossdc-fct.sh: --seeds needs at least one seed" >&2; exit 2; }
for w in $workloads; do   # a name of data/cdf (as [traffic] cdf resolves it) or a file
    [ -f "data/cdf/$w.cdf" ] || [ -f "$w" ] ||
        { echo "crossdc-fct.sh: workload '$w': no data/cdf/$w.cdf and no such file" >&2; exit 2; }
done
for s in $seeds; do
    case "$s" in ''|*[!0-9]*) echo "crossdc-fct.sh: a seed is a non-negative integer, not '$s'" >&2; exit 2 ;; esac
done
ini=experiments/crossdc/fct.ini
dur_ps=$(python3 -c "
import re,sys
m=re.fullmatch(r'([0-9.]+)(s|ms|us)', sys.argv[1])
if not m: sys.exit(1)
print(int(float(m.group(1))*{'s':10**12,'ms':10**9,'us':10**6}[m.group(2)]))" "$duration") ||
    { echo "crossdc-fct.sh: --duration needs a time like 200ms" >&2; exit 2; }
edge_us=$((dur_ps / 5 / 1000000))

# The settings of each algorithm (§IV-C): HPCC* is HPCC fed by LSCC's
# loop through direct INT (docs/crossdc.md "HPCC*"); SWING is PFC with a
# relay at each end of the long link (docs/crossdc.md "SWING").
algo_args() {
    case "$1" in
        pfc) echo "--set cc.algorithm=none --set network.longhaul_xoff=5MB" ;;
        lscc) echo "--set cc.algorithm=dcqcn --set lscc.enable=longhaul" ;;
        hpcc_star) echo "--set cc.algorithm=hpcc_star --set lscc.enable=longhaul --set lscc.local=int" ;;
        swing) echo "--set cc.algorithm=none --set topology.relays=yes --set flowcontrol.scheme=swing" ;;
        *) echo "--set cc.algorithm=$1" ;;
    esac
}
known=""
for a in $algos; do
    # shellcheck disable=SC2046
    if "$ROCCSIM" run "$ini" --check $(algo_args "$a") >/dev/null 2>"$out/check-$a.err"; then
        known="$known $a"
    else
        echo "crossdc-fct.sh: skipping '$a': $(head -1 "$out/check-$a.err")" >&2
    fi
done
[ -n "$known" ] || { echo "crossdc-fct.sh: no algorithm to run" >&2; exit 2; }

# run W L A S: one run into $out/W-L-A-sS
run() {
    local w=$1 l=$2 a=$3 s=$4 name="$1-$2-$3-s$4"
    [ $keep -eq 0 ] || [ ! -s "$out/$name/summary.json" ] || return 0
    local src
    src=$(awk -v l="$l" 'BEGIN { printf "%.4f%%", l * 0.3125 }')
    # shellcheck disable=SC2046
    "$ROCCSIM" run "$ini" -q -o "$out/$name" $(algo_args "$a") --set "traffic.bg.cdf=$w" \
        --set "traffic.bg.load=$src" --set "sim.seed=$s" --set "sim.duration=$duration" --set "sim.measure_start=${edge_us}us" \
        --set "fct.warmup=${edge_us}us" --set "fct.cooldown=${edge_us}us" >"$out/$name.log" 2>&1
    local rc=$?
    # exit 1 is an [expect] miss (the file's drops = 0): reported in the table
    [ $rc -le 1 ] || { echo "crossdc-fct.sh: $name failed (exit $rc):" >&2; cat "$out/$name.log" >&2; return 1; }
}
fail=0
t0=$(date +%s)
for s in $seeds; do
    for w in $workloads; do
        for l in $loads; do
            for a in $known; do
                [ $table_only -eq 0 ] || continue
                while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n || fail=1; done
                run "$w" "$l" "$a" "$s" &
            done
        done
    done
done
while [ "$(jobs -rp | wc -l)" -gt 0 ]; do wait -n || fail=1; done
[ $table_only -eq 1 ] || echo "crossdc-fct.sh: runs done in $(( $(date +%s) - t0 )) s" >&2

python3 - "$out" "$workloads" "$loads" "$known" "$seeds" <<'EOF'
import csv, json, os, sys
out, workloads, loads, algos, seeds = sys.argv[1], sys.argv[2].split(), sys.argv[3].split(), sys.argv[4].split(), sys.argv[5].split()
# The paper's reductions against PFC only (§IV-C, Fig. 11), over its three loads.
paper = {('lscc', 'websearch'): ('-30..-65%', '-22..-79%'), ('lscc', 'aliwan_like'): ('-31..-56%', '-43..-58%'),
         ('hpcc_star', 'websearch'): ('a bit above LSCC', ''), ('hpcc_star', 'aliwan_like'): ('a bit above LSCC', ''),
         ('dcqcn', 'websearch'): ('close to PFC or worse', ''), ('timely', 'websearch'): ('close to PFC or worse', ''),
         ('hpcc', 'websearch'): ('close to PFC or worse', ''), ('dcqcn', 'aliwan_like'): ('close to PFC or worse', ''),
         ('timely', 'aliwan_like'): ('close to PFC or worse', ''), ('hpcc', 'aliwan_like'): ('close to PFC or worse', ''),
         ('swing', 'websearch'): ('"good performance"', ''), ('swing', 'aliwan_like'): ('"good performance"', '')}
rows, occs = [], {}
for w in workloads:
  for l in loads:
    for sd in seeds:
        base = {}
        for a in algos:
            d = os.path.join(out, f'{w}-{l}-{a}-s{sd}')
            r = {'workload': w, 'load': l, 'algo': a, 'seed': sd}
            try:
                s = json.load(open(os.path.join(d, 'summary.json')))
            except OSError:
                r['error'] = 'no run'
                rows.append(r)
                continue
            t0, t1 = s['fct']['start_s'], s['fct']['end_s']
            fct, unfinished, cens, size, got = [], 0, [], 0, 0
            end = s['duration_s']
            for f in csv.DictReader(open(os.path.join(d, 'flows.csv'))):
                st = float(f['start_s'])
                if st < t0 or st > t1:
                    continue
                size += int(f['size_bytes'])
                got += min(int(f['delivered_bytes']), int(f['size_bytes']))
                if f['fct_s'] == '':
                    unfinished += 1
                    cens.append(end - st)
                else:
                    fct.append(float(f['fct_s']))
                    cens.append(float(f['fct_s']))
            fct.sort()
            r['flows'] = len(fct) + unfinished
            r['unfinished'] = unfinished
            r['avg'] = sum(fct) / len(fct) if fct else None
            r['p95'] = fct[max(0, -(-95 * len(fct) // 100) - 1)] if fct else None
            r['avg_all'] = sum(cens) / len(cens) if cens else None
            r['done'] = got / size if size else None
            r['pause'] = sum(p.get('paused_s', 0) for p in s['ports'])
            r['drops'] = s['packets']['dropped']
            # egress switches' buffer: per sample, the sum of their egress queues
            occ = []
            with open(os.path.join(d, 'queue.csv')) as q:
                rd = csv.reader(q)
                hdr = next(rd)
                cols = [i for i, h in enumerate(hdr) if h.startswith(('egress0->', 'egress1->', 'relay0->', 'relay1->'))]
                for row in rd:
                    if float(row[0]) >= t0:
                        occ.append(sum(int(row[i]) for i in cols))
            occ.sort()
            n = len(occ)
            r['buf50'] = occ[(n - 1) // 2] / 1e6 if n else None
            r['buf95'] = occ[max(0, -(-95 * n // 100) - 1)] / 1e6 if n else None
            r['below10'] = sum(1 for x in occ if x < 10e6) / n if n else None
            occs.setdefault((w, l, a), []).extend(occ)
            if a == 'pfc':
                base = r
            rows.append(r)
        for r in rows:
            if r['workload'] == w and r['load'] == l and r['seed'] == sd and 'error' not in r and base:
                for k in ('avg', 'p95', 'avg_all'):
                    b = base.get(k)
                    r[k + '_vs_pfc'] = 100 * (r[k] / b - 1) if r.get(k) is not None and b else None
                r['pause_norm'] = r['pause'] / base['pause'] if base.get('pause') else None
def f(v, fmt):
    return 'n/a' if v is None else fmt % v
cols = ['workload', 'load', 'algo', 'flows', 'unfinished', 'avg_ms', 'p95_ms', 'avg_vs_pfc', 'p95_vs_pfc',
        'paper_avg_vs_pfc', 'paper_p95_vs_pfc', 'avg_all_ms', 'avg_all_vs_pfc', 'bytes_done', 'pause_s', 'pause_norm', 'buf_p50_MB', 'buf_p95_MB', 'buf_below_10MB', 'drops', 'seed']
lines = []
for r in rows:
    if 'error' in r:
        lines.append([r['workload'], r['load'] + '%', r['algo']] + ['no run'] + [''] * (len(cols) - 5) + [r['seed']])
        continue
    pa, pp = paper.get((r['algo'], r['workload']), ('', ''))
    lines.append([r['workload'] + (' (Ali-WAN-like, ours)' if r['workload'] == 'aliwan_like' else ''), r['load'] + '%',
                  r['algo'], str(r['flows']), str(r['unfinished']),
                  f(r['avg'] and r['avg'] * 1e3, '%.3f'), f(r['p95'] and r['p95'] * 1e3, '%.3f'),
                  f(r.get('avg_vs_pfc'), '%+.1f%%'), f(r.get('p95_vs_pfc'), '%+.1f%%'), pa, pp,
                  f(r['avg_all'] and r['avg_all'] * 1e3, '%.3f'), f(r.get('avg_all_vs_pfc'), '%+.1f%%'),
                  f(r['done'] and 100 * r['done'], '%.1f%%'),
                  f(r['pause'], '%.6f'), f(r.get('pause_norm'), '%.3f'), f(r['buf50'], '%.2f'), f(r['buf95'], '%.2f'),
                  f(r['below10'] and 100 * r['below10'], '%.1f%%'), str(r['drops']), r['seed']])
def write_tables(base, cols, lines, note):
    """base.tsv (tab-separated) and base.txt (aligned columns, then the note)."""
    with open(os.path.join(out, base + '.tsv'), 'w') as t:
        t.write('\t'.join(cols) + '\n')
        for ln in lines:
            t.write('\t'.join(ln) + '\n')
    w = [max(len(c), *(len(ln[i]) for ln in lines)) for i, c in enumerate(cols)]
    with open(os.path.join(out, base + '.txt'), 'w') as t:
        t.write('  '.join(c.ljust(w[i]) for i, c in enumerate(cols)) + '\n')
        for ln in lines:
            t.write('  '.join(x.ljust(w[i]) for i, x in enumerate(ln)) + '\n')
        t.write(note)
write_tables('table', cols, lines, '\nFCT over finished flows that arrived in the FCT window; "unfinished" flows of that window have no FCT '
            'and are not in avg/p95; avg_all counts them at (end of run - start), a lower bound on their FCT, the same for every algorithm; bytes_done: delivered / size over the window\'s flows.  pause_s: PFC pause time summed over the switch ports; pause_norm: / PFC '
            'only\'s.  buf_*: sum of the egress switches\' (egress0, egress1) egress queues per sample, and of the SWING relays\' (relay0, relay1), which sit between them and the long link.\n'
            'aliwan_like is OUR Ali-WAN-like distribution (data/cdf/README.md), not Alibaba\'s trace.\n')
with open(os.path.join(out, 'buffer_cdf.dat'), 'w') as c:
    c.write('# workload load algo occupancy_MB fraction (samples of all seeds)\n')
    for (w, l, a), occ in occs.items():
        occ.sort()
        n = len(occ)
        for k in range(0, 101):
            c.write('%s %s %s %.4f %.2f\n' % (w, l, a, occ[min(n - 1, k * (n - 1) // 100)] / 1e6 if n else 0, k / 100))
# Over the seeds: mean and [min..max] of each number (a run missing or
# without the number is left out; the seeds column counts the runs used).
def agg(rs, k):
    v = [r[k] for r in rs if r.get(k) is not None]
    return (sum(v) / len(v), min(v), max(v)) if v else None
def fa(a, fmt, scale=1):
    if a is None:
        return 'n/a'
    m, lo, hi = (x * scale for x in a)
    return (fmt % m) + ((' [' + fmt % lo + '..' + fmt % hi + ']') if hi > lo else '')
scols = ['workload', 'load', 'algo', 'seeds', 'flows', 'unfinished', 'avg_vs_pfc', 'p95_vs_pfc', 'paper_avg_vs_pfc',
         'paper_p95_vs_pfc', 'avg_all_vs_pfc', 'bytes_done', 'pause_norm', 'buf_p50_MB', 'buf_p95_MB', 'buf_below_10MB', 'drops']
slines, means = [], []
for w in workloads:
    for l in loads:
        for a in algos:
            rs = [r for r in rows if (r['workload'], r['load'], r['algo']) == (w, l, a) and 'error' not in r]
            pa, pp = paper.get((a, w), ('', ''))
            slines.append([w, l + '%', a, str(len(rs)), fa(agg(rs, 'flows'), '%.0f'), fa(agg(rs, 'unfinished'), '%.0f'),
                           fa(agg(rs, 'avg_vs_pfc'), '%+.1f%%'), fa(agg(rs, 'p95_vs_pfc'), '%+.1f%%'), pa, pp,
                           fa(agg(rs, 'avg_all_vs_pfc'), '%+.1f%%'), fa(agg(rs, 'done'), '%.1f%%', 100),
                           fa(agg(rs, 'pause_norm'), '%.2f'), fa(agg(rs, 'buf50'), '%.2f'), fa(agg(rs, 'buf95'), '%.2f'),
                           fa(agg(rs, 'below10'), '%.1f%%', 100), fa(agg(rs, 'drops'), '%.0f')])
            if rs:
                means.append((w, a, l, agg(rs, 'avg'), agg(rs, 'pause_norm'), agg(rs, 'avg_all')))
write_tables('summary', scols, slines, '\nMean over the seeds, [min..max] when they differ; the differences from PFC only are taken seed by seed '
            '(every algorithm of a seed runs the same flows).  Columns as in table.txt.\n')
with open(os.path.join(out, 'fct_avg.dat'), 'w') as c:
    c.write('# workload algo load avg_ms pause_norm avg_all_ms (means over the seeds)\n')
    for w, a, l, av, pn, aa in means:
        c.write('%s %s %s %s %s %s\n' % (w, a, l, f(av and av[0] * 1e3, '%.4f'), f(pn and pn[0], '%.4f'),
                                         f(aa and aa[0] * 1e3, '%.4f')))
EOF
cat "$out/table.txt"
[ "$(echo $seeds | wc -w)" -eq 1 ] || cat "$out/summary.txt"
if command -v gnuplot >/dev/null; then
    . scripts/lib/gnuplot.bash
    gp_workdir && gp_link "$out/fct_avg.dat" fct.dat && gp_link "$out/buffer_cdf.dat" cdf.dat || exit 2
    wl=($workloads); al=($known); mid=$(echo "$loads" | awk '{ print $(int((NF + 1) / 2)) }')
    {
        echo "set terminal pngcairo size 1500,$((420 * (${#wl[@]} + 1))) font ',10'"
        echo "set output 'out.png'"
        echo "set multiplot layout $((${#wl[@]} + 1)),2"
        echo "set key outside right; set grid"
        for w in "${wl[@]}"; do
            echo "set title $(gp_quote "$w: mean FCT of all window flows (unfinished at end - start)") noenhanced; set xlabel 'long-haul load (%)'; set ylabel 'ms'"
            printf "plot "
            for a in "${al[@]}"; do
                printf "'fct.dat' using (strcol(1) eq %s && strcol(2) eq %s ? \$3 : 1/0):6 with points title %s noenhanced, " \
                    "$(gp_quote "$w")" "$(gp_quote "$a")" "$(gp_quote "$a")"
            done
            echo "1/0 notitle"
            echo "set title $(gp_quote "$w: PFC pause time / PFC only's") noenhanced; set ylabel ''"
            printf "plot "
            for a in "${al[@]}"; do
                printf "'fct.dat' using (strcol(1) eq %s && strcol(2) eq %s ? \$3 : 1/0):5 with points title %s noenhanced, " \
                    "$(gp_quote "$w")" "$(gp_quote "$a")" "$(gp_quote "$a")"
            done
            echo "1/0 notitle"
        done
        echo "set title $(gp_quote "${wl[0]}, load $mid%: egress switch buffer occupancy CDF") noenhanced"
        echo "set xlabel 'MB'; set ylabel 'CDF'; set yrange [0:1]"
        printf "plot "
        for a in "${al[@]}"; do
            printf "'cdf.dat' using (strcol(1) eq %s && strcol(2) eq %s && strcol(3) eq %s ? \$4 : 1/0):5 with lines title %s noenhanced, " \
                "$(gp_quote "${wl[0]}")" "$(gp_quote "$mid")" "$(gp_quote "$a")" "$(gp_quote "$a")"
        done
        echo "1/0 notitle"
        echo "unset multiplot"
    } | gp_run && gp_install out.png "$out/crossdc-fct.png" || echo "crossdc-fct.sh: gnuplot failed" >&2
fi
exit $fail
