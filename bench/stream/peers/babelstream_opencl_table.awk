# The OpenCL mode's table (babelstream_opencl.sh beside it): lines of
# "dtype round crossroof kernel min median", "dtype round babel-best kernel
# min" and "dtype round babel-single kernel time"; variables elements, rounds.
function median(list,    n, v, i, j, x) {
    n = split(list, v, " ")
    for (i = 2; i <= n; i++) for (j = i; j > 1 && v[j] + 0 < v[j - 1] + 0; j--) { x = v[j]; v[j] = v[j - 1]; v[j - 1] = x }
    return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
}
function least(a, b) { return a == "" || b + 0 < a + 0 ? b : a }
# Every figure twice: for its round and for all rounds ("all").
function take(key, r,    g) {
    for (g = 0; g < 2; g++) {
        at = key SUBSEP (g ? r : "all")
        if ($3 == "crossroof") { cbest[at] = least(cbest[at], $5); cmed[at] = cmed[at] " " $6 }
        else if ($3 == "babel-best") bbest[at] = least(bbest[at], $5)
        else bsingle[at] = bsingle[at] " " $5
    }
}
{ keys[$1 " " $4] = 1; take($1 " " $4, $2) }
# "best-ratio median-ratio" of key in group g, or "" where a suite has no rows.
function ratios(key, g,    at) {
    at = key SUBSEP g
    if (!(at in cbest) || !(at in bbest) || bsingle[at] == "") return ""
    return sprintf("%.3f %.3f", bbest[at] / cbest[at], median(bsingle[at]) / median(cmed[at]))
}
END {
    split("copy mul add triad dot", kernel, " ")
    words["copy"] = 2; words["mul"] = 2; words["add"] = 3; words["triad"] = 3; words["dot"] = 2
    printf "%-6s %-6s %12s %12s %8s %12s %12s %8s  %s\n", "dtype", "kernel", "crossroof", "BabelStream", "best", \
        "crossroof", "BabelStream", "median", "per round (best/median)"
    printf "%-6s %-6s %12s %12s %8s %12s %12s %8s\n", "", "", "best GB/s", "best GB/s", "ratio", "median GB/s", \
        "median GB/s", "ratio"
    for (t = 1; t <= 2; t++) {
        dt = t == 1 ? "float" : "double"
        for (i = 1; i <= 5; i++) {
            key = dt " " kernel[i]
            if (!(key in keys)) continue
            if (ratios(key, "all") == "") { printf "%-6s %-6s  missing rows: see the logs\n", dt, kernel[i]; continue }
            bytes = words[kernel[i]] * (t == 1 ? 4 : 8) * elements
            at = key SUBSEP "all"
            cm = median(cmed[at]); bm = median(bsingle[at])
            per = ""
            for (r = 1; r <= rounds; r++) {
                split(ratios(key, r), rr, " ")
                per = per sprintf(" %.3f/%.3f", rr[1], rr[2])
            }
            printf "%-6s %-6s %12.2f %12.2f %7.3fx %12.2f %12.2f %7.3fx %s\n", dt, kernel[i], bytes / cbest[at] * 1e-9, \
                bytes / bbest[at] * 1e-9, bbest[at] / cbest[at], bytes / cm * 1e-9, bytes / bm * 1e-9, bm / cm, per
        }
    }
    printf "(%d rounds; ratio = BabelStream time / crossroof time, above 1 where crossroof is faster)\n", rounds
}
