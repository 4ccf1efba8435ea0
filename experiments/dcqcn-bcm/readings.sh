#!/usr/bin/env bash
# experiments/dcqcn-bcm/readings.sh -- the Broadcom note's open points, one
# reading at a time, on the N = 100 Fig. 8 run (experiments/compare/
# bcm-n100-{p,d}.ini, measured over 40-60 ms) and the 100:1 PFC incast
# (bcm-incast100-{p,d}.ini).  Prints one row per (scenario, algorithm,
# reading): utilization, queue mean / p99 / max of sw->r0 in the window,
# CNPs and PFC XOFF frames over the whole run, Jain of the flows' rates.
# docs/baselines.md quotes this table.  About 50 runs of ~0.5 s each.
# Usage: experiments/dcqcn-bcm/readings.sh [OUT_DIR]
#   ROCCSIM (default build/roccsim) picks the binary.
case "${1:-}" in -h|--help) sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;; esac
set -u
cd "$(dirname "$0")/../.."
ROCCSIM=${ROCCSIM:-build/roccsim}
out=${1:-runs/dcqcn-bcm-readings}
mkdir -p "$out"
get() { awk -F'\t' -v k="$2" '$1 == k { print $2 }' "$1/summary.tsv"; }
cnps() { grep -o '"cnp": {"created": [0-9]*' "$1/summary.json" | grep -o '[0-9]*$'; }
row() {   # scenario label overrides...
    local ini=$1 label=$2; shift 2
    local d="$out/$(basename "$ini" .ini)-$label"
    if ! "$ROCCSIM" run "$ini" -q -o "$d" "$@" >"$d.log" 2>&1 && [ ! -s "$d/summary.tsv" ]; then
        echo "$(basename "$ini" .ini) $label: run failed (see $d.log)"; return
    fi
    printf '%-20s %-22s util %5.1f%%  q mean %7.1f KB  p99 %7.1f KB  max %7.1f KB  CNPs %7s  XOFF %5s  Jain %s\n' \
        "$(basename "$ini" .ini)" "$label" \
        "$(awk -v v="$(get "$d" 'port.sw->r0.utilization')" 'BEGIN { print v * 100 }')" \
        "$(awk -v v="$(get "$d" 'port.sw->r0.queue_mean_bytes')" 'BEGIN { print v / 1000 }')" \
        "$(awk -v v="$(get "$d" 'port.sw->r0.queue_p99_bytes')" 'BEGIN { print v / 1000 }')" \
        "$(awk -v v="$(get "$d" 'port.sw->r0.queue_max_bytes')" 'BEGIN { print v / 1000 }')" \
        "$(cnps "$d")" "$(get "$d" pfc_pauses)" "$(awk -F'\t' '$1 ~ /^group\..*\.jain$/ { print $2; exit }' "$d/summary.tsv")"
}
E=experiments/compare
row $E/bcm-n100-dcqcn.ini default
for m in p d; do
    ini=$E/bcm-n100-$m.ini
    row "$ini" default
    row "$ini" jitter-0 --set dcqcn_bcm.jitter=0%
    row "$ini" jitter-50pct --set dcqcn_bcm.jitter=50%
    row "$ini" g-0.0625 --set dcqcn_bcm.g=0.0625
    row "$ini" g-0.015625 --set dcqcn_bcm.g=0.015625
    row "$ini" cp_init-0 --set dcqcn_bcm.cp_init=0
    row "$ini" no-doubling --set dcqcn_bcm.r_inc_max=40Mbps
    row "$ini" doubling-to-line --set dcqcn_bcm.r_inc_max=40Gbps
    row "$ini" r_ai-4Mbps --set dcqcn_bcm.r_ai=4Mbps
    row "$ini" no-incast-pacing --set dcqcn_bcm.pace_max=1
    row "$ini" pacing-never-ends --set dcqcn_bcm.incast_window=1s
    row "$ini" pace-max-64 --set dcqcn_bcm.pace_max=64
    row "$ini" silent-hold --set dcqcn_bcm.silent_period=hold
    row "$ini" cnp-interval-50us --set dcqcn_bcm.cnp_interval=50us
done
row $E/bcm-n100-p.ini mark-5K-200K-1pct --set ecn.kmin=5KB --set ecn.kmax=200KB --set ecn.pmax=0.01
row $E/bcm-n100-p.ini mark-pmax-1 --set ecn.pmax=1 --set ecn.kmin=160KB --set ecn.kmax=640KB
row $E/bcm-n100-d.ini mark-K-30KB --set ecn.kmin=30KB --set ecn.kmax=30KB
row $E/bcm-n100-d.ini mark-K-400KB --set ecn.kmin=400KB --set ecn.kmax=400KB
# The four DCQCN ingredients together (bcm-n100-p-percnp.ini), and each one left out.
P="--set dcqcn_bcm.decrease=first_cnp --set dcqcn_bcm.cnp_interval=50us --set dcqcn_bcm.r_inc_max=40Mbps"
M="--set ecn.kmin=5KB --set ecn.kmax=200KB --set ecn.pmax=0.01"
row $E/bcm-n100-p.ini all-four $P $M
row $E/bcm-n100-p.ini four-but-period --set dcqcn_bcm.cnp_interval=50us --set dcqcn_bcm.r_inc_max=40Mbps $M
row $E/bcm-n100-p.ini four-but-interval --set dcqcn_bcm.decrease=first_cnp --set dcqcn_bcm.r_inc_max=40Mbps $M
row $E/bcm-n100-p.ini four-but-doubling --set dcqcn_bcm.decrease=first_cnp --set dcqcn_bcm.cnp_interval=50us $M
row $E/bcm-n100-p.ini four-but-marking $P
row $E/bcm-n100-d.ini all-four $P $M
for m in dcqcn p d; do row $E/bcm-incast100-$m.ini default; done
for m in p d; do
    row $E/bcm-incast100-$m.ini silent-hold --set dcqcn_bcm.silent_period=hold
    row $E/bcm-incast100-$m.ini no-incast-pacing --set dcqcn_bcm.pace_max=1
done
for m in p d; do row $E/bcm-n10-$m.ini default; done
