#!/bin/sh
# check.sh - the shim tests, one case per meson test.
#
#   check.sh CASE DL_RUN PRELOAD_SO LAYER_SO CL_PROG CL_DLOPEN CONTROLS_DEF \
#            ENTRIES_DEF PLUGIN_HOST PLUGIN [SHIM_RELATIVE_DIR]
#
# CL_PROG is an ordinary OpenCL program (linked with libOpenCL), CL_DLOPEN
# the same program loading libOpenCL with dlopen, PLUGIN the same as a
# library that PLUGIN_HOST loads with dlopen(RTLD_LOCAL).  Every case compares the
# program's stdout with a plain run and reads the runtime's dlayout-stats
# line (launches=N) to see whether the hooks ran.
set -u

case_name=$1 dl_run=$2 preload=$(realpath "$3") layer=$(realpath "$4")
cl_prog=$5 cl_dlopen=$6 controls_def=$7 entries=$8
plugin_host=$9 plugin=${10} relative_dir=${11:-}

tmp=$(mktemp -d "${TMPDIR:-/tmp}/dl-shim-test.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
failures=0

fail() {
    echo "FAIL: $*"
    failures=$((failures + 1))
}

# run NAME CMD... : stdout, stderr and status into $tmp/NAME.{out,err,rc}
run() {
    name=$1
    shift
    "$@" >"$tmp/$name.out" 2>"$tmp/$name.err"
    echo $? >"$tmp/$name.rc"
}

rc_of() { cat "$tmp/$1.rc"; }

expect_rc() { # NAME RC
    [ "$(rc_of "$1")" = "$2" ] ||
        fail "$1: exit status $(rc_of "$1"), expected $2 (stderr: $(head -c 300 "$tmp/$1.err"))"
}

same_output() { # A B : stdout, stderr and status identical
    cmp -s "$tmp/$1.out" "$tmp/$2.out" || fail "$2: stdout differs from $1"
    cmp -s "$tmp/$1.err" "$tmp/$2.err" || fail "$2: stderr differs from $1: $(head -c 300 "$tmp/$2.err")"
    [ "$(rc_of "$1")" = "$(rc_of "$2")" ] || fail "$2: exit status $(rc_of "$2"), $1 had $(rc_of "$1")"
}

same_stdout() { # A B : the program's results, and both succeeded
    cmp -s "$tmp/$1.out" "$tmp/$2.out" || fail "$2: stdout differs from $1"
    expect_rc "$1" 0
    expect_rc "$2" 0
}

stats_lines() { grep -c '^dlayout-stats:' "$tmp/$1.err"; }

expect_launches() { # NAME N : exactly one stats line, with launches=N
    n=$(stats_lines "$1")
    if [ "$n" != 1 ]; then
        fail "$1: $n dlayout-stats lines, expected 1"
        return
    fi
    grep "^dlayout-stats:" "$tmp/$1.err" | grep -Eq " launches=$2( |\$)" ||
        fail "$1: expected launches=$2 in: $(grep '^dlayout-stats:' "$tmp/$1.err")"
}

expect_no_stats() {
    [ "$(stats_lines "$1")" = 0 ] || fail "$1: printed a dlayout-stats line"
}

# Environment that would make an active runtime print, log and write.
noisy() {
    env LD_PRELOAD="$preload" DL_STATS=1 DL_LOG=debug \
        DL_LOG_FILE="$tmp/dl.log" DL_DUMP_DIR="$tmp/dump" "$@"
}

expect_untouched() { # NAME : no log file, no dump directory
    [ ! -e "$tmp/dl.log" ] || fail "$1: created DL_LOG_FILE"
    [ ! -e "$tmp/dump" ] || fail "$1: created DL_DUMP_DIR"
}

case $case_name in
passive)
    # Processes that never call OpenCL must not notice the shim, above all
    # the `ld` that POCL runs as a child with the inherited LD_PRELOAD.
    run ld-plain ld --version
    run ld-shim noisy ld --version
    same_output ld-plain ld-shim
    expect_untouched ld-shim
    run sh-plain sh -c 'echo out; echo err >&2; exit 3'
    run sh-shim noisy sh -c 'echo out; echo err >&2; exit 3'
    same_output sh-plain sh-shim
    expect_untouched sh-shim
    run sh-dlrun env DL_LOG_FILE="$tmp/dl.log" DL_DUMP_DIR="$tmp/dump" \
        "$dl_run" --stats --log debug sh -c 'echo out; echo err >&2; exit 3'
    same_output sh-plain sh-dlrun
    expect_untouched sh-dlrun
    ;;
pocl-child)
    # A cold POCL cache makes POCL link the kernel with `ld` in a child
    # process that inherits LD_PRELOAD: still one stats line, no noise.
    run plain env POCL_CACHE_DIR="$tmp/cache-plain" "$cl_prog"
    run shim env POCL_CACHE_DIR="$tmp/cache-shim" "$dl_run" --stats "$cl_prog"
    same_stdout plain shim
    expect_launches shim 2
    if grep -v '^dlayout-stats:' "$tmp/shim.err" | grep -q .; then
        fail "shim: unexpected stderr: $(head -c 300 "$tmp/shim.err")"
    fi
    ;;
usage)
    run none "$dl_run"
    expect_rc none 2
    grep -q 'no program' "$tmp/none.err" || fail "none: no message"
    run only-options "$dl_run" --stats --layer
    expect_rc only-options 2
    run unknown "$dl_run" --bogus true
    expect_rc unknown 2
    grep -q -- "--bogus" "$tmp/unknown.err" || fail "unknown: option not named"
    run log-missing "$dl_run" --log
    expect_rc log-missing 2
    run log-invalid "$dl_run" --log loud true
    expect_rc log-invalid 2
    grep -q "loud" "$tmp/log-invalid.err" || fail "log-invalid: value not named"
    run log-empty "$dl_run" --log= true
    expect_rc log-empty 2
    [ ! -s "$tmp/none.out" ] || fail "usage errors must not write to stdout"
    ;;
status)
    # The program's exit status is dl-run's; dl-run's own failures are
    # 126/127 as in env(1).
    run exit7 "$dl_run" sh -c 'exit 7'
    expect_rc exit7 7
    run exit7-layer "$dl_run" --layer sh -c 'exit 7'
    expect_rc exit7-layer 7
    run exit0 "$dl_run" --stats -- sh -c 'exit 0'
    expect_rc exit0 0
    run dashdash "$dl_run" -- sh -c 'echo "$0 $1"' x --stats
    expect_rc dashdash 0
    [ "$(cat "$tmp/dashdash.out")" = "x --stats" ] ||
        fail "dashdash: arguments after the program were not passed on"
    run missing "$dl_run" "$tmp/no-such-program"
    expect_rc missing 127
    printf '#!/bin/sh\nexit 0\n' >"$tmp/not-executable"
    chmod 644 "$tmp/not-executable"
    run noexec "$dl_run" "$tmp/not-executable"
    expect_rc noexec 126
    ;;
help)
    run help "$dl_run" --help
    expect_rc help 0
    run h "$dl_run" -h
    expect_rc h 0
    cmp -s "$tmp/help.out" "$tmp/h.out" || fail "-h and --help differ"
    grep -q '^Usage: dl-run' "$tmp/help.out" || fail "help: no usage line"
    for option in --layer --stats --log --disable --help; do
        grep -q -- "$option" "$tmp/help.out" || fail "help: $option missing"
    done
    controls=$(grep -o '^DL_CONTROL("DL_[A-Z_]*"' "$controls_def" | cut -d'"' -f2)
    [ -n "$controls" ] || fail "no controls found in $controls_def"
    for control in $controls; do
        grep -q "^  $control=" "$tmp/help.out" || fail "help: $control missing"
    done
    ;;
env)
    # What dl-run hands to the program (printenv runs under the shim too).
    run pre env -u LD_PRELOAD -u OPENCL_LAYERS \
        "$dl_run" --stats --log info --disable printenv
    expect_rc pre 0
    for line in DL_STATS=1 DL_LOG=info DL_DISABLE=1 "LD_PRELOAD=$preload"; do
        grep -qx "$line" "$tmp/pre.out" || fail "preload: no '$line'"
    done
    grep -q '^OPENCL_LAYERS=' "$tmp/pre.out" && fail "preload: set OPENCL_LAYERS"
    run append env LD_PRELOAD=/nonexistent/dl-test.so "$dl_run" printenv LD_PRELOAD
    [ "$(cat "$tmp/append.out")" = "/nonexistent/dl-test.so:$preload" ] ||
        fail "LD_PRELOAD not appended: $(cat "$tmp/append.out")"
    run lay env -u LD_PRELOAD -u OPENCL_LAYERS "$dl_run" --log=debug --layer printenv
    grep -qx "OPENCL_LAYERS=$layer" "$tmp/lay.out" || fail "layer: no OPENCL_LAYERS"
    grep -qx "DL_LOG=debug" "$tmp/lay.out" || fail "layer: --log=debug"
    grep -q '^LD_PRELOAD=' "$tmp/lay.out" && fail "layer: set LD_PRELOAD"
    run lay-append env OPENCL_LAYERS=/x/other.so "$dl_run" --layer printenv OPENCL_LAYERS
    [ "$(cat "$tmp/lay-append.out")" = "/x/other.so:$layer" ] ||
        fail "OPENCL_LAYERS not appended: $(cat "$tmp/lay-append.out")"
    ;;
preload)
    run plain "$cl_prog"
    run shim "$dl_run" --stats "$cl_prog"
    same_stdout plain shim
    expect_launches shim 2
    ;;
disable)
    # Pure pass-through: same results, no launch reaches the runtime.
    run plain "$cl_prog"
    run shim "$dl_run" --disable --stats "$cl_prog"
    same_stdout plain shim
    if [ "$(stats_lines shim)" != 0 ]; then
        expect_launches shim 0
    fi
    run shim-layer "$dl_run" --layer --disable --stats "$cl_prog"
    same_stdout plain shim-layer
    if [ "$(stats_lines shim-layer)" != 0 ]; then
        expect_launches shim-layer 0
    fi
    ;;
layer)
    run plain "$cl_prog"
    run shim "$dl_run" --layer --stats "$cl_prog"
    same_stdout plain shim
    expect_launches shim 2
    ;;
fork-child)
    # A child forked after OpenCL was used calls exit(): it inherits the
    # exit handler (and, as a layer, the destructor), but only the process
    # that started the runtime prints the stats line.
    run plain "$cl_prog" --fork
    run preload "$dl_run" --stats "$cl_prog" --fork
    same_stdout plain preload
    expect_launches preload 2
    run layer "$dl_run" --layer --stats "$cl_prog" --fork
    same_stdout plain layer
    expect_launches layer 2
    ;;
binary-dir)
    # An unusable DL_BINARY_DIR is named in one warning, and the program
    # runs as ever without the binary cache.  A missing directory that can
    # be made is made (as storing a program would), without a warning.
    run plain "$cl_prog"
    : >"$tmp/regular-file"
    i=0
    for dir in relative/binaries "$tmp/regular-file/binaries" \
        "$tmp/regular-file" /proc/self; do
        i=$((i + 1))
        run bad$i env DL_BINARY_DIR="$dir" "$dl_run" --stats "$cl_prog"
        same_stdout plain bad$i
        expect_launches bad$i 2
        n=$(grep -c "^dlayout: warning: DL_BINARY_DIR" "$tmp/bad$i.err")
        [ "$n" = 1 ] || fail "bad$i: $n DL_BINARY_DIR warnings for '$dir', expected 1: $(head -c 300 "$tmp/bad$i.err")"
    done
    [ ! -e relative ] || fail "relative/binaries: created in the working directory"
    run good env DL_BINARY_DIR="$tmp/new/binaries" "$dl_run" --stats "$cl_prog"
    same_stdout plain good
    if grep -q "DL_BINARY_DIR" "$tmp/good.err"; then
        fail "good: unexpected warning: $(head -c 300 "$tmp/good.err")"
    fi
    [ -d "$tmp/new/binaries" ] || fail "good: the directory was not made"
    ;;
setuid)
    # Setuid and setgid programs run under the layer (the loader ignores
    # LD_PRELOAD there, not OPENCL_LAYERS): in such an AT_SECURE process
    # dlayout reads no DL_* variable, writes nothing and injects nothing.
    # A setgid-root program run by an unprivileged user, and a setuid
    # program (owned by that user) run by root.  (POCL itself cannot build
    # in a setuid-root program run by another user here: EPERM from its
    # compiler's output files.)  The same runs of a plain copy show that
    # the environment would dump and inject.
    if [ "$(id -u)" != 0 ]; then
        echo "not root: cannot make setuid programs; skipped"
        exit 77
    fi
    chmod 755 "$tmp" && mkdir -m 755 "$tmp/bin" || exit 1
    for variant in plain setgid setuid; do
        cp "$cl_prog" "$tmp/bin/$variant" && chmod 755 "$tmp/bin/$variant" ||
            exit 1
    done
    chgrp 0 "$tmp/bin/setgid" && chmod 2755 "$tmp/bin/setgid" &&
        chown 65534 "$tmp/bin/setuid" && chmod 4755 "$tmp/bin/setuid" ||
        exit 1
    if findmnt -no OPTIONS --target "$tmp/bin" 2>/dev/null | grep -qw nosuid; then
        echo "$tmp is mounted nosuid; skipped"
        exit 77
    fi
    mkdir -m 1777 "$tmp/pocl" "$tmp/xdg" "$tmp/dump" "$tmp/dump-secure" \
        "$tmp/inject" || exit 1
    POCL_CACHE_DIR=$tmp/pocl XDG_CACHE_HOME=$tmp/xdg
    export POCL_CACHE_DIR XDG_CACHE_HOME
    nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
    run plain nobody "$tmp/bin/plain"
    run dump nobody env DL_DUMP_DIR="$tmp/dump" "$dl_run" --layer --stats \
        "$tmp/bin/plain"
    same_stdout plain dump
    expect_launches dump 2
    dumped=$(ls "$tmp/dump")
    if [ -z "$dumped" ] || [ "$(echo "$dumped" | wc -l)" != 1 ]; then
        fail "dump: expected one dumped source, found '$dumped'"
    else
        sed 's/+ 1.0f/+ 2.0f/' "$tmp/dump/$dumped" >"$tmp/inject/$dumped"
        run inject nobody env DL_INJECT_DIR="$tmp/inject" "$dl_run" --layer \
            "$tmp/bin/plain"
        expect_rc inject 0
        if cmp -s "$tmp/plain.out" "$tmp/inject.out"; then
            fail "inject: the injected source changed nothing"
        fi
    fi
    for variant in setgid setuid; do
        runner=nobody
        [ "$variant" = setuid ] && runner=env
        run "$variant-plain" "$runner" "$tmp/bin/$variant"
        same_stdout plain "$variant-plain"
        run "$variant" "$runner" env DL_DUMP_DIR="$tmp/dump-secure" \
            DL_INJECT_DIR="$tmp/inject" DL_LOG_FILE="$tmp/dl.log" \
            DL_BINARY_DIR="$tmp/binaries" \
            "$dl_run" --layer --stats --log debug "$tmp/bin/$variant"
        same_stdout plain "$variant"
        expect_no_stats "$variant"
        [ -z "$(ls -A "$tmp/dump-secure")" ] ||
            fail "$variant: wrote into DL_DUMP_DIR"
        [ ! -e "$tmp/dl.log" ] || fail "$variant: wrote DL_LOG_FILE"
        [ ! -e "$tmp/binaries" ] || fail "$variant: made DL_BINARY_DIR"
        if grep -q "^dlayout" "$tmp/$variant.err"; then
            fail "$variant: dlayout spoke: $(head -c 300 "$tmp/$variant.err")"
        fi
        rm -rf "$tmp/dump-secure/"* "$tmp/dl.log" "$tmp/binaries"
    done
    ;;
dlopen)
    # A program that dlopen()s libOpenCL: the layer sees it, the preload
    # cannot (and then stays passive: no stats line at all).
    run plain "$cl_dlopen"
    run layer "$dl_run" --layer --stats "$cl_dlopen"
    same_stdout plain layer
    expect_launches layer 2
    run preload "$dl_run" --stats "$cl_dlopen"
    same_stdout plain preload
    expect_no_stats preload
    ;;
plugin)
    # A plugin loaded with RTLD_LOCAL that links libOpenCL (a Python
    # extension): its calls bind to the preload, but libOpenCL is not in
    # the global scope that dlsym(RTLD_NEXT) searches.
    run plain "$plugin_host" "$plugin"
    run shim "$dl_run" --stats "$plugin_host" "$plugin"
    same_stdout plain shim
    expect_launches shim 2
    run shim-layer "$dl_run" --layer --stats "$plugin_host" "$plugin"
    same_stdout plain shim-layer
    expect_launches shim-layer 2
    ;;
threads)
    # Eight threads make their first intercepted call at the same moment.
    run plain "$cl_prog" --threads 8
    run shim "$dl_run" --stats "$cl_prog" --threads 8
    same_stdout plain shim
    expect_launches shim 16
    run shim-layer "$dl_run" --layer --stats "$cl_prog" --threads 8
    same_stdout plain shim-layer
    expect_launches shim-layer 16
    ;;
symbols)
    # The preload exports exactly the entries of entries.def (whose hooks
    # runtime/rt/intercept.h declares, generated from it), the layer
    # only its two loader entry points; neither links libOpenCL nor calls
    # an OpenCL function by name (that would re-enter the hooks).
    grep -o '^DL_ENTRY([^,]*, *cl[A-Za-z]*' "$entries" | sed 's/.*, *//' |
        sort >"$tmp/entries"
    [ -s "$tmp/entries" ] || fail "no entries read from $entries"
    nm -D --defined-only "$preload" | awk '$2 ~ /^[TW]$/ {print $3}' |
        grep -v '^_' | sort >"$tmp/preload-exports"
    cmp -s "$tmp/entries" "$tmp/preload-exports" ||
        fail "preload exports differ from entries.def: $(diff "$tmp/entries" "$tmp/preload-exports" | tr '\n' ' ')"
    nm -D --defined-only "$layer" | awk '$2 ~ /^[TW]$/ {print $3}' |
        grep -v '^_' | sort | tr '\n' ' ' >"$tmp/layer-exports"
    [ "$(cat "$tmp/layer-exports")" = "clGetLayerInfo clInitLayer " ] ||
        fail "layer exports: $(cat "$tmp/layer-exports")"
    for lib in "$preload" "$layer"; do
        nm -D --undefined-only "$lib" | grep -q ' cl[A-Z]' &&
            fail "$lib refers to OpenCL functions by name"
        readelf -d "$lib" | grep -q 'NEEDED.*OpenCL' &&
            fail "$lib links libOpenCL"
    done
    ;;
relocated)
    # An installed tree moved elsewhere: dl-run finds the shims relative to
    # itself (bin/ -> SHIM_RELATIVE_DIR).
    if [ -z "$relative_dir" ]; then
        echo "no relative install path (absolute bindir or libdir): skipped"
        exit 77
    fi
    mkdir -p "$tmp/prefix/bin" "$tmp/prefix/bin/$relative_dir" || exit 1
    cp "$dl_run" "$tmp/prefix/bin/dl-run"
    cp "$preload" "$layer" "$tmp/prefix/bin/$relative_dir/"
    moved_preload=$(realpath "$tmp/prefix/bin/$relative_dir/$(basename "$preload")")
    moved_layer=$(realpath "$tmp/prefix/bin/$relative_dir/$(basename "$layer")")
    run moved env -u LD_PRELOAD "$tmp/prefix/bin/dl-run" printenv LD_PRELOAD
    [ "$(cat "$tmp/moved.out")" = "$moved_preload" ] ||
        fail "moved: LD_PRELOAD=$(cat "$tmp/moved.out"), expected $moved_preload"
    run moved-layer env -u OPENCL_LAYERS "$tmp/prefix/bin/dl-run" --layer printenv OPENCL_LAYERS
    [ "$(cat "$tmp/moved-layer.out")" = "$moved_layer" ] ||
        fail "moved: OPENCL_LAYERS=$(cat "$tmp/moved-layer.out"), expected $moved_layer"
    # dl-run without shims next to it: 125 and a message, unless an
    # installed copy exists at the configured install path.
    mkdir "$tmp/lonely" && cp "$dl_run" "$tmp/lonely/dl-run"
    run lonely env -u LD_PRELOAD "$tmp/lonely/dl-run" printenv LD_PRELOAD
    case $(rc_of lonely) in
    125) grep -q 'cannot find' "$tmp/lonely.err" || fail "lonely: no message" ;;
    0) case $(cat "$tmp/lonely.out") in
       "$tmp"/*) fail "lonely: found a shim that is not there" ;;
       esac ;;
    *) fail "lonely: exit status $(rc_of lonely)" ;;
    esac
    ;;
*)
    echo "check.sh: unknown case '$case_name'" >&2
    exit 2
    ;;
esac

if [ "$failures" -ne 0 ]; then
    echo "$case_name: $failures failure(s)"
    exit 1
fi
echo "$case_name: ok"
