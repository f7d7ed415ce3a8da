#!/usr/bin/env bash
# Whether every ELF file of a GPU bundle finds each library it needs in the
# bundle's build/lib, or is one the machine has of its own: glibc (with the
# loader), libstdc++ and libgcc_s, and the CUDA driver's libcuda and
# libnvidia-ml, which may be missing here. ldd runs with an empty
# environment (no LD_LIBRARY_PATH), and each path it resolves is followed to
# its file: a library the run path misses resolves to the system's copy,
# outside the bundle, and is named.
#   resolves_inside.sh BUNDLE
# Prints one line per library found elsewhere or not found, then a count.
# Exit status: 0 all resolved as they should; 1 not.
set -euo pipefail

bundle=$(cd -- "$1" && pwd -P)
own_lib='^(linux-vdso|ld-linux-[a-z0-9_-]+|lib(c|m|dl|pthread|rt|mvec|util|resolv|anl|stdc\+\+|gcc_s))\.so(\.[0-9]+)*$'
driver='^lib(cuda|nvidia-ml)\.so(\.[0-9]+)*$'
files=0 inside=0 bad=0
while IFS= read -r -d '' f; do
    [ "$(od -An -tx1 -N4 -- "$f" | tr -d ' \n')" = 7f454c46 ] || continue
    files=$((files + 1))
    rel=${f#"$bundle"/}
    if ! said=$(env -i /usr/bin/ldd "$f" 2>&1); then
        [[ $said == *"not a dynamic executable"* ]] && continue
        echo "$rel: ldd failed: $said"
        bad=1
        continue
    fi
    while read -r name arrow path _; do
        [ "$arrow" = "=>" ] || continue
        if [ "$path" = not ]; then
            [[ $name =~ $driver ]] || { echo "$rel: $name not found"; bad=1; }
            continue
        fi
        real=$(realpath -- "$path")
        if [[ $real == "$bundle"/build/lib/* ]]; then
            inside=$((inside + 1))
        elif ! [[ $name =~ $own_lib || $name =~ $driver ]]; then
            echo "$rel: $name from $real, outside the bundle"
            bad=1
        fi
    done <<<"$said"
done < <(find "$bundle/build" -type f -print0)
echo "resolves_inside.sh: $files ELF files, $inside libraries found inside the bundle"
[ "$files" -gt 0 ] && [ $bad = 0 ]
