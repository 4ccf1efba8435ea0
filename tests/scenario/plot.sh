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
# -o to a name that cannot be written: exit 2 naming -o, and no file left
# behind (it used to exit 3, "internal error", leaving PREFIX.png or a stray
# file cut at a quote).
"$ROCCSIM" run tests/scenario/data/plot-small.ini -q -o "$tmp/small" >/dev/null 2>&1
: >"$tmp/afile"
mkdir -p "$tmp/o1" "$tmp/o2/fig.svg"
"$ROCCSIM" plot -o "$tmp/afile/fig" "$tmp/small" >"$tmp/o0.log" 2>&1; rc=$?
ok output_under_a_file "[ $rc -eq 2 ] && grep -q -- '-o $tmp/afile/fig' $tmp/o0.log && [ ! -e $tmp/afile/fig.png ]" "$tmp/o0.log"
"$ROCCSIM" plot -o "$tmp/o1/" "$tmp/small" >"$tmp/o1.log" 2>&1; rc=$?
ok output_is_a_directory "[ $rc -eq 2 ] && grep -q 'give a file prefix' $tmp/o1.log && [ -z \"\$(ls -A $tmp/o1)\" ]" "$tmp/o1.log"
"$ROCCSIM" plot -o "$tmp/o2/fig" "$tmp/small" >"$tmp/o2.log" 2>&1; rc=$?
ok output_svg_not_a_file "[ $rc -eq 2 ] && grep -q 'fig.svg exists and is not a regular file' $tmp/o2.log && [ \"\$(ls -A $tmp/o2)\" = fig.svg ]" "$tmp/o2.log"
"$ROCCSIM" plot -o "$tmp/o3/a'b" "$tmp/small" >"$tmp/o3.log" 2>&1; rc=$?
ok output_with_quote "[ $rc -eq 0 ] && [ \"\$(ls $tmp/o3 | tr '\\n' ' ')\" = \"a'b.png a'b.svg \" ]" "$tmp/o3.log"
ok help_explains_options "grep -q '^  -o PREFIX' $tmp/help.log" "$tmp/help.log"
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
