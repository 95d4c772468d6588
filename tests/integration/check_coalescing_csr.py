#!/usr/bin/env python3
"""The coalescing report of the `csr` scenario (scn_csr.c): its CSR SpMV's
row-bounded reference x[col[k]], k from rowptr[row] to rowptr[row + 1].

Runs `dl-it-app csr` plainly and under `dl-run --coalescing` (preload and
layer, DL_POLICY=always and auto) and fails unless every run prints
byte-identical stdout and each dlayout run prints exactly the coalescing
line this script computes from the scenario's own data (its generator,
redone here) with a naive count of the warp-step model: at step j, lane
t reads col[rowptr[t] + j] while j < its row's length.

usage: check_coalescing_csr.py --dl-run PATH -- PROGRAM csr
"""
import argparse
import os
import sys

from check_coalescing import LINE, fail, run, segments

N = 1021
CAP = N * 13 + 64
MASK = (1 << 64) - 1


def scenario_launches():
    """(rowptr, col) at each of the scenario's 10 launches."""
    s = 0x2545f4914f6cdd1d

    def lcg():
        nonlocal s
        s = (s * 6364136223846793005 + 1442695040888963407) & MASK
        return s >> 33

    rowptr = [0]
    for _ in range(N):
        rowptr.append(rowptr[-1] + lcg() % 13)
    col = []
    for e in range(CAP):
        col.append(lcg() % N if e < rowptr[N] else N + e)
        lcg()  # val
    launches = [(list(rowptr), list(col))] * 6  # 5, then the write of x
    for r in range(1, N + 1):
        rowptr[r] -= 1 if rowptr[r] > rowptr[r - 1] + 1 else 0
    launches.append((list(rowptr), list(col)))
    for e in range(rowptr[N]):
        col[e] = (col[e] * 7 + 3) % N
    launches += [(list(rowptr), list(col))] * 3
    return launches


def count(w, s, rowptr, col):
    """Warp-accesses and transactions before and after, one launch."""
    accesses = before = after = 0
    for t0 in range(0, N, w):
        rows = [(rowptr[t], rowptr[t + 1]) for t in range(t0, min(t0 + w, N))]
        for j in range(max(e - b for b, e in rows)):
            lanes = [b + j for b, e in rows if j < e - b]
            accesses += 1
            before += len({g for k in lanes for g in segments(col[k], 4, 0,
                                                               4, s)})
            after += len({g for k in lanes for g in segments(k, 4, 0, 4, s)})
    return accesses, before, after


def expected_text(w, s):
    a = b = f = 0
    for rowptr, col in scenario_launches():
        x, y, z = count(w, s, rowptr, col)
        a, b, f = a + x, b + y, f + z
    saving = 100.0 * (b - f) / b
    return ("W=%d S=%d: %.1f -> %.1f transactions per warp-access "
            "(%.1f%% %s)" % (w, s, b / a, f / a, abs(saving),
                             "more" if saving < 0 else "fewer"))


def check_report(stderr):
    lines = [l for l in stderr.splitlines() if l.startswith("coalescing:")]
    if len(lines) != 1:
        fail("expected one coalescing line, got %d" % len(lines))
    m = LINE.match(lines[0])
    if not m or m.group(1, 2, 3, 4) != ("csr_spmv", "x", "col", ""):
        fail("unexpected line: " + lines[0])
    want = expected_text(int(m.group(5)), int(m.group(6)))
    if "W=%s S=%s: %s" % m.group(5, 6, 7) != want:
        fail("%s\n  expected: %s" % (lines[0], want))


def self_test():
    """Hand-counted (test_coalesce.c's test_rows): W = 2, S = 8."""
    global N
    saved, N = N, 3
    assert count(2, 8, [0, 3, 4, 6], [0, 5, 2, 7, 1, 6]) == (5, 6, 6)
    N = saved


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--dl-run", required=True)
    parser.add_argument("program", nargs="+")
    args = parser.parse_args()
    self_test()
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("DL_") or k.startswith("DL_TEST_")}
    env.pop("LD_PRELOAD", None)
    env.pop("OPENCL_LAYERS", None)
    plain, err = run(args.program, env)
    if "coalescing" in err or "dlayout" in err:
        fail("the plain run mentions dlayout")
    for mode in ([], ["--layer"]):
        for policy in ("always", "auto"):
            out, err = run([args.dl_run, "--coalescing"] + mode + ["--"] +
                           args.program, dict(env, DL_POLICY=policy))
            if out != plain:
                fail("stdout differs from the plain run")
            if "dlayout: " in err:
                fail("dlayout printed a message")
            check_report(err)
    print("PASS: identical output, coalescing counts as computed")


if __name__ == "__main__":
    sys.exit(main())
