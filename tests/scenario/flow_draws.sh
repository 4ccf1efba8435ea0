#!/usr/bin/env bash
# tests/scenario/flow_draws.sh -- a flow generator's arrivals depend on the
# seed and its own section only (src/core/rng.h, docs/config.md "[traffic]"):
#   - topology: experiments/crossdc/fct.ini's [traffic.bg] (Poisson
#     WebSearch) gives the same flows (id, name, group, src, dst, size,
#     start) on the crossdc fabric and on the same fabric with SWING's two
#     relay switches (scripts/crossdc-fct.sh's SWING settings);
#   - CC algorithm and flow control: the same under dcqcn, hpcc, timely,
#     none and LSCC;
#   - other groups: a [flows] group with start_jitter and the [traffic]
#     section keep their flows (src, dst, size, start) when another
#     [traffic] section is added before them;
#   - a [flows] group's start_jitter is the same with and without relays;
#   - and a different seed does change the arrivals (the checks can fail).
# Before the generators had their own streams, the relays' two ECMP-seed
# draws shifted the traffic drawn after them (docs/crossdc.md, Fig. 10-13).
set -u
cd "$(dirname "$0")/../.."
. tests/scenario/common.bash
ini=experiments/crossdc/fct.ini
short=(--set sim.duration=3ms --set sim.measure_start=1ms --set fct.warmup=500us --set fct.cooldown=500us)
# arrivals DIR: the flows.csv columns that define the arrivals
arrivals() { cut -d, -f1-7 "$1/flows.csv"; }
run() {  # run NAME ARGS...: one run into $tmp/NAME (exit 0 or 1: an [expect] miss is not this test's)
    local name=$1; shift
    "$ROCCSIM" run "$ini" -q -o "$tmp/$name" "${short[@]}" "$@" >"$tmp/$name.log" 2>&1
    local rc=$?
    [ $rc -le 1 ] || { echo "run $name exited $rc:"; cat "$tmp/$name.log"; }
}
run base --set cc.algorithm=none --set network.longhaul_xoff=5MB
run swing --set cc.algorithm=none --set topology.relays=yes --set flowcontrol.scheme=swing
ok has_flows '[ "$(arrivals "$tmp/base" | wc -l)" -gt 20 ]' "$tmp/base.log"
ok same_flows_with_relays 'cmp -s <(arrivals "$tmp/base") <(arrivals "$tmp/swing")' "$tmp/swing.log"
for a in dcqcn hpcc timely; do
    run "$a" --set cc.algorithm=$a
done
run lscc --set cc.algorithm=dcqcn --set lscc.enable=longhaul
ok same_flows_any_cc '( for a in dcqcn hpcc timely lscc; do cmp -s <(arrivals "$tmp/base") <(arrivals "$tmp/$a") || exit 1; done )'
run seed2 --set cc.algorithm=none --set sim.seed=2
ok seed_changes_flows '! cmp -s <(arrivals "$tmp/base") <(arrivals "$tmp/seed2")'

# Other groups: [flows.j] (start_jitter) and [traffic.bg], then the same
# with [traffic.aa] (other hosts) added before [traffic.bg].
jit=$'[flows.j]\nsrc = h1 h3 h5 h7\ndst = h17\nsize = 20KB\nstart_jitter = 2ms\n'
aa=$'[traffic.aa]\npattern = groups\nsrc = h8..h11\ndst = h20\ncdf = websearch\nload = 40%\nqp = none\n'
bg=$'[traffic.bg]\npattern = groups\nsrc = h0..h7\ndst = h16 h24\ncdf = websearch\nload = 30%\nqp = none\n'
common=$'[sim]\nduration = 3ms\nmeasure_start = 1ms\n[topology]\ntype = crossdc\n[cc]\nalgorithm = dcqcn\n'
printf '%s%s%s' "$common" "$jit" "$bg" >"$tmp/g1.ini"
printf '%s%s%s%s' "$common" "$jit" "$aa" "$bg" >"$tmp/g2.ini"
printf '%s%s%s' "${common/type = crossdc/type = crossdc
relays = yes}" "$jit" "$bg" >"$tmp/g3.ini"
for g in g1 g2 g3; do
    "$ROCCSIM" run "$tmp/$g.ini" -q -o "$tmp/$g" >"$tmp/$g.log" 2>&1
    [ $? -le 1 ] || cat "$tmp/$g.log"
done
# group, src, dst, size, start of the flows of groups j and bg
mine() { awk -F, 'NR > 1 && ($3 == "j" || $3 == "bg") { print $3, $4, $5, $6, $7 }' "$1/flows.csv"; }
ok other_groups_have_flows '[ "$(mine "$tmp/g1" | grep -c "^bg ")" -gt 5 ] && [ "$(grep -c "^j " <(mine "$tmp/g1"))" -eq 4 ] && [ "$(awk -F, "NR > 1 && \$3 == \"aa\"" "$tmp/g2/flows.csv" | wc -l)" -gt 3 ]' "$tmp/g1.log" "$tmp/g2.log"
ok same_flows_other_group_added 'cmp -s <(mine "$tmp/g1") <(mine "$tmp/g2")' "$tmp/g2.log"
ok jitter_same_with_relays 'grep -q "relays = yes" "$tmp/g3.ini" && cmp -s <(mine "$tmp/g1") <(mine "$tmp/g3")' "$tmp/g3.log"
