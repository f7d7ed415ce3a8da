# shellcheck shell=bash
# key=value files of run_all.sh and the cluster scripts (run-options,
# cluster-options, a node's status): in a value a backslash is written \\
# and a newline \n, so that every string comes back as it was. The files
# are read by parsing, never run. Sourced, never run.

kv_escape() { # value -> its escaped form on stdout (one line)
    local e=${1//\\/\\\\}
    printf '%s' "${e//$'\n'/\\n}"
}
# Into the variable named (not one of the locals here); false on an
# unknown escape, which goes to bad_escape.
kv_unescape() { # variable text
    local kv_s=$2 kv_r=""
    while [[ $kv_s == *\\* ]]; do
        kv_r+=${kv_s%%\\*}
        kv_s=${kv_s#*\\}
        case ${kv_s:0:1} in
            \\) kv_r+=\\ ;;
            n) kv_r+=$'\n' ;;
            *) bad_escape=\\${kv_s:0:1}; return 1 ;;
        esac
        kv_s=${kv_s:1}
    done
    printf -v "$1" '%s' "$kv_r$kv_s"
}
