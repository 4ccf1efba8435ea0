#!/usr/bin/env bash
# scripts/parallel-identity.sh [-n RANKS] [-d DURATION] [SCENARIO.ini ...]
# The determinism guarantee of a partitioned run (docs/parallel.md), checked
# on the shipped experiments: every scenario (default: experiments/*/*.ini
# and experiments/*/*/*.ini, sweep files aside) that a run over RANKS
# (default 2) MPI ranks accepts is run once plainly and once under
# `mpirun -np RANKS`, both shortened to DURATION (default 2ms, measured whole,
# FCT warm-up and cool-down off) and without its [expect]
# section (whose time windows may lie beyond the shortened run) or the
# [events] entries after DURATION (which it would not reach), with every
# [attack.NAME] window moved into it (a start after DURATION/2 becomes
# DURATION/2, a stop after DURATION becomes DURATION: the attack still
# runs), and every output file is compared byte for byte.  One line per scenario:
#   SAME     experiments/compare/asymmetric-hpcc.ini
#   DIFF     X.ini: flows.csv summary.json       (files that differ)
#   REFUSED  X.ini: why a partitioned run refuses it (docs/parallel.md)
#   FAILED   X.ini: the plain run's error
# then a count of each.  Exit status 1 if any scenario differs or failed, 2
# on bad usage or without mpirun / an MPI build.
set -u
. "$(dirname "$0")/lib/help.bash"
script_help "$@"
ranks=2; dur=2ms
while [ $# -gt 0 ]; do
    case $1 in
        -n) ranks=${2:?-n needs a rank count}; shift 2 ;;
        -d) dur=${2:?-d needs a duration}; shift 2 ;;
        -*) echo "parallel-identity.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
        *) break ;;
    esac
done
case $ranks in ''|*[!0-9]*|0|1) echo "parallel-identity.sh: -n: expected a rank count of at least 2, got '$ranks'" >&2; exit 2 ;; esac
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
ROCCSIM=${ROCCSIM:-$root/build/roccsim}
[ -x "$ROCCSIM" ] || { echo "parallel-identity.sh: $ROCCSIM not built (make)" >&2; exit 2; }
command -v mpirun >/dev/null || { echo "parallel-identity.sh: mpirun not found (apt-get install openmpi-bin)" >&2; exit 2; }
MPIRUN=(mpirun --oversubscribe)
[ "$(id -u)" = 0 ] && MPIRUN+=(--allow-run-as-root)
files=("$@")
[ ${#files[@]} -gt 0 ] || files=(experiments/*/*.ini experiments/*/*/*.ini)
[[ $dur =~ ^[0-9]+(\.[0-9]+)?(ps|ns|us|ms|s)$ ]] || { echo "parallel-identity.sh: -d: '$dur' is not a time (e.g. 2ms)" >&2; exit 2; }
tmp=$(mktemp -d)
copy=""
trap 'rm -rf "$tmp"; [ -n "$copy" ] && rm -f "$copy"' EXIT
same=0 diff=0 refused=0 failed=0
for ini in "${files[@]}"; do
    case $ini in *.sweep.ini) continue ;; esac
    [ -f "$ini" ] || { echo "FAILED   $ini: no such file"; failed=$((failed + 1)); continue; }
    if ! "$ROCCSIM" run "$ini" --check --ranks "$ranks" >"$tmp/check" 2>&1; then
        echo "REFUSED  $ini: $(grep -m1 -o 'cannot run over.*\|but the topology has only.*\|: \[.*' "$tmp/check" | cut -c1-110)"
        refused=$((refused + 1))
        continue
    fi
    # The copy sits beside the file: its topology and CDF paths are relative.
    copy="$(dirname "$ini")/.parallel-identity-$$.ini"
    # Without [expect], and without the [events] entries after DURATION
    # (the shortened run would never reach them; a time beyond the run is
    # an error of the file).
    awk -v dur="$dur" '
        function ps(t,   v, u) {
            v = t; sub(/[a-z]+$/, "", v); u = t; sub(/^[0-9.]+/, "", u)
            return v * (u == "s" ? 1e12 : u == "ms" ? 1e9 : u == "us" ? 1e6 : u == "ns" ? 1e3 : 1)
        }
        /^\[/ { skip = ($0 ~ /^\[expect\]/); ev = ($0 ~ /^\[events\]/); at = ($0 ~ /^\[attack\./) }
        ev && /=/ { split($0, kv, "="); split(kv[2], w, " "); if (w[1] ~ /^[0-9.]+(ps|ns|us|ms|s)$/ && ps(w[1]) > ps(dur)) next }
        at && /^[ \t]*(start|stop)[ \t]*=/ {
            split($0, kv, "="); k = kv[1]; gsub(/[ \t]/, "", k); t = kv[2]; gsub(/[ \t]/, "", t)
            if (t ~ /^[0-9.]+(ps|ns|us|ms|s)$/) {
                lim = (k == "start") ? ps(dur) / 2 : ps(dur)
                if (ps(t) > lim) { printf "%s = %.0fps\n", k, lim; next }
            }
        }
        !skip' "$ini" >"$copy"
    set_args=(--set "sim.duration=$dur" --set "sim.measure_start=0s" --set "sim.measure_end=$dur")
    grep -q '^\[fct\]' "$copy" && set_args+=(--set fct.warmup=0s --set fct.cooldown=0s)
    rm -rf "$tmp/seq" "$tmp/par"
    "$ROCCSIM" run "$copy" -q -o "$tmp/seq" "${set_args[@]}" >"$tmp/seq.log" 2>&1
    rc=$?
    "${MPIRUN[@]}" -np "$ranks" "$ROCCSIM" run "$copy" -q -o "$tmp/par" "${set_args[@]}" >"$tmp/par.log" 2>&1
    rm -f "$copy"; copy=""
    if [ $rc -ne 0 ] || [ ! -s "$tmp/seq/summary.json" ]; then
        echo "FAILED   $ini: $(head -c 200 "$tmp/seq.log" | tr '\n' ' ')"
        failed=$((failed + 1))
        continue
    fi
    # Every file of either run, subdirectories (pcap/) included, by its
    # path under the output directory: a file only one run wrote differs.
    differ=$(cd "$tmp" && { (cd seq && find . -type f); (cd par 2>/dev/null && find . -type f); } |
        sed 's|^\./||' | sort -u | while read -r f; do
            cmp -s "seq/$f" "par/$f" 2>/dev/null || printf ' %s' "$f"
        done)
    if [ -z "$differ" ]; then
        echo "SAME     $ini"; same=$((same + 1))
    else
        echo "DIFF     $ini:$differ"; diff=$((diff + 1))
    fi
done
echo "$same same, $diff differ, $refused refused, $failed failed (1 vs $ranks ranks, $dur)"
[ $diff -eq 0 ] && [ $failed -eq 0 ]
