#!/usr/bin/env python3
"""Runs one integration program twice, plainly and under dl-run --stats,
and fails unless

* both runs exit with status 0 and print byte-identical stdout;
* the run under dl-run prints exactly one `dlayout-stats:` line on stderr
  whose counts match every --expect (KEY=N, KEY>=N, KEY<=N or KEY>N; N
  may have decimals);
* with --expect-own-time, dlayout's own time in that line is some and
  within the run's: 0 < self_ms < its wall time, tuner_wait_ms <=
  self_ms, thread_cpu_ms <= its CPU time;
* its stderr holds exactly one dlayout warning naming each
  --expect-warning-at location, and no other dlayout warning or error.

usage: run_scenario.py --dl-run PATH [--layer] [--disable] [--env K=V]...
           [--expect KEY=N]... [--expect-warning-at FILE:TEXT]...
           [--allow-message TEXT]... [--expect-message TEXT]...
           [--stats-optional] [--inject FILE] [--expect-own-time]
           -- PROGRAM [ARGS...]

--expect-warning-at FILE:TEXT names the first line of FILE that contains
TEXT; the warning must contain ":LINE:" for it.  --allow-message TEXT
accepts dlayout messages that contain TEXT.  --expect-message TEXT
requires a line of the dlayout run's stderr to contain TEXT (info
messages need --env DL_LOG=info).  --stats-optional accepts
a run without a stats line (dl-run --disable, or a program whose calls
dlayout never sees); counts are then checked only if the line is there.
--inject FILE first runs the program under dl-run with DL_DUMP_DIR, which
must dump exactly one program source (an embedded, unannotated one); the
checked run then gets DL_INJECT_DIR holding FILE under the dumped name.
dlayout runs get DL_POLICY=always unless --env sets it: the counts must
not depend on the tuner; and DL_CALIBRATION_NOTICE=0.  A noisy
calibration's warning is always accepted.
"""
import argparse
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time

STATS = re.compile(r"^dlayout-stats:((?: [a-z_]+=[0-9.]+)+)\s*$")
DLAYOUT_MESSAGE = re.compile(r"^dlayout: (warning|error): ")
EXPECT = re.compile(r"^([a-z_]+)(=|>=|<=|>)([0-9.]+)$")
# The wall and CPU milliseconds of the last run().
LAST_RUN = {}


def fail(message):
    print("FAIL: " + message)
    sys.exit(1)


def clean_env():
    """The environment without any dlayout or ICD-layer setting."""
    return {k: v for k, v in os.environ.items()
            if not (k.startswith("DL_") and not k.startswith("DL_TEST_"))
            and k not in ("LD_PRELOAD", "OPENCL_LAYERS")}


def run(label, argv, env, timeout):
    print("$ " + " ".join(argv))
    before, start = resource.getrusage(resource.RUSAGE_CHILDREN), time.time()
    try:
        proc = subprocess.run(argv, env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, timeout=timeout)
    except subprocess.TimeoutExpired:
        fail("%s run timed out after %d s" % (label, timeout))
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    LAST_RUN["wall_ms"] = (time.time() - start) * 1e3
    LAST_RUN["cpu_ms"] = (after.ru_utime + after.ru_stime -
                          before.ru_utime - before.ru_stime) * 1e3
    stdout = proc.stdout.decode("utf-8", "replace")
    stderr = proc.stderr.decode("utf-8", "replace")
    print("--- %s stdout ---\n%s--- %s stderr ---\n%s" %
          (label, stdout, label, stderr))
    if proc.returncode != 0:
        fail("%s run exited with status %d" % (label, proc.returncode))
    return proc.stdout, stderr


def warning_line(spec):
    path, _, text = spec.partition(":")
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            if text in line:
                return number
    fail("--expect-warning-at %s: text not found" % spec)


def parse_stats(stderr, optional):
    lines = [l for l in stderr.splitlines() if l.startswith("dlayout-stats:")]
    if not lines and optional:
        return None
    if len(lines) != 1:
        fail("expected exactly one dlayout-stats line, got %d" % len(lines))
    match = STATS.match(lines[0])
    if not match:
        fail("malformed stats line: " + lines[0])
    stats = {}
    for item in match.group(1).split():
        key, _, value = item.partition("=")
        stats[key] = float(value) if "." in value else int(value)
    for key in ("programs_annotated", "kernels_planned",
                "kernels_transformed", "launches", "marshals", "unmarshals",
                "bytes_marshaled", "marshal_enqueue_ms", "declined"):
        if key not in stats:
            fail("stats line lacks %s: %s" % (key, lines[0]))
    return stats


def check_expectations(stats, expects):
    for spec in expects:
        match = EXPECT.match(spec)
        if not match:
            fail("bad --expect " + spec)
        key, op, want = match.group(1), match.group(2), float(match.group(3))
        if key not in stats:
            fail("stats line has no %s" % key)
        got = stats[key]
        ok = {"=": got == want, ">=": got >= want, "<=": got <= want,
              ">": got > want}[op]
        if not ok:
            fail("stats: expected %s%s%s, got %s" % (key, op, match.group(3),
                                                     got))


def check_own_time(stats, run):
    """dlayout's own time: some, and within the run's (no timing beyond
    these bounds)."""
    for key in ("self_ms", "tuner_wait_ms", "thread_cpu_ms", "device_ms"):
        if key not in stats:
            fail("stats line has no %s" % key)
    if not 0 < stats["self_ms"] < run["wall_ms"]:
        fail("self_ms=%s not within (0, %.3f), the run's wall time" %
             (stats["self_ms"], run["wall_ms"]))
    if stats["tuner_wait_ms"] > stats["self_ms"]:
        fail("tuner_wait_ms=%s above self_ms=%s" %
             (stats["tuner_wait_ms"], stats["self_ms"]))
    if stats["thread_cpu_ms"] > run["cpu_ms"]:
        fail("thread_cpu_ms=%s above the run's CPU time %.3f" %
             (stats["thread_cpu_ms"], run["cpu_ms"]))


# A calibration on a busy machine says so (tuner_keep.c): the machine's
# state, not the scenario's.
ALWAYS_ALLOWED = ["is noisy (repeated measurements differ"]


def check_messages(stderr, warn_lines, allowed):
    messages = [l for l in stderr.splitlines() if DLAYOUT_MESSAGE.match(l)
                and not any(text in l for text in allowed + ALWAYS_ALLOWED)]
    unexpected = list(messages)
    for line in warn_lines:
        hits = [m for m in messages
                if m.startswith("dlayout: warning: ") and ":%d:" % line in m]
        if len(hits) != 1:
            fail("%d dlayout warnings name line %d, expected one" %
                 (len(hits), line))
        unexpected = [m for m in unexpected if m not in hits]
    # Warnings about a kernel that runs untransformed may follow a named
    # rejection; anything else is a failure.
    unexpected = [m for m in unexpected
                  if not (warn_lines and "untransformed" in m)]
    if unexpected:
        fail("unexpected dlayout messages:\n  " + "\n  ".join(unexpected))


def dumped_source(launcher, program, env, timeout, dump_dir):
    """Runs the program with DL_DUMP_DIR and returns the one source file
    it dumped."""
    env = dict(env, DL_DUMP_DIR=dump_dir)
    run("dump", launcher + ["--"] + program, env, timeout)
    names = sorted(n for n in os.listdir(dump_dir) if n.endswith(".cl"))
    if len(names) != 1:
        fail("expected one dumped program source, got %s" % names)
    return names[0]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--dl-run", required=True)
    parser.add_argument("--layer", action="store_true")
    parser.add_argument("--disable", action="store_true")
    parser.add_argument("--env", action="append", default=[])
    parser.add_argument("--expect", action="append", default=[])
    parser.add_argument("--expect-warning-at", action="append", default=[])
    parser.add_argument("--allow-message", action="append", default=[])
    parser.add_argument("--expect-message", action="append", default=[])
    parser.add_argument("--stats-optional", action="store_true")
    parser.add_argument("--expect-own-time", action="store_true")
    parser.add_argument("--inject")
    parser.add_argument("--timeout", type=int, default=240)
    parser.add_argument("program", nargs="+")
    args = parser.parse_args()

    plain_out, plain_err = run("plain", args.program, clean_env(),
                               args.timeout)
    if "dlayout" in plain_err:
        fail("the plain run mentions dlayout")

    env = clean_env()
    env["DL_POLICY"] = "always"
    # Which test calibrates the shared cache first is chance: its notice
    # is not the scenario's (test_tuner_device checks it).
    env["DL_CALIBRATION_NOTICE"] = "0"
    for item in args.env:
        key, _, value = item.partition("=")
        env[key] = value
    launcher = [args.dl_run, "--stats"]
    launcher += ["--layer"] if args.layer else []
    launcher += ["--disable"] if args.disable else []
    with tempfile.TemporaryDirectory() as tmp:
        if args.inject:
            dump_dir = os.path.join(tmp, "dump")
            inject_dir = os.path.join(tmp, "inject")
            os.mkdir(dump_dir)
            os.mkdir(inject_dir)
            name = dumped_source(launcher, args.program, env, args.timeout,
                                 dump_dir)
            shutil.copyfile(args.inject, os.path.join(inject_dir, name))
            env["DL_INJECT_DIR"] = inject_dir
        dl_out, dl_err = run("dl-run", launcher + ["--"] + args.program,
                             env, args.timeout)

    if plain_out != dl_out:
        fail("stdout differs between the plain run and the run under dl-run")
    stats = parse_stats(dl_err, args.stats_optional)
    if stats is not None:
        check_expectations(stats, args.expect)
    if args.expect_own_time:
        if stats is None:
            fail("--expect-own-time without a stats line")
        check_own_time(stats, LAST_RUN)
    check_messages(dl_err, [warning_line(s) for s in args.expect_warning_at],
                   args.allow_message)
    for text in args.expect_message:
        if not any(text in line for line in dl_err.splitlines()):
            fail("no dlayout message contains %r" % text)
    print("PASS: identical output%s" %
          ("" if stats is None else ", stats as expected"))


if __name__ == "__main__":
    main()
