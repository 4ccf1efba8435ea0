#!/usr/bin/env bash
# Homa (docs/homa.md): its experiments' [expect] checks pass, and they fail
# when what they check is taken away -- the classes (priorities = 1 with the
# same overcommitment) or the grants (cc = none: line-rate senders); bad
# [homa] input is refused with the file, line and key.
set -u
cd "$(dirname "$0")/../.."
. tests/scenario/common.bash

run() {   # name ini args... -> $tmp/name/, exit status in $tmp/name.rc
    local name=$1 ini=$2
    shift 2
    "$ROCCSIM" run "$ini" -q -o "$tmp/$name" "$@" >"$tmp/$name.log" 2>&1
    echo $? >"$tmp/$name.rc"
}
rc() { cat "$tmp/$1.rc"; }
bin() {   # run traffic size_le column -> the value of fct.tsv
    awk -F'\t' -v t="$2" -v le="$3" -v col="$4" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
        $1 == t && $3 == le { print $c[col] }' "$tmp/$1/fct.tsv"
}

# A receiver's downlink: 40 short messages pass six granted long ones.
P=experiments/homa/incast-priorities.ini
run prio "$P"
run prio1 "$P" --set homa.priorities=1 --set homa.overcommit=6
run prio_none "$P" --set cc.algorithm=none
ok incast_priorities_pass '[ "$(rc prio)" = 0 ]' "$tmp/prio.log"
ok incast_one_class_fails '[ "$(rc prio1)" = 1 ] && grep -q "FAIL  slowdown_avg all" "$tmp/prio1.log"' "$tmp/prio1.log"
ok incast_no_cc_fails '[ "$(rc prio_none)" = 1 ]' "$tmp/prio_none.log"
s=$(bin prio all 10000 slowdown_avg); s1=$(bin prio1 all 10000 slowdown_avg)
ok short_messages_near_ideal 'awk -v a="$s" -v b="$s1" "BEGIN { exit !(a < 1.1 && b > 5 * a) }"' "$tmp/prio/fct.tsv"
ok grants_sent 'grep -q "\"grant\": {\"created\": [1-9]" "$tmp/prio/summary.json"'
ok conserved 'grep -q "conservation ok" "$tmp/prio.log" || grep -q "\"conservation\": \"ok\"" "$tmp/prio/summary.json"' "$tmp/prio.log"

# Web search on a leaf-spine (shortened): Homa's checks pass, no CC fails.
W=experiments/homa/websearch-leafspine.ini
short=(--set traffic.ws.stop=1.5ms --set traffic.burst.stop=1.5ms --set sim.duration=3ms)
run ws "$W" "${short[@]}"
run ws_none "$W" "${short[@]}" --set cc.algorithm=none
ok websearch_pass '[ "$(rc ws)" = 0 ]' "$tmp/ws.log"
ok websearch_no_cc_fails '[ "$(rc ws_none)" = 1 ]' "$tmp/ws_none.log"
a=$(bin ws background 10000 slowdown_avg); b=$(bin ws_none background 10000 slowdown_avg)
ok websearch_short_beats_line_rate 'awk -v a="$a" -v b="$b" "BEGIN { exit !(a * 4 < b) }"' "$tmp/ws/fct.tsv" "$tmp/ws_none/fct.tsv"

# Bad input: exit 2, the message names the file and the key.
bad() {   # name expected-text args...
    local name=$1 want=$2
    shift 2
    run "bad_$name" "$P" "$@"
    ok "refuses_$name" '[ "$(rc bad_$name)" = 2 ] && grep -q -- "$want" "$tmp/bad_$name.log"' "$tmp/bad_$name.log"
}
bad priorities "priorities must be 1..8" --set homa.priorities=9
bad overcommit "overcommit must be" --set homa.overcommit=65
bad rtt_bytes "rtt_bytes" --set homa.rtt_bytes=lots
bad lossy "rto = 0" --set network.mode=lossy
bad endless "has no size" --set flows.long.size=inf
bad overcommit0 "overcommit must be" --set homa.overcommit=0
bad stop "has a stop time" --set flows.long.stop=1ms
