#!/bin/sh
# The documents check (make docs-check): what README.md, ARCHITECTURE.md and
# docs/**/*.md name must be there.
#  - every path in a code span (`bench/stream/design.c`, `tools/run/`, a word
#    of a longer span such as `gnuplot -c bench/stream/figures/footprint.gp
#    ...`) whose first folder is one of the tree's top-level entries exists;
#    a placeholder (`bench/<b>/descriptor`) or a glob (`tools/run/*.sh`)
#    matches at least one file; a name that ends with a slash is a folder.
#    Not checked, by pattern: build outputs (build/...), run outputs
#    (results/ but results/reference/ and results/README.md: results/<UTC
#    date>-<host>, results/RUN_A, results/crossroof.db ...);
#  - a bare file name of source (`truth.c`, `test_<b>_cli.c`) is some file's
#    name in the tree, but for the few of other projects listed below;
#  - every name in a code span written as a call (`cr_session_record()`,
#    `CR_OPTION(...)`) or carrying one of the suite's prefixes (`cr_group_run`,
#    `rp_part`, `bw_prepare`, `cs_cache_new`, `gc_rule`, `CR_FAULTY_MAIN`) is
#    a word of the sources (C, CUDA, OpenCL C, shell, awk, gnuplot, make);
#  - every relative link ([text](path#anchor)) leads to a file of the tree,
#    and an anchor to a heading of that document (GitHub's rule: lower case,
#    punctuation dropped, spaces as hyphens).
# Fenced code blocks are commands and output, not checked. Each name not
# found is one line on stderr, DOC:LINE: what; the exit status is then 1.
#   common/tests/doc_names.sh [--root DIR]
# --root: the tree to check (default: the one this script is in).
set -eu
export LC_ALL=C
root="$(dirname "$0")/../.."
if [ "${1:-}" = --root ]; then
    [ $# -ge 2 ] || { echo "doc_names.sh: --root needs a directory" >&2; exit 2; }
    root=$2
    shift 2
fi
[ $# -eq 0 ] || { echo "doc_names.sh: usage: doc_names.sh [--root DIR]" >&2; exit 2; }
cd "$root" 2>/dev/null || { echo "doc_names.sh: cannot enter $root" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

docs=$(find README.md ARCHITECTURE.md docs -name '*.md' 2>/dev/null | sort || true)
[ -n "$docs" ] || { echo "doc_names.sh: no README.md, ARCHITECTURE.md or docs/ under $root" >&2; exit 2; }

# Files of other projects the documents name by their bare name.
external_files=" cuda_occupancy.h "
# What is tracked at the top, where a path's first folder must be.
tops=" "
for f in * .[!.]*; do
    case $f in build | .git) ;; *) [ -e "$f" ] && tops="$tops$f " ;; esac
done
# Every file's name, and every word of the sources.
find . -path ./build -prune -o -path ./.git -prune -o -type f -print | sed 's|.*/||' | sort -u > "$work/names"
find . -path ./build -prune -o -path ./.git -prune -o -path ./results -prune -o -type f \
    \( -name '*.[ch]' -o -name '*.cu' -o -name '*.cpp' -o -name '*.cuh' -o -name '*.cl' -o -name '*.sh' -o -name '*.awk' \
    -o -name '*.gp' -o -name '*.mk' -o -name Makefile -o -name run \) -exec cat {} + |
    tr -c 'A-Za-z0-9_' '\n' | grep -v '^$' | sort -u > "$work/words"

# Every code span and link outside fenced blocks: DOC<TAB>LINE<TAB>span|link<TAB>TEXT.
# A span may run over a line break (not over a blank line); its line is
# where it starts.
# shellcheck disable=SC2086 # one argument per document: no name has a space
awk '
BEGIN { OFS = "\t" }
FNR == 1 { fence = 0; open_n = 0 }
/^ {0,3}(```|~~~)/ { fence = !fence; open_n = 0; next }
fence { next }
/^[ \t]*$/ { open_n = 0; next }
{
    line = $0; i = 1; n = length(line); plain = ""
    if (open_n) span = span " "
    while (i <= n) {
        c = substr(line, i, 1)
        if (c == "`") {
            j = i; while (j <= n && substr(line, j, 1) == "`") j++
            run = j - i
            if (!open_n) { open_n = run; span = ""; start = FNR }
            else if (run == open_n) { print FILENAME, start, "span", span; open_n = 0 }
            else span = span substr(line, i, run)
            i = j; continue
        }
        if (open_n) span = span c
        else plain = plain c
        i++
    }
    # Links: ](target), outside code spans.
    while (match(plain, /\]\([^) \t]+\)/)) {
        print FILENAME, FNR, "link", substr(plain, RSTART + 2, RLENGTH - 3)
        plain = substr(plain, RSTART + RLENGTH)
    }
}' $docs > "$work/items"

# Headings of every document, as GitHub makes their anchors: DOC<TAB>ANCHOR.
# shellcheck disable=SC2086
awk '
BEGIN { OFS = "\t" }
FNR == 1 { fence = 0; delete seen }
/^ {0,3}(```|~~~)/ { fence = !fence; next }
fence || !/^#+ / { next }
{
    h = tolower($0); sub(/^#+ +/, "", h); sub(/ +#* *$/, "", h)
    a = ""
    for (i = 1; i <= length(h); i++) {
        c = substr(h, i, 1)
        if (c ~ /[a-z0-9_-]/) a = a c
        else if (c == " ") a = a "-"
    }
    if (a in seen) { seen[a]++; a = a "-" seen[a] } else seen[a] = 0
    print FILENAME, a
}' $docs > "$work/anchors"

found() { grep -qxF -- "$1" "$2"; }
exempt_path() { # path: build and run outputs
    case $1 in
        build/*) return 0 ;;
        results/reference | results/reference/* | results/README.md) return 1 ;;
        results/*) return 0 ;;
    esac
    return 1
}
# Whether the tree has what a path names (a glob: at least one match; a
# trailing slash: a folder).
path_exists() {
    p=${1%/}
    folder=0
    [ "$p" = "$1" ] || folder=1
    # shellcheck disable=SC2086 # the glob is the point
    set -- $p
    for m in "$@"; do
        if [ $folder = 1 ]; then [ -d "$m" ] && return 0; else [ -e "$m" ] && return 0; fi
    done
    return 1
}
name_exists() { # a bare file name, maybe a glob
    case " $external_files " in *" $1 "*) return 0 ;; esac
    case $1 in
        *[*?[]*) [ -n "$(find . -path ./build -prune -o -name "$1" -print | head -n 1)" ] ;;
        *) found "$1" "$work/names" ;;
    esac
}

bad=0 paths=0 names=0 links=0
say() { echo "$1:$2: $3" >&2; bad=$((bad + 1)); }

# One word of a code span, its placeholders <...> made globs.
check_word() { # doc line word span
    w=$3
    w=${w#[\"\'(]}
    w=${w%[\"\',;:.)]}
    case $w in
        [A-Za-z0-9._]*/*)
            top=${w%%/*}
            case $tops in *" $top "*) ;; *) return 0 ;; esac
            exempt_path "$w" && return 0
            paths=$((paths + 1))
            path_exists "$w" || say "$1" "$2" "no such file or folder in the tree: $w (\`$4\`)"
            ;;
        *.c | *.h | *.cu | *.cpp | *.cuh | *.cl | *.sh | *.gp | *.mk | *.awk)
            case $w in */* | *[!A-Za-z0-9_.*?-]*) return 0 ;; esac
            paths=$((paths + 1))
            name_exists "$w" || say "$1" "$2" "no file of this name in the tree: $w (\`$4\`)"
            ;;
    esac
}

check_name() { # doc line name
    names=$((names + 1))
    found "$3" "$work/words" || say "$1" "$2" "not a name of the sources: $3"
}

check_link() { # doc line target
    case $3 in http://* | https://* | mailto:*) return 0 ;; esac
    links=$((links + 1))
    file=${3%%#*}
    anchor=
    case $3 in *'#'*) anchor=${3#*#} ;; esac
    if [ -z "$file" ]; then
        target=$1
    else
        case $1 in */*) target=${1%/*}/$file ;; *) target=$file ;; esac
        # a/b/../c as a/c
        while :; do
            t=$(printf '%s\n' "$target" | sed 's|[^/]*/\.\./||')
            [ "$t" = "$target" ] && break
            target=$t
        done
        [ -e "$target" ] || { say "$1" "$2" "link to a file that is not there: $3"; return 0; }
    fi
    [ -n "$anchor" ] || return 0
    case $target in
        *.md) found "$(printf '%s\t%s' "$target" "$anchor")" "$work/anchors" ||
            say "$1" "$2" "link to a heading that is not there: $3" ;;
    esac
}

tab=$(printf '\t')
while IFS="$tab" read -r doc line kind text; do
    if [ "$kind" = link ]; then
        check_link "$doc" "$line" "$text"
        continue
    fi
    # A call, name(...), or one of the suite's prefixes.
    case $text in
        *'*'* | *'<'*) ;;
        [A-Za-z_]*'('*')')
            name=${text%%(*}
            case $name in *[!A-Za-z0-9_]*) ;; *) check_name "$doc" "$line" "$name" ;; esac
            ;;
        cr_* | rp_* | bw_* | cs_* | gc_* | CR_*)
            case $text in *[!A-Za-z0-9_]*) ;; *) check_name "$doc" "$line" "$text" ;; esac
            ;;
    esac
    words=$text
    case $text in *'<'*'>'*) words=$(printf '%s\n' "$text" | sed 's/<[^<>]*>/*/g') ;; esac
    set -f
    # shellcheck disable=SC2086 # a span's words, unglobbed
    set -- $words
    set +f
    for word in "$@"; do
        check_word "$doc" "$line" "$word" "$text"
    done
done < "$work/items"

ndocs=$(printf '%s\n' "$docs" | wc -l)
if [ "$bad" -gt 0 ]; then
    echo "docs check: $bad name(s) the documents give are not in the tree" >&2
    exit 1
fi
echo "docs check: $ndocs documents, $paths paths, $names names of the sources, $links links: every one found"
