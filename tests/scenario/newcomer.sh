#!/usr/bin/env bash
# The README's two commands as a newcomer runs them on a fresh Debian 12
# machine, as root, with the packages absent (issue 11, part 0).  The
# packages cannot be uninstalled from a shared test machine, so the test
# puts a dpkg on PATH that reports every package missing and an apt-get
# that records how it was called: the scripts' install step then runs the
# way it does on a fresh machine.  An install line that the shell cannot run
# (the old `$SUDO DEBIAN_FRONTEND=... apt-get` with an empty $SUDO exited
# 127) fails here.  Normal build only (the demo builds build/roccsim).
set -u
cd "$(dirname "$0")/../.."
case "${BUILD:-build}" in build) ;; *) exit 0 ;; esac
. tests/scenario/common.bash
mkdir -p "$tmp/bin"
cat >"$tmp/bin/dpkg" <<'SH'
#!/bin/sh
exit 1
SH
cat >"$tmp/bin/apt-get" <<SH
#!/bin/sh
echo "DEBIAN_FRONTEND=\${DEBIAN_FRONTEND:-unset} apt-get \$*" >> "$tmp/apt.log"
SH
printf '#!/bin/sh\ncat >/dev/null\n' >"$tmp/bin/debconf-set-selections"
# Not root in this shell (a developer's run): sudo is what the scripts call.
printf '#!/bin/sh\nexec "$@"\n' >"$tmp/bin/sudo"
chmod +x "$tmp/bin/"*
# 1. scripts/demo.sh: installs, builds, runs Fig. 9, plots.
: >"$tmp/apt.log"
PATH="$tmp/bin:$PATH" RUNS_DIR="$tmp/runs" bash scripts/demo.sh >"$tmp/demo.log" 2>&1; rc=$?
ok demo_exits_0 "[ $rc -eq 0 ]" "$tmp/demo.log"
ok demo_installs "grep -q '^DEBIAN_FRONTEND=noninteractive apt-get install -y -qq gcc make libc6-dev gnuplot-nox' $tmp/apt.log" "$tmp/apt.log" "$tmp/demo.log"
ok demo_no_127 "! grep -q 'command not found' $tmp/demo.log" "$tmp/demo.log"
ok demo_plots "[ -s $tmp/runs/convergence/plot.png ] && [ -s $tmp/runs/convergence/summary.json ]" "$tmp/demo.log"
# 2. scripts/test.sh: its install step (the rest is this very test run).
: >"$tmp/apt.log"
PATH="$tmp/bin:$PATH" bash scripts/test.sh --deps-only >"$tmp/test.log" 2>&1; rc=$?
ok test_deps_exit_0 "[ $rc -eq 0 ]" "$tmp/test.log"
ok test_installs "grep -q '^DEBIAN_FRONTEND=noninteractive apt-get install -y -qq gcc make libc6-dev valgrind clang openmpi-bin libopenmpi-dev gnuplot-nox tshark python3 libdpdk-dev' $tmp/apt.log" "$tmp/apt.log" "$tmp/test.log"
# 3. A failed install is said, not hidden: demo.sh stops with exit 2.
printf '#!/bin/sh\nexit 100\n' >"$tmp/bin/apt-get"
PATH="$tmp/bin:$PATH" RUNS_DIR="$tmp/runs2" bash scripts/demo.sh >"$tmp/demo2.log" 2>&1; rc=$?
ok demo_install_failure_exit_2 "[ $rc -eq 2 ] && grep -q 'installing gcc, make, gnuplot-nox failed' $tmp/demo2.log" "$tmp/demo2.log"
# 4. Every script answers --help without running.
for s in scripts/*.sh bench/run.sh bench/peers/compare-ns3.sh; do
    n=$(basename "$s" .sh)
    timeout 10 bash "$s" --help >"$tmp/help-$n.log" 2>&1; rc=$?
    ok "help_$n" "[ $rc -eq 0 ] && head -n 1 $tmp/help-$n.log | grep -q '$(basename "$s")'" "$tmp/help-$n.log"
done
