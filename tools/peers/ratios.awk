# The rows of peers.csv from a mode's samples, one line per suite, slice
# and statistic:
#   TEST CRTEST DTYPE SIZE BYTES STAT SIDE VALUE N
# SIDE is cr (crossroof) or peer; STAT says what VALUE is and how the slices
# pool: best, a time in seconds (the least of every slice's); mean, a time
# (every slice's mean weighted by its N repetitions); median, a bandwidth in
# GB/s (the median of the slices' figures). Times become GB/s as BYTES / time.
# A line "note TEST CRTEST DTYPE SIZE TEXT..." puts TEXT in the rows of
# that test. Variables: suite, done and planned (slices).
# Each row: crossroof's figure and the peer's in GB/s, ratio = crossroof's
# / the peer's (above 1 where crossroof is faster), n of each side, and a
# flag where the two are more than 2x apart on the same work.

function csv(s) {
    if (s ~ /[",\n]/) { gsub(/"/, "\"\"", s); s = "\"" s "\"" }
    return s
}
function median(list,    n, v, i, j, x) {
    n = split(list, v, " ")
    for (i = 2; i <= n; i++) for (j = i; j > 1 && v[j] + 0 < v[j - 1] + 0; j--) { x = v[j]; v[j] = v[j - 1]; v[j - 1] = x }
    return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
}
$1 == "note" {
    text = $0
    sub(/^note +[^ ]+ +[^ ]+ +[^ ]+ +[^ ]+ +/, "", text)
    notes[$2 SUBSEP $3 SUBSEP $4 SUBSEP $5] = text
    next
}
NF == 9 {
    test = $1 SUBSEP $2 SUBSEP $3 SUBSEP $4
    key = test SUBSEP $6
    if (!(key in bytes)) { order[++nkeys] = key; bytes[key] = $5 }
    at = key SUBSEP $7
    if ($6 == "best") { if (!(at in n) || $8 + 0 < value[at] + 0) value[at] = $8 }
    else if ($6 == "mean") value[at] += $8 * $9
    else value[at] = value[at] " " $8
    n[at] += $9
    next
}
{ print "ratios.awk: malformed sample line " NR ": " $0 > "/dev/stderr"; bad = 1; exit 1 }
function figure(key, side,    at) {
    at = key SUBSEP side
    if (!(at in n)) return ""
    split(key, k, SUBSEP)
    if (k[5] == "median") return median(value[at])
    if (k[5] == "mean") return bytes[key] / (value[at] / n[at]) * 1e-9
    return bytes[key] / value[at] * 1e-9
}
END {
    if (bad) exit 1
    for (i = 1; i <= nkeys; i++) {
        key = order[i]
        split(key, k, SUBSEP)
        c = figure(key, "cr"); p = figure(key, "peer")
        if (c == "" || p == "" || p + 0 <= 0 || c + 0 <= 0) {
            print "ratios.awk: " k[1] " " k[3] " " k[4] " " k[5] ": no figure of " (c == "" ? "crossroof" : "the peer") > "/dev/stderr"
            exit 1
        }
        ratio = c / p
        note = notes[k[1] SUBSEP k[2] SUBSEP k[3] SUBSEP k[4]]
        flags = ""
        if (ratio < 0.5 || ratio > 2) {
            flags = "far-apart"
            note = note (note == "" ? "" : "; ") "the suites are more than 2x apart on the same work: read both logs before trusting either"
        }
        if (done < planned)
            note = note (note == "" ? "" : "; ") sprintf("stopped at its budget after %d of %d slices", done, planned)
        printf "%s,%s,%s,%s,%s,%s,%.6g,%.6g,GB/s,%.4f,%d,%d,%d,%s,%s\n", suite, k[1], k[2], k[3] == "-" ? "" : k[3], k[4],
            k[5], c, p, ratio, n[key SUBSEP "cr"], n[key SUBSEP "peer"], done, flags, csv(note)
    }
}
