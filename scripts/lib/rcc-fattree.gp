# scripts/lib/rcc-fattree.gp -- RCC Figs. 9-11's form, one column per
# workload: average FCT against load, one line per algorithm (Fig. 9); the
# average and the p99 FCT by flow size at the breakdown load (Figs. 10-11).
# scripts/rcc-fattree.sh runs it in its gnuplot scratch directory
# (scripts/lib/gnuplot.bash) after defining cols (the algorithm names) and
# wls (the workloads); avg.dat and bins.dat are the tables' data files.
set terminal pngcairo size 1500,1000 font ",9"
set output "fct.png"
nw = words(wls)
na = words(cols)
set multiplot layout 3, nw
set key top left font ",8"
set datafile missing "NaN"
do for [i = 1:nw] {
    w = word(wls, i)
    set title w . ": average FCT"
    set xlabel "load (%)"
    set ylabel "average FCT (us)"
    unset logscale y
    set offsets 5, 5, 0, 0
    plot for [j = 1:na] "< tr -d '%' < avg.dat" using (strcol(1) eq w ? $2 : NaN):(column(j + 2)) \
         with linespoints title word(cols, j)
}
set offsets 0.5, 0.5, 0, 0
set logscale y
set xlabel "flow size"
do for [s = 0:1] {
    do for [i = 1:nw] {
        w = word(wls, i)
        set title w . (s == 0 ? ": average FCT by size" : ": p99 FCT by size")
        set ylabel (s == 0 ? "average FCT (us)" : "p99 FCT (us)")
        plot for [j = 1:na] "bins.dat" using (strcol(1) eq w ? $3 : NaN):(column(3 + s * na + j)):xtic(2) \
             with linespoints title word(cols, j)
    }
}
unset multiplot
