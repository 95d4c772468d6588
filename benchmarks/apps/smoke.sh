#!/bin/sh
# smoke.sh [BINDIR] - quick check of dl-app-lbm, dl-app-spmv and
# dl-app-blackscholes on small sizes (a few seconds on POCL).
#
# BINDIR holds the three programs (default: the build directory
# benchmarks/apps, or the directory of this script); their kernel files
# must be next to them or installed.  Checks: every run succeeds and
# prints its digest line; reruns give the same output bytes; the AoS and
# the hand-written DA LBM give the same bytes; changing the work-group size
# does not change the bytes; bad arguments exit with 2.
# Exit status 0 when all pass, 1 otherwise.
set -u

bin=${1:-$(dirname "$0")}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/dl-apps-smoke.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
fails=0

fail() {
    echo "FAIL: $*" >&2
    fails=$((fails + 1))
}

# run NAME PROG ARGS... : runs BINDIR/PROG, keeps stdout in $tmp/NAME.txt
run() {
    name=$1
    shift
    prog=$1
    shift
    if ! "$bin/$prog" "$@" --quiet --output "$tmp/$name.bin" \
            >"$tmp/$name.txt"; then
        fail "$prog $* exited with $?"
        return 1
    fi
    if ! grep -q 'fnv1a64=[0-9a-f]\{16\}$' "$tmp/$name.txt" ||
            grep -Eqi '=-?(nan|inf)' "$tmp/$name.txt"; then
        fail "$prog $*: bad digest line: $(cat "$tmp/$name.txt")"
        return 1
    fi
    cat "$tmp/$name.txt"
}

same() {
    if ! cmp -s "$tmp/$1.bin" "$tmp/$2.bin" ||
            ! cmp -s "$tmp/$1.txt" "$tmp/$2.txt"; then
        fail "$1 and $2 differ ($3)"
    fi
}

size_is() {
    got=$(wc -c <"$tmp/$1.bin" | tr -d ' ')
    [ "$got" = "$2" ] || fail "$1: output is $got bytes, expected $2"
}

lbm="--nx 24 --ny 16 --nz 20 --steps 5 --seed 7"
run lbm_a dl-app-lbm $lbm
run lbm_b dl-app-lbm $lbm
run lbm_da dl-app-lbm $lbm --layout da
run lbm_off dl-app-lbm $lbm --layout da --da-pad 16
run lbm_l dl-app-lbm $lbm --local 16
size_is lbm_a $((24 * 16 * 20 * 20 * 4))
same lbm_a lbm_b "AoS rerun"
same lbm_a lbm_da "AoS vs DA layout"
same lbm_a lbm_off "AoS vs offset DA layout"
same lbm_a lbm_l "work-group size"

spmv="--rows 3000 --k 40 --iters 7 --seed 3"
run spmv_a dl-app-spmv $spmv
run spmv_b dl-app-spmv $spmv --local 64
run spmv_s dl-app-spmv --shape conf6 --iters 2
size_is spmv_a $((3000 * 4))
same spmv_a spmv_b "work-group size"

bs="--options 5000 --seed 5"
run bs_a dl-app-blackscholes $bs --iters 2
run bs_b dl-app-blackscholes $bs --iters 3 --local 64
size_is bs_a $((5000 * 8))
if ! cmp -s "$tmp/bs_a.bin" "$tmp/bs_b.bin"; then
    fail "blackscholes: iteration count or work-group size changed bytes"
fi

for p in dl-app-lbm dl-app-spmv dl-app-blackscholes; do
    "$bin/$p" --no-such-option >/dev/null 2>&1
    rc=$?
    [ $rc -eq 2 ] || fail "$p --no-such-option exited with $rc, not 2"
done
"$bin/dl-app-lbm" --kernel "$tmp/missing.cl" --nx 4 --ny 4 --nz 4 \
    >/dev/null 2>&1
rc=$?
[ $rc -eq 1 ] || fail "dl-app-lbm with a missing kernel exited with $rc, not 1"

if [ $fails -ne 0 ]; then
    echo "smoke: $fails failure(s)" >&2
    exit 1
fi
echo "smoke: all passed"
