#!/usr/bin/env bash
# demo.sh BUILD_DIR - the whole story on one ordinary OpenCL program:
#
#   1. dl-annotate rewrites the D3Q19 lattice-Boltzmann kernel of
#      dl-app-lbm (benchmarks/apps/lbm.cl, an AoS of 20 floats per cell),
#      given the paper-style annotations `// DL: AoS: src[...][20]`;
#   2. the unmodified dl-app-lbm binary runs with the original kernel,
#      with the annotated kernel (no dlayout), and with the annotated
#      kernel under `dl-run --stats`;
#   3. the three outputs must be identical; their timings and the
#      dlayout-stats line are shown.
#
# Exits non-zero if anything fails or the outputs differ.
set -euo pipefail

if [ $# -ne 1 ]; then
    echo "usage: $0 BUILD_DIR" >&2
    exit 2
fi
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=$(cd "$1" && pwd)
APP=$BUILD/benchmarks/apps/dl-app-lbm
ANNOTATE=$BUILD/annotate/dl-annotate
DL_RUN=$BUILD/interpose/dl-run
for f in "$APP" "$ANNOTATE" "$DL_RUN"; do
    [ -x "$f" ] || { echo "demo: $f is missing; build first" >&2; exit 1; }
done
export POCL_CACHE_DIR=${POCL_CACHE_DIR:-$BUILD/pocl-cache}
unset LD_PRELOAD OPENCL_LAYERS
for v in $(env | sed -n 's/^\(DL_[A-Z_]*\)=.*/\1/p'); do unset "$v"; done

WORK=$BUILD/demo
mkdir -p "$WORK"
# Large enough that converting pays on POCL here (the tuner only probes
# when 16 plain steps could pay the variant's and the marshal programs'
# builds: at 64^3 a step took 8-17 ms against ~300 ms up front).
SIZE=(--nx 96 --ny 96 --nz 96 --steps 30)
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

say "2. run the unmodified dl-app-lbm (${SIZE[*]})"
run original "$APP" "${SIZE[@]}" --kernel "$ROOT/benchmarks/apps/lbm.cl"
run annotated "$APP" "${SIZE[@]}" --kernel "$WORK/lbm.dl.cl"
run dlayout "$DL_RUN" --stats -- "$APP" "${SIZE[@]}" --kernel "$WORK/lbm.dl.cl"
printf '    original kernel, plain:      %s\n' "$(timing original)"
printf '    annotated kernel, plain:     %s\n' "$(timing annotated)"
printf '    annotated kernel, dl-run:    %s\n' "$(timing dlayout)"
grep '^dlayout' "$WORK/dlayout.err" | sed 's/^/    /'

say "3. compare the outputs"
sed 's/^/    /' "$WORK/original.out"
if ! cmp -s "$WORK/original.out" "$WORK/annotated.out" ||
    ! cmp -s "$WORK/original.out" "$WORK/dlayout.out"; then
    echo "demo: FAIL: the outputs differ:" >&2
    cat "$WORK/annotated.out" "$WORK/dlayout.out" >&2
    exit 1
fi
if ! grep -q '^dlayout-stats:.* marshals=[1-9]' "$WORK/dlayout.err"; then
    echo "demo: FAIL: dl-run converted nothing" >&2
    exit 1
fi
say "OK: identical output in all three runs; files in $WORK"
