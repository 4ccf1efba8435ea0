# tests/scenario/common.bash -- sourced by the scenario tests that check
# conditions with ok() (run from the repository root, after their `cd`):
# ROCCSIM (tests/run.sh exports the build's), a scratch directory $tmp removed
# on exit, and
#   ok NAME 'SHELL CONDITION' [FILE...]
# which prints "PASS <script>.NAME" or "FAIL <script>.NAME" followed by the
# FILEs (logs worth reading when the condition is false), and
#   need_cmd CMD WHY
# which, when CMD is not installed, prints "SKIP <script>.CMD: WHY" (or FAIL
# when ROCC_SKIP=fail, as scripts/test.sh sets it) and returns 1;
#   bad_input INI NAME 'EXPECTED TEXT' [ROCCSIM ARGS...]
# which runs INI with the arguments (e.g. --set ...) and checks (ok
# bad_NAME) that roccsim exits 2 with the text in its output; and
#   xdc FILE [EXTRA INI TEXT]
# which writes the cross-datacenter scaffold (type = crossdc, no CC, h0 h2
# h4 h6 -> h16, [sim] duration $XDC_DURATION, measure_start
# $XDC_MEASURE; defaults 8ms, 4ms) plus the extra sections to FILE.
ROCCSIM=${ROCCSIM:-build/roccsim}
SCENARIO_TEST=$(basename "$0" .sh)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ok() {
    if eval "$2"; then
        echo "PASS $SCENARIO_TEST.$1"
    else
        echo "FAIL $SCENARIO_TEST.$1"
        shift 2
        [ $# -gt 0 ] && cat "$@"
    fi
    return 0
}
need_cmd() {
    command -v "$1" >/dev/null 2>&1 && return 0
    if [ "${ROCC_SKIP:-allow}" = fail ]; then
        echo "FAIL $SCENARIO_TEST.$1: not installed, $2"
    else
        echo "SKIP $SCENARIO_TEST.$1: not installed, $2"
    fi
    return 1
}
bad_input() {
    local ini=$1 name=$2 want=$3; shift 3
    "$ROCCSIM" run "$ini" -q -o "$tmp/bad_$name" "$@" >"$tmp/bad_$name.log" 2>&1
    local rc=$?
    ok "bad_$name" '[ $rc -eq 2 ] && grep -q -- "$want" "$tmp/bad_$name.log"' "$tmp/bad_$name.log"
}
xdc() {
    cat >"$1" <<EOF_XDC
[sim]
duration = ${XDC_DURATION:-8ms}
measure_start = ${XDC_MEASURE:-4ms}
[topology]
type = crossdc
[cc]
algorithm = none
[flows.bulk]
src = h0 h2 h4 h6
dst = h16
${2:-}
EOF_XDC
}

# leafspine_topo DURATION -- [sim] and [topology] of a small leaf-spine: 8
# leaves x 2 hosts, 2 spines, 100G links of 1 us (parallel.sh, gfc.sh).
leafspine_topo() {
    printf '[sim]\nduration = %s\nsample_interval = 10us\n' "$1"
    cat <<'EOF'

[topology]
type = leafspine
leaves = 8
spines = 2
hosts_per_leaf = 2
host_rate = 100Gbps
fabric_rate = 100Gbps
oversubscription = 1:1
delay = 1us
EOF
}
