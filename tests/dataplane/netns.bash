# tests/dataplane/netns.bash -- what every network-namespace data-plane test
# shares: PASS/FAIL counting, the pre-flight checks, namespaces and veth
# links it creates and always removes, the DPDK EAL arguments, and waiting
# for an app's "ready" line.  Sourced (not run: scripts/test.sh runs only
# tests/dataplane/*.sh).
#
#   . tests/dataplane/netns.bash
#   dp_setup TEST PREFIX "NS..." "BINARY..."   # sets LOG, PFX; creates the namespaces
#   veth_link NS_A IF_A MAC_A NS_B IF_B MAC_B
#   dp_start NAME NS CMD... || exit 1          # or PIDS+=($!) for a process started by hand
#   field "$LOG/NAME.log" '^final host' ok     # a KEY=value from an app's output
#   [ "$fails" = 0 ]
#
# Teardown is unconditional (trap on EXIT): SIGINT to each PID in PIDS,
# SIGKILL after 3 s, remove their /var/run/dpdk/<PFX>_* and delete the
# namespaces in CREATED.  dp_setup refuses to run if any namespace name
# already exists, so it never touches what it did not create.

PIDS=()
CREATED=()
fails=0

pass() { echo "PASS $*"; }
fail() { echo "FAIL $*"; fails=$((fails + 1)); }

dp_cleanup() {
    local p n
    for p in "${PIDS[@]}"; do kill -INT "$p" 2>/dev/null; done
    for _ in $(seq 30); do
        local alive=0
        for p in "${PIDS[@]}"; do kill -0 "$p" 2>/dev/null && alive=1; done
        [ $alive = 0 ] && break
        sleep 0.1
    done
    for p in "${PIDS[@]}"; do kill -KILL "$p" 2>/dev/null; done
    for p in "${PIDS[@]}"; do wait "$p" 2>/dev/null; done
    rm -rf /var/run/dpdk/"$PFX"_* 2>/dev/null
    for n in "${CREATED[@]}"; do ip netns del "$n" 2>/dev/null; done
    [ -n "${KEEP_LOGS:-}" ] && echo "logs in $LOG" || rm -rf "$LOG"
}

# dp_setup TEST PREFIX "NS..." "BINARY..." -- TEST names the FAIL lines and
# the log directory /tmp/TEST.XXXXXX; PREFIX (plus our PID) the DPDK runtime
# directories.  Exits with a FAIL line unless root, every BINARY is in $DP and
# no namespace exists yet; then creates the namespaces, IPv6 off (recipe
# gotcha 4: autoconf/MLD frames would disturb the counters), lo up.
dp_setup() {
    local test=$1 ns b n
    DP_TEST=$test
    PFX="$2$$"
    LOG=$(mktemp -d "/tmp/$test.XXXXXX")
    trap dp_cleanup EXIT
    trap 'exit 130' INT TERM
    if [ "$(id -u)" != 0 ]; then echo "FAIL $test: must run as root"; exit 1; fi
    for b in $4; do
        [ -x "$DP/$b" ] || { echo "FAIL $test: $DP/$b missing (make build/librocc.a && make -C dataplane)"; exit 1; }
    done
    for n in $3; do
        if ip netns list | awk '{print $1}' | grep -qx "$n"; then
            echo "FAIL $test: netns $n already exists; not touching it"; exit 1
        fi
    done
    for n in $3; do
        ip netns add "$n" || exit 1
        CREATED+=("$n")
        ip netns exec "$n" sysctl -qw net.ipv6.conf.all.disable_ipv6=1 net.ipv6.conf.default.disable_ipv6=1
        ip -n "$n" link set lo up
    done
}

# veth_link NS_A IF_A MAC_A NS_B IF_B MAC_B -- one veth pair, both ends up,
# IPv6 off and offloads off (gotcha 1: otherwise re-sent frames carry partial
# checksums).  No IP addresses: they live only in the DPDK programs, so the
# kernel never answers RoCEv2 frames with ICMP port-unreachable.
veth_link() {
    ip link add "$2" netns "$1" address "$3" type veth peer name "$5" netns "$4" address "$6" || exit 1
    local pair
    for pair in "$1 $2" "$4 $5"; do
        set -- $pair
        ip netns exec "$1" sysctl -qw "net.ipv6.conf.$2.disable_ipv6=1"
        ip netns exec "$1" ethtool -K "$2" tx off tso off gso off gro off >/dev/null 2>&1
        ip -n "$1" link set "$2" up
    done
}

eal() {  # eal LCORE NAME IFACE... -> EAL arguments: no hugepages, af_packet vdevs
    local l=$1 name=$2; shift 2
    echo -l "$l" --no-huge -m 256 --no-pci --no-telemetry --file-prefix "${PFX}_$name" '--log-level=*:notice'
    local k=0 v
    for v in "$@"; do echo --vdev "net_af_packet$k,iface=$v,framecnt=4096"; k=$((k + 1)); done
}

wait_ready() {  # wait_ready LOGFILE PID -> 0 once the app printed "ready", 1 if it died or 10 s passed
    for _ in $(seq 100); do
        grep -q '^ready' "$1" 2>/dev/null && return 0
        kill -0 "$2" 2>/dev/null || return 1
        sleep 0.1
    done
    return 1
}

# dp_start NAME NETNS CMD... -- run CMD in NETNS with its output in
# $LOG/NAME.log (NAME may name a file in an existing subdirectory of $LOG),
# its PID in PIDS (so teardown stops it) and in PID_<NAME with '/' as '_'>,
# and wait for its "ready" line.  1, after a FAIL line and the log, if it
# died or never got ready.
dp_start() {
    local name=$1 ns=$2; shift 2
    ip netns exec "$ns" "$@" >"$LOG/$name.log" 2>&1 &
    PIDS+=($!)
    eval "PID_${name//[^A-Za-z0-9_]/_}=$!"
    wait_ready "$LOG/$name.log" "$!" || { fail "$DP_TEST: $name did not start"; cat "$LOG/$name.log"; return 1; }
}

# field FILE LINE_REGEX KEY -> value of KEY=... on the first matching line
field() { grep -E "$2" "$1" | head -n 1 | tr ' ' '\n' | sed -n "s/^$3=//p" | head -n 1; }
