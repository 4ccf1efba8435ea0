# scripts/lib/expargs.bash -- the options every experiment-comparison script
# takes (escape-compare.sh, openqueue-exp.sh), and the simulator it runs.
#
#   . scripts/lib/expargs.bash
#   exp_args NAME DEFAULT_OUT "$@"   # sets out, quick, ROCCSIM; builds roccsim
#                                    # unless ROCCSIM_PREBUILT; creates $out
# --quick sets quick=1 (the files' CI length); -o DIR the output directory.
# A script with options of its own defines, before calling exp_args,
#   exp_opt OPTION VALUE   take OPTION (VALUE: the next argument, or empty):
#                          set exp_shift=1 (OPTION alone) or 2 (with VALUE)
#                          and return 0; return 1 if OPTION is not its own
# (scripts/rcc-fattree.sh).  Anything else exits 2 naming the script.
# shellcheck disable=SC2034  # out, quick: set for the calling script
exp_args() {
    local name=$1
    out=$2; quick=0
    shift 2
    while [ $# -gt 0 ]; do
        case $1 in
            --quick) quick=1; shift ;;
            -o) out=${2:?-o needs a directory}; shift 2 ;;
            *)  exp_shift=0
                if declare -F exp_opt >/dev/null && exp_opt "$1" "${2-}"; then
                    [ "$exp_shift" -le $# ] || { echo "$name: $1 needs a value (see --help)" >&2; exit 2; }
                    shift "$exp_shift"
                else
                    echo "$name: unknown argument '$1' (see --help)" >&2; exit 2
                fi ;;
        esac
    done
    ROCCSIM=${ROCCSIM:-build/roccsim}
    [ -n "${ROCCSIM_PREBUILT:-}" ] || make -s -j"$(nproc 2>/dev/null || echo 2)" build/roccsim || exit 2
    mkdir -p "$out"
}
