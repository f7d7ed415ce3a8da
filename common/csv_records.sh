# shellcheck shell=bash
# Reading the suite's CSV files from shell scripts (plot/plot.sh,
# tools/peers.sh). Sourced, never run.

# The records of a CSV file, one a line, fields separated by the unit
# separator (\037): quoted fields, doubled quotes and line breaks inside
# quotes read as RFC 4180 has them, line breaks turned into spaces. Only a
# regular file of at most 64 MiB is read (a FIFO would block, /dev/zero never
# end); any other is one line on stderr and no record.
csv_records() { # file
    if [ ! -f "$1" ] || [ -n "$(find -L "$1" -maxdepth 0 -size +65536k 2>/dev/null)" ]; then
        [ ! -e "$1" ] && [ ! -L "$1" ] || printf '%s: not read: not a regular file of at most 64 MiB\n' "$1" >&2
        return 0
    fi
    # Each stretch between separators is taken whole (index, match), never a
    # character at a time: a field of megabytes costs one copy, not one per
    # character.
    awk '
        {
            line = $0
            if (inq) field = field " "
            while (line != "") {
                if (inq) {
                    p = index(line, "\"")
                    if (p == 0) { field = field line; line = ""; continue }
                    field = field substr(line, 1, p - 1)
                    if (substr(line, p + 1, 1) == "\"") { field = field "\""; line = substr(line, p + 2) }
                    else { inq = 0; line = substr(line, p + 1) }
                    continue
                }
                p = match(line, /[,"\r]/)
                if (p == 0) { field = field line; line = ""; continue }
                c = substr(line, p, 1)
                field = field substr(line, 1, p - 1)
                line = substr(line, p + 1)
                if (c == "\"") inq = 1
                else if (c == ",") { record = record field "\037"; field = "" }
            }
            if (inq) next
            print record field
            record = ""; field = ""
        }' "$1" 2>/dev/null || true
}
