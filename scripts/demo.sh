#!/usr/bin/env bash
# demo.sh BUILD_DIR [--check] - the whole story on one ordinary OpenCL
# program:
#
#   1. dl-annotate rewrites the D3Q19 lattice-Boltzmann kernel of
#      dl-app-lbm (benchmarks/apps/lbm.cl, an AoS of 20 floats per cell),
#      given the paper-style annotations `// DL: AoS: src[...][20]`;
#   2. `dl-bench calibrate` measures the device once and caches it, as
#      dl-run's first run would otherwise do silently;
#   3. the unmodified dl-app-lbm binary runs with the original kernel,
#      with the annotated kernel (no dlayout), and twice with the
#      annotated kernel under `dl-run --stats`: the first of those builds
#      (and POCL caches) the transformed kernel and the conversions, the
#      second is what every later run costs;
#   4. the four outputs must be identical; the timings, the dlayout-stats
#      line and dl-run's speed-up over the plain run are shown, or, where
#      dl-run gains nothing on this device, one line that says why.
#
# Exits non-zero if anything fails or the outputs differ; with --check
# (the test suite, on POCL) also if dl-run converted nothing.
set -euo pipefail

if [ $# -lt 1 ] || [ $# -gt 2 ] || { [ $# -eq 2 ] && [ "$2" != --check ]; }
then
    echo "usage: $0 BUILD_DIR [--check]" >&2
    exit 2
fi
CHECK=${2:-}
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=$(cd "$1" && pwd)
APP=$BUILD/benchmarks/apps/dl-app-lbm
ANNOTATE=$BUILD/annotate/dl-annotate
DL_RUN=$BUILD/interpose/dl-run
DL_BENCH=$BUILD/benchmarks/dl-bench
for f in "$APP" "$ANNOTATE" "$DL_RUN" "$DL_BENCH"; do
    [ -x "$f" ] || { echo "demo: $f is missing; build first" >&2; exit 1; }
done
export POCL_CACHE_DIR=${POCL_CACHE_DIR:-$BUILD/pocl-cache}
unset LD_PRELOAD OPENCL_LAYERS
for v in $(env | sed -n 's/^\(DL_[A-Z_]*\)=.*/\1/p'); do unset "$v"; done

WORK=$BUILD/demo
mkdir -p "$WORK"
# Large enough that converting pays on POCL here: at 100^3 cells a step
# takes about 50 ms plain and 2.3x less in DA, so that the tuner's probe
# (2 plain launches, then the transformed one) and the conversions (about
# 0.2 s) are paid back within 50 steps.  The cell count is not a multiple
# of 1024: at 96^3 the 20 field arrays of DA start exactly a whole number
# of 4 KiB pages apart, alias in the L1 cache, and DA lost to AoS.
SIZE=(--nx 100 --ny 100 --nz 100 --steps 50)
say() { printf '==> %s\n' "$*"; }

# The user's part: say which arguments hold records and how many.  The
# kernel is launched over the whole lattice, so the cell count is the
# product of the global sizes.
say "1. annotate benchmarks/apps/lbm.cl (20 floats per cell, AoS)"
{
    echo '// DL: AoS: src[global_size(0) * global_size(1) * global_size(2)][20]'
    echo '// DL: AoS: dst[global_size(0) * global_size(1) * global_size(2)][20]'
    cat "$ROOT/benchmarks/apps/lbm.cl"
} >"$WORK/lbm.cl"
# The kernel's sizes are -D options of the program's build; any values
# do for the analysis.  DA, not the default asta(auto): this 3-D pull
# step's gathers vectorise in DA only (annotate/README.md).
"$ANNOTATE" --explain --layout da -DNX=1 -DNY=1 -DNZ=1 -DOMEGA=1.0f \
    "$WORK/lbm.cl" -o "$WORK/lbm.dl.cl"
grep '^//DL:' "$WORK/lbm.dl.cl" | sed 's/^/    /'

run() { # label, then the command; stdout to $WORK/label.out
    local label=$1
    shift
    if ! "$@" >"$WORK/$label.out" 2>"$WORK/$label.err"; then
        echo "demo: the $label run failed:" >&2
        cat "$WORK/$label.err" >&2
        exit 1
    fi
}
timing() { # the app's timing line, shortened
    sed -n 's/^dl-app-lbm: .*\(kernel_ms_per_step=[^ ]*\).*\(total_ms=[^ ]*\).*/\1 \2/p' \
        "$WORK/$1.err"
}
total_ms() { # the app's total_ms
    sed -n 's/^dl-app-lbm: .*total_ms=\([0-9.]*\).*/\1/p' "$WORK/$1.err"
}

say "2. calibrate the device (dl-bench calibrate): once, cached in" \
    "\$XDG_CACHE_HOME/dlayout/; dl-run's first run would do it, silently"
if ! "$DL_BENCH" calibrate >"$WORK/calibration.txt" 2>"$WORK/calibration.err"
then
    echo "demo: dl-bench calibrate failed:" >&2
    cat "$WORK/calibration.err" >&2
    exit 1
fi
sed -n 's/^\(device\|measure_ms\) /    \1 /p' "$WORK/calibration.txt"

say "3. run the unmodified dl-app-lbm (${SIZE[*]})"
run original "$APP" "${SIZE[@]}" --kernel "$ROOT/benchmarks/apps/lbm.cl"
run annotated "$APP" "${SIZE[@]}" --kernel "$WORK/lbm.dl.cl"
run dlayout-first "$DL_RUN" --stats -- "$APP" "${SIZE[@]}" \
    --kernel "$WORK/lbm.dl.cl"
# The tuner's decisions (DL_LOG=info) say why, where dl-run gains nothing.
run dlayout env DL_LOG=info "$DL_RUN" --stats -- "$APP" "${SIZE[@]}" \
    --kernel "$WORK/lbm.dl.cl"
printf '    original kernel, plain:         %s\n' "$(timing original)"
printf '    annotated kernel, plain:        %s\n' "$(timing annotated)"
printf '    annotated kernel, dl-run once:  %s  (builds the transformed\n' \
    "$(timing dlayout-first)"
printf '        kernel and the conversions; POCL caches them for later runs)\n'
printf '    annotated kernel, dl-run again: %s\n' "$(timing dlayout)"
grep '^dlayout-stats\|^dlayout: \(warning\|error\)' "$WORK/dlayout.err" |
    sed 's/^/    /'

say "4. compare the outputs"
sed 's/^/    /' "$WORK/original.out"
for label in annotated dlayout-first dlayout; do
    if ! cmp -s "$WORK/original.out" "$WORK/$label.out"; then
        echo "demo: FAIL: the $label run's output differs:" >&2
        cat "$WORK/$label.out" >&2
        exit 1
    fi
done
converted=1
grep -q '^dlayout-stats:.* marshals=[1-9]' "$WORK/dlayout.err" || converted=0
if [ "$CHECK" = --check ] && [ $converted = 0 ]; then
    echo "demo: FAIL: dl-run converted nothing" >&2
    exit 1
fi
say "OK: identical output in all four runs; files in $WORK"

# The result in one line: the gain, or why there is none.
plain=$(total_ms original)
under=$(total_ms dlayout)
if awk -v p="$plain" -v d="$under" 'BEGIN { exit !(d > 0 && d < p) }'; then
    say "$(awk -v p="$plain" -v d="$under" 'BEGIN {
        printf "dl-run: %.2fx faster end to end on this device (%.2f s " \
               "-> %.2f s)", p / d, p / 1000, d / 1000 }')"
else
    why=$(sed -n "s/^dlayout: info: tuner: kernel 'lbm_step' runs plain: //p" \
        "$WORK/dlayout.err" | tail -n 1)
    if [ -z "$why" ] && [ $converted = 1 ]; then
        why="the transformed kernel ran, but its gain did not pay for the"
        why="$why conversions within ${SIZE[*]: -1} steps"
    fi
    say "dl-run gains nothing on this device (${plain} ms plain," \
        "${under} ms under dl-run): ${why:-dlayout kept the kernel as written}"
fi
