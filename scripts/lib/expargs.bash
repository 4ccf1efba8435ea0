# scripts/lib/expargs.bash -- the options every experiment-comparison script
# takes (escape-compare.sh, openqueue-exp.sh), and the simulator it runs.
#
#   . scripts/lib/expargs.bash
#   exp_args NAME DEFAULT_OUT "$@"   # sets out, quick, ROCCSIM; builds roccsim
#                                    # unless ROCCSIM_PREBUILT; creates $out
# --quick sets quick=1 (the files' CI length); -o DIR the output directory;
# anything else exits 2 naming the script.
# shellcheck disable=SC2034  # out, quick: set for the calling script
exp_args() {
    local name=$1
    out=$2; quick=0
    shift 2
    while [ $# -gt 0 ]; do
        case $1 in
            --quick) quick=1; shift ;;
            -o) out=${2:?-o needs a directory}; shift 2 ;;
            *) echo "$name: unknown argument (see --help)" >&2; exit 2 ;;
        esac
    done
    ROCCSIM=${ROCCSIM:-build/roccsim}
    [ -n "${ROCCSIM_PREBUILT:-}" ] || make -s -j"$(nproc 2>/dev/null || echo 2)" build/roccsim || exit 2
    mkdir -p "$out"
}
