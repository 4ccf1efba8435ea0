# scripts/lib/help.bash -- sourced first by every script in scripts/:
#   script_help "$@"
# prints the script's header comment (its usage) and exits 0 when the first
# argument is -h or --help, so asking for help never runs the script.
script_help() {
    case "${1:-}" in
        -h|--help)
            sed -n '2,/^[^#]/{/^#/!q;s/^# \{0,1\}//;p}' "$0"
            exit 0 ;;
    esac
}
