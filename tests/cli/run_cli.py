#!/usr/bin/env python3
"""run_cli.py CASE --version V [--dl-run EXE] [--dl-annotate EXE]
[--dl-bench EXE] [--app EXE]... - the command-line conventions every tool
shares (issue 21, "Tool conventions" and "On any OpenCL device"):

  version          every tool and app prints "NAME (dlayout) V", exit 0
  annotate-unknown dl-annotate rejects -explain and --frobnicate (exit 2,
                   a usage message, nothing on stdout): they never reach
                   clang
  annotate-dashdash the words after "--" go to clang: a kernel that needs
                   -DSCALE fails without it and is annotated with it
  annotate-compdb  -p BUILD_DIR reads the compile command (defining SCALE)
                   from a generated compile_commands.json; the output
                   equals the one with "-- -DSCALE=..."; a missing
                   database is an error
  run-log          DL_LOG=debug dl-run --log warn: the option wins and
                   one stderr line says so; no line when they agree
  device           --platform 0 --device 0 runs every app and dl-bench
                   marshal with the default device's output bytes; a
                   device or platform that does not exist fails with a
                   message naming it
Exit status 0 when every check passes."""
import argparse
import json
import os
import subprocess
import sys
import tempfile

failures = []


def expect(label, ok, detail=b""):
    print(("ok   " if ok else "FAIL ") + label)
    if not ok:
        failures.append(label)
        if detail:
            sys.stdout.write(detail.decode(errors="replace")[:2000] + "\n")


def run(argv, env=None, cwd=None):
    e = dict(os.environ)
    e.update(env or {})
    p = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       env=e, cwd=cwd, timeout=240)
    return p.returncode, p.stdout, p.stderr


KERNEL = b"""struct p { float x; float y; };
__kernel void k(__global struct p *a, int n)
{
    int i = get_global_id(0);
    if (i < n)
        a[i].x = a[i].y * SCALE;
}
"""


def write_kernel(work):
    path = os.path.join(work, "needs_scale.cl")
    with open(path, "wb") as f:
        f.write(KERNEL)
    return path


def case_version(a, work):
    tools = [(exe, os.path.basename(exe))
             for exe in [a.dl_run, a.dl_annotate, a.dl_bench] + a.app if exe]
    for exe, name in tools:
        rc, out, err = run([exe, "--version"])
        want = ("%s (dlayout) %s\n" % (name, a.version)).encode()
        expect(name + " --version", rc == 0 and out == want, out + err)
    if a.dl_bench:
        for sub in ("marshal", "calibrate"):
            rc, out, err = run([a.dl_bench, sub, "--version"])
            want = ("dl-bench (dlayout) %s\n" % a.version).encode()
            expect("dl-bench %s --version" % sub, rc == 0 and out == want,
                   out + err)


def case_annotate_unknown(a, work):
    src = write_kernel(work)
    for word in ("-explain", "--frobnicate", "-x"):
        rc, out, err = run([a.dl_annotate, word, "-DSCALE=2.0f", src])
        expect("dl-annotate %s: exit 2" % word, rc == 2, err)
        expect("dl-annotate %s: named, with the usage hint" % word,
               ("'%s'" % word).encode() in err and b"--help" in err, err)
        expect("dl-annotate %s: nothing on stdout" % word, out == b"", out)


def case_annotate_dashdash(a, work):
    src = write_kernel(work)
    rc, out, err = run([a.dl_annotate, src])
    expect("without -DSCALE the parse fails (exit 1)",
           rc == 1 and b"SCALE" in err, err)
    rc, out, err = run([a.dl_annotate, "--explain", src, "--",
                        "-DSCALE=2.0f", "-cl-std=CL1.2"])
    expect("-- -DSCALE=2.0f: exit 0, annotated",
           rc == 0 and b"//DL:" in out and b"transformed" in err, err)


def case_annotate_compdb(a, work):
    src = write_kernel(work)
    build = os.path.join(work, "build")
    os.makedirs(build, exist_ok=True)
    with open(os.path.join(build, "compile_commands.json"), "w") as f:
        json.dump([{"directory": build,
                    "command": "clang -x cl -DSCALE=2.0f -c ../needs_scale.cl"
                               " -o needs_scale.o",
                    "file": "../needs_scale.cl"}], f)
    rc, via_db, err = run([a.dl_annotate, "-p", build, src])
    expect("-p BUILD_DIR: exit 0", rc == 0, err)
    rc, via_args, err2 = run([a.dl_annotate, src, "--", "-DSCALE=2.0f"])
    expect("-p BUILD_DIR: the output of -- -DSCALE=2.0f",
           rc == 0 and via_db == via_args and b"//DL:" in via_db, err + err2)
    # run from another directory with a relative input: the command's
    # directory resolves its relative paths, the input still ours
    rc, rel, err = run([a.dl_annotate, "-p", "build", "needs_scale.cl"],
                       cwd=work)
    expect("-p with a relative input and BUILD_DIR", rc == 0 and
           rel == via_args, err)
    rc, out, err = run([a.dl_annotate, "-p", os.path.join(work, "none"),
                        src])
    expect("-p without a database: exit 1 naming compile_commands.json",
           rc == 1 and out == b"" and b"compile_commands.json" in err, err)


def case_run_log(a, work):
    rc, out, err = run([a.dl_run, "--log", "warn", "printenv", "DL_LOG"],
                       env={"DL_LOG": "debug"})
    expect("--log warn over DL_LOG=debug: the option wins",
           rc == 0 and out == b"warn\n", out + err)
    expect("--log warn over DL_LOG=debug: one line says so",
           err.count(b"\n") == 1 and b"--log warn" in err and
           b"DL_LOG=debug" in err, err)
    rc, out, err = run([a.dl_run, "--log", "warn", "printenv", "DL_LOG"],
                       env={"DL_LOG": "warn"})
    expect("--log warn with DL_LOG=warn: no message",
           rc == 0 and out == b"warn\n" and err == b"", err)
    rc, out, err = run([a.dl_run, "--help"])
    expect("--help says which wins", rc == 0 and b"wins" in out, out)


def app_run(exe, extra, work, name):
    out_file = os.path.join(work, name + ".bin")
    small = {"dl-app-lbm": ["--nx", "8", "--ny", "8", "--nz", "8",
                            "--steps", "2"],
             "dl-app-spmv": ["--rows", "500", "--k", "8", "--iters", "2"],
             "dl-app-blackscholes": ["--options", "1000", "--iters", "1"],
             "dl-app-empty-launch": ["--launches", "10"]}
    base = os.path.basename(exe)
    rc, out, err = run([exe] + small.get(base, []) + ["--quiet"] + extra +
                       (["--output", out_file]
                        if base != "dl-app-empty-launch" else []))
    data = b""
    if os.path.exists(out_file):
        with open(out_file, "rb") as f:
            data = f.read()
    return rc, out + data, err


def case_device(a, work):
    for exe in a.app:
        name = os.path.basename(exe)
        rc0, plain, err0 = app_run(exe, [], work, name + "-default")
        rc1, picked, err1 = app_run(exe, ["--platform", "0", "--device",
                                          "0"], work, name + "-picked")
        expect(name + " --platform 0 --device 0: the default's bytes",
               rc0 == 0 and rc1 == 0 and plain == picked, err0 + err1)
        rc, out, err = app_run(exe, ["--platform", "0", "--device", "99"],
                               work, name + "-bad-device")
        expect(name + " --device 99: exit 1 naming the device",
               rc == 1 and b"no device 99" in err, err)
        rc, out, err = app_run(exe, ["--platform", "99"], work,
                               name + "-bad-platform")
        expect(name + " --platform 99: exit 1 naming the platform",
               rc == 1 and b"no OpenCL platform 99" in err, err)
    if a.dl_bench:
        shape = [a.dl_bench, "marshal", "--from", "aos", "--to", "da",
                 "--struct", "3", "--elem", "4", "--count", "1001",
                 "--reps", "1"]
        rc, out, err = run(shape + ["--platform", "0", "--device", "0"])
        expect("dl-bench marshal --platform 0 --device 0: a verified row",
               rc == 0 and out.count(b"\n") == 2, out + err)
        rc, out, err = run(shape + ["--platform", "0", "--device", "99"])
        expect("dl-bench marshal --device 99: exit 1 naming the device",
               rc == 1 and b"no device 99" in err, err)


CASES = {"version": case_version,
         "annotate-unknown": case_annotate_unknown,
         "annotate-dashdash": case_annotate_dashdash,
         "annotate-compdb": case_annotate_compdb,
         "run-log": case_run_log,
         "device": case_device}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("case", choices=sorted(CASES))
    ap.add_argument("--version", required=True)
    ap.add_argument("--dl-run")
    ap.add_argument("--dl-annotate")
    ap.add_argument("--dl-bench")
    ap.add_argument("--app", action="append", default=[])
    a = ap.parse_args()
    # absolute: some cases run the tools from another directory
    for tool in ("dl_run", "dl_annotate", "dl_bench"):
        if getattr(a, tool):
            setattr(a, tool, os.path.abspath(getattr(a, tool)))
    a.app = [os.path.abspath(exe) for exe in a.app]
    with tempfile.TemporaryDirectory(prefix="dl-cli-") as work:
        CASES[a.case](a, work)
    print("%d failures" % len(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
