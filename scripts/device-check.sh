#!/usr/bin/env bash
# device-check.sh - dlayout on a vendor OpenCL device, from a build made
# elsewhere.  Two steps:
#
#   scripts/device-check.sh prepare BUILD_DIR BUNDLE
#       on the build machine: copies dl-bench, dl-run and its shims, the
#       three applications with their kernels, the kernels annotated by
#       dl-annotate, and the ICD loader (libOpenCL.so.1) into BUNDLE;
#
#   BUNDLE/device-check.sh run BUNDLE OUT [--quick]
#       on the device machine (no compiler, network or apt needed): sets
#       up the ICD loader for the vendor driver when the system has none,
#       then runs `dl-bench marshal` on the DL paper's Table-1 shapes, the
#       applications plain and under dl-run (outputs compared byte for
#       byte), `dl-bench irregular` (reordering of indirect references),
#       and writes OUT/marshal.csv, OUT/apps.csv, OUT/irregular.csv and
#       OUT/summary.md.
#       It stops starting new measurements after DL_CHECK_BUDGET seconds
#       (default 420), so that it ends within 8 minutes.
#
# DL_CHECK_DEVICE picks the device index of `dl-bench devices` (default:
# the first device that is not POCL's, else 0); DL_CHECK_TIMER the timer
# of dl-bench marshal (default: event on POCL, wall elsewhere).  DL_CHECK_PEAK_GBPS gives
# the device's nominal memory bandwidth for the percent-of-peak column
# (default: looked up for a few known devices, else left empty).
set -uo pipefail

say() { printf '==> %s\n' "$*"; }
die() { printf 'device-check: %s\n' "$*" >&2; exit 1; }

APPS=(lbm spmv blackscholes)

prepare() {
    local build=$1 bundle=$2 root
    root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
    build=$(cd "$build" && pwd) || die "no build directory $1"
    mkdir -p "$bundle/bin" "$bundle/kernels" "$bundle/lib" || exit 1
    local f
    for f in benchmarks/dl-bench interpose/dl-run \
             interpose/libdlayout-preload.so interpose/libdlayout-layer.so; do
        [ -e "$build/$f" ] || die "$build/$f is missing: build first"
        cp -L "$build/$f" "$bundle/bin/" || exit 1
    done
    for a in "${APPS[@]}"; do
        cp -L "$build/benchmarks/apps/dl-app-$a" "$bundle/bin/" || exit 1
        cp "$root/benchmarks/apps/$a.cl" "$bundle/bin/" || exit 1
    done
    cp "$root/benchmarks/apps/lbm_da.cl" "$bundle/bin/"
    # dl-bench's own data (the suite script and its plots), next to it as
    # in the build tree.
    cp -r "$build/benchmarks/"*.py "$bundle/bin/" 2>/dev/null || true
    annotate_apps "$build/annotate/dl-annotate" "$root" "$bundle/kernels"
    local loader
    loader=$(ldconfig -p | awk '/libOpenCL\.so\.1 .*x86-64/ {print $NF; exit}')
    [ -n "$loader" ] || die "no libOpenCL.so.1 here to bundle"
    cp -L "$loader" "$bundle/lib/libOpenCL.so.1" || exit 1
    # Libraries dl-bench needs beyond the C library and the loader (METIS
    # where it was built with it), which the device machine may lack; kept
    # apart from the loader, which only serves where the system has none.
    mkdir -p "$bundle/libextra" || exit 1
    ldd "$build/benchmarks/dl-bench" |
        awk '/=> \// && !/libc\.so|libm\.so|libOpenCL|ld-linux/ {print $3}' |
        while read -r f; do cp -L "$f" "$bundle/libextra/" || exit 1; done
    cp "${BASH_SOURCE[0]}" "$bundle/device-check.sh"
    git -C "$root" describe --always --dirty >"$bundle/commit" 2>/dev/null ||
        echo unknown >"$bundle/commit"
    say "bundle ready: $bundle ($(du -sh "$bundle" | cut -f1))"
}

# The user's `//DL:` lines for the scalar-array kernels (LBM, SpMV) and
# the -D sizes of the applications' default runs.
annotate_apps() {
    local annotate=$1 root=$2 out=$3
    [ -x "$annotate" ] || die "$annotate is missing: build first"
    { echo '// DL: AoS: src[global_size(0) * global_size(1) * global_size(2)][20]'
      echo '// DL: AoS: dst[global_size(0) * global_size(1) * global_size(2)][20]'
      cat "$root/benchmarks/apps/lbm.cl"; } >"$out/lbm.in.cl"
    "$annotate" -DNX=1 -DNY=1 -DNZ=1 -DOMEGA=1.0f "$out/lbm.in.cl" \
        -o "$out/lbm.dl.cl" || die "dl-annotate failed on lbm.cl"
    { echo '//DL: AoS: val[35588][197]'
      echo '//DL: AoS: col[35588][197]'
      cat "$root/benchmarks/apps/spmv.cl"; } >"$out/spmv.in.cl"
    "$annotate" -DROWS=35588 -DK=197 "$out/spmv.in.cl" \
        -o "$out/spmv.dl.cl" || die "dl-annotate failed on spmv.cl"
    "$annotate" -DNOPT=4194304 "$root/benchmarks/apps/blackscholes.cl" \
        -o "$out/blackscholes.dl.cl" || die "dl-annotate failed on blackscholes.cl"
    rm -f "$out"/*.in.cl
}

# An ICD loader and a vendor registration, where the system has neither.
setup_opencl() {
    local bundle=$1
    if ! ldconfig -p | grep -q 'libOpenCL\.so\.1 '; then
        export LD_LIBRARY_PATH=$bundle/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
    fi
    if [ -z "${OCL_ICD_VENDORS:-}" ] &&
       ! ls /etc/OpenCL/vendors/*.icd >/dev/null 2>&1; then
        local lib
        lib=$(ldconfig -p | awk '/libnvidia-opencl\.so\.1/ {print $NF; exit}')
        [ -n "$lib" ] || lib=$(find /usr/local/nvidia /usr/lib /usr/lib64 \
            -name 'libnvidia-opencl.so.1' 2>/dev/null | head -1)
        [ -n "$lib" ] || die "no OpenCL driver found (libnvidia-opencl.so.1)"
        mkdir -p "$OUT/icd"
        echo "$lib" >"$OUT/icd/nvidia.icd"
        export OCL_ICD_VENDORS=$OUT/icd
    fi
}

over_budget() { [ $((SECONDS - START)) -ge "$BUDGET" ]; }

nominal_peak() { # GB/s of a few devices, by the name dl-bench prints
    case $1 in
        *H100*80GB*HBM3* | *H100\ SXM*) echo 3350 ;;
        *H100*PCIe*) echo 2000 ;;
        *H200*) echo 4800 ;;
        *A100*80GB*) echo 2039 ;;
        *A100*) echo 1555 ;;
        *) echo "" ;;
    esac
}

# The Table-1 ELL shapes (rows x floats per row).
SHAPES=("bcsstk18 11948 40" "e40r000 17281 62" "bcsstk31 35588 197"
        "bcsstk32 44609 215" "s3dkq4m2 90449 59" "conf6 49152 39")

marshal_sweep() {
    local csv=$OUT/marshal.csv header=0 tiles=(16 32 64) line
    [ "$QUICK" = 1 ] && tiles=(32)
    for shape in "${SHAPES[@]}"; do
        set -- $shape
        for t in "${tiles[@]}"; do
            for conv in "aos asta bs" "aos asta pttwac" "da asta pipt" \
                        "da asta pttwac"; do
                over_budget && return 0
                set -- $shape $conv
                line=$("$BIN/dl-bench" marshal --device "$DEV" --timer "$TIMER" --from "$4" \
                    --to "$5" --algo "$6" --struct "$3" --elem 4 \
                    --count "$2" --tile "$t" --reps 5 2>>"$OUT/marshal.err")
                [ -n "$line" ] || continue
                if [ $header = 0 ]; then
                    echo "shape,$(echo "$line" | head -1)" >"$csv"
                    header=1
                fi
                echo "$1,$(echo "$line" | tail -1)" >>"$csv"
            done
        done
    done
}

app_args() { # full: the applications' default sizes; quick: small runs
    case $QUICK$1 in
        0lbm) echo "--steps 100" ;;
        0spmv) echo "--iters 50" ;;
        0blackscholes) echo "--iters 10" ;;
        1lbm) echo "--nx 24 --ny 16 --nz 20 --steps 2" ;;
        1spmv) echo "--iters 2" ;;
        1blackscholes) echo "--options 65536 --iters 1" ;;
    esac
}

field() { sed -n "s/.* $1=\\([^ ]*\\).*/\\1/p" "$2" | tail -1; }

run_app() { # app, label, kernel, [dl-run options...]
    local app=$1 label=$2 kernel=$3
    shift 3
    local cmd=("$BIN/dl-app-$app" --device "$DEV" $(app_args "$app")
               --kernel "$kernel" --output "$OUT/apps/$app.$label.bin")
    [ $# -gt 0 ] && cmd=("$BIN/dl-run" "$@" -- "${cmd[@]}")
    local rc=0
    "${cmd[@]}" >"$OUT/apps/$app.$label.out" 2>"$OUT/apps/$app.$label.err" ||
        rc=$?
    local same=NA
    if [ "$label" != plain ] && [ -f "$OUT/apps/$app.plain.bin" ]; then
        cmp -s "$OUT/apps/$app.plain.bin" "$OUT/apps/$app.$label.bin" &&
            same=1 || same=0
    fi
    local stats
    stats=$(grep -o 'dlayout-stats.*' "$OUT/apps/$app.$label.err" | tr ',' ';')
    echo "$app,$label,$rc,$(field total_ms "$OUT/apps/$app.$label.err"),$same,$stats" \
        >>"$OUT/apps.csv"
}

apps() {
    mkdir -p "$OUT/apps"
    echo "app,run,exit,total_ms,identical_to_plain,dlayout_stats" >"$OUT/apps.csv"
    for a in "${APPS[@]}"; do
        over_budget && return 0
        run_app "$a" plain "$BIN/$a.cl"
        run_app "$a" annotated "$KERNELS/$a.dl.cl"
        over_budget && return 0
        DL_POLICY=auto run_app "$a" dlrun-auto "$KERNELS/$a.dl.cl" --stats
        DL_POLICY=always run_app "$a" dlrun-always "$KERNELS/$a.dl.cl" --stats
        DL_POLICY=auto run_app "$a" dlrun-layer "$KERNELS/$a.dl.cl" --stats --layer
    done
}

irregular() { # dl-bench irregular, where this build has it
    "$BIN/dl-bench" irregular --help >/dev/null 2>&1 || return 0
    local quick=() left=$((BUDGET + 60 - (SECONDS - START)))
    [ "$QUICK" = 1 ] && quick=(--quick)
    # Its rows stream out as they are measured; the host-side METIS plans
    # of the remap rows can take minutes at full size, so it stops where
    # the budget ends (with the rows it has) and the check stays within
    # its 8 minutes.
    [ $left -gt 30 ] || left=30
    local rc=0
    timeout "$left" "$BIN/dl-bench" irregular "${quick[@]}" --device "$DEV" \
        >"$OUT/irregular.csv" 2>"$OUT/irregular.err" || rc=$?
    if [ $rc = 124 ]; then
        echo "device-check: dl-bench irregular stopped after ${left} s (the budget); its rows so far are in irregular.csv" >&2
    elif [ $rc != 0 ]; then
        echo "device-check: dl-bench irregular failed (see irregular.err)" >&2
    fi
}

summary() {
    local md=$OUT/summary.md device peak
    device=$(awk -F'\t' -v d="$DEV" '$1 == d {print $2}' "$OUT/devices.txt")
    peak=${DL_CHECK_PEAK_GBPS:-$(nominal_peak "$device")}
    {
        echo "# dlayout on $device"
        echo
        echo "Commit \`$(cat "$BUNDLE/commit" 2>/dev/null || echo unknown)\`, $(date -u '+%Y-%m-%d %H:%M UTC')," \
             "$( [ "$QUICK" = 1 ] && echo 'quick mode, ' )run by scripts/device-check.sh in $((SECONDS - START)) s."
        echo
        echo "## In-place conversions (dl-bench marshal, Table-1 ELL shapes, 4-byte fields)"
        echo
        echo "GB/s counts bytes read and written; 'copy' is a plain device copy"
        echo "measured with each row.  The DL paper's AoS -> ASTA reached 29-52 % of"
        echo "peak bandwidth.${peak:+ Peak taken as $peak GB/s.}"
        echo
        echo "| shape | from -> to | algorithm | GB/s | copy GB/s | of copy | of peak | verified |"
        echo "|---|---|---|---|---|---|---|---|"
        [ -f "$OUT/marshal.csv" ] && python3 - "$OUT/marshal.csv" "$peak" <<'EOF'
import csv, sys
peak = float(sys.argv[2]) if sys.argv[2] else None
for r in csv.DictReader(open(sys.argv[1])):
    try:
        g, c = float(r["gbps"]), float(r["copy_gbps"])
        of_copy = "%.0f %%" % (100 * g / c) if c else "NA"
        of_peak = "%.0f %%" % (100 * g / peak) if peak else ""
        g, c = "%.1f" % g, "%.1f" % c
    except ValueError:
        g, c, of_copy, of_peak = r["gbps"], r["copy_gbps"], "NA", ""
    print("| %s | %s -> %s(%s) | %s | %s | %s | %s | %s | %s |" % (
        r["shape"], r["from"], r["to"], r["tile"], r["algo"], g, c,
        of_copy, of_peak, r["verified"]))
EOF
        echo
        echo "## Applications, plain and under dl-run"
        echo
        echo "| app | run | exit | total ms | output identical | dlayout-stats |"
        echo "|---|---|---|---|---|---|"
        tail -n +2 "$OUT/apps.csv" 2>/dev/null |
            awk -F, '{printf "| %s | %s | %s | %s | %s | %s |\n", $1, $2, $3, $4, $5, $6}'
        if [ -s "$OUT/irregular.csv" ]; then
            echo
            echo "## Indirect references reordered on the device (dl-bench irregular)"
            echo
            echo "The rows of OUT/irregular.csv: transactions per warp-access before and"
            echo "after reordering, and the speedups over 1 and N iterations."
            echo
            python3 - "$OUT/irregular.csv" <<'EOF2'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
if rows:
    keys = list(rows[0].keys())
    print("| " + " | ".join(keys) + " |")
    print("|" + "---|" * len(keys))
    for r in rows:
        print("| " + " | ".join(r[k] for k in keys) + " |")
EOF2
        fi
    } >"$md"
    say "wrote $md"
}

run() {
    BUNDLE=$(cd "$1" && pwd) || die "no bundle $1"
    OUT=$2
    QUICK=0
    [ "${3:-}" = --quick ] && QUICK=1
    mkdir -p "$OUT" || exit 1
    OUT=$(cd "$OUT" && pwd)
    BIN=$BUNDLE/bin KERNELS=$BUNDLE/kernels
    BUDGET=${DL_CHECK_BUDGET:-420} START=$SECONDS
    export POCL_CACHE_DIR=$OUT/pocl-cache XDG_CACHE_HOME=$OUT/xdg-cache
    [ -d "$BUNDLE/libextra" ] &&
        export LD_LIBRARY_PATH=$BUNDLE/libextra${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
    setup_opencl "$BUNDLE"
    "$BIN/dl-bench" devices >"$OUT/devices.txt" 2>&1 ||
        die "dl-bench finds no OpenCL device: $(cat "$OUT/devices.txt")"
    DEV=${DL_CHECK_DEVICE:-$(awk -F'\t' '$2 !~ /^Portable Computing Language/ {print $1; exit}' "$OUT/devices.txt")}
    DEV=${DEV:-0}
    # Profiling events time a command from a gating marker's end; on
    # NVIDIA's driver that interval puts a plain copy at 7-16 GB/s, so a
    # vendor device is timed by the host clock around each command.
    TIMER=${DL_CHECK_TIMER:-$(awk -F'\t' -v d="$DEV" '$1 == d {print ($2 ~ /^Portable Computing Language/) ? "event" : "wall"}' "$OUT/devices.txt")}
    say "devices (using $DEV):"; cat "$OUT/devices.txt"
    say "marshal sweep"; marshal_sweep
    say "applications"; apps
    over_budget || { say "irregular references"; irregular; }
    summary
}

case ${1:-} in
    prepare) [ $# -eq 3 ] || die "usage: $0 prepare BUILD_DIR BUNDLE"
             prepare "$2" "$3" ;;
    run) [ $# -ge 3 ] || die "usage: $0 run BUNDLE OUT [--quick]"
         run "$2" "$3" "${4:-}" ;;
    *) die "usage: $0 prepare BUILD_DIR BUNDLE | run BUNDLE OUT [--quick]" ;;
esac
