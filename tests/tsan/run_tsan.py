#!/usr/bin/env python3
"""ThreadSanitizer over dlayout's real fast paths.

usage: run_tsan.py --meson PATH --ninja PATH --source DIR --build DIR
           [--expect-race] [--timeout S]

Configures (once) and builds a second, ThreadSanitizer-instrumented build
of the source in DIR (`-Db_sanitize=thread`), only the targets needed:
the shim libraries, dl-run and the test host (tsan_host.c), so that the
main build stays uninstrumented.  Concurrent tests share the build under
a file lock.  Then

* by default: runs the host plainly, then under dl-run as a preload and
  as a layer, each with DL_POLICY=always and auto.  Every run must exit
  0 with no ThreadSanitizer report, print the plain run's stdout byte for
  byte, and under dl-run print a stats line that counts launches (and,
  under `always`, conversions): proof that dlayout ran, with its memo,
  last-kernel cache and lock-free lookups switched on (they are off only
  under valgrind's thread checkers);
* with --expect-race: the self-test of this check.  The host's `racy`
  mode sets one kernel object's arguments from two threads without a
  lock, under dl-run; ThreadSanitizer must report a race whose stacks
  run through dlayout's clSetKernelArg hook, which shows that the shim
  is instrumented and that this script sees the reports.

POCL and the ICD loader are not instrumented: ThreadSanitizer sees their
locks and the libc calls they make, not their memory accesses, and has
reported nothing in them, so nothing is suppressed.  Should a report
blamed on them ever need silencing, a suppressions file belongs in
TSAN_OPTIONS below, by library (called_from_lib:), never naming
dlayout's code.
"""
import argparse
import fcntl
import os
import re
import subprocess
import sys
import time

HOST = "tests/tsan/dl-tsan-host"
TARGETS = ["interpose/dl-run", "interpose/libdlayout-preload.so",
           "interpose/libdlayout-layer.so", HOST]
REPORT = "WARNING: ThreadSanitizer:"
STATS = re.compile(r"^dlayout-stats:((?: [a-z_]+=[0-9.]+)+)\s*$", re.M)
# A frame of dlayout's clSetKernelArg hook in a report.
SET_ARG_FRAME = re.compile(r"#\d+ (dl_rt_clSetKernelArg|set_arg\w*) ")
# What the sanitizer says, before main, where the kernel randomises the
# address space more than it can handle (then: setarch -R).
BAD_MAPPING = "ThreadSanitizer: unexpected memory mapping"


def fail(message):
    print("FAIL: " + message)
    sys.exit(1)


def build(args):
    """The instrumented build, configured once, under a lock."""
    os.makedirs(args.build, exist_ok=True)
    started = time.monotonic()
    with open(os.path.join(args.build, ".dl-tsan-lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not os.path.exists(os.path.join(args.build, "build.ninja")):
            cmd = [args.meson, "setup", args.build, args.source,
                   "-Db_sanitize=thread", "-Dbuildtype=debugoptimized"]
            if os.path.isdir(os.path.join(args.build, "meson-private")):
                cmd.append("--wipe")  # a setup that did not finish
            step(cmd)
        step([args.ninja, "-C", args.build] + TARGETS)
    print("instrumented build ready in %.1f s" % (time.monotonic() - started))


def step(cmd):
    print("$ " + " ".join(cmd))
    proc = subprocess.run(cmd, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT)
    out = proc.stdout.decode("utf-8", "replace")
    if proc.returncode != 0:
        print(out)
        fail("%s exited with status %d" % (cmd[0], proc.returncode))
    print("\n".join(out.splitlines()[-3:]))


def clean_env():
    env = {k: v for k, v in os.environ.items()
           if not (k.startswith("DL_") and not k.startswith("DL_TEST_"))
           and k not in ("LD_PRELOAD", "OPENCL_LAYERS", "TSAN_OPTIONS")}
    # exitcode: a run with reports exits 66; halt_on_error=0: all of them
    # are printed; history_size: the earlier access of a race keeps its
    # stack.
    env["TSAN_OPTIONS"] = "halt_on_error=0 exitcode=66 history_size=7"
    return env


def run(label, argv, env, timeout):
    print("$ " + " ".join(argv))
    started = time.monotonic()
    try:
        proc = subprocess.run(argv, env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, timeout=timeout)
    except subprocess.TimeoutExpired:
        fail("%s run timed out after %d s" % (label, timeout))
    stdout = proc.stdout.decode("utf-8", "replace")
    stderr = proc.stderr.decode("utf-8", "replace")
    print("--- %s: status %d, %.1f s ---" %
          (label, proc.returncode, time.monotonic() - started))
    return proc.returncode, stdout, stderr


def without_aslr(argv):
    return ["setarch", os.uname().machine, "-R"] + argv


def launcher(args):
    """The prefix every run gets: none, or setarch -R where the sanitizer
    cannot work with the kernel's address-space randomisation."""
    host = os.path.join(args.build, HOST)
    env = clean_env()
    _, _, stderr = run("probe", [host, "--usage"], env, args.timeout)
    if BAD_MAPPING not in stderr:
        return []
    print("ThreadSanitizer cannot map memory here; running without ASLR")
    _, _, stderr = run("probe", without_aslr([host, "--usage"]), env,
                       args.timeout)
    if BAD_MAPPING in stderr:
        print(stderr)
        fail("ThreadSanitizer cannot run on this machine")
    return without_aslr([])


def reports(stderr):
    return stderr.count(REPORT)


def stats_of(stderr):
    lines = STATS.findall(stderr)
    if len(lines) != 1:
        fail("expected one dlayout-stats line, got %d" % len(lines))
    return dict((k, float(v)) for k, _, v in
                (item.partition("=") for item in lines[0].split()))


def check_clean(label, status, stderr):
    found = reports(stderr)
    if found or status != 0 or "ThreadSanitizer" in stderr:
        print(stderr)
        fail("%s: exit status %d, %d ThreadSanitizer reports" %
             (label, status, found))


def self_test(args, prefix):
    dl_run = os.path.join(args.build, "interpose/dl-run")
    host = os.path.join(args.build, HOST)
    env = dict(clean_env(), DL_POLICY="always")
    status, _, stderr = run("racy", prefix + [dl_run, "--stats", "--", host,
                                              "racy"], env, args.timeout)
    found = reports(stderr)
    if found == 0 or status != 66:
        print(stderr)
        fail("no race reported for the racy host (status %d)" % status)
    if not SET_ARG_FRAME.search(stderr):
        print(stderr)
        fail("the race reports do not run through dlayout's clSetKernelArg")
    first = stderr[stderr.index(REPORT):]
    print("\n".join(first.splitlines()[:12]))
    print("PASS: %d ThreadSanitizer report(s) for the racy host, through "
          "dlayout's clSetKernelArg hook" % found)


def clean_runs(args, prefix):
    dl_run = os.path.join(args.build, "interpose/dl-run")
    host = os.path.join(args.build, HOST)
    env = clean_env()
    status, plain_out, stderr = run("plain", prefix + [host], env,
                                    args.timeout)
    check_clean("plain", status, stderr)
    if "dlayout" in stderr:
        print(stderr)
        fail("the plain run mentions dlayout")
    for mode in ("preload", "layer"):
        for policy in ("always", "auto"):
            label = "%s, DL_POLICY=%s" % (mode, policy)
            cmd = [dl_run, "--stats"] + (["--layer"] if mode == "layer"
                                         else []) + ["--", host]
            status, out, stderr = run(label, prefix + cmd,
                                      dict(env, DL_POLICY=policy),
                                      args.timeout)
            check_clean(label, status, stderr)
            if out != plain_out:
                print(out)
                fail("%s: stdout differs from the plain run's" % label)
            stats = stats_of(stderr)
            if stats.get("launches", 0) <= 0 or (
                    policy == "always" and stats.get("marshals", 0) <= 0):
                fail("%s: dlayout did not transform: %s" % (label, stats))
            print("clean, same output; stats: %s" %
                  " ".join("%s=%g" % kv for kv in sorted(stats.items())))
    print("PASS: no ThreadSanitizer report in 5 runs")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--meson", required=True)
    parser.add_argument("--ninja", required=True)
    parser.add_argument("--source", required=True)
    parser.add_argument("--build", required=True)
    parser.add_argument("--expect-race", action="store_true")
    parser.add_argument("--timeout", type=int, default=300)
    args = parser.parse_args()
    build(args)
    prefix = launcher(args)
    if args.expect_race:
        self_test(args, prefix)
    else:
        clean_runs(args, prefix)


if __name__ == "__main__":
    main()
