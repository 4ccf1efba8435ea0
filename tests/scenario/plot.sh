#!/usr/bin/env bash
# roccsim plot (issue 4): two runs of generated traffic into one figure
# (PNG and SVG, non-empty, the SVG names both runs); bad input exits 2.
set -u
cd "$(dirname "$0")/../.."
. tests/scenario/common.bash
"$ROCCSIM" plot >"$tmp/noarg.log" 2>&1; rc=$?
ok no_args_exit_2 "[ $rc -eq 2 ]" "$tmp/noarg.log"
"$ROCCSIM" plot --help >"$tmp/help.log" 2>&1; rc=$?
ok help_exit_0 "[ $rc -eq 0 ] && grep -q '^usage: roccsim plot' $tmp/help.log" "$tmp/help.log"
"$ROCCSIM" plot --frobnicate >"$tmp/badopt.log" 2>&1; rc=$?
ok unknown_option_exit_2 "[ $rc -eq 2 ] && grep -q 'frobnicate' $tmp/badopt.log" "$tmp/badopt.log"
mkdir -p "$tmp/empty"
"$ROCCSIM" plot "$tmp/empty" >"$tmp/empty.log" 2>&1; rc=$?
ok not_a_run_dir "[ $rc -eq 2 ] && grep -q 'not a roccsim run directory' $tmp/empty.log" "$tmp/empty.log"
need_cmd gnuplot "the plot rendering tests did not run" || exit 0
for a in rocc dcqcn; do
    "$ROCCSIM" run tests/scenario/data/traffic-rocc-fattree.ini -q -o "$tmp/$a" --set cc.algorithm=$a >/dev/null 2>&1
done
"$ROCCSIM" plot -o "$tmp/fig" "$tmp/rocc" "$tmp/dcqcn" >"$tmp/plot.log" 2>&1; rc=$?
ok renders "[ $rc -eq 0 ] && [ -s $tmp/fig.png ] && [ -s $tmp/fig.svg ]" "$tmp/plot.log"
ok png_signature "head -c 8 $tmp/fig.png | od -An -tx1 | tr -d ' \n' | grep -q 89504e470d0a1a0a"
ok svg_names_runs "grep -q '>rocc<' $tmp/fig.svg && grep -q '>dcqcn<' $tmp/fig.svg" 
# A run whose flows never finish has a header-only fct.tsv: plot draws the
# other panels (and no FCT panel) instead of failing in gnuplot.
"$ROCCSIM" run tests/scenario/data/good.ini -q -o "$tmp/endless" >/dev/null 2>&1
"$ROCCSIM" plot -o "$tmp/endless-fig" "$tmp/endless" >"$tmp/endless.log" 2>&1; rc=$?
ok no_finished_flows "[ $rc -eq 0 ] && [ -s $tmp/endless-fig.png ] && [ -s $tmp/endless-fig.svg ] \
    && [ \$(grep -c '^all' $tmp/endless/fct.tsv) -eq 0 ] && ! grep -q 'FCT slowdown' $tmp/endless-fig.svg" "$tmp/endless.log"
