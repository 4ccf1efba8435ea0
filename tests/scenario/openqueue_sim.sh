#!/usr/bin/env bash
# tests/scenario/openqueue_sim.sh -- [openqueue] in roccsim (docs/openqueue.md
# "Running a policy in the simulator", docs/config.md [openqueue]):
#   - outputs: summary.json's "openqueue" member with per-queue counters that
#     add up, openqueue.csv with one column per port/queue, removed again by
#     a run without [openqueue] into the same directory;
#   - classification: value per flow group and per class, processing
#     "class", a queue per group;
#   - bad input exits 2 naming file, line and key (unknown key, selector,
#     port, switch, queue, processing, cycle, a policy with two ports, a
#     missing policy file), and a policy compile error is FILE:LINE:COL;
#   - a policy that divides by zero everywhere runs to the end with the
#     conservation audit passing.
set -u
cd "$(dirname "$0")/../.."
. tests/scenario/common.bash
repo=$PWD

base() {
    cat <<EOF
[sim]
duration = 2ms
measure_start = 1ms
[network]
mode = lossy
[topology]
type = star
senders = 2
rate = 10Gbps
delay = 1us
[cc]
algorithm = none
[flows.high]
src = h0
dst = r0
rate = 4Gbps
class = 4
[flows.low]
src = h1
dst = r0
rate = 8Gbps
[openqueue]
EOF
}

# --- a run and its outputs
{ base; printf 'policy = %s/policies/alg_c.oq\nports = sw:r0\nvalue.high = 63\nvalue = 1\nprocessing = 1-2\n' "$repo"; } >"$tmp/ok.ini"
"$ROCCSIM" run "$tmp/ok.ini" -q -o "$tmp/ok" >"$tmp/ok.log" 2>&1
rc=$?
j="$tmp/ok/summary.json"
ok run '[ $rc -eq 0 ] && grep -q "\"openqueue\": {\"policy\": " "$j" && grep -q "\"port\": \"sw->r0\"" "$j"' "$tmp/ok.log" "$j"
# per-queue counters: admitted = sent + pushed out + still queued; value shares
enq=$(grep -o '"enqueued": [0-9]*' "$j" | awk '{print $2}')
deq=$(grep -o '"dequeued": [0-9]*' "$j" | awk '{print $2}')
po=$(grep -o '"pushed_out": [0-9]*' "$j" | awk '{print $2}')
len=$(grep -o '"len": [0-9]*' "$j" | awk '{print $2}')
drops=$(grep -o '"dropped": [0-9]*' "$j" | tail -1 | awk '{print $2}')
portdrops=$(grep -o '"drops": [0-9]*' "$tmp/ok/summary.json" | head -1 | awk '{print $2}')
ok queue_counters_add_up '[ -n "$enq" ] && [ "$enq" -eq $((deq + po + len)) ] && [ "$po" -gt 0 ] && [ "$drops" -gt 0 ]' "$j"
ok max_len_is_the_policy_size 'grep -q "\"max_len\": 512," "$j"' "$j"
ok value_classified 'vs=$(grep -o "\"value_sent\": [0-9]*" "$j" | cut -d" " -f2); vi=$(grep -o "\"value_in\": [0-9]*" "$j" | cut -d" " -f2); [ "$vs" -gt 0 ] && [ "$vi" -gt "$vs" ] && [ "$((vs * 100 / vi))" -ge 80 ]' "$j"
# without -q the run lists what it wrote, openqueue.csv included
"$ROCCSIM" run "$tmp/ok.ini" -o "$tmp/ok2" >"$tmp/ok2.log" 2>&1
ok outputs_line_lists_csv 'grep -q "^outputs: .*,openqueue.csv}" "$tmp/ok2.log" && [ -s "$tmp/ok2/openqueue.csv" ]' "$tmp/ok2.log"
ok csv_columns '[ "$(head -1 "$tmp/ok/openqueue.csv")" = "time_s,sw->r0/q" ] && [ "$(wc -l <"$tmp/ok/openqueue.csv")" -ge 100 ] && awk -F, "NR > 1 && \$2 > 543744 { bad = 1 } END { exit bad }" "$tmp/ok/openqueue.csv" && awk -F, "NR > 1 && \$2 > 0 { n++ } END { exit !(n > 10) }" "$tmp/ok/openqueue.csv"' "$tmp/ok/openqueue.csv"
ok console_line 'grep -q "openqueue sw->r0: .* admitted" "$tmp/ok.log" || "$ROCCSIM" run "$tmp/ok.ini" -o "$tmp/ok2" | grep -q "openqueue sw->r0: .* admitted"'
# a later run without [openqueue] into the same directory removes openqueue.csv
sed '/^\[openqueue\]/,$d' "$tmp/ok.ini" >"$tmp/plain.ini"
"$ROCCSIM" run "$tmp/plain.ini" -q -o "$tmp/ok" >/dev/null 2>&1
ok stale_csv_removed '[ ! -e "$tmp/ok/openqueue.csv" ] && ! grep -q "\"openqueue\"" "$tmp/ok/summary.json"'

# class rules: class 4 (the high group's) valued 63 by class; switches = sw
# puts every port of the switch under the policy
{ base; printf 'policy = %s/policies/alg_b.oq\nswitches = sw\nvalue.class4 = 63\n' "$repo"; } >"$tmp/cls.ini"
"$ROCCSIM" run "$tmp/cls.ini" -q -o "$tmp/cls" >"$tmp/cls.log" 2>&1
ok class_rule_and_switches '[ $? -eq 0 ] && [ "$(grep -c "\"port\": \"sw->" "$tmp/cls/summary.json")" -eq 3 ] && grep -o "\"value_sent\": [0-9]*" "$tmp/cls/summary.json" | awk "\$2 > 10000 { n++ } END { exit !(n == 1) }"' "$tmp/cls.log" "$tmp/cls/summary.json"

# queue per group (two queues, strict priority by queue order: q1 first)
cat >"$tmp/two.oq" <<'EOF'
q1 = Queue(64p); q2 = Queue(64p); out = Port(q1, q2);
q1.congestion = tailDrop(q1); q2.congestion = tailDrop(q2);
EOF
{ base; printf 'policy = %s/two.oq\nports = sw:r0\nqueue.high = q1\nqueue.low = q2\n' "$tmp"; } >"$tmp/q.ini"
"$ROCCSIM" run "$tmp/q.ini" -q -o "$tmp/q" >"$tmp/q.log" 2>&1
# q1 (high, 4 Gb/s offered) is served first: nothing of it dropped; q2 takes the drops
ok queue_rule '[ $? -eq 0 ] && grep -o "\"name\": \"q[12]\", \"enqueued\": [0-9]*, [^}]*\"dropped\": [0-9]*" "$tmp/q/summary.json" | awk "/q1/ && /dropped\": 0\$/ { a = 1 } /q2/ && !/dropped\": 0\$/ { b = 1 } END { exit !(a && b) }"' "$tmp/q.log" "$tmp/q/summary.json"

# --- bad input: exit 2, FILE:LINE: [openqueue] KEY: ...
bad() {   # bad NAME 'KEY LINES' 'EXPECTED TEXT'
    local name=$1 body=$2 want=$3
    { base; printf '%b\n' "$body"; } >"$tmp/$name.ini"
    "$ROCCSIM" run "$tmp/$name.ini" -q -o "$tmp/$name" >"$tmp/$name.out" 2>"$tmp/$name.err"
    local rc=$?
    ok "bad_$name" '[ $rc -eq 2 ] && grep -qF -- "$want" "$tmp/$name.err"' "$tmp/$name.err"
}
P="policy = $repo/policies/alg_a.oq"
bad unknown_key "$P\nports = sw:r0\npolcy = x" "$tmp/unknown_key.ini:25: [openqueue] polcy: unknown key"
bad selector "$P\nports = sw:r0\nvalue.nosuch = 3" "[openqueue] value.nosuch: 'nosuch' is neither a flow group nor a class"
bad class9 "$P\nports = sw:r0\nvalue.class9 = 3" "[openqueue] value.class9: 'class9' is neither"
bad value "$P\nports = sw:r0\nvalue = lots" "[openqueue] value: expected a number or 'class', got 'lots'"
bad no_port "$P\nports = sw:h7" "[openqueue] ports: no node named 'h7'"
bad not_switch "$P\nports = h0:sw" "[openqueue] ports: 'h0' is not a switch"
bad port_index "$P\nports = sw:9" "[openqueue] ports: switch sw has ports 0..2, not 9"
bad port_twice "$P\nports = sw:r0, sw->r0" "[openqueue] ports: port listed twice"
bad no_ports "$P" "[openqueue]: missing required key 'ports'"
bad queue "$P\nports = sw:r0\nqueue = q9" "[openqueue] queue: policy $repo/policies/alg_a.oq has no queue 'q9'"
bad processing0 "$P\nports = sw:r0\nprocessing = 0" "[openqueue] processing: expected cycles 1..65535"
bad processing_range "$P\nports = sw:r0\nprocessing.low = 5-2" "[openqueue] processing.low: expected cycles LO-HI"
bad cycle "$P\nports = sw:r0\ncycle = soon" "[openqueue] cycle: expected 'wire' or a time"
bad two_ports "policy = $repo/policies/crossbar.oq\nports = sw:r0" "[openqueue] policy: policy $repo/policies/crossbar.oq declares"
bad missing_policy "policy = nosuch.oq\nports = sw:r0" "nosuch.oq"
bad no_policy "ports = sw:r0" "[openqueue]: missing required key 'policy'"
printf 'q1 = Queue(8p); out = Port(100%%, q1);\nq1.admPrio = fiffo;\n' >"$tmp/broken.oq"
bad compile_error "policy = broken.oq\nports = sw:r0" "$tmp/broken.oq:2:14: unknown routine 'fiffo'"
ok compile_error_names_scenario 'grep -qF "(policy of [openqueue] at $tmp/compile_error.ini:23)" "$tmp/compile_error.err"' "$tmp/compile_error.err"

# --- a hostile policy: divisions by zero in comparators, conditions and
# actions, a computed drop probability far outside [0, 1]
cat >"$tmp/hostile.oq" <<'EOF'
z(p1, p2) = (p1.value / (p2.size - p2.size) < p2.value / 0);
q1 = Queue(6p); q2 = Queue(6p); out = Port(q1, q2);
q1.procPrio = z; q1.admPrio = z; q2.procPrio = z;
out.queueSelect = select_flow;
pick(a, b) = (a.currSize / 0 > b.currSize / (b.length - b.length));
out.schedPrio = pick;
q1.congestion = (currSize >= 3, drop(currSize * 1000 - 7));
out.postSchedAct = (true, modify(schedState := schedState / 0) . mark);
EOF
{ base; printf 'policy = %s/hostile.oq\nswitches = sw\nprocessing = 1-3\n' "$tmp"; } >"$tmp/hostile.ini"
timeout 60 "$ROCCSIM" run "$tmp/hostile.ini" -q -o "$tmp/hostile" >"$tmp/hostile.log" 2>&1
rc=$?
ok hostile_policy_runs '[ $rc -eq 0 ] && grep -q "\"conservation\": \"ok\"" "$tmp/hostile/summary.json"' "$tmp/hostile.log"

# --- a Port below the link rate: Port(50%, q) on a 10 Gb/s link sends 5 Gb/s
cat >"$tmp/half.oq" <<'EOF2'
q = Queue(64p); out = Port(50%, q); q.congestion = tailDrop(q);
EOF2
{ base; printf 'policy = %s/half.oq\nports = sw:r0\n' "$tmp"; } >"$tmp/half.ini"
"$ROCCSIM" run "$tmp/half.ini" -q -o "$tmp/half" --set flows.low.rate=2Gbps >"$tmp/half.log" 2>&1
# sw->r0 utilization over 1..2 ms (wire bytes / capacity): 50%, not the 60% offered
ok port_rate_shapes '[ $? -eq 0 ] && grep -o "\"name\": \"sw->r0\", [^}]*\"utilization\": [0-9.]*" "$tmp/half/summary.json" | grep -o "utilization\": [0-9.]*" | awk "{ exit !(\$2 > 0.49 && \$2 < 0.51) }"' "$tmp/half.log" "$tmp/half/summary.json"
