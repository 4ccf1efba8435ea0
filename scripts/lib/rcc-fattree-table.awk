#!/usr/bin/awk -f
# scripts/lib/rcc-fattree-table.awk WORKLOAD/sweep.tsv... -- the tables of
# scripts/rcc-fattree.sh: RCC §V-D paper versus measured.  Each file is one
# workload's sweep (the directory names the workload) with cc.algorithm and
# traffic.bg.load varied; cells are "mean±ci95" over the seeds (ci omitted
# with one seed).  Paper values are quoted from the RCC paper's §V-D text:
# RCC's reduction of the overall average FCT "up to" X% against each scheme;
# ours is the largest reduction over the loads run, and a negative one means
# RCC was slower.  Unfinished flows are counted beside every average: FCT
# statistics cover finished flows only.
BEGIN {
    FS = "\t"
    paper["websearch", "hpcc"] = 9;  paper["websearch", "homa"] = 11; paper["websearch", "expresspass"] = 11
    paper["websearch", "dcqcn"] = 30; paper["websearch", "timely"] = 45
    paper["vl2_datamining", "hpcc"] = 7; paper["vl2_datamining", "homa"] = 4
    paper["vl2_datamining", "expresspass"] = 15; paper["vl2_datamining", "dcqcn"] = 18
    paper["vl2_datamining", "timely"] = 19
    ptxt["webserver", "hpcc"] = "5-11"; ptxt["cachefollower", "hpcc"] = "~14"
    if (dat != "") printf "" > dat
}
FNR == 1 {
    w = FILENAME; sub(/\/sweep\.tsv$/, "", w); sub(/.*\//, "", w)
    nw++; wl[nw] = w
    for (i = 1; i <= NF; i++) { if ($i == "cc.algorithm") acol = i; if ($i == "traffic.bg.load") lcol = i; if ($i == "metric") mcol = i }
    next
}
{
    a = $(acol); l = $(lcol); m = $(mcol)
    if (!((w, a) in hasa)) { hasa[w, a] = 1; na[w]++; al[w, na[w]] = a }
    if (!((w, l) in hasl)) { hasl[w, l] = 1; nl[w]++; ll[w, nl[w]] = l }
    mean[w, a, l, m] = $(mcol + 2); ci[w, a, l, m] = $(mcol + 3)
}
function has(k) { return (k in mean) && mean[k] != "nan" && mean[k] != "" }
function cell(w, a, l, m, scale,   k, s) {
    k = w SUBSEP a SUBSEP l SUBSEP m
    if (!has(k)) return "-"
    s = sprintf("%.1f", mean[k] * scale)
    if (ci[k] != "nan" && ci[k] != "") s = s sprintf("±%.1f", ci[k] * scale)
    return s
}
function unf(w, a, l,   k) {
    k = w SUBSEP a SUBSEP l SUBSEP "fct.all.unfinished"
    return has(k) ? sprintf(" [%d]", mean[k] + 0.5) : " [?]"
}
function binname(b) {
    return b == "le10000" ? "<=10KB" : b == "le100000" ? "<=100KB" : b == "le1000000" ? "<=1MB" : \
           b == "le10000000" ? "<=10MB" : b == "le100000000" ? ">10MB" : b
}
END {
    printf "RCC §V-D on the 320-host fat-tree: %s runs, seeds %s, %d s of runs\n", dur, seeds, secs
    printf "Average FCT in us (mean±95%% CI over seeds) [unfinished flows, mean]\n"
    for (i = 1; i <= nw; i++) {
        w = wl[i]
        printf "\n== %s\n%-6s", w, "load"
        for (j = 1; j <= na[w]; j++) printf "  %-22s", al[w, j]
        printf "\n"
        for (k = 1; k <= nl[w]; k++) {
            l = ll[w, k]; printf "%-6s", l
            for (j = 1; j <= na[w]; j++) printf "  %-22s", cell(w, al[w, j], l, "fct.all.fct_avg_s", 1e6) unf(w, al[w, j], l)
            printf "\n"
            if (dat != "") {
                printf "%s %s", w, l >> dat
                for (j = 1; j <= na[w]; j++) {
                    key = w SUBSEP al[w, j] SUBSEP l SUBSEP "fct.all.fct_avg_s"
                    printf " %s", has(key) ? mean[key] * 1e6 : "NaN" >> dat
                }
                printf "\n" >> dat
            }
        }
        if (!((w, "rcc") in hasa)) { printf "(no rcc runs: no reductions)\n"; continue }
        printf "RCC's reduction of the average FCT: ours (largest over the loads) vs paper (\"up to\")\n"
        for (j = 1; j <= na[w]; j++) {
            a = al[w, j]
            if (a == "rcc") continue
            best = ""; bl = ""
            for (k = 1; k <= nl[w]; k++) {
                l = ll[w, k]
                kr = w SUBSEP "rcc" SUBSEP l SUBSEP "fct.all.fct_avg_s"
                ko = w SUBSEP a SUBSEP l SUBSEP "fct.all.fct_avg_s"
                if (!has(kr) || !has(ko) || mean[ko] <= 0) continue
                red = 100 * (1 - mean[kr] / mean[ko])
                if (best == "" || red > best) { best = red; bl = l }
            }
            p = ((w, a) in paper) ? paper[w, a] "%" : ((w, a) in ptxt) ? ptxt[w, a] "%" : "-"
            printf "  vs %-12s ours %s   paper %s\n", a, best == "" ? "-" : sprintf("%+.1f%% (at %s)", best, bl), p
        }
        mid = ll[w, int((nl[w] + 1) / 2)]
        printf "FCT by flow size at load %s, in us: average / p99\n%-8s", mid, "size"
        for (j = 1; j <= na[w]; j++) printf "  %-22s", al[w, j]
        printf "\n"
        split("le10000 le100000 le1000000 le10000000 le100000000", bins, " ")
        for (b = 1; b <= 5; b++) {
            printf "%-8s", binname(bins[b])
            for (j = 1; j <= na[w]; j++)
                printf "  %-22s", cell(w, al[w, j], mid, "fct.all." bins[b] ".fct_avg_s", 1e6) " / " \
                       cell(w, al[w, j], mid, "fct.all." bins[b] ".fct_p99_s", 1e6)
            printf "\n"
        }
    }
    if (dat != "") {
        printf "# columns: workload load" > (dat ".cols")
        for (j = 1; j <= na[wl[1]]; j++) printf " %s", al[wl[1], j] >> (dat ".cols")
        printf "\n" >> (dat ".cols")
    }
}
