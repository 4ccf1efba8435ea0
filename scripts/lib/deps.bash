# scripts/lib/deps.bash -- sourced by the scripts that install their own
# Debian 12 dependencies (demo.sh, test.sh, bench/peers/compare-ns3.sh).
#
#   install_missing PKG...   apt-get install the PKGs that dpkg does not
#                            report as installed; returns apt-get's status.
#
# As root there is no sudo (a fresh Debian machine has none).  The
# environment variable goes through env(1): written as `$SUDO VAR=x cmd`
# with an empty $SUDO, the shell would run "VAR=x" as a command (exit 127),
# because an assignment is only recognised before expansion.
install_missing() {
    local need="" p sudo=""
    for p in "$@"; do
        dpkg -s "$p" >/dev/null 2>&1 || need="$need $p"
    done
    [ -n "$need" ] || return 0
    [ "$(id -u)" -eq 0 ] || sudo=sudo
    echo "installing:$need"
    # debconf would ask whether non-root users may capture (tshark): no.
    echo "wireshark-common wireshark-common/install-setuid boolean false" | $sudo debconf-set-selections 2>/dev/null
    # shellcheck disable=SC2086
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get update -qq &&
        $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $need >/dev/null
}
