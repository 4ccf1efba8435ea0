#!/usr/bin/env bash
# tests/dataplane/netns_reclaim.sh -- dp_setup's handling of namespaces that
# already exist (tests/dataplane/netns.bash).  A run killed with SIGKILL
# leaves its namespaces behind; the next run must delete those and go on,
# yet still refuse every namespace it cannot prove stale.  Needs root and
# iproute2 only (no DPDK).  The names carry our PID, so nothing else on the
# machine is touched; each case cleans up what it made.
#
# Checks:
#   - stale: a dp_setup run SIGKILLed after creating its namespace leaves it
#     and its owner record; a second run deletes it with a note naming the
#     killed test, creates it afresh, and its trap removes namespace and
#     record at exit;
#   - no record: a namespace made by hand is refused, and still exists;
#   - live owner: a namespace whose owner is still running is refused;
#   - busy: a namespace whose owner is gone but that still holds a process
#     is refused;
#   - forged record: a record whose PID is alive but whose start time
#     differs (the PID was reused) counts as gone.
set -u
cd "$(dirname "$0")/../.." || exit 1
T=netns_reclaim
fails=0
pass() { echo "PASS $*"; }
fail() { echo "FAIL $*"; fails=$((fails + 1)); }
if [ "$(id -u)" != 0 ]; then echo "FAIL $T: must run as root"; exit 1; fi

OWN=$(mktemp -d "/tmp/$T.owners.XXXXXX")
N=rcl$$
exists() { ip netns list | awk '{print $1}' | grep -qx "$1"; }
nsdel() { exists "$1" && ip netns del "$1"; rm -f "$OWN/$1"; }
cleanup() {
    local n
    for n in ${N}a ${N}b ${N}c ${N}d; do nsdel "$n"; done
    [ -n "${SLEEPER:-}" ] && kill "$SLEEPER" 2>/dev/null
    rm -rf "$OWN"
}
trap cleanup EXIT

# setup_in_child NAME [HOLD] -- a child bash that sources netns.bash and runs
# dp_setup for NAME, printing "up" when done; with HOLD it then prints
# "held BASHPID SLEEPPID" and waits on a sleep (so it can be killed), without
# it exits normally (its trap cleans up).
setup_in_child() {
    DP_OWNERS=$OWN DP=/nonexistent bash -c '
        . tests/dataplane/netns.bash
        dp_setup "$1" rcltest "$2" ""
        echo up
        if [ "$3" = hold ]; then sleep 1000 & echo "held $$ $!"; wait; fi
        exit 0' child "$T.child" "$1" "${2:-}"
}

# --- stale: killed owner ------------------------------------------------
setup_in_child ${N}a hold >"$OWN/out1" 2>&1 &
BG=$!
for _ in $(seq 50); do grep -q '^held' "$OWN/out1" && break; sleep 0.1; done
read -r _ KPID SPID < <(grep '^held' "$OWN/out1")
kill -KILL "${KPID:-0}" "${SPID:-0}" 2>/dev/null; wait "$BG" 2>/dev/null
if exists ${N}a && [ -s "$OWN/${N}a" ]; then
    pass "$T: a SIGKILLed run leaves its namespace and owner record ($(cat "$OWN/${N}a"))"
else
    fail "$T: the killed run left no namespace/record to reclaim (out: $(tr '\n' ' ' <"$OWN/out1"))"
fi
out=$(setup_in_child ${N}a 2>&1)
if printf '%s\n' "$out" | grep -q '^up' &&
    printf '%s\n' "$out" | grep -q "note: $T.child: deleted netns ${N}a, left behind by a killed run of $T.child (PID $KPID"; then
    pass "$T: the next run deleted the stale namespace with a note and went on"
else
    fail "$T: the next run did not reclaim the stale namespace: $out"
fi
if ! exists ${N}a && [ ! -e "$OWN/${N}a" ]; then
    pass "$T: the second run's trap removed its namespace and record"
else
    fail "$T: namespace ${N}a or its record outlived the second run"
fi

# refused NAME WHAT -- dp_setup for NAME must refuse it (its FAIL line, no
# "up") and leave it in place.
refused() {
    local out
    out=$(setup_in_child "$1" 2>&1)
    if printf '%s\n' "$out" | grep -q "FAIL $T.child: netns $1 already exists; not touching it" &&
        ! printf '%s\n' "$out" | grep -q '^up' && exists "$1"; then
        pass "$T: a namespace $2 is refused and kept"
    else
        fail "$T: a namespace $2 was not refused: $out"
    fi
}

# --- no record ------------------------------------------------------------
ip netns add ${N}b
refused ${N}b "without an owner record"

# --- live owner -------------------------------------------------------------
sleep 1000 &
SLEEPER=$!
ip netns add ${N}c
start=$(cut -d' ' -f22 "/proc/$SLEEPER/stat")
echo "$SLEEPER $start rcltest other" >"$OWN/${N}c"
refused ${N}c "whose owner (PID $SLEEPER) is alive"

# --- forged record: the PID lives, the start time differs (PID reused) ------
echo "$SLEEPER $((start + 1)) rcltest other" >"$OWN/${N}c"
out=$(setup_in_child ${N}c 2>&1)
if printf '%s\n' "$out" | grep -q '^up' && printf '%s\n' "$out" | grep -q "deleted netns ${N}c"; then
    pass "$T: an owner record whose PID now belongs to another process counts as gone"
else
    fail "$T: a reused PID kept the namespace from being reclaimed: $out"
fi

# --- busy: owner gone, a process inside --------------------------------------
ip netns add ${N}d
ip netns exec ${N}d sleep 1000 &
INSIDE=$!
sleep 0.3
echo "999999999 1 rcltest other" >"$OWN/${N}d"
refused ${N}d "that still holds a process (its owner gone)"
kill "$INSIDE" 2>/dev/null
ip netns pids ${N}d 2>/dev/null | xargs -r kill 2>/dev/null
wait "$INSIDE" 2>/dev/null

[ $fails = 0 ]
