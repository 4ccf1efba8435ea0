#!/usr/bin/env bash
# tests/scenario/bad_input.sh -- roccsim rejects bad input precisely.
#
# Every case must exit with status 2, print on stderr a message that names
# the file (scenario, topology file, or "--set"), the line (where there is
# one: the offending line, or the section header for a missing key) and the
# key or name at fault, and must not create the -o output directory.
# Fixtures are in tests/scenario/data/.  One PASS/FAIL line per case.
set -u
cd "$(dirname "$0")/../.."
BUILD=${BUILD:-build}
ROCCSIM=${ROCCSIM:-$BUILD/roccsim}
D=tests/scenario/data
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0
n=0

# bad NAME 'NEEDLE|NEEDLE|...' ARG... -- run roccsim ARG... -o DIR and check
# exit status 2, each needle (fixed string) on stderr, and no DIR.
bad() {
    local name=$1 needles=$2 problems="" nd rc
    shift 2
    n=$((n + 1))
    local out="$tmp/out$n"
    "$ROCCSIM" "$@" -o "$out" >"$tmp/stdout" 2>"$tmp/stderr"
    rc=$?
    [ "$rc" -eq 2 ] || problems="$problems exit status $rc, want 2;"
    IFS='|' read -r -a list <<<"$needles"
    for nd in "${list[@]}"; do
        grep -qF -- "$nd" "$tmp/stderr" || problems="$problems stderr does not mention '$nd';"
    done
    [ -e "$out" ] && problems="$problems created the output directory;"
    if [ -z "$problems" ]; then
        echo "PASS bad_input.$name"
    else
        echo "FAIL bad_input.$name:$problems"
        echo "  \$ roccsim $*"
        sed 's/^/  stderr: /' "$tmp/stderr"
        status=1
    fi
}

bad unknown_key_topology     "unknown-key.ini|:8:|sendrs" run $D/unknown-key.ini -q
bad unknown_section          "unknown-section.ini|:12:|simulation" run $D/unknown-section.ini -q
bad unknown_key_cascade      "unknown-key-cascade.ini|:9:|sendres|:12:|no node named 'h2'" run $D/unknown-key-cascade.ini -q
# ... and the typo, not its consequence, is the error (the first line).
n=$((n + 1))
if "$ROCCSIM" run $D/unknown-key-cascade.ini -q -o "$tmp/out$n" 2>&1 >/dev/null | head -n 1 | grep -qF ':9: [topology] sendres: unknown key'; then
    echo "PASS bad_input.unknown_key_cascade_first"
else
    echo "FAIL bad_input.unknown_key_cascade_first: the first stderr line is not the [topology] sendres typo"
    status=1
fi
bad bad_unit                 "bad-unit.ini|:7:|rate|furlongs" run $D/bad-unit.ini -q
bad missing_scenario_file    "no-such-scenario.ini" run $D/no-such-scenario.ini -q
bad missing_topology_file    "missing-topology-file.ini|:7:|file|no-such-topology.txt" run $D/missing-topology-file.ini -q
bad topology_unknown_node    "topo-unknown-node.topo|:6:|ghost" run $D/topo-unknown-node.ini -q
bad topology_name_charset   "topo-hostile-name.topo|:3:|switch|node name 2|'\`'" run $D/topo-hostile-name.ini -q
bad topology_disconnected    "topo-disconnected.ini|:5:|disconnected|hleft|hright" run $D/topo-disconnected.ini -q
# q_mid (line 14) below the 40G default q_ref of 150 KB.
bad impossible_parameter     "impossible-param.ini|:14:|q_mid" run $D/impossible-param.ini -q
bad duplicate_key            "duplicate-key.ini|:5:|duration|line 3" run $D/duplicate-key.ini -q
# --set arguments are named "--set" and their index in argv (here 5).
bad set_syntax               "--set|:5:|simduration" run $D/good.ini -q --set simduration
bad set_bad_value            "--set|:5:|duration|furlongs" run $D/good.ini -q --set sim.duration=5furlongs
bad set_empty_value          "--set|:5:|duration" run $D/good.ini -q --set sim.duration=
bad expect_unknown_metric    "expect-unknown-metric.ini|:13:|latency" run $D/expect-unknown-metric.ini -q
bad expect_missing_port      "expect-missing-port.ini|:13:|sw->r9" run $D/expect-missing-port.ini -q
bad flow_src_is_switch       "flow-switch-src.ini|:9:|src|'sw'" run $D/flow-switch-src.ini -q
# A missing key has no line of its own: the [sim] header (line 2) is named.
bad missing_sim_duration     "missing-duration.ini|:2:|duration" run $D/missing-duration.ini -q
bad no_flow_groups           "no-flows.ini|flows" run $D/no-flows.ini -q
bad set_exponent_time        "--set|:5:|duration|exponent notation" run $D/good.ini -q --set sim.duration=1e3us
bad topology_is_directory    "topo-directory.ini|:7:|file|is a directory" run $D/topo-directory.ini -q
bad flow_file_count_0        "flows-count0.ini|:10:|file|flows-count0.txt|no flows|count is 0" run $D/flows-count0.ini -q
bad cdf_all_zero             "cdf-zero.ini|:10:|cdf|cdf-zero.cdf|at most 1 byte" run $D/cdf-zero.ini -q
bad cdf_all_one_byte         "--set|:5:|cdf|cdf-one.cdf|at most 1 byte" run $D/cdf-zero.ini -q --set traffic.bg.cdf=cdf-one.cdf
bad fattree_k84_too_big      "fattree-k84.ini|:7:|[topology] k|2.22GB|max_route_memory = 2GB" run $D/fattree-k84.ini -q
bad fattree_route_limit      "--set|:7:|k = 8|max_route_memory = 1KB" run $D/fattree-k84.ini -q --set topology.max_route_memory=1KB --set topology.k=8
bad unknown_option           "--frobnicate" run $D/good.ini --frobnicate
bad two_scenarios            "good.ini|no-flows.ini" run $D/good.ini $D/no-flows.ini

# roccsim with no arguments: usage on stderr, status 2.
"$ROCCSIM" >"$tmp/stdout" 2>"$tmp/stderr"
rc=$?
if [ "$rc" -eq 2 ] && grep -q '^usage:' "$tmp/stderr" && [ ! -s "$tmp/stdout" ]; then
    echo "PASS bad_input.no_arguments"
else
    echo "FAIL bad_input.no_arguments: exit status $rc (want 2, usage on stderr)"
    status=1
fi
# roccsim --help: usage on stdout, status 0.
"$ROCCSIM" --help >"$tmp/stdout" 2>"$tmp/stderr"
rc=$?
if [ "$rc" -eq 0 ] && grep -q '^usage:' "$tmp/stdout" && [ ! -s "$tmp/stderr" ]; then
    echo "PASS bad_input.help"
else
    echo "FAIL bad_input.help: exit status $rc (want 0, usage on stdout)"
    status=1
fi
# A group that starts at or after the end of the run: it runs (a shorter
# --set sim.duration may cut it on purpose) but says so on stderr.
"$ROCCSIM" run $D/good.ini -q -o "$tmp/late" --set flows.bulk.start=2ms >"$tmp/stdout" 2>"$tmp/stderr"
rc=$?
if [ "$rc" -eq 0 ] && grep -qF -- '--set:7: [flows.bulk] start 2ms is not before sim.duration 1ms: the group never sends' "$tmp/stderr"; then
    echo "PASS bad_input.start_after_duration_warns"
else
    echo "FAIL bad_input.start_after_duration_warns: exit status $rc (want 0 and a warning)"
    sed 's/^/  stderr: /' "$tmp/stderr"
    status=1
fi
# The good fixture itself is fine (so the cases above fail for their reason).
if "$ROCCSIM" run $D/good.ini -q -o "$tmp/good" >"$tmp/stdout" 2>"$tmp/stderr" && [ -s "$tmp/good/summary.json" ]; then
    echo "PASS bad_input.good_fixture_runs"
else
    echo "FAIL bad_input.good_fixture_runs"
    sed 's/^/  stderr: /' "$tmp/stderr"
    status=1
fi
exit $status
