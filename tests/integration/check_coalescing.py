#!/usr/bin/env python3
"""The coalescing report of the `gather` scenario (scn_gather.c).

Runs `dl-it-app gather` plainly and under `dl-run --coalescing` (preload
and layer, DL_POLICY=always and auto) and fails unless every run prints
byte-identical stdout and each dlayout run prints, on stderr, exactly the
coalescing lines this script computes from the scenario's known index
arrays with a naive count of its own, at the W and S the line names.

usage: check_coalescing.py --dl-run PATH -- PROGRAM gather
"""
import argparse
import os
import re
import subprocess
import sys

LINE = re.compile(r"^coalescing: kernel (\S+) arg (\S+) via (\S+)"
                  r"((?: \(line \d+\))?): W=(\d+) S=(\d+): (.*)$")

N, K, M = 256, 4, 100
COL = [(r * 37 + j * 101) % N for j in range(K) for r in range(N)]
PERM = [(i * 7) % M for i in range(M)]

# (kernel, array, via, line suffix): (element bytes, field offset, field
# bytes, offset c, threads, steps, t_stride, j_stride, P, launches)
REFS = {
    ("ell_spmv", "x", "col", ""): (4, 0, 4, 0, N, K, 1, N, COL, 3),
    ("gather_y", "a", "perm", " (line 24)"): (16, 4, 4, 0, M, 1, 1, 0, PERM,
                                              1),
    ("gather_y", "a", "perm", " (line 25)"): (16, 4, 4, 1, M, 1, 1, 0, PERM,
                                              1),
}


def segments(element, elem, foff, fbytes, s):
    first = element * elem + foff
    return range(first // s, (first + fbytes - 1) // s + 1)


def count(w, s, ref):
    """Warp-accesses and transactions before and after, one launch."""
    elem, foff, fbytes, c, threads, steps, ts, js, p, _ = ref
    accesses = before = after = 0
    for t0 in range(0, threads, w):
        for j in range(steps):
            lanes = [t * ts + j * js for t in range(t0, min(t0 + w, threads))]
            lanes = [e for e in lanes if e < len(p)]
            if not lanes:
                continue
            accesses += 1
            before += len({g for e in lanes
                           for g in segments(p[e] + c, elem, foff, fbytes, s)})
            after += len({g for e in lanes
                          for g in segments(e, elem, foff, fbytes, s)})
    return accesses, before, after


def expected_text(w, s, ref):
    accesses, before, after = (v * ref[9] for v in count(w, s, ref))
    saving = 100.0 * (before - after) / before
    return ("W=%d S=%d: %.1f -> %.1f transactions per warp-access "
            "(%.1f%% %s)" % (w, s, before / accesses, after / accesses,
                             abs(saving), "more" if saving < 0 else "fewer"))


def fail(message):
    print("FAIL: " + message)
    sys.exit(1)


def run(argv, env):
    print("$ " + " ".join(argv))
    proc = subprocess.run(argv, env=env, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, timeout=240)
    err = proc.stderr.decode("utf-8", "replace")
    print(proc.stdout.decode("utf-8", "replace") + err)
    if proc.returncode != 0:
        fail("exit status %d" % proc.returncode)
    return proc.stdout, err


def check_report(stderr):
    lines = [l for l in stderr.splitlines() if l.startswith("coalescing:")]
    seen = set()
    for line in lines:
        m = LINE.match(line)
        if not m:
            fail("malformed line: " + line)
        key = m.group(1, 2, 3, 4)
        if key not in REFS or key in seen:
            fail("unexpected line: " + line)
        seen.add(key)
        want = expected_text(int(m.group(5)), int(m.group(6)), REFS[key])
        if "W=%s S=%s: %s" % m.group(5, 6, 7) != want:
            fail("%s\n  expected: %s" % (line, want))
    if seen != set(REFS):
        fail("missing lines for %s" % sorted(set(REFS) - seen))


def self_test():
    """Hand-counted: 4 lanes, 4-byte elements in 16-byte segments; P
    reverses 8 elements: every warp touches 2 segments, either way."""
    rev = (4, 0, 4, 0, 8, 1, 1, 0, [7, 6, 5, 4, 3, 2, 1, 0], 1)
    assert count(4, 16, rev) == (2, 2, 2)
    # Stride 4: each lane its own segment before, one segment after.
    spread = (4, 0, 4, 0, 4, 1, 1, 0, [0, 4, 8, 12], 1)
    assert count(4, 16, spread) == (1, 4, 1)
    assert expected_text(4, 16, spread) == \
        "W=4 S=16: 4.0 -> 1.0 transactions per warp-access (75.0% fewer)"


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
    main()
