#!/usr/bin/env bash
# scripts/reproduce.sh [EXPERIMENT_DIR | COMPARISON ...] -- run every
# experiment (default: experiments/rocc and the full-length Escape runs
# experiments/escape/full) with its [expect] checks, write each run to
# runs/<name>/ with a plot, and end with a table of checks passed/failed.
# A COMPARISON argument runs that paper-vs-ours script at full length into
# runs/<script>/ (its tables there) and lists its exit status in the table:
#   escape-compare   scripts/escape-compare.sh (Escape vs other schemes)
#   openqueue-exp    scripts/openqueue-exp.sh (OpenQueue experiments)
#   s63              scripts/s63.sh (RoCC §6.3)
#   rcc-exp          scripts/rcc-exp.sh (RCC Figs. 5-8, §V-E)
#   crossdc-fct      scripts/crossdc-fct.sh (LSCC Figs. 10-13: 7 schemes x 2
#                    workloads x 3 loads x 3 seeds of 2 s, about 2 h on 2 cores)
#   rcc-fattree      scripts/rcc-fattree.sh (RCC Figs. 9-11: 6 transports x
#                    4 workloads x 3 loads x 3 seeds of 50 ms on the 320-host
#                    fat-tree: a cluster job; its --launch/--prepare run the
#                    same sweeps under MPI or Slurm, docs/rcc.md)
# Exit status 1 if any check failed or a comparison exited non-zero.
set -u
. "$(dirname "$0")/lib/help.bash"
script_help "$@"
cd "$(dirname "$0")/.."
make -s -j"$(nproc 2>/dev/null || echo 2)" build/roccsim || exit 2
dirs=("$@"); [ ${#dirs[@]} -gt 0 ] || dirs=(experiments/rocc experiments/escape/full)
fail=0; summary=""
for d in "${dirs[@]}"; do
    case $d in
        escape-compare|openqueue-exp|s63|rcc-exp|rcc-fattree|crossdc-fct)
            echo "== scripts/$d.sh"
            ROCCSIM_PREBUILT=1 bash "scripts/$d.sh" -o "runs/$d"; rc=$?
            [ $rc -eq 0 ] || fail=1
            summary="$summary$(printf '%-28s see runs/%s  exit %d' "$d" "$d" "$rc")\n"
            continue ;;
    esac
    for ini in "$d"/*.ini; do
        name=$(basename "$ini" .ini)
        echo "== $ini"
        out=$(./build/roccsim run "$ini" -q -o "runs/$name" 2>&1); rc=$?
        echo "$out"
        command -v gnuplot >/dev/null && scripts/plot.sh "runs/$name" >/dev/null 2>&1
        p=$(grep -c '^PASS' <<<"$out"); f=$(grep -c '^FAIL' <<<"$out")
        [ $rc -eq 0 ] || fail=1
        summary="$summary$(printf '%-28s %3d passed %3d failed  exit %d' "$name" "$p" "$f" "$rc")\n"
    done
done
printf '\n%b' "$summary"
exit $fail
