# shellcheck shell=bash
# The run log, <run>/run-log.csv: one record a task, written whole, read
# back for a resumed run and the summary; and the clock words run_all.sh
# prints. Sourced by run_all.sh, never run.

now_ms() {
    if [ -n "${EPOCHREALTIME:-}" ]; then
        local t=${EPOCHREALTIME//[.,]/}
        echo $((10#$t / 1000))
    else
        date +%s%3N
    fi
}
# m:ss, or h:mm:ss past an hour.
clock() {
    local s=$(($1 < 0 ? 0 : $1))
    if [ "$s" -ge 3600 ]; then printf '%d:%02d:%02d' $((s / 3600)) $((s % 3600 / 60)) $((s % 60))
    else printf '%d:%02d' $((s / 60)) $((s % 60)); fi
}
words_time() {
    local s=$1
    if [ "$s" -ge 120 ]; then printf 'about %d min' $(((s + 30) / 60))
    elif [ "$s" -ge 60 ]; then printf 'about 1 min %d s' $((s - 60))
    else printf 'about %d s' "$s"; fi
}
# Milliseconds since T0 as seconds with one decimal: 12.3.
tenths_since() { # t0 (ms)
    local ms=$(( $(now_ms) - $1 ))
    printf '%d.%d' $((ms / 1000)) $((ms % 1000 / 100))
}

# One CSV field (RFC 4180): quoted where it holds a comma, a quote or a line break.
csv_field() {
    local s=$1
    if [[ $s == *[,\"$'\n'$'\r']* ]]; then s=${s//\"/\"\"}; s="\"$s\""; fi
    printf '%s' "$s"
}
# Reads one record of csv_records' output (common/csv_records.sh: a record
# a line, its fields split by \037, line breaks inside a field made spaces)
# from stdin into F. False at the end. The records come from awk, which
# takes a field whole: a field of megabytes costs one copy, where bash
# slicing one character at a time would take minutes.
csv_read() {
    local rec
    IFS= read -r rec || [ -n "$rec" ] || return 1
    IFS=$'\037' read -r -a F <<<"$rec"
}
# A log's last line, without the program's name and "skipped: " before it:
# why a benchmark was skipped or failed.
last_words() { # log name
    local w
    w=$(grep -v '^ *$' "$1" 2>/dev/null | tail -n 1)
    w=${w#"$2: "}
    printf '%s' "${w#skipped: }"
}

# The log of the run, with its header where it is new; the mode its
# records carry.
open_log() {
    mode=full
    [ ${#quick[@]} -gt 0 ] && mode=quick
    [ "$gpu_check" = 1 ] && mode=gpu-check
    log_csv=$out/run-log.csv
    log_header="task,backend,device_index,device,dir,status,exit_code,seconds,mode,finished,reason"
    # The run's own record: a file of its own, or the run cannot go on.
    if [ -e "$log_csv" ] || [ -L "$log_csv" ]; then
        [ -f "$log_csv" ] && [ ! -L "$log_csv" ] || die "$log_csv is not a regular file: the run's log cannot be kept"
    fi
    if [ ! -s "$log_csv" ]; then
        printf '%s\n' "$log_header" | write_atomically "$log_csv" || exit 1
    fi
}
# Appends a record by writing the log anew (write_atomically): a record is
# in the log whole or not at all. The run stops where it cannot be written.
record() { # task backend index label dir status rc seconds reason
    local line="" v
    for v in "$1" "$2" "$3" "$4" "$5" "$6" "$7" "$8" "$mode" "$(date -u +%Y-%m-%dT%H:%M:%SZ)" "$9"; do
        line+=$(csv_field "$v"),
    done
    { cat -- "$log_csv" && printf '%s\n' "${line%,}"; } | write_atomically "$log_csv" || exit 1
}
# Done before (a resumed run): every task whose last record in the log
# says how it ended; one whose last record says interrupted is owed.
read_done_tasks() {
    declare -gA done_task=() owed=()
    local -A last=()
    local k
    while csv_read; do
        [ "${F[0]:-}" = task ] && continue
        last["${F[4]:-}/${F[0]:-}"]=${F[5]:-}
    done < <(csv_records "$log_csv")
    for k in "${!last[@]}"; do
        if [ "${last[$k]}" = interrupted ]; then owed[$k]=1; else done_task[$k]=1; fi
    done
    done_before=${#done_task[@]}
}
