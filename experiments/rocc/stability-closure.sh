#!/usr/bin/env bash
# Prediction (roccsim stability point) against simulation (roccsim run) for
# RoCC with fixed gains (docs/stability.md, "Closing the loop").
#
#   experiments/rocc/stability-closure.sh [-o DIR] [N:ALPHA:BETA[:auto]]...
#
# For each point: the phase margin of the paper's linear model at N (with
# ":auto", AUTO_TUNE on in both), the margin with the loop delay fitted to
# the simulator (D = 27 us instead of T = 40 us; docs/stability.md), then a
# 12 ms run of stability-closure.ini and the mean and standard deviation of
# the bottleneck queue over 6..12 ms.  Verdicts:
#   predicted  stable if the paper-model PM >= +20 deg, unstable if
#              PM <= -45 deg, else "marginal" (not a clear-cut case: the
#              paper's model puts the whole period T in the loop delay and is
#              pessimistic by about 30 deg near PM = 0, docs/stability.md);
#   simulated  "unsettled" if the queue's mean is more than 25% of Qref away
#              from Qref and its std below 25% of Qref (still converging),
#              else "converges" if the std is below 10% of Qref (15 KB), else
#              "oscillates".
# Prints one row per point; exit 1 if a clear-cut prediction disagrees with
# the simulation (an unsettled run disagrees with both), 2 on bad arguments.
set -u
cd "$(dirname "$0")/../.."
ROCCSIM=${ROCCSIM:-build/roccsim}
out=""
if [ "${1:-}" = -o ]; then out=$2; shift 2; fi
[ $# -gt 0 ] || set -- 2:0.3:1.5 10:0.0375:0.375 2:0.3:3 10:0.3:3 20:0.15:1.5 3:1.2:12 16:0.3:1.5 16:0.3:1.5:auto
dir=${out:-$(mktemp -d)}
mkdir -p "$dir"
[ -n "$out" ] || trap 'rm -rf "$dir"' EXIT
QREF=150000
printf 'N\talpha\tbeta\tautotune\tpm_deg\tpredicted\tpm_d27_deg\tqueue_mean_B\tqueue_std_B\tsimulated\tagree\n'
bad=0
for p in "$@"; do
    IFS=: read -r n a b at <<<"$p"
    case "$n" in ''|*[!0-9]*) echo "bad point '$p' (want N:ALPHA:BETA[:auto])" >&2; exit 2;; esac
    [ "$n" -ge 1 ] || { echo "bad point '$p': N >= 1" >&2; exit 2; }
    flag=""; tune=false
    if [ "${at:-}" = auto ]; then flag=--auto-tune; tune=true; fi
    pm=$("$ROCCSIM" stability point --alpha "$a" --beta "$b" --n "$n" $flag | awk -F'\t' '$1 ~ /^[0-9]/ {print $9}')
    [ -n "$pm" ] || { echo "bad point '$p'" >&2; exit 2; }
    pm27=$("$ROCCSIM" stability point --alpha "$a" --beta "$b" --n "$n" --delay 27us $flag |
        awk -F'\t' '$1 ~ /^[0-9]/ {print $9}')
    pred=$(awk -v x="$pm" 'BEGIN { print (x >= 20 ? "stable" : (x <= -45 ? "unstable" : "marginal")) }')
    run="$dir/n$n-a$a-b$b-$tune"
    "$ROCCSIM" run experiments/rocc/stability-closure.ini -o "$run" -q --set topology.senders="$n" \
        --set flows.bulk.src="h0..h$((n - 1))" --set rocc.alpha="$a" --set rocc.beta="$b" \
        --set rocc.autotune="$tune" >"$run.log" 2>&1 || { echo "run failed: $p" >&2; cat "$run.log" >&2; exit 2; }
    read -r mean sd < <(awk -F, 'NR > 1 && $1 >= 0.006 { s += $2; ss += $2 * $2; k++ }
        END { m = s / k; v = ss / k - m * m; printf "%.0f %.0f\n", m, sqrt(v > 0 ? v : 0) }' "$run/queue.csv")
    sim=$(awk -v m="$mean" -v s="$sd" -v q=$QREF 'BEGIN { d = m - q; if (d < 0) d = -d
        print (d > 0.25 * q && s < 0.25 * q ? "unsettled" : (s < 0.1 * q ? "converges" : "oscillates")) }')
    agree=-
    if [ "$pred" != marginal ]; then
        if { [ "$pred" = stable ] && [ "$sim" = converges ]; } || { [ "$pred" = unstable ] && [ "$sim" = oscillates ]; }; then
            agree=yes
        else
            agree=NO; bad=1
        fi
    fi
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$n" "$a" "$b" "$tune" "$pm" "$pred" "$pm27" "$mean" "$sd" "$sim" \
        "$agree"
done
exit $bad
