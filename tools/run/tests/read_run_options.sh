#!/usr/bin/env bash
# Reads each run-options file given, as run_all.sh --resume does, in a
# subshell of its own: FILE.rc gets the exit status, FILE.err what it said,
# and where it was taken FILE.out the options as run_all.sh writes them
# back and FILE.again those read back from FILE.out, which must be the
# same. For test_run_options_fuzz: read_run_options.sh DIR FILE..., the
# files relative to DIR, where the reading runs (so that whatever a file
# might make happen, happens there).
set -u
root=$(cd -- "$(dirname -- "$0")/../../.." && pwd -P) || exit 1
. "$root/common/run_args.sh"
. "$root/common/kv.sh"
. "$root/tools/run/options.sh"
cd -- "$1" || exit 1
shift
say_error() { # as run_all.sh says it
    local m="$*"
    printf 'run_all.sh: error: %s\n' "${m//$'\n'/\\n}" >&2
}
die() { say_error "$@"; exit 2; }
ulimit -v 1048576 # 1 GiB: a reading that grows without bound fails
for f in "$@"; do
    (
        read_run_options "$f"
        run_options_text >"$f.out"
        read_run_options "$f.out"
        run_options_text >"$f.again"
    ) 2>"$f.err"
    echo $? >"$f.rc"
done
