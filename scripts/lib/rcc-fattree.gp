# scripts/lib/rcc-fattree.gp -- Fig. 9's form: average FCT against load, one
# line per algorithm, one panel per workload.  gnuplot -e "dat='D'; png='P'".
# D: "workload load fct_us..." rows written by rcc-fattree-table.awk, the
# algorithm names in D.cols.
cols = system("cut -d' ' -f4- '" . dat . ".cols'")
wls = system("cut -d' ' -f1 '" . dat . "' | uniq | tr '\\n' ' '")
set terminal pngcairo size 1200,400 font ",10"
set output png
nw = words(wls)
set multiplot layout 1, nw
set ylabel "average FCT (us)"
set xlabel "load (%)"
set key top left
do for [i = 1:nw] {
    w = word(wls, i)
    set title w
    plot for [j = 1:words(cols)] "< grep '^" . w . " ' '" . dat . "' | tr -d '%'" using 2:(column(j + 2)) \
         with linespoints title word(cols, j)
}
unset multiplot
