# tests/scenario/common.bash -- sourced by the scenario tests that check
# conditions with ok() (run from the repository root, after their `cd`):
# ROCCSIM (tests/run.sh exports the build's), a scratch directory $tmp removed
# on exit, and
#   ok NAME 'SHELL CONDITION' [FILE...]
# which prints "PASS <script>.NAME" or "FAIL <script>.NAME" followed by the
# FILEs (logs worth reading when the condition is false), and
#   need_cmd CMD WHY
# which, when CMD is not installed, prints "SKIP <script>.CMD: WHY" (or FAIL
# when ROCC_SKIP=fail, as scripts/test.sh sets it) and returns 1.
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
