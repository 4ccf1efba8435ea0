#!/usr/bin/env bash
# scripts/demo.sh [SCENARIO.ini] -- the main job for a newcomer: install what
# is missing (Debian 12: gcc, make, gnuplot), build, run a default experiment
# (RoCC Fig. 9: convergence as flows double every 10 ms), print the results
# and plot them to runs/<name>/plot.png (RUNS_DIR=DIR: DIR/<name>/ instead).
set -eu
. "$(dirname "$0")/lib/help.bash"
script_help "$@"
cd "$(dirname "$0")/.."
scenario=${1:-experiments/rocc/convergence.ini}
. scripts/lib/deps.bash
install_missing gcc make libc6-dev gnuplot-nox || { echo "demo.sh: installing gcc, make, gnuplot-nox failed" >&2; exit 2; }
make -s -j"$(nproc 2>/dev/null || echo 2)" build/roccsim
name=$(basename "$scenario" .ini)
rc=0
runs=${RUNS_DIR:-runs}
./build/roccsim run "$scenario" -o "$runs/$name" || rc=$?
scripts/plot.sh "$runs/$name"
exit $rc
