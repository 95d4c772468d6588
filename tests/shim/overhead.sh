#!/bin/sh
# overhead.sh - instructions the shim adds to calls that convert nothing,
# counted by callgrind (exact, unlike timings).
#
#   overhead.sh DL_RUN SHIM_BENCH CALLS [LIMIT [LAUNCH_LIMIT]]
#
# Runs shim-bench (CALLS calls of each bench_ function) plain, under the
# preload, the preload with DL_DISABLE, the layer, and the preload and the
# layer with an annotated kernel the runtime tracks (DL_POLICY=always);
# counts the instructions inside each bench_ function and prints them per
# call, with the difference to the plain run.  Fails if a hooked call
# under the preload or the layer, or on the tracked kernel, costs more
# than LIMIT (default 40, the issue's target) extra instructions.
# Launches, blocking reads of a buffer no kernel uses (under the
# annotated modes, while another buffer is transformed) and of one
# dlayout tracks but never converted, are counted by object
# (cg_own.awk): dlayout's own instructions and the ICD loader's, less the
# loader's in the plain run, is what such a call adds; it must stay
# within LIMIT too, tracked kernel or not, except the launch, whose
# limit is LAUNCH_LIMIT (default 110): a launch the memo serves keeps the
# launch's event, so that a later conversion on another queue waits for
# that command alone and never for a marker behind commands the program
# holds back (docs/architecture.md), which costs about 60 instructions.
# Measure a build without -Dlock_check (./scripts/dlayout.sh perf): the
# check wraps the blocking calls.  Reads in the annotated modes
# are measured on four buffers each and the cheapest counts (candidates
# below).
set -u
dl_run=$1 bench=$2 calls=$3 limit=${4:-40} launch_limit=${5:-110}
here=$(dirname "$0")

tmp=$(mktemp -d "${TMPDIR:-/tmp}/dl-overhead.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT

functions="bench_set_scalar_arg bench_set_buffer_arg bench_get_kernel_info bench_retain_release"
modes="plain preload disabled layer annotated annotated_layer"

launcher() { # MODE: how to start the program
    case $1 in
    plain) ;;
    preload) echo "$dl_run --" ;;
    disabled) echo "$dl_run --disable --" ;;
    layer) echo "$dl_run --layer --" ;;
    annotated) echo "env DL_POLICY=always $dl_run --" ;;
    annotated_layer) echo "env DL_POLICY=always $dl_run --layer --" ;;
    esac
}

options() { # MODE: shim-bench's options after CALLS
    case $1 in annotated*) echo --annotated ;; esac
}

# The candidate buffers of shim-bench a read is measured on: a buffer
# whose slot in dlayout's table another key took (the luck of addresses,
# about 1 in 20 with a few tracked buffers) goes on probing, or takes the
# slow path, so the annotated modes try four and count the cheapest.
candidates() { # MODE WHAT
    case $1/$2 in
    annotated*/read*) echo 0 1 2 3 ;;
    *) echo 0 ;;
    esac
}

toggles=""
for f in $functions; do
    toggles="$toggles --toggle-collect=$f"
done

for mode in $modes; do
    # A native run first fills POCL's kernel cache: compiling under
    # valgrind would take minutes.
    $(launcher $mode) "$bench" 1 $(options $mode) >/dev/null || {
        echo "overhead: shim-bench failed ($mode)"
        exit 1
    }
    # Eager binding keeps the dynamic linker out of the counted calls.
    LD_BIND_NOW=1 $(launcher $mode) valgrind --tool=callgrind \
        --callgrind-out-file="$tmp/$mode.cg" $toggles \
        "$bench" "$calls" $(options $mode) >"$tmp/$mode.log" 2>&1 || {
        echo "overhead: valgrind failed ($mode):"
        tail -20 "$tmp/$mode.log"
        exit 1
    }
    callgrind_annotate --inclusive=yes "$tmp/$mode.cg" >"$tmp/$mode.txt" 2>&1
    # Launches and reads alone: POCL's own work in them varies by a
    # hundred instructions from run to run (its threads), so their rows
    # count the instructions executed in dlayout's and the loader's
    # libraries (launch_in below).
    # Reads in the annotated modes: each of shim-bench's candidate buffers
    # (candidates below), the cheapest counts.
    for what in launch read read_tracked; do
        for c in $(candidates $mode $what); do
            LD_BIND_NOW=1 $(launcher $mode) valgrind --tool=callgrind \
                --callgrind-out-file="$tmp/$mode.$what.$c.cg" \
                --toggle-collect=bench_$what \
                "$bench" "$calls" $(options $mode) --candidate $c \
                >"$tmp/$mode.$what.$c.log" 2>&1 || {
                echo "overhead: valgrind failed ($mode, bench_$what):"
                tail -20 "$tmp/$mode.$what.$c.log"
                exit 1
            }
        done
    done
done

# Instructions (inclusive) of function F in MODE, divided by CALLS + 1
# (each bench_ function also ran once with 1 call), or for bench_launch by
# CALLS / 100.
per_call() {
    n=$((calls + 1))
    [ "$2" = bench_launch ] && n=$(( calls / 100 > 0 ? calls / 100 : 1 ))
    awk -v f="$2" -v n="$n" '
        $0 ~ (":" f " ") || $0 ~ (":" f "$") {
            gsub(",", "", $1); printf "%.1f", $1 / n; found = 1; exit }
        END { if (!found) print "?" }' "$tmp/$1.txt"
}

status=0
columns="preload disabled layer annotated annotated_layer"
echo "instructions per call; the shim's columns are the difference to plain"
printf '%-24s %9s %9s %9s %9s %9s %9s\n' function plain preload disabled \
    layer annotated "(layer)"
for f in $functions; do
    base=$(per_call plain "$f")
    line=$(printf '%-24s %9s' "$f" "$base")
    for mode in $columns; do
        value=$(per_call $mode "$f")
        delta=$(awk -v a="$value" -v b="$base" 'BEGIN { printf "%+.1f", a - b }')
        line="$line $(printf '%9s' "$delta")"
        case $base$value in *'?'*) status=1 ;; esac
    done
    echo "$line"
done

# Per launch (WHAT launch) or read (read, read_tracked), the instructions
# executed in the objects whose path matches PATTERN (self cost), over
# CALLS / 100 of them, plus the one read of the warm-up.
launch_in() { # MODE WHAT PATTERN [CANDIDATE]
    own=$(awk -v pat="$3" -f "$here/cg_own.awk" "$tmp/$1.$2.${4:-$(best $1 $2)}.cg")
    n=$(( calls / 100 > 0 ? calls / 100 : 1 ))
    [ "$2" = launch ] || n=$((n + 1))
    awk -v own="$own" -v n=$n 'BEGIN { printf "%.1f", own / n }'
}
# The candidate whose run spent the fewest instructions in dlayout.
best() { # MODE WHAT
    for c in $(candidates $1 $2); do
        printf '%s %s\n' "$(launch_in $1 $2 "$dlayout_objects" $c)" $c
    done | sort -n | head -1 | cut -d' ' -f2
}
dlayout_objects='/libdlayout-[a-z]*[.]so$'
loader_objects='/libOpenCL[.]so'
# What a launch or a read adds: dlayout's instructions, and the loader's
# less what it runs in the plain run.  (The driver's own work varies by a
# hundred instructions from run to run, its threads, so it is left out.)
# The loader's share is below the plain one where a memo launch calls
# the driver's entry directly (runtime/rt/rt_dispatch.c).
launch_added() { # MODE WHAT
    awk -v d="$(launch_in "$1" "$2" "$dlayout_objects")" \
        -v l="$(launch_in "$1" "$2" "$loader_objects")" \
        -v p="$(launch_in plain "$2" "$loader_objects")" \
        'BEGIN { printf "%+.1f", d + l - p }'
}
above() { awk -v a="$1" -v l="$2" 'BEGIN { exit !(a > l) }'; }
for what in launch read read_tracked; do
    line=$(printf '%-24s %9s' "bench_$what (dlayout)" "0")
    line2=$(printf '%-24s %9s' "bench_$what (loader)" \
        "$(launch_in plain $what "$loader_objects")")
    line3=$(printf '%-24s %9s' "bench_$what (added)" "")
    for mode in $columns; do
        d=$(launch_in $mode $what "$dlayout_objects")
        l=$(launch_in $mode $what "$loader_objects")
        line="$line $(printf '%9s' "$d")"
        line2="$line2 $(printf '%9s' "$l")"
        line3="$line3 $(printf '%9s' "$(launch_added $mode $what)")"
    done
    printf '%s\n%s\n%s\n' "$line" "$line2" "$line3"
    max=$limit
    [ "$what" = launch ] && max=$launch_limit
    for mode in preload layer annotated annotated_layer; do
        if above "$(launch_added $mode $what)" "$max"; then
            echo "overhead: bench_$what adds more than $max" \
                "instructions ($mode)"
            status=1
        fi
    done
done

# The target applies to the hooked calls under the preload and the layer.
over_limit() { # MODE FUNCTION
    awk -v a="$(per_call "$1" "$2")" -v b="$(per_call plain "$2")" \
        -v l="$limit" 'BEGIN { exit (a - b > l) ? 0 : 1 }'
}
for f in bench_set_scalar_arg bench_set_buffer_arg bench_retain_release; do
    for mode in preload layer; do
        if over_limit $mode "$f"; then
            echo "overhead: $f adds more than $limit instructions per call ($mode)"
            status=1
        fi
    done
    for mode in annotated annotated_layer; do
        if over_limit $mode "$f"; then
            echo "overhead: $f adds more than $limit instructions" \
                "per call on an annotated kernel ($mode)"
            status=1
        fi
    done
done
[ "$status" = 0 ] && echo "overhead: ok (limit +$limit, launches +$launch_limit)"
exit $status
