#!/usr/bin/env python3
"""dl-annotate on bad inputs and bad command lines: input errors exit 1
with `file:line:col: error: ...` messages, usage errors exit 2, nothing
crashes; also -o, -i (keeping INPUT.orig) and a 10 MB source.

usage: run_bad_inputs.py DL_ANNOTATE BAD_DIR WORK_DIR
"""
import os
import random
import re
import shutil
import subprocess
import sys

ERROR_LINE = re.compile(rb"^[^\n]+:\d+:\d+: error: ", re.M)
failures = []


def run(argv, timeout=240):
    p = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       timeout=timeout)
    return p.returncode, p.stdout, p.stderr


def expect(label, cond, detail=b""):
    print(("ok   " if cond else "FAIL ") + label)
    if not cond:
        failures.append(label)
        print("     " + detail.decode(errors="replace")[:2000])


def input_error(exe, path, label):
    rc, out, err = run([exe, path])
    expect(label + ": exit 1 with file:line:col errors",
           rc == 1 and ERROR_LINE.search(err) is not None and out == b"",
           b"rc=%d stderr=%s" % (rc, err[:1000]))


INDIRECT = (b"//DL: indirect: read x[col[j * N + gid] + 1] for(j < K)\n"
            b"//DL: indirect: read a[perm[gid]] record(size=16; 4:4)\n"
            b"struct atom { float x, y, z, w; };\n"
            b"__kernel void k(__global const float *x, __global const int "
            b"*col, __global const uint *perm, __global const struct atom "
            b"*a, __global float *y, int N)\n{\n    int i = "
            b"get_global_id(0);\n    float s = a[perm[i]].y;\n    for (int "
            b"j = 0; j < 4; j++)\n        s += x[col[j * N + i] + 1];\n"
            b"    y[i] = s;\n}\n")


def indirect_inputs(exe, work, rng):
    """A rejected indirect annotation is an input error; random edits of
    annotated indirect references never crash dl-annotate."""
    path = os.path.join(work, "indirect_bad.cl")
    with open(path, "wb") as f:
        f.write(INDIRECT.replace(b"j * N + gid", b"j * gid + N"))
    rc, out, err = run([exe, path])
    expect("indirect annotation not affine: exit 1 with its file:line:col "
           "error", rc == 1 and out == b"" and
           re.search(rb"indirect_bad.cl:1:\d+: error: .*not affine", err)
           is not None, err[:1000])
    alphabet = b"[]()<+-*/% gidjNKxcolperm:;,0123456789\n"
    crashed = []
    for n in range(150):
        text = bytearray(INDIRECT)
        for _ in range(rng.randrange(1, 4)):
            at = rng.randrange(len(text))
            op = rng.randrange(3)
            if op == 0:
                text[at] = rng.choice(alphabet)
            elif op == 1:
                text.insert(at, rng.choice(alphabet))
            else:
                del text[at]
        path = os.path.join(work, "indirect_fuzz.cl")
        with open(path, "wb") as f:
            f.write(bytes(text))
        rc, _, err = run([exe, "--explain", "-DK=4", path])
        if rc not in (0, 1) or (rc == 1 and not ERROR_LINE.search(err)):
            crashed.append(b"edit %d: rc=%d %s" % (n, rc, err[:300]))
    expect("150 random edits of indirect references: exit 0 or 1 with "
           "file:line:col errors", not crashed, b"\n".join(crashed[:3]))


def main():
    exe, bad, work = sys.argv[1:4]
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    rng = random.Random(4)

    input_error(exe, os.path.join(bad, "syntax.cl"), "syntax error")
    input_error(exe, os.path.join(bad, "missing_include.cl"),
                "missing include")
    input_error(exe, os.path.join(work, "does_not_exist.cl"), "no such file")
    empty = os.path.join(work, "empty.cl")
    open(empty, "wb").close()
    input_error(exe, empty, "empty file")
    garbage = os.path.join(work, "garbage.cl")
    with open(garbage, "wb") as f:
        f.write(bytes(rng.randrange(256) for _ in range(65536)))
    input_error(exe, garbage, "binary garbage")
    big_garbage = os.path.join(work, "garbage10m.cl")
    with open(big_garbage, "wb") as f:
        line = b"%$#@ __kernel void ( {{ \x00\xff //DL: AoS: p[\n"
        f.write(line * (10 * 1024 * 1024 // len(line) + 1))
    input_error(exe, big_garbage, "10 MB of garbage")

    indirect_inputs(exe, work, rng)

    # 10 MB of valid OpenCL C: many helpers, then a kernel to rewrite.
    big = os.path.join(work, "big.cl")
    with open(big, "w") as f:
        f.write("struct foo { float a, b; };\n")
        n = 0
        while f.tell() < 10 * 1024 * 1024:
            f.write("/* padding comment to make the source large */ "
                    "static float helper_%d(float x) { return x * %d.0f; }\n"
                    % (n, n % 97))
            n += 1
        f.write("__kernel void k(__global struct foo *p, int n)\n{\n"
                "    int i = get_global_id(0);\n"
                "    if (i < n)\n        p[i].a = helper_1(p[i].b);\n}\n")
    out_big = os.path.join(work, "big.dl.cl")
    rc, out, err = run([exe, big, "-o", out_big])
    ok = rc == 0 and os.path.exists(out_big)
    if ok:
        with open(out_big, "rb") as f:
            ok = b"#ifdef DL_ACTIVE_k\n" in f.read()
    expect("10 MB source: rewritten", ok, err)

    # -o and -i
    src = os.path.join(work, "inplace.cl")
    text = (b"struct s { int a; int b; };\n"
            b"__kernel void k(__global struct s *p, int n)\n{\n"
            b"    int i = get_global_id(0);\n"
            b"    if (i < n)\n        p[i].a = p[i].b;\n}\n")
    with open(src, "wb") as f:
        f.write(text)
    rc, stdout_text, err = run([exe, src])
    rc2, _, _ = run([exe, src, "-o", os.path.join(work, "o.cl")])
    with open(os.path.join(work, "o.cl"), "rb") as f:
        expect("-o writes what stdout shows",
               rc == 0 and rc2 == 0 and f.read() == stdout_text, err)
    rc, out, err = run([exe, "-i", src])
    with open(src, "rb") as f:
        edited = f.read()
    with open(src + ".orig", "rb") as f:
        orig = f.read()
    expect("-i edits in place and keeps .orig",
           rc == 0 and out == b"" and edited == stdout_text and orig == text,
           err)

    # --check: a conversion asked of a kernel that was not rewritten, a
    # record(...) that does not match the struct or is not one field per
    # element of a scalar or vector array, and a launch flag on a kernel
    # without the tiled variant are errors
    for label, text in [
            ("--check: conversion without rewrite",
             b"struct s { int a; int b; };\n"
             b"//DL: aos: p[n] record(size=8; 0:4, 4:4) -> da\n"
             b"__kernel void k(__global struct s *p, int n)\n"
             b"{ if (get_global_id(0) < n) p[get_global_id(0)].a = 0; }\n"),
            ("--check: record does not match",
             b"struct s { int a; int b; };\n"
             b"//DL: aos: p[n] record(size=12; 0:4, 4:4)\n"
             b"__kernel void k(__global struct s *p, int n)\n"
             b"{ if (get_global_id(0) < n) p[get_global_id(0)].a = 0; }\n"),
            ("--check: a scalar array's record merges two elements",
             b"// its element 3 is no field: a rewrite would index 3 fields\n"
             b"//DL: aos: p[n][4] record(size=16; 0:4, 4:4, 8:8) -> da\n"
             b"__kernel void k(__global float *p, int n)\n"
             b"{\n#ifdef DL_ACTIVE_k\n#endif\n"
             b"  if (get_global_id(0) < n) p[get_global_id(0) * 4] = 0; }\n"),
            ("--check: a vector array's record splits its element",
             b"// float4 elements cut into fields of 4, 4 and 8 bytes\n"
             b"//DL: aos: p[n] record(size=16; 0:4, 4:4, 8:8) -> da\n"
             b"__kernel void k(__global float4 *p, int n)\n"
             b"{\n#ifdef DL_ACTIVE_k\n#endif\n"
             b"  if (get_global_id(0) < n) p[get_global_id(0)] = 0; }\n"),
            ("--check: launch flag without the tiled variant",
             b"struct s { int a; int b; };\n"
             b"//DL: launch: tiled\n"
             b"__kernel void k(__global struct s *p, int n)\n"
             b"{ if (get_global_id(0) < n) p[get_global_id(0)].a = 0; }\n")]:
        path = os.path.join(work, "check.cl")
        with open(path, "wb") as f:
            f.write(text)
        rc, out, err = run([exe, "--check", path])
        expect(label + ": exit 1 naming line 2",
               rc == 1 and out == b"" and b"check.cl:2:1: error: " in err,
               err)
    rc, out, err = run([exe, "--check", os.path.join(work, "o.cl")])
    expect("--check: an annotated output passes", rc == 0 and out == b"",
           err)

    # usage errors: exit 2
    for label, argv in [("no input", []),
                        ("two inputs", [src, src]),
                        ("bad --layout", ["--layout", "soa", src]),
                        ("bad --tile", ["--tile", "0", src]),
                        ("bad --tile text", ["--tile=x", src]),
                        ("unknown long option", ["--frobnicate", src]),
                        ("-o without value", [src, "-o"]),
                        ("-i with -o", ["-i", "-o", "x.cl", src])]:
        rc, out, err = run([exe] + argv)
        expect("usage error, " + label + ": exit 2",
               rc == 2 and b"dl-annotate" in err, err)
    rc, out, err = run([exe, "--help"])
    expect("--help: exit 0 with the usage", rc == 0 and b"usage:" in out)
    print("%d failures" % len(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
