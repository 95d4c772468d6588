#!/usr/bin/env python3
"""End to end: an ordinary OpenCL program with its kernel annotated by
dl-annotate.

1. KERNEL (optionally with --prepend lines, the user's annotations, put
   before it, and --append lines after it) is annotated: `dl-annotate ARGS kern.cl -o kern.dl.cl`;
2. the program runs with kern.cl, then with kern.dl.cl (no dlayout), then
   with kern.dl.cl under `dl-run --stats` (DL_POLICY=always);
3. all three stdout must be byte-identical, and the stats line must show
   marshals > 0 (--transform) or marshals = 0 (--no-transform).

With --launch tiled the run under dl-run (at DL_LOG=debug) must show the
runtime's tiled launch (global (T, G/T), rt_reshape.c) and no plain
launch; with --launch flat, no tiled launch, no plain launch, conversions,
and the info line that says the kernel runs its flat ASTA form (the range
cannot be tiled, rt_reshape_flat_form); with --launch mixed, both the
tiled launch and that info line, no plain launch, and one conversion
only: the tiled and the flat form share the layout.

With --fallback TEXT the annotated kernel's activated build must fail (a
layout check dl-annotate wrote does not hold for the program's build
options): under dl-run with DL_POLICY=always, in preload and in layer
mode, nothing is converted and a dlayout warning names the line of
kern.dl.cl that holds TEXT (`program N "FIRST LINE":LINE: the
activated build failed`); under DL_POLICY=auto the output is the same and nothing is
converted, and a failed activated build, if the tuner asked for one,
is reported the same way (the tuner may keep a short program plain
without building it).

With --declined TEXT the runtime must leave the rewritten kernel as
written (a count names a build-option macro the program's build does not
define): under dl-run with DL_POLICY=always the output is the original's,
nothing is converted, and a dlayout warning names the annotation's line
of kern.dl.cl and holds TEXT.

With --auto-flat the kernel's ASTA variant can only use the flat index
(dl-annotate wrote no tiled launch for it, or the range cannot be tiled):
after the run under DL_POLICY=always, a run under DL_POLICY=auto on the
CPU device (POCL) must give the same output, convert nothing
(marshals=0), count one plain decision (decided_plain=1) and say why in
one info line (rt_decide.c), without a probe.

Without --dl-run only the first two runs are compared.  `@KERNEL@` in the
program's arguments stands for the kernel file.

usage: run_e2e.py --annotate EXE [--dl-run EXE] --work DIR --kernel FILE
           [--prepend LINE]... [--append LINE]... [--arg A]... (--transform|--no-transform)
           [--launch tiled|plain] [--auto-flat] [--fallback TEXT]
           [--declined TEXT]
           -- PROGRAM [ARGS...]
"""
import argparse
import os
import re
import subprocess
import sys

STATS = re.compile(r"^dlayout-stats:.*\bmarshals=([0-9]+)", re.M)
CONVERSION = re.compile(r"^//DL: v1 (aos|da|asta\(\d+\)): .*-> ", re.M)
PLAIN = re.compile(r"^dlayout-stats:.*\bplain_launches=([0-9]+)", re.M)
TILED = re.compile(r"kernel '\w+': tiled launch: global")
FLAT = re.compile(r"kernel '\w+' runs its flat ASTA form")
DECIDED_PLAIN = re.compile(r"^dlayout-stats:.*\bdecided_plain=([0-9]+)", re.M)
FLAT_PLAIN = re.compile(r"^dlayout: info: tuner: kernel '\w+' runs plain: its "
                        r"ASTA variant can only use the flat index", re.M)


def clean_env():
    return {k: v for k, v in os.environ.items()
            if not k.startswith("DL_") and k not in ("LD_PRELOAD",
                                                     "OPENCL_LAYERS")}


def run(label, argv, env):
    print("$ " + " ".join(argv))
    p = subprocess.run(argv, env=env, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, timeout=600)
    out, err = p.stdout.decode(errors="replace"), p.stderr.decode(
        errors="replace")
    print("  [%s] exit %d, stdout: %s" % (label, p.returncode, out.strip()))
    if p.returncode != 0:
        print("FAIL: %s exited with %d:\n%s" % (label, p.returncode, err))
        sys.exit(1)
    return out, err


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--annotate", required=True)
    ap.add_argument("--dl-run")
    ap.add_argument("--work", required=True)
    ap.add_argument("--kernel", required=True)
    ap.add_argument("--prepend", action="append", default=[])
    ap.add_argument("--append", action="append", default=[])
    ap.add_argument("--arg", action="append", default=[])
    g = ap.add_mutually_exclusive_group(required=True)
    g.add_argument("--transform", action="store_true")
    g.add_argument("--no-transform", action="store_true")
    ap.add_argument("--launch", choices=["tiled", "flat", "mixed"])
    ap.add_argument("--auto-flat", action="store_true")
    ap.add_argument("--fallback")
    ap.add_argument("--declined")
    ap.add_argument("program", nargs="+")
    a = ap.parse_args()
    os.makedirs(a.work, exist_ok=True)
    kern = os.path.join(a.work, "kern.cl")
    dl_kern = os.path.join(a.work, "kern.dl.cl")
    with open(a.kernel) as f:
        text = f.read()
    with open(kern, "w") as f:
        f.write("".join(line + "\n" for line in a.prepend) + text +
                "".join(line + "\n" for line in a.append))
    run("dl-annotate", [a.annotate] + a.arg + ["--explain", kern, "-o",
                                               dl_kern], clean_env())
    # Rewritten for a layout: an annotation asks for a conversion (the
    # redirected form of indirect reads is under DL_ACTIVE_ too, but the
    # runtime does not activate it yet).
    with open(dl_kern) as f:
        rewritten = CONVERSION.search(f.read()) is not None
    if rewritten != a.transform:
        print("FAIL: the kernel was %srewritten for a layout" %
              ("" if rewritten else "not "))
        return 1

    def argv(path):
        return [x.replace("@KERNEL@", path) for x in a.program]

    original, _ = run("original kernel", argv(kern), clean_env())
    plain, _ = run("annotated kernel", argv(dl_kern), clean_env())
    if plain != original:
        print("FAIL: the annotated kernel changes the output")
        return 1
    if not a.dl_run:
        print("ok (dl-run not built: the run under dlayout is skipped)")
        return 0
    if a.fallback:
        return check_fallback(a, argv(dl_kern), dl_kern, original)
    if a.declined:
        return check_declined(a, argv(dl_kern), dl_kern, original)
    env = clean_env()
    env["DL_POLICY"] = "always"
    if a.launch:
        env["DL_LOG"] = "debug"
    under, err = run("under dl-run", [a.dl_run, "--stats"] +
                     argv(dl_kern), env)
    if under != original:
        print("FAIL: the output under dl-run differs:\n" + err)
        return 1
    m = STATS.search(err)
    if not m:
        print("FAIL: no dlayout-stats line:\n" + err)
        return 1
    marshals = int(m.group(1))
    print("  " + m.group(0))
    if (marshals > 0) != a.transform:
        print("FAIL: marshals=%d, but a transform was %sexpected:\n%s" %
              (marshals, "" if a.transform else "not ", err))
        return 1
    p = PLAIN.search(err)
    plain = int(p.group(1)) if p else -1
    tiled = TILED.search(err)
    if a.launch == "tiled" and (not tiled or plain != 0):
        print("FAIL: expected tiled launches only (tiled: %s, "
              "plain_launches=%d):\n%s" % (bool(tiled), plain, err[-4000:]))
        return 1
    if a.launch == "flat" and (tiled or plain != 0 or not FLAT.search(err)):
        print("FAIL: expected flat launches only (tiled: %s, "
              "plain_launches=%d, flat info line: %s):\n%s" %
              (bool(tiled), plain, bool(FLAT.search(err)), err[-4000:]))
        return 1
    if a.launch == "mixed" and (not tiled or plain != 0 or marshals != 1 or
                                not FLAT.search(err)):
        print("FAIL: expected tiled and flat launches on one conversion "
              "(tiled: %s, flat info line: %s, plain_launches=%d, "
              "marshals=%d):\n%s" % (bool(tiled), bool(FLAT.search(err)),
                                     plain, marshals, err[-4000:]))
        return 1
    if a.launch:
        print("  launches: %s" % a.launch)
    if a.auto_flat:
        return check_auto_flat(a, argv(dl_kern), original)
    print("ok")
    return 0


def check_auto_flat(a, argv, original):
    env = clean_env()
    env["DL_POLICY"] = "auto"
    env["DL_LOG"] = "info"
    under, err = run("under dl-run auto", [a.dl_run, "--stats"] + argv, env)
    m, d = STATS.search(err), DECIDED_PLAIN.search(err)
    if under != original or not m or int(m.group(1)) != 0 or not d or \
            int(d.group(1)) != 1 or not FLAT_PLAIN.search(err):
        print("FAIL: under auto, expected the same output, marshals=0, "
              "decided_plain=1 and the info line that the flat index keeps "
              "the kernel plain:\n" + err[-4000:])
        return 1
    print("  auto: plain without a probe, marshals=0 decided_plain=1")
    print("ok")
    return 0


def check_fallback(a, argv, dl_kern, original):
    with open(dl_kern) as f:
        lines = [i + 1 for i, line in enumerate(f) if a.fallback in line]
    if not lines:
        print("FAIL: no line of %s holds %r" % (dl_kern, a.fallback))
        return 1
    # The program loaded the file itself: dlayout names it by its number
    # and first line (rt_programs.c, program_label).
    at = re.compile(r'^dlayout: warning: program [0-9]+ "[^\n]*":%d: '
                    r'the activated build failed' % lines[0], re.M)
    for policy, mode in [("always", []), ("always", ["--layer"]),
                         ("auto", [])]:
        env = clean_env()
        env["DL_POLICY"] = policy
        label = "under dl-run %s%s" % (" ".join(mode + [""]), policy)
        under, err = run(label, [a.dl_run, "--stats"] + mode + argv, env)
        m = STATS.search(err)
        if under != original or not m or int(m.group(1)) != 0:
            print("FAIL: %s: the output differs or a buffer was converted:"
                  "\n%s" % (label, err))
            return 1
        built = "activated build failed" in err
        if (policy == "always" or built) and not at.search(err):
            print("FAIL: %s: no warning names line %d of the annotated "
                  "kernel:\n%s" % (label, lines[0], err))
            return 1
        print("  %s: %s" % (label, "falls back, line %d named" % lines[0]
                            if built else "kept plain by the tuner"))
    print("ok")
    return 0


def check_declined(a, argv, dl_kern, original):
    env = clean_env()
    env["DL_POLICY"] = "always"
    under, err = run("under dl-run", [a.dl_run, "--stats"] + argv, env)
    m = STATS.search(err)
    if under != original or not m or int(m.group(1)) != 0:
        print("FAIL: the output differs or a buffer was converted:\n" + err)
        return 1
    with open(dl_kern) as f:
        lines = {i + 1 for i, line in enumerate(f) if line.startswith("//DL:")}
    warned = re.findall(r'^dlayout: warning: program [0-9]+ "[^\n]*":(\d+): '
                        r'(.*)$', err, re.M)
    if not any(int(n) in lines and a.declined in text for n, text in warned):
        print("FAIL: no warning at an annotation's line holds %r:\n%s" %
              (a.declined, err))
        return 1
    print("  left as written: " + a.declined)
    print("ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
