#!/usr/bin/env bash
# dlayout.sh - set up a Debian 12 machine, build, and run the demo or tests.
#
#   ./scripts/dlayout.sh demo    packages, build, the annotate + dl-run demo
#                                and a short dl-bench run
#   ./scripts/dlayout.sh test    packages, build (--werror), the tests
#                                (all but the perf suite), then the ten
#                                slowest
#   ./scripts/dlayout.sh perf    packages, build, the performance checks
#                                (suite perf: callgrind, vectorisation)
#   ./scripts/dlayout.sh deps    only check / install the packages
#   ./scripts/dlayout.sh build   packages and build
#
# Missing Debian packages are installed with apt-get when running as root,
# through sudo when it is available; otherwise the script prints what to
# install and exits with status 1.  DL_BUILD_DIR picks the build directory
# (default: build, inside the source tree).
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${DL_BUILD_DIR:-$ROOT/build}
case $BUILD in /*) ;; *) BUILD=$PWD/$BUILD ;; esac

# What the build, the tests and the plots need.  gnuplot-nox is gnuplot
# without the X11/Qt front ends; any installed gnuplot variant will do.
PACKAGES=(gcc libc6-dev python3 pkg-config meson ninja-build
          ocl-icd-opencl-dev opencl-headers pocl-opencl-icd libclang-dev
          libcmocka-dev oclgrind gnuplot-nox valgrind llvm-14 libmetis-dev clang-format-14)

say() { printf '==> %s\n' "$*"; }

installed() {
    [ "$(dpkg-query -W -f='${db:Status-Status}' "$1" 2>/dev/null)" = installed ]
}

missing_packages() {
    local p
    for p in "${PACKAGES[@]}"; do
        if [ "$p" = gnuplot-nox ]; then
            installed gnuplot-nox || installed gnuplot-qt ||
                installed gnuplot-x11 || echo "$p"
        else
            installed "$p" || echo "$p"
        fi
    done
}

deps() {
    if ! command -v dpkg-query >/dev/null 2>&1; then
        say "not a Debian system: install the equivalents of"
        say "  ${PACKAGES[*]}"
        say "and rerun; trying to build with what is there"
        return 0
    fi
    local missing
    missing=$(missing_packages | tr '\n' ' ')
    missing=${missing% }
    if [ -z "$missing" ]; then
        say "Debian packages: all present"
        return 0
    fi
    say "missing Debian packages: $missing"
    local sudo=()
    if [ "$(id -u)" != 0 ]; then
        if command -v sudo >/dev/null 2>&1; then
            sudo=(sudo)
        else
            echo "Not root and no sudo.  As root, run:" >&2
            echo "  apt-get update && apt-get install -y $missing" >&2
            exit 1
        fi
    fi
    # shellcheck disable=SC2086 # one word per package
    "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -q
    # shellcheck disable=SC2086
    "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive \
        apt-get install -y -q $missing
    missing=$(missing_packages | tr '\n' ' ')
    if [ -n "${missing// /}" ]; then
        echo "still missing after apt-get: $missing" >&2
        exit 1
    fi
}

# The build the demo and the tests use: warnings are errors, and the lock
# rule is checked (a blocking OpenCL call under dlayout's lock aborts).
# The perf suite measures the build users install, without the check, in
# a build directory of its own.
LOCK_CHECK=true
build() {
    deps
    if [ -f "$BUILD/meson-private/coredata.dat" ]; then
        local opts
        opts=$(meson introspect "$BUILD" --buildoptions)
        grep -q '"name": "werror", "value": true' <<<"$opts" &&
            grep -q "\"name\": \"lock_check\", \"value\": \"$LOCK_CHECK\"" <<<"$opts" ||
            meson configure "$BUILD" -Dwerror=true -Dlock_check="$LOCK_CHECK"
    else
        meson setup "$BUILD" "$ROOT" --werror -Dlock_check="$LOCK_CHECK"
    fi
    meson compile -C "$BUILD"
}

# Compiled kernels are cached inside the build tree.
pocl_cache() {
    export POCL_CACHE_DIR=$BUILD/pocl-cache
    mkdir -p "$POCL_CACHE_DIR"
}

# Runs one dl-bench marshal row and checks its `verified` column.
bench_row() {
    local out status=0
    out=$("$BUILD/benchmarks/dl-bench" marshal --struct 3 --elem 4 \
        --count 1M --reps 3 "$@") || status=$?
    printf '%s\n' "$out" | sed -n "${ROW_LINES}p"
    ROW_LINES=2
    if [ "$status" != 0 ]; then
        echo "dl-bench marshal $* failed (exit $status)" >&2
        return 1
    fi
    printf '%s\n' "$out" | awk -F, '
        NR == 1 { for (i = 1; i <= NF; i++) if ($i == "verified") col = i }
        NR == 2 { ok = col && $col == 1 }
        END { exit !ok }' || {
        echo "dl-bench marshal $*: not verified" >&2
        return 1
    }
}

demo() {
    build
    pocl_cache
    say "dl-annotate + dl-run on an unmodified OpenCL program (scripts/demo.sh)"
    "$ROOT/scripts/demo.sh" "$BUILD"
    say "dl-bench marshal: 1M records of 3 x 4-byte fields, in place"
    ROW_LINES=1,2
    bench_row --from aos --to asta --tile 32
    bench_row --from asta --to aos --tile 32
    bench_row --from aos --to da
    say "every row verified against the host reference"
}

# meson test with OPTIONS, then the slowest tests of the run (TESTLOG,
# meson's JSON log of it), whatever the outcome, so that creep shows.
meson_test() { # TESTLOG OPTIONS...
    local log=$BUILD/meson-logs/$1 status=0
    shift
    build
    pocl_cache
    meson test -C "$BUILD" --print-errorlogs "$@" || status=$?
    if [ -f "$log" ]; then
        python3 "$ROOT/scripts/slowest_tests.py" "$log" 10
    fi
    return "$status"
}

usage() {
    sed -n '2,17p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'
}

case ${1:-} in
deps) deps ;;
build) build ;;
demo) demo ;;
test) meson_test testlog.json ;;
perf)
    BUILD=${DL_PERF_BUILD_DIR:-$BUILD-perf} LOCK_CHECK=false
    meson_test testlog.json --suite perf
    ;;
-h | --help | help) usage ;;
*)
    usage >&2
    exit 2
    ;;
esac
