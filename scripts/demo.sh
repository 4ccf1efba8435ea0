#!/usr/bin/env bash
# scripts/demo.sh [SCENARIO.ini] -- the main job for a newcomer: install what
# is missing (Debian 12: gcc, make, gnuplot), build, run a default experiment
# (RoCC Fig. 9: convergence as flows double every 10 ms), print the results
# and plot them to runs/<name>/plot.png.
set -eu
cd "$(dirname "$0")/.."
scenario=${1:-experiments/rocc/convergence.ini}
need=""
for p in gcc make libc6-dev gnuplot-nox; do
    dpkg -s "$p" >/dev/null 2>&1 || need="$need $p"
done
if [ -n "$need" ]; then
    echo "installing:$need"
    if [ "$(id -u)" -eq 0 ]; then SUDO=""; else SUDO="sudo"; fi
    $SUDO apt-get update -qq && $SUDO DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $need >/dev/null
fi
make -s -j"$(nproc 2>/dev/null || echo 2)" build/roccsim
name=$(basename "$scenario" .ini)
rc=0
./build/roccsim run "$scenario" -o "runs/$name" || rc=$?
scripts/plot.sh "runs/$name"
exit $rc
