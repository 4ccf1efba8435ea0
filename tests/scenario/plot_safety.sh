#!/usr/bin/env bash
# Plotting never runs a shell (issue 11, part 0): every plotting entry point
# (roccsim plot, scripts/plot.sh, scripts/compare.sh, scripts/demo.sh) is
# given run directories, scenario names and port names built to run
# `touch PWNED` if they reached gnuplot's command language (a quote then a
# backquote, a `;` or `$()` for a '< grep' data source) or to break its
# syntax (spaces, a newline, a double quote).  Each must draw its figure and
# no file named PWNED may appear anywhere.  compare.sh and demo.sh build
# build/roccsim, so they run in the normal build only (as newcomer.sh).
set -u
cd "$(dirname "$0")/../.."
. tests/scenario/common.bash
need_cmd gnuplot "the plotting safety tests did not run" || exit 0
repo=$PWD
# pwned: did a command run?  (It would run in gnuplot's directory, the
# caller's, or the repository, where compare.sh and demo.sh cd.)  Removes
# the marker, so that each case is judged on its own.
pwned() {
    local found
    found=$( { find "$tmp" -name PWNED; [ -e "$repo/PWNED" ] && echo "$repo/PWNED"; } 2>/dev/null)
    [ -n "$found" ] || return 1
    printf '%s\n' "$found" | while IFS= read -r f; do rm -f -- "$f"; done
    return 0
}
mkdir -p "$tmp/cwd" "$tmp/scratch"
export TMPDIR="$tmp/scratch"
"$ROCCSIM" run tests/scenario/data/plot-small.ini -q -o "$tmp/base" >"$tmp/base.log" 2>&1
ok base_run "[ -s $tmp/base/summary.tsv ] && grep -q '^all' $tmp/base/fct.tsv" "$tmp/base.log"
# The hostile names, one attack each (kept apart so that one cannot hide
# another behind a syntax error).
names=("q'\`touch PWNED\`'" "s;touch PWNED;" "d\$(touch PWNED)" "sp ace"$'\n'"nl\"dq\\bs")
i=0
for h in "${names[@]}"; do
    i=$((i + 1))
    d="$tmp/h$i/$h"
    mkdir -p "$d"
    cp -r "$tmp/base" "$d/run"
    # A hand-made run may name its ports anything: the busiest port gets the
    # hostile name too (summary.tsv picks it, queue.csv and fair_rate.csv
    # head its column).
    port="sw->r0"
    hp="sw'\`touch PWNED\`'x$i"
    for f in summary.tsv queue.csv fair_rate.csv; do
        P="$port" H="$hp" awk '{ gsub(ENVIRON["P"], ENVIRON["H"]); print }' "$d/run/$f" >"$d/run/$f.new" &&
            mv "$d/run/$f.new" "$d/run/$f"
    done
    (cd "$tmp/cwd" && "$repo/$ROCCSIM" plot -o "$d/fig" "$d/run" "$tmp/base") >"$tmp/plot$i.log" 2>&1; rc=$?
    ok "roccsim_plot_$i" "[ $rc -eq 0 ] && [ -s \"\$d/fig.png\" ] && [ -s \"\$d/fig.svg\" ] && ! pwned" "$tmp/plot$i.log"
    (cd "$tmp/cwd" && bash "$repo/scripts/plot.sh" "$d/run") >"$tmp/plotsh$i.log" 2>&1; rc=$?
    ok "plot_sh_$i" "[ $rc -eq 0 ] && [ -s \"\$d/run/plot.png\" ] && [ -s \"\$d/run/plot.svg\" ] && ! pwned" "$tmp/plotsh$i.log"
done
# roccsim plot -o with a hostile name: drawn under exactly that name.
(cd "$tmp/cwd" && "$repo/$ROCCSIM" plot -o "q'\`touch PWNED\`'" "$tmp/base") >"$tmp/oname.log" 2>&1; rc=$?
ok roccsim_plot_output_name "[ $rc -eq 0 ] && [ -s \"\$tmp/cwd/q'\\\`touch PWNED\\\`'.png\" ] && ! pwned" "$tmp/oname.log"
# roccsim plot and plot.sh leave no scratch directory behind.
ok no_scratch_left "[ -z \"\$(ls -A $tmp/scratch)\" ]"
case "${BUILD:-build}" in build) ;; *) exit 0 ;; esac
# scripts/compare.sh: a scenario file and an output directory with hostile names.
mkdir -p "$tmp/c1"
cp tests/scenario/data/good.ini "$tmp/c1/x'\`touch PWNED\`';touch PWNED;.ini"
bash scripts/compare.sh -o "$tmp/c1/out'\`touch PWNED\`'" "$tmp/c1/x'\`touch PWNED\`';touch PWNED;.ini" >"$tmp/compare.log" 2>&1; rc=$?
ok compare_sh "[ $rc -eq 0 ] && [ -s \"\$tmp/c1/out'\\\`touch PWNED\\\`'/compare.png\" ] && ! pwned" "$tmp/compare.log"
# scripts/demo.sh: the same scenario and a hostile RUNS_DIR (its install step
# finds everything installed: a dpkg that says so).
mkdir -p "$tmp/bin"
printf '#!/bin/sh\nexit 0\n' >"$tmp/bin/dpkg"
chmod +x "$tmp/bin/dpkg"
PATH="$tmp/bin:$PATH" RUNS_DIR="$tmp/c1/runs'\`touch PWNED\`'" bash scripts/demo.sh "$tmp/c1/x'\`touch PWNED\`';touch PWNED;.ini" >"$tmp/demo.log" 2>&1; rc=$?
ok demo_sh "[ $rc -eq 0 ] && [ -s \"\$tmp/c1/runs'\\\`touch PWNED\\\`'/x'\\\`touch PWNED\\\`';touch PWNED;/plot.png\" ] && ! pwned" "$tmp/demo.log"
