#!/bin/sh
# The layout check, on the quoted #includes of every source file
# (*.c, *.h, *.cu, *.cpp, *.cuh) under common, bench, tools, opencl and cuda:
#  - the include rule: what each layer may include (tests/ folders are
#    exempt). The allowed list per layer:
#      common/                the harness: common/
#      bench/<b>/, tools/<t>/ designs and host tools: anything but opencl/ and cuda/
#      opencl/*, cuda/*       the API helper layer (cl_device, cuda_device,
#                             cuda_driver, cuda_timer): common/ and its own API's
#                             top-level headers
#      opencl/<b>/, cuda/<b>/ a backend, where bench/<b>/backend.h is: its own folder;
#                             its contract, bench/<b>/backend.h and every header that
#                             includes, however deep (the contract's parts beside it,
#                             its element header, the contracts it builds on); the API
#                             helper layer and what that includes; its API's shared pieces
#      opencl/<p>/, cuda/<p>/ a shared backend piece, where there is no bench/<p>/: its
#                             own folder, any contract (as above), the API helper layer
#    Each include against it is one line on stderr:
#      include rule: FILE includes "NAME" (PATH): what FILE's layer may include
#  - no include cycle: a module is a folder's X.c with its X.h; X -> Y when
#    X.c or X.h includes Y.h;
#  - no link cycle (with a build directory): X -> Y when X's object needs a
#    symbol that Y's object defines (nm), for every object of the host code.
# tsort names the modules of every loop it finds. An include resolves as the
# compilers do: beside the includer, then under -Icommon -Ibench -Itools
# -Iopencl (C), or -Icommon -Ibench -Icuda (CUDA: cuda/'s *.cu, *.cpp, *.cuh, *.h).
#   common/tests/include_cycles.sh [--root DIR] [BUILD]
# --root: the tree to check (default: the one this script is in).
set -eu
root="$(dirname "$0")/../.."
if [ "${1:-}" = --root ]; then
    [ $# -ge 2 ] || { echo "include_cycles.sh: --root needs a directory" >&2; exit 2; }
    root=$2
    shift 2
fi
build=${1:-}
case $build in '' | /*) ;; *) build="$PWD/$build" ;; esac
cd "$root" || { echo "include_cycles.sh: cannot enter $root" >&2; exit 2; }
roots="common bench tools opencl cuda"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Every source file, then "FILE NAME TARGET" per quoted include (TARGET -
# where it names no file of the tree: a generated or system header).
find $roots \( -name '*.[ch]' -o -name '*.cu' -o -name '*.cpp' -o -name '*.cuh' \) 2>/dev/null | sort > "$work/files"
# shellcheck disable=SC2046 # one argument per file: no file name has a space
awk '
function norm(p) {
    while (sub(/[^\/]+\/\.\.\//, "", p)) continue
    return p
}
function resolve(dir, name, file,    c, n, i, r) {
    c = norm(dir "/" name)
    if (c in exists) return c
    n = split(file ~ /^cuda\// && file !~ /\.c$/ ? "common bench cuda" : "common bench tools opencl", r, " ")
    for (i = 1; i <= n; i++)
        if ((r[i] "/" name) in exists) return r[i] "/" name
    return "-"
}
FNR == NR { exists[$0] = 1; next }
FNR == 1 { dir = FILENAME; sub(/\/[^\/]*$/, "", dir) }
/^[ \t]*#[ \t]*include[ \t]*"/ {
    name = $0
    sub(/^[ \t]*#[ \t]*include[ \t]*"/, "", name)
    sub(/".*/, "", name)
    print FILENAME, name, resolve(dir, name, FILENAME)
}' "$work/files" $(cat "$work/files") > "$work/edges"

status=0
# The include rule.
if ! awk '
# Every file reachable from the files of list (space-separated) goes into
# allowed[ctx, file].
function close_over(ctx, list,    queue, head, tail, n, i, f, nb, m, j) {
    n = split(list, queue, " ")
    for (i = 1; i <= n; i++) allowed[ctx, queue[i]] = 1
    head = 1; tail = n
    while (head <= tail) {
        f = queue[head++]
        m = split(adj[f], nb, " ")
        for (j = 1; j <= m; j++)
            if (!((ctx, nb[j]) in allowed)) { allowed[ctx, nb[j]] = 1; queue[++tail] = nb[j] }
    }
}
function depth(p,    parts) { return split(p, parts, "/") }
function part(p, i,    parts) { split(p, parts, "/"); return parts[i] }
FNR == NR { exists[$0] = 1; files++; next }
{ from[++edges] = $1; name[edges] = $2; to[edges] = $3; if ($3 != "-") adj[$1] = adj[$1] " " $3 }
END {
    for (f in exists) {
        if (f ~ /^bench\/[^\/]+\/backend\.h$/) { b = part(f, 2); contract[b] = f; contracts = contracts " " f }
        if (f ~ /^(opencl|cuda)\/[^\/]+\.(h|cuh)$/) helpers[part(f, 1)] = helpers[part(f, 1)] " " f
    }
    for (b in contract) close_over("contract:" b, contract[b])
    close_over("contracts", contracts)
    close_over("helper:opencl", helpers["opencl"])
    close_over("helper:cuda", helpers["cuda"])
    bad = 0
    for (e = 1; e <= edges; e++) {
        f = from[e]; t = to[e]
        if (t == "-" || f ~ /\/tests\//) continue
        top = part(f, 1); why = ""
        if (top == "common") {
            if (t !~ /^common\//) why = "the harness (common/) includes only common/"
        } else if (top == "bench" || top == "tools") {
            if (t ~ /^(opencl|cuda)\//)
                why = "a design or a host tool includes no backend (opencl/, cuda/)"
        } else if (depth(f) == 2) {
            if (t !~ /^common\// && !(index(t, top "/") == 1 && depth(t) == 2))
                why = "the API helper layer (" top "/*) includes only common/ and " top "/*.h"
        } else {
            own = top "/" part(f, 2) "/"; b = part(f, 2)
            piece = depth(t) == 3 && index(t, top "/") == 1 && !(part(t, 2) in contract) && part(t, 2) != "tests"
            if (index(t, own) == 1 || (("helper:" top, t) in allowed)) continue
            if (b in contract) {
                if (!(("contract:" b, t) in allowed) && !piece)
                    why = "a backend includes only its own folder, its contract (bench/" b "/backend.h and what that includes), " "the shared pieces of " top "/ and the API helper layer (" top "/*.h)"
            } else if (!(("contracts", t) in allowed) && !piece) {
                why = "a shared backend piece includes only its own folder, the contracts (bench/*/backend.h and what they include) and the API helper layer (" top "/*.h)"
            }
        }
        if (why != "") { printf "include rule: %s includes \"%s\" (%s): %s\n", f, name[e], t, why > "/dev/stderr"; bad++ }
    }
    if (bad) exit 1
    printf "include rule: %d files, every include allowed\n", files
}' "$work/files" "$work/edges"; then
    status=1
fi

# A graph as "from to" lines; prints each loop's modules, fails if any.
acyclic() { # NAME FILE
    if tsort < "$2" > /dev/null 2> "$work/err"; then
        echo "$1: $(tr ' ' '\n' < "$2" | sort -u | wc -l) modules, no cycle"
        return 0
    fi
    echo "$1: modules in a cycle:" >&2
    sed -n 's/^tsort: -: input contains a loop:/  a cycle of:/p; s/^tsort: \([^-].*\)/    \1/p' "$work/err" | uniq >&2
    return 1
}

awk '{ m = $0; sub(/\.[^.\/]*$/, "", m); print m, m }' "$work/files" > "$work/includes"
awk '$3 != "-" { a = $1; b = $3; sub(/\.[^.\/]*$/, "", a); sub(/\.[^.\/]*$/, "", b); if (a != b) print a, b }' \
    "$work/edges" >> "$work/includes"
acyclic "include graph" "$work/includes" || status=1

if [ -n "$build" ]; then
    # One nm over every object (-A: each line starts "OBJECT:"), read
    # twice by awk: the symbols each module defines, then those it needs.
    find "$build/obj/common" "$build/obj/bench" "$build/obj/tools" "$build/obj/opencl" -name '*.o' | sort > "$work/objs"
    # shellcheck disable=SC2046 # one argument per object: no path has a space
    nm -A -g $(cat "$work/objs") > "$work/nm"
    # A line whose first field ends in ":" has no address: a symbol needed.
    awk -v skip=$((${#build} + 6)) '
    function module(line) { return substr(line, skip, index(line, ":") - skip - 2) }
    FNR == NR { if ($1 !~ /:$/ && $NF != "main") def[$NF] = def[$NF] " " module($0); next }
    FNR == 1 { while ((getline o < objs) > 0) print module(o ":"), module(o ":") }
    $1 ~ /:$/ && ($NF in def) {
        m = module($0); n = split(def[$NF], by, " ")
        for (i = 1; i <= n; i++)
            if (by[i] != m && !((m, by[i]) in edge)) { edge[m, by[i]] = 1; print m, by[i] }
    }
    ' objs="$work/objs" "$work/nm" "$work/nm" > "$work/links"
    acyclic "link graph" "$work/links" || status=1
fi
exit $status
