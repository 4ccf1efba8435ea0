#!/usr/bin/env bash
# scripts/rocc-flowtables.sh [--quick] [-o DIR] -- RoCC's five flow tables
# (§3.4: queue, bounded, afd, elephant, bubble) compared on one fabric run
# with many mice and a few elephants (experiments/rocc-flowtables/
# leafspine-ws.ini, docs/rocc.md "Flow tables compared"): each run is that
# file with `--set rocc.flow_table=T`, 30 ms of simulated time (--quick:
# 10 ms, the CI length; the elephants do not finish then).  Prints one
# Markdown row per table:
#   CNPs/period      CNPs sent by all 64 CPs per period T (40 us)
#   elephants w/ CNP the 4 elephants that got at least one CNP
#   CNPs to eleph.   share of all CNPs that went to the elephants
#   mice w/ CNP      WebSearch flows that got at least one CNP
#   to ended flows   share of the CNPs that reached a flow already finished
#                    (sent - received by running flows, over sent)
#   memory           flow-table bytes, all CPs / the largest CP
#   peak entries     most entries one CP's table held at once
#   mice FCT         avg / p99 FCT of the flows <= 100 KB (us)
#   elephant FCT     avg / max FCT of the 4 elephants (ms; "-": unfinished)
#   expect           the file's [expect] (drops = 0, every elephant got a CNP)
# Writes DIR/table.tsv (the same, tab-separated), DIR/table.md and
# DIR/<table>/ (each run's outputs, and .log).  Default DIR:
# runs/rocc-flowtables.  Exit 1 if a run's [expect] failed, 2 if a run
# failed otherwise, else 0.
set -u
. "$(dirname "$0")/lib/help.bash"
script_help "$@"
cd "$(dirname "$0")/.."
. scripts/lib/expargs.bash
exp_args rocc-flowtables.sh runs/rocc-flowtables "$@"
ini=experiments/rocc-flowtables/leafspine-ws.ini
len=()
[ "$quick" = 1 ] && len=(--set sim.duration=10ms)
status=0
tsv="$out/table.tsv" md="$out/table.md"
printf 'table\tcnps_per_period\telephants_with_cnp\telephant_cnp_share\tmice_with_cnp\tcnps_to_ended\tmem_bytes\tmem_bytes_max_cp\tentries_max_cp\tmice_fct_avg_us\tmice_fct_p99_us\teleph_fct_avg_ms\teleph_fct_max_ms\texpect\n' > "$tsv"
{
    echo "| table | CNPs/period | elephants w/ CNP | CNPs to elephants | mice w/ CNP | CNPs to ended flows | memory: all CPs / largest (B) | peak entries | mice FCT avg / p99 (us) | elephant FCT avg / max (ms) | expect |"
    echo "|---|---|---|---|---|---|---|---|---|---|---|"
} > "$md"
for t in queue bounded afd elephant bubble; do
    dir=$out/$t log=$out/$t.log
    "$ROCCSIM" run "$ini" "${len[@]}" --set "rocc.flow_table=$t" -q -o "$dir" > "$log" 2>&1
    rc=$?
    case $rc in
        0) ex=pass ;;
        1) ex=FAIL; [ $status -eq 0 ] && status=1 ;;
        *) echo "rocc-flowtables.sh: $t: roccsim exit $rc (see $log)" >&2; status=2; continue ;;
    esac
    awk -F'\t' -v t="$t" -v ex="$ex" '
        { v[$1] = $2 }
        $1 ~ /^group\..*\.cnps_received$/ { rx += $2 }
        function n(k) { return (k in v) && v[k] != "nan" ? v[k] + 0 : -1 }
        function f(x, s, fmt) { return x < 0 ? "-" : sprintf(fmt, x * s) }
        END {
            ef = n("group.elephants.flows"); mf = n("group.mice.flows")
            share = n("rocc_ft.cnps_sent") > 0 ? n("group.elephants.cnps_received") / n("rocc_ft.cnps_sent") : -1
            eavg = n("fct.all.gt30000000.flows") > 0 ? n("fct.all.gt30000000.fct_avg_s") : -1
            emax = n("fct.all.gt30000000.flows") > 0 ? n("fct.all.gt30000000.fct_p99_s") : -1
            ended = n("rocc_ft.cnps_sent") > 0 ? (n("rocc_ft.cnps_sent") - rx) / n("rocc_ft.cnps_sent") : 0
            printf "%s\t%.1f\t%d/%d\t%.1f%%\t%d/%d\t%.1f%%\t%d\t%d\t%d\t%s\t%s\t%s\t%s\t%s\n", t, n("rocc_ft.cnps_per_period"),
                n("group.elephants.flows_with_cnp"), ef, share * 100, n("group.mice.flows_with_cnp"), mf, ended * 100,
                n("rocc_ft.mem_bytes"), n("rocc_ft.mem_bytes_max_cp"), n("rocc_ft.entries_max_cp"),
                f(n("fct.all.le100000.fct_avg_s"), 1e6, "%.1f"), f(n("fct.all.le100000.fct_p99_s"), 1e6, "%.1f"),
                f(eavg, 1e3, "%.2f"), f(emax, 1e3, "%.2f"), ex
        }' "$dir/summary.tsv" >> "$tsv"
    tail -n 1 "$tsv" | awk -F'\t' '{ printf "| %s | %s | %s | %s | %s | %s | %s / %s | %s | %s / %s | %s / %s | %s |\n",
        $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14 }' >> "$md"
done
echo "roccsim run $ini --set rocc.flow_table=T${len[*]:+ ${len[*]}} (seed 1)"
cat "$md"
exit $status
