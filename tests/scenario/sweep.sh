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
# Bad input (issue 11, part 7): exit 2, a message naming the option or the
# sweep file, line and key, and no output directory.
sweep_bad() {   # sweep_bad NAME 'NEEDLE|...' ARG...
    local name=$1 needles=$2 rc miss="" nd
    shift 2
    rm -rf "$tmp/badout"
    "$ROCCSIM" sweep "$@" >"$tmp/$name.log" 2>&1; rc=$?
    IFS='|' read -r -a list <<<"$needles"
    for nd in "${list[@]}"; do grep -qF -- "$nd" "$tmp/$name.log" || miss="$miss $nd"; done
    ok "$name" "[ $rc -eq 2 ] && [ -z '$miss' ] && [ ! -e $tmp/badout ]" "$tmp/$name.log"
}
good=$PWD/tests/scenario/data/good.ini
printf '[sweep]\nscenario = %s\nseeds = 1\n' "$good" > "$tmp/ok.ini"
for j in abc -5 '' 0 1025 2x; do
    sweep_bad "jobs_option_${j:-empty}" "-j '$j'|1..1024" "$tmp/ok.ini" -o "$tmp/badout" -j "$j"
done
sweep_bad jobs_option_missing "-j needs a value" "$tmp/ok.ini" -o "$tmp/badout" -j
printf '[sweep]\nscenario = %s\njobs = 2000000000\n' "$good" > "$tmp/jobs.ini"
sweep_bad jobs_key_huge "jobs.ini:3:|jobs|at most 1024" "$tmp/jobs.ini" -o "$tmp/badout"
printf '[sweep]\nscenario = %s\nseeds = 1..100000\n' "$good" > "$tmp/seeds.ini"
sweep_bad seed_range_huge "seeds.ini:3:|seeds|more than 256 seeds" "$tmp/seeds.ini" -o "$tmp/badout"
printf '[sweep]\nscenario = %s\nseeds = 5..1\n' "$good" > "$tmp/seeds2.ini"
sweep_bad seed_range_empty "seeds2.ini:3:|seeds|empty" "$tmp/seeds2.ini" -o "$tmp/badout"
# An invalid [vary] value fails before the output directory is made.
printf '[sweep]\nscenario = %s\n[vary]\nsim.duration = 1ms 5furlongs\n' "$good" > "$tmp/vary.ini"
sweep_bad vary_bad_value "vary.ini|sim.duration=5furlongs from line 4|furlongs" "$tmp/vary.ini" -o "$tmp/badout"
sweep_bad unknown_option "'--frobnicate'" "$tmp/ok.ini" -o "$tmp/badout" --frobnicate
ok help_explains_options "grep -q '^  -o DIR' $tmp/help.log && grep -q '^  -j JOBS' $tmp/help.log && grep -q '^  --collect' $tmp/help.log" "$tmp/help.log"
# --collect runs nothing and aggregates the points already there: the same
# sweep.tsv byte for byte; a point whose status file is gone is named, the
# sweep exits 1 and its combination aggregates the seeds that are left; a
# point rerun by hand (its directory and status file) counts again.
cp -r "$tmp/local" "$tmp/coll"
rm "$tmp/coll/sweep.tsv"
touch -d 2020-01-01 "$tmp/coll/p00000/summary.tsv" "$tmp/coll/p00000.status"   # a rerun would rewrite them
"$ROCCSIM" sweep experiments/sweeps/fig11-seeds.ini -o "$tmp/coll" --collect >"$tmp/coll.log" 2>&1; rc=$?
ok collect_same "[ $rc -eq 0 ] && cmp -s $tmp/local/sweep.tsv $tmp/coll/sweep.tsv && [ -z \"\$(find $tmp/coll/p00000/summary.tsv -newermt 2021-01-01)\" ] && [ \$(ls -d $tmp/coll/p0* | wc -l) -eq \$(ls -d $tmp/local/p0* | wc -l) ]" "$tmp/coll.log"
mv "$tmp/coll/p00004.status" "$tmp/p00004.status"
"$ROCCSIM" sweep experiments/sweeps/fig11-seeds.ini -o "$tmp/coll" --collect >"$tmp/coll2.log" 2>&1; rc=$?
ok collect_missing "[ $rc -eq 1 ] && grep -q 'p00004 has no status file' $tmp/coll2.log && grep -q '1 failed to run' $tmp/coll2.log && [ \$(awk -F'\t' '\$1 == 1 && \$3 == \"group.bulk.rate_mean_bps\" { print \$4 }' $tmp/coll/sweep.tsv) = 2 ]" "$tmp/coll2.log"
mv "$tmp/p00004.status" "$tmp/coll/p00004.status"
"$ROCCSIM" sweep experiments/sweeps/fig11-seeds.ini -o "$tmp/coll" --collect >"$tmp/coll3.log" 2>&1; rc=$?
ok collect_again "[ $rc -eq 0 ] && cmp -s $tmp/local/sweep.tsv $tmp/coll/sweep.tsv" "$tmp/coll3.log"
if need_cmd mpirun "the MPI sweep test did not run"; then
    OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 timeout 300 mpirun --oversubscribe -np 2 \
        "$ROCCSIM" sweep experiments/sweeps/fig11-seeds.ini -o "$tmp/mpi" -j 1 >"$tmp/mpi.log" 2>&1; rc=$?
    ok mpi_two_ranks "[ $rc -eq 0 ] && cmp -s $tmp/local/sweep.tsv $tmp/mpi/sweep.tsv" "$tmp/mpi.log"
fi
