#!/usr/bin/env bash
# bench/cnp_auth_cost.sh -- cycles per CNP of validation and of the SipHash
# authenticator (bench/cnp_auth_cost.c; results in docs/dataplane.md).
# Not a test: timings depend on the machine.
set -eu
cd "$(dirname "$0")/.."
[ "${1:-}" = --help ] && { sed -n '2,4p' "$0"; exit 0; }
make -s build/librocc.a
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
${CC:-cc} -std=gnu11 -O2 -Wall -Wextra -Werror -Isrc/cc bench/cnp_auth_cost.c build/librocc.a -o "$out/cost"
"$out/cost"
