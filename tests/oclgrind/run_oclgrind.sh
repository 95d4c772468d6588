#!/usr/bin/env bash
# run_oclgrind.sh - runs a command under `oclgrind --data-races` and fails
# if oclgrind reported anything: oclgrind itself exits with the command's
# status even when it finds races or invalid accesses, so its log decides.
#
#   run_oclgrind.sh COMMAND...                pass: exit 0 and an empty log
#   run_oclgrind.sh --expect-race COMMAND...  pass: the log reports a race
#                                             (the self-test of this check)
set -euo pipefail

expect_race=0
if [ "${1:-}" = --expect-race ]; then
    expect_race=1
    shift
fi

if ! command -v oclgrind >/dev/null 2>&1; then
    if [ "${CI:-}" = true ]; then
        echo "oclgrind is not installed (apt-get install oclgrind)" >&2
        exit 1
    fi
    echo "oclgrind is not installed: skipped"
    exit 77 # meson: skipped
fi

log=$(mktemp "${TMPDIR:-/tmp}/dl-oclgrind.XXXXXX")
trap 'rm -f "$log"' EXIT

status=0
oclgrind --data-races --check-api --log "$log" "$@" || status=$?

if [ "$expect_race" = 1 ]; then
    if grep -qi 'data race' "$log"; then
        echo "oclgrind reported the deliberate race, as it should:"
        head -n 5 "$log"
        exit 0
    fi
    echo "FAIL: oclgrind did not report the deliberate data race" >&2
    cat "$log" >&2
    exit 1
fi

if [ -s "$log" ]; then
    echo "FAIL: oclgrind reported problems:" >&2
    cat "$log" >&2
    exit 1
fi
if [ "$status" != 0 ]; then
    echo "FAIL: the command exited with status $status" >&2
    exit "$status"
fi
echo "oclgrind: no races, no invalid accesses"
