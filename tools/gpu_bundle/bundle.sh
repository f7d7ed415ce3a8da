#!/usr/bin/env bash
# A GPU bundle: what run_all.sh needs on a machine that has only an NVIDIA
# driver, in one folder, built, with its shared libraries, so that nothing is
# installed or built there (make gpu-bundle assembles one; docs/gpu-check.md, GPU bundle).
#
#   tools/gpu_bundle/bundle.sh --bin DIR --tools DIR --out DIR [--peers DIR]
#                              [--ptxas FILE] [--max-mib N] [--about LINE]...
#
# OUT mirrors the tree's run-time part: run_all.sh, common/*.sh,
# tools/run/*.sh, plot/, the benchmarks' descriptors and figures
# (bench/*/descriptor, bench/*/figures/), tools/peers.sh with its modes
# (tools/peers/, bench/*/peers/), tools/slurm/*.sh,
# results/reference/ (plot.sh's tables),
# and build/bin (the benchmarks of --bin), build/tools (the host tools of
# --tools), build/peers (the executables at the top of --peers, where it
# exists), build/cuda/bin/ptxas (--ptxas: the toolkit's offline compiler,
# which a CUDA benchmark may run for what it reads of the machine code:
# docs/gpu-check.md), and build/lib: every shared library
# those need but the machine's own (glibc, libstdc++, libgcc_s, the CUDA
# driver and NVML), found through run paths relative to $ORIGIN.
# gpu-bundle.txt marks it for run_all.sh and says what it holds and needs,
# with each --about line. A folder OUT is replaced only where it holds a
# bundle.
# Exit status: 0 written; 1 a library not found, a copy failed, or OUT over
# --max-mib (default 64; OUT is then left for a look); 2 bad usage.
set -euo pipefail

say_error() {
    local m="$*"
    m=${m//$'\n'/\\n}
    printf 'bundle.sh: error: %s\n' "${m//[[:cntrl:]]/?}" >&2
}
die() { say_error "$@"; exit 2; }
fail() { say_error "$@"; exit 1; }

bin="" tools="" out="" peers="" ptxas="" max_mib=64 about=()
need_value() { [ $# -ge 2 ] || die "$1 needs a value"; }
while [ $# -gt 0 ]; do
    case $1 in
        --bin) need_value "$@"; bin=$2 ;;
        --tools) need_value "$@"; tools=$2 ;;
        --out) need_value "$@"; out=$2 ;;
        --peers) need_value "$@"; peers=$2 ;;
        --ptxas) need_value "$@"; ptxas=$2 ;;
        --max-mib) need_value "$@"; [[ $2 =~ ^[1-9][0-9]{0,5}$ ]] || die "--max-mib: '$2' is not a positive whole number of MiB"
                   max_mib=$2 ;;
        --about) need_value "$@"; about+=("$2") ;;
        -h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        *) die "unknown argument '$1' (see --help)" ;;
    esac
    shift 2
done
for opt in bin tools; do
    [ -n "${!opt}" ] || die "--$opt DIR is required"
    [ -d "${!opt}" ] || die "--$opt: ${!opt} is not a directory"
done
[ -n "$out" ] || die "--out DIR is required"
[ -z "$ptxas" ] || { [ -f "$ptxas" ] && [ -x "$ptxas" ]; } || die "--ptxas: $ptxas is not an executable file"
# Absolute, so that no path handed to a tool starts with a dash.
[[ $out == /* ]] || out=$PWD/$out
while [[ $out == */ ]]; do out=${out%/}; done
[ -n "$out" ] || die "--out: / cannot be a bundle"
if [ -e "$out" ] || [ -L "$out" ]; then
    [ -d "$out" ] && [ -f "$out/gpu-bundle.txt" ] || die "--out: $out exists and is not a GPU bundle; it is not replaced"
fi
for t in patchelf ldd strip objdump; do
    command -v "$t" >/dev/null || fail "$t not found (patchelf: apt-get install patchelf; common/deps.sh installs it)"
done
tree=$(cd -- "$(dirname -- "$0")/../.." && pwd -P)

# The machine's own libraries, never bundled: the C library and the loader,
# the C++ and GCC runtimes, and the NVIDIA driver's, which a machine without
# a GPU lacks (the CUDA executables load them at run time; a peer may link them).
machine_lib() { # soname
    case $1 in
        linux-vdso.so.* | ld-linux*.so.* | libc.so.* | libm.so.* | libdl.so.* | libpthread.so.* | librt.so.* | \
            libmvec.so.* | libutil.so.* | libresolv.so.* | libanl.so.* | libstdc++.so.* | libgcc_s.so.* | \
            libcuda.so.* | libnvidia-ml.so.*) return 0 ;;
    esac
    return 1
}
is_elf() { [ "$(head -c 4 -- "$1" | od -An -tx1 | tr -d ' \n')" = 7f454c46 ]; }

stage=$out.tmp.$$
trap 'rm -rf -- "$stage"' EXIT
mkdir -p -- "$stage"/build/{bin,tools,peers,lib}

# ---- the scripts, as they lie in the tree ----
copy_scripts() {
    local f rel
    for f in "$tree"/{run_all.sh,common/*.sh,tools/run/*.sh,plot/plot.sh,plot/*.gp,tools/slurm/*.sh} \
        "$tree"/tools/{peers.sh,peers/*.sh,peers/*.awk} \
        "$tree"/bench/*/{descriptor,figures/*.gp,peers/*.sh,peers/*.awk} \
        "$tree"/results/reference/{*.csv,README.md}; do
        [ -f "$f" ] || continue
        rel=${f#"$tree"/}
        [[ $rel != */* ]] || mkdir -p -- "$stage/${rel%/*}"
        cp -p -- "$f" "$stage/$rel" || fail "cannot copy $f"
    done
}

# ---- the executables: each regular executable file at the top of a folder ----
elves=() # the ELF files copied, for their libraries and run paths
copy_executables() { # from to count-variable
    local f n=0
    for f in "$1"/*; do
        [ -f "$f" ] && [ -x "$f" ] || continue
        cp -L -- "$f" "$2/" || fail "cannot copy $f"
        f=$2/${f##*/}
        chmod u+w -- "$f"
        if is_elf "$f"; then
            strip --strip-debug -- "$f" 2>/dev/null || true # where strip cannot, the size stays
            elves+=("$f")
        fi
        n=$((n + 1))
    done
    printf -v "$3" '%s' "$n"
}

# ---- the libraries: every one ldd resolves for them but the machine's ----
# ldd lists what each needs, its libraries' needs too; a library it does
# not find fails the bundle, but the driver's.
declare -A bundled=()
dynamic=()      # the ELF files with a dynamic section, for the versions they need
needs_bundled=() # those that need a bundled library, for their run path
copy_libraries() {
    local f said name path rest needs
    for f in "${elves[@]}"; do
        if ! said=$(env -u LD_LIBRARY_PATH -u LD_PRELOAD ldd -- "$f" 2>&1); then
            [[ $said == *"not a dynamic executable"* ]] && continue
            fail "ldd $f: ${said##*$'\n'}"
        fi
        [[ $said == *"statically linked"* ]] && continue
        dynamic+=("$f")
        needs=0
        while read -r name _ path rest; do
            machine_lib "$name" && continue
            [ "$path" = not ] && fail "${f#"$stage"/}: $name not found here, so it cannot be bundled"
            needs=1
            [ -n "${bundled[$name]:-}" ] && continue
            cp -L -- "$path" "$stage/build/lib/$name" || fail "cannot copy $path"
            chmod u+w -- "$stage/build/lib/$name"
            bundled[$name]=$path
        done < <(awk '$2 == "=>" { print $1, $2, $3 }' <<<"$said")
        [ $needs = 0 ] || needs_bundled+=("$f")
    done
}

# Each executable that needs one finds the bundled libraries in build/lib,
# by a path relative to its own folder; each library finds them beside
# itself. Files that need none are left as they are.
set_run_paths() {
    local f rel up
    for f in "${needs_bundled[@]}"; do
        rel=${f#"$stage"/build/}
        up=${rel//[^\/]/}
        up=${up//\//../}
        patchelf --set-rpath "\$ORIGIN/${up}lib" "$f" || fail "patchelf could not set the run path of $f"
    done
    for f in "$stage"/build/lib/*; do
        [ -e "$f" ] || continue
        patchelf --set-rpath '$ORIGIN' "$f" || fail "patchelf could not set the run path of $f"
    done
}

# The newest symbol version of a family (GLIBC_, GLIBCXX_) that the bundle needs.
newest_version() { # prefix
    local f
    for f in "${dynamic[@]}" "$stage"/build/lib/*; do
        [ -e "$f" ] && objdump -T -- "$f" 2>/dev/null
    done | grep -o "$1[0-9][0-9.]*" | sort -uV | tail -n 1
}

# What is there, in words: the names in a folder.
names_in() { # dir
    local f list=""
    for f in "$1"/*; do [ -e "$f" ] && list+=" ${f##*/}"; done
    list=${list:- none}
    printf '%s' "${list# }"
}

manifest() { # size in MiB
    echo "crossroof GPU bundle (make gpu-bundle): ./run_all.sh [--gpu-check] runs here, and installs and builds nothing."
    [ ${#about[@]} -eq 0 ] || printf '%s\n' "${about[@]}"
    local cxx
    cxx=$(printf '%s ' $(newest_version GLIBCXX_) $(newest_version CXXABI_))
    echo "needs: Linux $(uname -m), glibc $(newest_version GLIBC_ | sed 's/GLIBC_//') or newer, libstdc++${cxx:+ (${cxx% })}," \
        "an NVIDIA driver; setsid, setpriv and flock (util-linux); gnuplot for the figures"
    echo "benchmarks (build/bin): $(names_in "$stage/build/bin")"
    echo "host tools (build/tools): $(names_in "$stage/build/tools")"
    echo "peers (build/peers): $(names_in "$stage/build/peers")"
    echo "libraries (build/lib): $(names_in "$stage/build/lib")"
    if [ -n "$ptxas" ]; then
        echo "offline compiler: build/cuda/bin/ptxas, $("$ptxas" --version | grep -o 'release [0-9.]*' || true)"
    else
        echo "offline compiler: none (what a CUDA benchmark reads of ptxas's output needs a toolkit's ptxas: CUDA_HOME)"
    fi
    echo "size: $1 MiB"
}

copy_scripts
copy_executables "$bin" "$stage/build/bin" nbin
[ "$nbin" -gt 0 ] || fail "--bin: no executable in $bin"
copy_executables "$tools" "$stage/build/tools" ntools
if [ -n "$ptxas" ]; then
    mkdir -p -- "$stage/build/cuda/bin"
    cp -L -- "$ptxas" "$stage/build/cuda/bin/ptxas" || fail "cannot copy $ptxas"
    elves+=("$stage/build/cuda/bin/ptxas")
fi
npeers=0
if [ -n "$peers" ] && [ -d "$peers" ]; then
    copy_executables "$peers" "$stage/build/peers" npeers
elif [ -n "$peers" ]; then
    echo "bundle.sh: no peers: $peers is not a folder of prebuilt peer executables; the bundle holds none"
else
    echo "bundle.sh: no peers: no --peers given; the bundle holds none"
fi
copy_libraries
set_run_paths

bytes=$(du -sb -- "$stage" | cut -f1)
mib=$(awk -v b="$bytes" 'BEGIN { printf "%.1f", b / 1048576 }')
manifest "$mib" >"$stage/gpu-bundle.txt"
rm -rf -- "$out"
mv -- "$stage" "$out"
trap - EXIT
bytes=$(du -sb -- "$out" | cut -f1)
mib=$(awk -v b="$bytes" 'BEGIN { printf "%.1f", b / 1048576 }')
echo "bundle.sh: $out: $nbin benchmarks, $ntools host tools, $npeers peers, ${#bundled[@]} libraries; $mib MiB (limit $max_mib MiB)"
[ "$bytes" -le $((max_mib * 1048576)) ] ||
    fail "$out is $mib MiB, over the $max_mib MiB a device machine is carried (left there for a look)"
