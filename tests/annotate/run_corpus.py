#!/usr/bin/env python3
"""dl-annotate's corpus test.

For every tests/annotate/corpus/NAME.cl:

* runs `dl-annotate ARGS --explain NAME.cl` (ARGS from the file's first
  line, `// dla-args: ...`) and compares stdout with golden/NAME.cl and
  stderr with golden/NAME.explain; the exit status must be the one of a
  `// dla-expect: N` line (default 0);
* builds the output on the OpenCL device (dla-clbuild) with the options of
  a `// dla-build: ...` line, once as it is and once with the runtime's
  activation macros (DLAYOUT_ACTIVE and DL_ACTIVE_<kernel> for every
  rewritten kernel, with the hint DL_GLOBAL_END_<kernel>), and, where a kernel has a tiled variant (`launch:
  tiled`), once more with every DL_TILE_<kernel>_<arg> set to 1, which
  compiles the flat ASTA variant instead, and where a kernel has the
  job-swapped form, once with every DL_JOBSWAP_<kernel> defined, and
  where a kernel has the shared form, once with every DL_SHARE_<kernel>
  defined and once with both (the runtime's two builds of it);
* checks that the output passes `dl-annotate --check` and that annotating
  it again changes nothing.

--update rewrites the golden files instead of comparing them
(`ninja annotate-goldens`).

usage: run_corpus.py --annotate EXE --clbuild EXE --corpus DIR
                     --golden DIR --work DIR [--update] [NAME...]
"""
import argparse
import os
import re
import shlex
import subprocess
import sys


def header(text, key):
    m = re.search(r"^// dla-%s:(.*)$" % key, text, re.M)
    return shlex.split(m.group(1)) if m else []


def run(argv, cwd, timeout=120):
    p = subprocess.run(argv, cwd=cwd, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, timeout=timeout)
    return p.returncode, p.stdout, p.stderr


def compare(path, actual, update, problems):
    if update:
        with open(path, "wb") as f:
            f.write(actual)
        return
    try:
        with open(path, "rb") as f:
            expected = f.read()
    except OSError:
        problems.append("missing golden file %s (run with --update)" % path)
        return
    if expected != actual:
        problems.append("%s differs:\n--- expected\n%s\n--- actual\n%s" %
                        (path, expected.decode(errors="replace"),
                         actual.decode(errors="replace")))


def check_case(a, name):
    problems = []
    src_path = os.path.join(a.corpus, name + ".cl")
    with open(src_path) as f:
        text = f.read()
    args = header(text, "args")
    build = header(text, "build")
    expect = int((header(text, "expect") or ["0"])[0])
    rc, out, err = run([a.annotate] + args + ["--explain", name + ".cl"],
                       a.corpus)
    if rc != expect:
        problems.append("exit status %d, expected %d; stderr:\n%s" %
                        (rc, expect, err.decode(errors="replace")))
    compare(os.path.join(a.golden, name + ".cl"), out, a.update, problems)
    compare(os.path.join(a.golden, name + ".explain"), err, a.update,
            problems)
    if rc != 0:
        return problems
    work = os.path.join(a.work, name + ".cl")
    with open(work, "wb") as f:
        f.write(out)
    kernels = re.findall(rb"^#ifdef DL_ACTIVE_(\w+)$", out, re.M)
    active = ["-D", "DLAYOUT_ACTIVE=1"]
    for k in kernels:
        active += ["-D", "DL_ACTIVE_%s=1" % k.decode()]
    # with the hint of the launch's range, as the runtime's first build
    for k in re.findall(rb"^#ifdef (DL_GLOBAL_END_\w+)$", out, re.M):
        active += ["-D", "%s=64UL,1UL,1UL" % k.decode()]
    # the flat form of kernels that also have a tiled variant: tile 1
    flat = []
    for t in re.findall(rb"^#ifndef (DL_TILE_\w+)$", out, re.M):
        flat += ["-D", "%s=1" % t.decode()]
    builds = [build, build + active]
    if re.search(rb"^//DL: v1 launch: tiled", out, re.M):
        builds.append(build + active + flat)
    # the job-swapped form, as the runtime builds it: without DL_ACTIVE_
    swapped = []
    for k in sorted(set(re.findall(rb"^#ifdef DL_JOBSWAP_(\w+)$", out,
                                   re.M))):
        swapped += ["-D", "DL_JOBSWAP_%s=1" % k.decode()]
    if swapped:
        builds.append(build + swapped)
    # the shared form, alone and job-swapped, as the runtime builds it
    shared = []
    for k in sorted(set(re.findall(rb"^#ifdef DL_SHARE_(\w+)$", out,
                                   re.M))):
        shared += ["-D", "DL_SHARE_%s=1" % k.decode()]
    if shared:
        builds.append(build + shared)
        builds.append(build + shared + swapped)
    for opts in builds:
        rc, _, err = run([a.clbuild, work] + opts, a.corpus, timeout=300)
        if rc != 0:
            problems.append("the output does not build with %s:\n%s" %
                            (" ".join(opts), err.decode(errors="replace")))
    rc, _, err = run([a.annotate] + args + ["--check", work], a.corpus)
    if rc != 0:
        problems.append("--check rejects the output:\n" +
                        err.decode(errors="replace"))
    rc, again, err = run([a.annotate] + args + [work], a.corpus)
    if rc != 0 or again != out:
        problems.append("annotating the output again changes it")
    return problems


def main():
    ap = argparse.ArgumentParser()
    for opt in ("--annotate", "--clbuild", "--corpus", "--golden", "--work"):
        ap.add_argument(opt, required=True)
    ap.add_argument("--update", action="store_true")
    ap.add_argument("names", nargs="*")
    a = ap.parse_args()
    a.annotate = os.path.abspath(a.annotate)  # cases run in the corpus dir
    a.clbuild = os.path.abspath(a.clbuild)
    os.makedirs(a.work, exist_ok=True)
    names = a.names or sorted(f[:-3] for f in os.listdir(a.corpus)
                              if f.endswith(".cl"))
    failed = 0
    for name in names:
        problems = check_case(a, name)
        print("%s %s" % ("FAIL" if problems else "ok  ", name))
        for p in problems:
            print("    " + p.replace("\n", "\n    "))
        failed += bool(problems)
    print("%d of %d cases failed" % (failed, len(names)))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
