#!/bin/sh
# Fails when modules depend on each other in a cycle, two ways:
#  - includes: a module is a folder's X.c with its X.h; X -> Y when X.c or X.h
#    includes Y.h (found beside X or under an include root);
#  - links (with a build directory): X -> Y when X's object needs a symbol
#    that Y's object defines (nm), for every object of the host code.
# tsort names the modules of every loop it finds.
#   common/tests/include_cycles.sh [BUILD]
set -eu
cd "$(dirname "$0")/../.."
build=${1:-}
roots="common bench tools opencl cuda"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

resolve() { # the file an include names, from the includer's folder or a root
    [ -f "$1/$2" ] && { echo "$1/$2"; return; }
    for r in $roots; do [ -f "$r/$2" ] && { echo "$r/$2"; return; }; done
    return 0
}

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

find $roots \( -name '*.[ch]' -o -name '*.cu' -o -name '*.cuh' \) | sort | while read -r f; do
    from=${f%.*}
    echo "$from $from"
    sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f" | while read -r inc; do
        target=$(resolve "$(dirname "$f")" "$inc")
        if [ -n "$target" ] && [ "${target%.*}" != "$from" ]; then echo "$from ${target%.*}"; fi
    done
done > "$work/includes"
status=0
acyclic "include graph" "$work/includes" || status=1

if [ -n "$build" ]; then
    objs=$(find "$build/obj/common" "$build/obj/bench" "$build/obj/tools" "$build/obj/opencl" -name '*.o' | sort)
    for o in $objs; do
        m=${o#"$build"/obj/}
        nm --defined-only -g "$o" | awk -v m="${m%.o}" 'NF == 3 && $3 != "main" { print $3, m }'
    done | sort > "$work/defs"
    for o in $objs; do
        m=${o#"$build"/obj/}
        echo "${m%.o} ${m%.o}"
        nm -u "$o" | awk '{ print $NF }' | sort -u | join - "$work/defs" | awk -v m="${m%.o}" '$2 != m { print m, $2 }'
    done > "$work/links"
    acyclic "link graph" "$work/links" || status=1
fi
exit $status
