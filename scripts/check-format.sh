#!/usr/bin/env bash
# check-format.sh [--fix] - the C sources follow .clang-format.
#
# Checks every tracked .c and .h file (the OpenCL kernels and the
# generated files are not C sources of ours in that sense) with
# clang-format's --dry-run --Werror; --fix rewrites them instead.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
FORMAT=$(command -v clang-format-14 || command -v clang-format || true)
if [ -z "$FORMAT" ]; then
    echo "check-format: clang-format not found (Debian: clang-format-14)" >&2
    exit 77 # meson: skipped
fi
mapfile -t files < <(git ls-files '*.c' '*.h' 2>/dev/null || find . -name '*.[ch]' -not -path './build*')
if [ ${#files[@]} -eq 0 ]; then
    echo "check-format: no C sources found" >&2
    exit 1
fi
if [ "${1:-}" = --fix ]; then
    "$FORMAT" -i "${files[@]}"
    exit 0
fi
if ! "$FORMAT" --dry-run --Werror "${files[@]}" 2>"${TMPDIR:-/tmp}/dl-format.$$"; then
    grep -m 20 'error:' "${TMPDIR:-/tmp}/dl-format.$$" >&2 || true
    rm -f "${TMPDIR:-/tmp}/dl-format.$$"
    echo "check-format: run scripts/check-format.sh --fix" >&2
    exit 1
fi
rm -f "${TMPDIR:-/tmp}/dl-format.$$"
echo "check-format: ${#files[@]} files formatted"
