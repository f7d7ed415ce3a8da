# shellcheck shell=bash
# What to run: every executable on every device it lists, those that cannot
# run recorded as skipped, and the order. Sourced by run_all.sh, never run.

slug() { tr -c 'A-Za-z0-9.\n-' '_' <<<"$1" | tr -s '_' | cut -c1-60; }

# The tasks (t_name, t_bin, t_backend, t_index, t_label, t_dir), the device
# directories in the order first seen (dirs), the first benchmark that
# listed a device, for --device's error (lister), and with --gpu-check the
# OpenCL benchmarks that list no GPU device (no_opencl_gpu).
list_tasks() {
    local bin name
    t_name=() t_bin=() t_backend=() t_index=() t_label=() t_dir=()
    declare -gA first_seen=()
    dirs=() lister="" no_opencl_gpu=()
    for bin in "$bin_dir"/*; do
        [ -f "$bin" ] && [ -x "$bin" ] || continue
        name=${bin##*/}
        selected "$name" || continue
        list_devices_of "$bin" "$name"
    done
}
# One task per device the executable lists ("INDEX  NAME ..."), or one that
# reports why there is none.
list_devices_of() { # executable name
    local bin=$1 name=$2 backend=${2##*-} devices entry index label dir gpu_seen=0
    mapfile -t devices < <("$bin" --list-devices 2>/dev/null </dev/null |
                           awk '$1 ~ /^[0-9]+$/ { i = $1; $1 = ""; sub(/^ +/, ""); print i "\t" $0 }')
    [ ${#devices[@]} -eq 0 ] && devices=("")
    for entry in "${devices[@]}"; do
        # The GPU check measures GPUs: through OpenCL, a CPU device is left out.
        if [ "$gpu_check" = 1 ] && [ "$backend" = opencl ]; then
            [[ $entry == *"; GPU/accelerator;"* ]] || continue
            gpu_seen=1
        fi
        index=${entry%%$'\t'*}
        label=${entry#*$'\t'}
        label=${label#(*) }          # OpenCL lists "(platform:device) name [details]"
        label=${label%% \[*}
        if [ -n "$entry" ]; then
            lister=${lister:-$bin}
            # A number is an index, as the benchmarks read it (--device 1 is
            # not a device whose name holds a 1); anything else part of a name.
            if [[ $device =~ ^[0-9]+$ ]]; then
                [ "$index" = "$device" ] || continue
            elif [ -n "$device" ] && [[ "${label,,}" != *"${device,,}"* ]]; then
                continue
            fi
        fi
        dir="$backend${index:+-$index-$(slug "$label")}"
        t_name+=("$name") t_bin+=("$bin") t_backend+=("$backend") t_index+=("$index") t_label+=("$label") t_dir+=("$dir")
        [ -n "${first_seen[$dir]:-}" ] || { first_seen[$dir]=1; dirs+=("$dir"); }
    done
    if [ "$gpu_check" = 1 ] && [ "$backend" = opencl ] && [ $gpu_seen = 0 ]; then
        no_opencl_gpu+=("$name")
    fi
}

# A --device that matches nothing listed would measure nothing. Where no
# benchmark lists any device, each runs to say why it found none.
check_device_matched() {
    local index matched=0
    if [ -n "$device" ] && [ -n "$lister" ]; then
        for index in "${t_index[@]}"; do [ -n "$index" ] && matched=1; done
        [ $matched = 1 ] ||
            die "--device: no device of the selected benchmarks matches '$device' (see $lister --list-devices)"
    fi
}

# ---- the GPU check where there is no GPU ----
# nvidia-smi -L lists one "GPU i: ..." line per GPU its driver sees. Where
# it lists none and every CUDA benchmark says it finds no device (exit 77),
# there is nothing to check: one line, exit 77, and no run directory. A
# benchmark that says anything else runs, so that the check judges it.
count_gpus() {
    local index listed=0
    gpus_visible=0
    [ "$gpu_check" = 1 ] || return 0
    if command -v nvidia-smi >/dev/null; then
        gpus_visible=$(nvidia-smi -L 2>/dev/null </dev/null | grep -c '^GPU ')
        smi_says="nvidia-smi -L lists no GPU"
    else
        smi_says="no nvidia-smi"
    fi
    for index in "${t_index[@]}"; do [ -n "$index" ] && listed=1; done
    if [ "$gpus_visible" = 0 ] && [ $listed = 0 ] && [ -z "$resume" ]; then
        nothing_to_check
    fi
}
nothing_to_check() {
    local i said why="" all_skip=1
    for i in "${!t_bin[@]}"; do
        said=$("${t_bin[$i]}" --list-devices 2>&1 </dev/null)
        [ $? = 77 ] || all_skip=0
        said=${said##*$'\n'}
        said=${said#"${t_name[$i]}: "}
        [ -n "$why" ] || why="${t_name[$i]}: ${said#skipped: }"
    done
    if [ $all_skip = 1 ]; then
        say "crossroof: --gpu-check: nothing to check: no GPU is visible ($smi_says) and no CUDA benchmark finds a device (${why:-none is built})"
        exit 77
    fi
}

# What cannot run is recorded as skipped, once: a CUDA benchmark that make
# could not build (no nvcc), and, through OpenCL, the GPU check finding no GPU.
record_unrunnable() {
    local name why cuda_exes
    desc_executables cuda_exes cuda
    for name in "${cuda_exes[@]}"; do
        selected "$name" || continue
        if [ ! -e "$bin_dir/$name" ] && [ -z "${done_task[/$name]:-}" ]; then
            if [ -n "${CROSSROOF_BIN:-}" ]; then why="not in $bin_dir"; else why="not built (nvcc not found; see docs/building.md)"; fi
            record "$name" cuda "" "" "" skipped 77 0 "$why"
        fi
    done
    for name in "${no_opencl_gpu[@]}"; do
        [ -z "${done_task[/$name]:-}" ] &&
            record "$name" opencl "" "" "" skipped 77 0 "no OpenCL GPU device (no GPU driver's .icd in ${OCL_ICD_VENDORS:-/etc/OpenCL/vendors})"
    done
}

# The order to run: device by device, so that each device's X-model fit
# follows its own benchmarks.
order_tasks() {
    local d i
    order=()
    for d in "${dirs[@]}"; do
        for i in "${!t_name[@]}"; do
            [ "${t_dir[$i]}" = "$d" ] && [ -z "${done_task[$d/${t_name[$i]}]:-}" ] && order+=("$i")
        done
    done
}
