# scripts/lib/gnuplot.bash -- sourced by the scripts that draw with gnuplot.
# gnuplot runs `backquoted` text as a shell command and a quote ends a
# string, so no name from a run directory, a scenario file or the command
# line is written into a gnuplot script as it is:
#   gp_workdir            make the private scratch directory $GP_WORK (removed
#                         on exit) in which gnuplot runs
#   gp_link FILE NAME     $GP_WORK/NAME: a symlink to FILE, so the script names
#                         data by NAME (a name of our own) and never by FILE
#   gp_quote TEXT         TEXT as a gnuplot single-quoted string (no command or
#                         macro substitution inside one): ' doubled, control
#                         bytes (a newline would end the command) shown as ?
#   gp_run                gnuplot (no shell) in $GP_WORK, script on stdin
#   gp_install NAME DEST  move $GP_WORK/NAME to DEST through a temporary file
#                         beside it, so DEST is never half-written
gp_workdir() {
    GP_WORK=$(mktemp -d "${TMPDIR:-/tmp}/rocc-plot.XXXXXX") || return 1
    trap 'rm -rf -- "$GP_WORK"' EXIT
}
gp_link() {
    local f=$1
    case $f in /*) ;; *) f=$PWD/$f ;; esac
    ln -s -- "$f" "$GP_WORK/$2"
}
gp_quote() {
    local s
    s=$(printf '%s' "$1" | tr '\000-\037\177' '?')
    printf "'%s'" "${s//\'/\'\'}"
}
gp_run() {
    (cd "$GP_WORK" && exec gnuplot)
}
gp_install() {
    local tmp
    [ -s "$GP_WORK/$1" ] || return 1
    tmp=$(mktemp "$2.tmpXXXXXX") || return 1
    if cp -- "$GP_WORK/$1" "$tmp" && chmod 644 "$tmp" && mv -f -- "$tmp" "$2"; then
        return 0
    fi
    rm -f -- "$tmp"
    return 1
}
