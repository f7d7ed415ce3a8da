# shellcheck shell=bash
# Reading the suite's CSV files from shell scripts (plot/plot.sh,
# tools/peers.sh). Sourced, never run.

# The records of a CSV file, one a line, fields separated by the unit
# separator (\037): quoted fields, doubled quotes and line breaks inside
# quotes read as RFC 4180 has them, line breaks turned into spaces.
csv_records() { # file
    awk '
        {
            line = $0
            if (inq) field = field " "
            for (i = 1; i <= length(line); i++) {
                c = substr(line, i, 1)
                if (inq) {
                    if (c != "\"") field = field c
                    else if (substr(line, i + 1, 1) == "\"") { field = field c; i++ }
                    else inq = 0
                } else if (c == "\"") inq = 1
                else if (c == ",") { record = record field "\037"; field = "" }
                else if (c != "\r") field = field c
            }
            if (inq) next
            print record field
            record = ""; field = ""
        }' "$1" 2>/dev/null || true
}
