#!/usr/bin/env bash
# roccsim sweep (issue 4): a 3 x 3 matrix run locally aggregates mean and
# 95% CI over seeds; under mpirun with 2 ranks it produces the identical
# sweep.tsv (Open MPI from Debian splits the points over the ranks).
set -u
cd "$(dirname "$0")/../.."
. tests/scenario/common.bash
"$ROCCSIM" sweep --help >"$tmp/help.log" 2>&1; rc=$?
ok help_exit_0 "[ $rc -eq 0 ] && grep -q '^usage: roccsim sweep' $tmp/help.log" "$tmp/help.log"
"$ROCCSIM" sweep experiments/sweeps/fig11-seeds.ini -o "$tmp/local" -j 2 >"$tmp/local.log" 2>&1; rc=$?
ok local_runs "[ $rc -eq 0 ] && grep -q '9 points (3 combinations x 3 seeds), 0 failed to run' $tmp/local.log" "$tmp/local.log"
# sweep.tsv columns: combination, cc.algorithm, metric, n, mean, ci95, min, max
ok aggregates_three_seeds "[ \$(awk -F'\t' '\$3 == \"group.bulk.rate_mean_bps\" && \$4 == 3' $tmp/local/sweep.tsv | wc -l) -eq 3 ]" "$tmp/local/sweep.tsv"
ok ci_is_finite "awk -F'\t' 'NR > 1 && \$3 == \"port.sw->r0.queue_mean_bytes\" && \$6 !~ /nan/ && \$6 > 0 { n++ } END { exit n != 3 }' $tmp/local/sweep.tsv" "$tmp/local/sweep.tsv"
ok points_listed "[ \$(wc -l < $tmp/local/points.tsv) -eq 10 ]"
printf '[sweep]\nscenario = nosuch.ini\n' > "$tmp/bad.ini"
"$ROCCSIM" sweep "$tmp/bad.ini" -o "$tmp/bad" >"$tmp/bad.log" 2>&1; rc=$?
ok bad_scenario "[ $rc -eq 2 ] && grep -q 'bad.ini:2: \[sweep\] scenario' $tmp/bad.log" "$tmp/bad.log"
if need_cmd mpirun "the MPI sweep test did not run"; then
    OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 timeout 300 mpirun --oversubscribe -np 2 \
        "$ROCCSIM" sweep experiments/sweeps/fig11-seeds.ini -o "$tmp/mpi" -j 1 >"$tmp/mpi.log" 2>&1; rc=$?
    ok mpi_two_ranks "[ $rc -eq 0 ] && cmp -s $tmp/local/sweep.tsv $tmp/mpi/sweep.tsv" "$tmp/mpi.log"
fi
