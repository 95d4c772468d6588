#!/usr/bin/env bash
# demo.sh BUILD_DIR [RECORDS] - the README demo: runs the annotated
# particle program (dl-it-app demo, kernels/particles.cl) plainly and
# under `dl-run --stats`, prints both digests, both timings and the
# dlayout-stats line, and exits non-zero unless the outputs are identical.
set -euo pipefail

if [ $# -lt 1 ] || [ $# -gt 2 ]; then
    echo "usage: $0 BUILD_DIR [RECORDS]" >&2
    exit 2
fi
build=$(cd "$1" && pwd)
records=${2:-200003}
app="$build/tests/integration/dl-it-app"
dl_run="$build/interpose/dl-run"
for f in "$app" "$dl_run"; do
    [ -x "$f" ] || { echo "demo: $f is missing; build first" >&2; exit 1; }
done
export POCL_CACHE_DIR=${POCL_CACHE_DIR:-$build/pocl-cache}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Runs "$@", stdout to $1.out, stderr to $1.err, and prints the wall time.
timed() {
    local name=$1
    shift
    local start end
    start=$(date +%s%N)
    if ! "$@" >"$tmp/$name.out" 2>"$tmp/$name.err"; then
        echo "demo: the $name run failed:" >&2
        cat "$tmp/$name.err" >&2
        exit 1
    fi
    end=$(date +%s%N)
    echo "$(( (end - start) / 1000000 ))"
}

echo "== $records particles, 40 steps of an ASTA(8)-annotated kernel"
plain_ms=$(timed plain env -u LD_PRELOAD -u OPENCL_LAYERS \
    "$app" demo "$records")
dl_ms=$(timed dlayout "$dl_run" --stats -- "$app" demo "$records")

echo "plain:    $(cat "$tmp/plain.out")"
echo "          $(grep '^demo:' "$tmp/plain.err") (process: $plain_ms ms)"
echo "dl-run:   $(cat "$tmp/dlayout.out")"
echo "          $(grep '^demo:' "$tmp/dlayout.err") (process: $dl_ms ms)"
stats=$(grep '^dlayout-stats:' "$tmp/dlayout.err" || true)
echo "${stats:-dlayout-stats: (missing)}"
grep '^dlayout: ' "$tmp/dlayout.err" || true

if ! cmp -s "$tmp/plain.out" "$tmp/dlayout.out"; then
    echo "demo: FAIL: the outputs differ" >&2
    exit 1
fi
if [ -z "$stats" ]; then
    echo "demo: FAIL: no dlayout-stats line" >&2
    exit 1
fi
echo "demo: OK: identical output with and without dlayout"
