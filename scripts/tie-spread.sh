#!/usr/bin/env bash
# scripts/tie-spread.sh [-n N] [-j JOBS] SCENARIO.ini [--set S.K=V ...]
# How much do a scenario's [expect] results owe to the order its
# simultaneous events happened to take?  Runs it with [sim] tie_seed =
# 0 .. N-1 (default 10; 0 is the default order, every other value an order
# just as arbitrary: docs/architecture.md "Event order") and prints, per
# expectation, how many orders pass and the measured value of each:
#
#   check                                   pass  measured (tie seed 0, 1, ...)
#   jain f = >= 0.99                        3/10  0.9924 0.808 0.991 ...
#
# A check that passes under some orders and fails under others is fitted to
# an order, not a property of the model.  Extra arguments go to `roccsim run`
# (e.g. --set sim.duration=5ms).  JOBS runs in parallel (default: the number
# of cores).  Exit status 0 when every check passed under every order, 1 when
# some did not, 2 on bad usage or when a run failed to start.
set -u
. "$(dirname "$0")/lib/help.bash"
script_help "$@"
n=10; jobs=$(nproc 2>/dev/null || echo 2)
while [ $# -gt 0 ]; do
    case $1 in
        -n) n=${2:?-n needs a count}; shift 2 ;;
        -j) jobs=${2:?-j needs a count}; shift 2 ;;
        *) break ;;
    esac
done
ini=${1:?usage: scripts/tie-spread.sh [-n N] [-j JOBS] SCENARIO.ini [roccsim run options]}
shift
case $n in ''|*[!0-9]*) echo "tie-spread.sh: -n: expected a positive integer, got '$n'" >&2; exit 2 ;; esac
case $jobs in ''|*[!0-9]*|0) echo "tie-spread.sh: -j: expected a positive integer, got '$jobs'" >&2; exit 2 ;; esac
[ "$n" -ge 1 ] || { echo "tie-spread.sh: -n must be at least 1" >&2; exit 2; }
[ -f "$ini" ] || { echo "tie-spread.sh: $ini: no such file" >&2; exit 2; }
root=$(cd "$(dirname "$0")/.." && pwd)
ROCCSIM=${ROCCSIM:-$root/build/roccsim}
[ -x "$ROCCSIM" ] || { echo "tie-spread.sh: $ROCCSIM not built (make)" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# One run per tie seed, JOBS at a time; each writes its -q output.
for ((s = 0; s < n; s++)); do
    while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n; done
    ( "$ROCCSIM" run "$ini" -q -o "$tmp/run$s" --set "sim.tie_seed=$s" "$@" >"$tmp/out$s" 2>&1
      echo "exit $?" >>"$tmp/out$s" ) &
done
wait

for ((s = 0; s < n; s++)); do
    rc=$(sed -n 's/^exit //p' "$tmp/out$s")
    if [ "$rc" != 0 ] && [ "$rc" != 1 ]; then
        echo "tie-spread.sh: the run with tie_seed = $s failed (exit $rc):" >&2
        grep -v '^exit ' "$tmp/out$s" | sed 's/^/  /' >&2
        exit 2
    fi
done

# Lines "PASS  <check>  measured <value>" / "FAIL  ...", in the order of the
# first run; the same check is matched by its text across runs.
awk -v n="$n" '
    FNR == 1 { s = FILENAME; sub(/.*\/out/, "", s) }
    /^(PASS|FAIL)  / {
        line = substr($0, 7)
        i = index(line, "  measured ")
        if (i == 0) next
        check = line; sub(/ +measured .*/, "", check); gsub(/  +/, " ", check)
        val = substr(line, i + 11)
        if (!(check in seen)) { seen[check] = 1; order[++m] = check }
        pass[check] += ($1 == "PASS")
        meas[check, s] = val
        total[check]++
    }
    END {
        printf "%-52s %6s  %s\n", "check", "pass", "measured (tie seed 0, 1, ...)"
        bad = 0
        for (k = 1; k <= m; k++) {
            c = order[k]; row = ""
            for (s = 0; s < n; s++) row = row (((c, s) in meas) ? meas[c, s] : "-") (s < n - 1 ? " | " : "")
            printf "%-52s %3d/%-2d  %s\n", c, pass[c], n, row
            if (pass[c] < n) bad = 1
        }
        if (m == 0) print "(the scenario has no [expect] section)"
        exit bad
    }' $(for ((s = 0; s < n; s++)); do echo "$tmp/out$s"; done)
