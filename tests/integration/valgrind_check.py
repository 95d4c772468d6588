#!/usr/bin/env python3
"""Runs a program under dl-run and valgrind (memcheck, helgrind or drd)
and fails on any problem that involves dlayout's own code.

usage: valgrind_check.py --dl-run PATH [--layer] --tool memcheck|helgrind|drd
           --suppressions FILE [--timeout S] [--env K=V]... -- PROGRAM [ARGS...]
       valgrind_check.py --self-test

The program runs first under `dl-run -- valgrind --tool=none`, so that
POCL's kernel cache is warm (JIT compilation under memcheck or helgrind
takes minutes): not natively, since POCL sees another CPU under valgrind
(hwloc is disabled there) and keys its cache by it.  Then it runs under
`dl-run --stats -- valgrind`, which must print a stats line that counts
launches (proof that dlayout ran inside valgrind).  POCL, LLVM and the C library produce reports of
their own; the suppressions file silences the known ones, and this script
judges the rest:

* memcheck errors (invalid accesses, uninitialised values, bad frees):
  every one that the suppressions leave is a failure (valgrind's
  --error-exitcode);
* memcheck leak records: a failure when the block was allocated by
  dlayout (the allocator's caller is in a dlayout library), or when
  dlayout lost an OpenCL object (a definitely lost block whose innermost
  dlayout frame is dlayout's own code, not a hook forwarding the
  program's call);
* helgrind/drd reports: a failure when one of the conflicting accesses
  (or the thread error itself) happens in a dlayout library, i.e. the
  innermost frame of one of its stacks, valgrind's own wrappers skipped.
  POCL's event and lock code races under helgrind's model; a call that
  dlayout merely forwards into POCL is not blamed.  Neither is a race
  with a write made under pthread_once: the shim publishes its one-time
  start with C11 release/acquire atomics, which helgrind and drd do not
  model.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

DLAYOUT_OBJECT = re.compile(r"\(in [^)]*/(libdlayout[^/)]*|dl-run)\)")
ALLOCATOR = re.compile(r"\b(malloc|calloc|realloc|strdup|strndup|memalign|"
                       r"posix_memalign|aligned_alloc|operator new)")
FRAME = re.compile(r"^\s+(?:at|by) 0x[0-9A-F]+: (.*)$")
# A hook or forwarder: the program's own call passing through dlayout.
FORWARDER = re.compile(r"^(cl[A-Z]\w*|dl_rt_cl[A-Z]\w*)\b")


def fail(message):
    print("FAIL: " + message)
    sys.exit(1)


def blocks(log):
    """valgrind's paragraphs, as lists of lines without the ==PID==
    prefix."""
    block = []
    for line in log.splitlines():
        line = re.sub(r"^==\d+== ?", "", line)
        if line.strip():
            block.append(line)
        elif block:
            yield block
            block = []
    if block:
        yield block


def frames(block):
    return [m.group(1) for m in map(FRAME.match, block) if m]


def is_dlayout(frame):
    return bool(DLAYOUT_OBJECT.search(frame))


def leak_is_dlayouts(block):
    stack = frames(block)
    callers = [f for f in stack if not ALLOCATOR.search(f)]
    if callers and is_dlayout(callers[0]):
        return True
    if "definitely lost" not in block[0]:
        return False
    own = [f for f in stack if is_dlayout(f)]
    return bool(own) and not FORWARDER.match(own[0])


def access_stacks(block):
    """The frame lists of a report's accesses: each run of consecutive
    frames, except those under "... alloc'd" and "was created"."""
    runs, run, header = [], [], ""
    for line in block + [""]:
        match = FRAME.match(line)
        if match:
            run.append(match.group(1))
            continue
        if run and "alloc'd" not in header and "was created" not in header:
            runs.append(run)
        run, header = [], line
    return runs


def reports(log):
    """Paragraphs, with "This conflicts with ..." joined to the race
    report it belongs to."""
    joined = []
    for block in blocks(log):
        if joined and block[0].startswith("This conflicts with"):
            joined[-1] = joined[-1] + block
        else:
            joined.append(block)
    return joined


# Paragraphs that only give context to a report (where a lock was first
# taken, where a thread was created).
CONTEXT = re.compile(r"^(Lock at 0x[0-9A-F]+ was first observed|"
                     r"Thread #\d+ was created|Thread #\d+ is the program's|"
                     r"---)")


def thread_report_is_dlayouts(block):
    if CONTEXT.match(block[0].strip()):
        return False
    if any("pthread_once" in f for run in access_stacks(block) for f in run):
        return False
    for run in access_stacks(block):
        inner = [f for f in run if "vgpreload_" not in f]
        if inner and is_dlayout(inner[0]):
            return True
    return False


def judge(tool, log):
    problems = []
    for block in reports(log):
        head = block[0]
        if not frames(block):
            continue
        if tool == "memcheck":
            if "lost in loss record" in head:
                if leak_is_dlayouts(block):
                    problems.append(block)
            # other errors are counted by valgrind itself
        elif thread_report_is_dlayouts(block):
            problems.append(block)
    return problems


# Reports as valgrind prints them, and whether judge() must blame dlayout.
SAMPLES = [
    ("memcheck", True, """\
==1== 16 bytes in 1 blocks are definitely lost in loss record 1 of 9
==1==    at 0x4848899: malloc (in /usr/libexec/valgrind/vgpreload_memcheck-amd64-linux.so)
==1==    by 0x4859A1C: rt_buffer_get (in /b/interpose/libdlayout-preload.so)
==1==    by 0x485B111: dl_rt_clEnqueueNDRangeKernel (in /b/interpose/libdlayout-preload.so)
==1==    by 0x10A47D: main (in /b/dl-it-app)
"""),
    ("memcheck", False, """\
==1== 32 bytes in 1 blocks are possibly lost in loss record 2 of 9
==1==    at 0x4841F2F: operator new(unsigned long) (in /usr/libexec/valgrind/vgpreload_memcheck-amd64-linux.so)
==1==    by 0x9B0690F: llvm::Function::Function() (in /usr/lib/x86_64-linux-gnu/libLLVM-15.so.1)
==1==    by 0x4EB67BB: ??? (in /usr/lib/x86_64-linux-gnu/libpocl.so.2.10.0)
==1==    by 0x485EFC3: build_program (in /b/interpose/libdlayout-preload.so)
"""),
    ("memcheck", True, """\
==1== 64 bytes in 1 blocks are definitely lost in loss record 3 of 9
==1==    at 0x4848899: malloc (in /usr/libexec/valgrind/vgpreload_memcheck-amd64-linux.so)
==1==    by 0x4EB67BB: ??? (in /usr/lib/x86_64-linux-gnu/libpocl.so.2.10.0)
==1==    by 0x4EB1111: clCreateKernel (in /usr/lib/x86_64-linux-gnu/libpocl.so.2.10.0)
==1==    by 0x485F526: dl_engine_kernel (in /b/interpose/libdlayout-preload.so)
==1==    by 0x485B111: dl_rt_clEnqueueNDRangeKernel (in /b/interpose/libdlayout-preload.so)
"""),
    ("memcheck", False, """\
==1== 64 bytes in 1 blocks are definitely lost in loss record 4 of 9
==1==    at 0x4848899: malloc (in /usr/libexec/valgrind/vgpreload_memcheck-amd64-linux.so)
==1==    by 0x4EB67BB: ??? (in /usr/lib/x86_64-linux-gnu/libpocl.so.2.10.0)
==1==    by 0x4EB2222: clCreateContext (in /usr/lib/x86_64-linux-gnu/libOpenCL.so.1.0.0)
==1==    by 0x4859000: clCreateContext (in /b/interpose/libdlayout-preload.so)
==1==    by 0x10A8DD: it_cl_open (in /b/dl-it-app)
"""),
    ("helgrind", True, """\
==1== Possible data race during write of size 8 at 0x5A0 by thread #3
==1==    at 0x4859A1C: rt_buffer_used (in /b/interpose/libdlayout-preload.so)
==1== This conflicts with a previous read of size 8 by thread #2
==1==    at 0x4EB67BB: ??? (in /usr/lib/x86_64-linux-gnu/libpocl.so.2.10.0)
"""),
    ("helgrind", False, """\
==1== Possible data race during read of size 1 at 0x4D08308 by thread #5
==1== Locks held: none
==1==    at 0x4849225: ??? (in /usr/libexec/valgrind/vgpreload_helgrind-amd64-linux.so)
==1==    by 0x4ED5544: POclReleaseEvent (in /usr/lib/x86_64-linux-gnu/libpocl.so.2.10.0)
==1==    by 0x4864987: dl_rt_clReleaseMemObject (in /b/interpose/libdlayout-preload.so)
==1== 
==1== This conflicts with a previous write of size 4 by thread #2
==1== Locks held: none
==1==    at 0x4937C67: __pthread_mutex_unlock_usercnt (pthread_mutex_unlock.c:62)
==1==    by 0x4ED5572: POclReleaseEvent (in /usr/lib/x86_64-linux-gnu/libpocl.so.2.10.0)
==1==  Address 0x4d08308 is 24 bytes inside a block of size 208 alloc'd
==1==    at 0x484862F: calloc (in /usr/libexec/valgrind/vgpreload_helgrind-amd64-linux.so)
==1==    by 0x4866100: rt_buffer_get (in /b/interpose/libdlayout-preload.so)
"""),
    ("helgrind", True, """\
==1== Possible data race during write of size 8 at 0x5A0 by thread #3
==1==    at 0x4EB67BB: ??? (in /usr/lib/x86_64-linux-gnu/libpocl.so.2.10.0)
==1==    by 0x49291F4: start_thread (pthread_create.c:442)
==1== 
==1== This conflicts with a previous read of size 8 by thread #2
==1==    at 0x4849225: ??? (in /usr/libexec/valgrind/vgpreload_helgrind-amd64-linux.so)
==1==    by 0x4859A1C: rt_stats_add (in /b/interpose/libdlayout-preload.so)
"""),
    ("helgrind", False, """\
==1==  Lock at 0x488EBE8 was first observed
==1==    at 0x484976E: ??? (in /usr/libexec/valgrind/vgpreload_helgrind-amd64-linux.so)
==1==    by 0x4861ED3: dl_rt_clCreateProgramWithSource (in /b/interpose/libdlayout-preload.so)
==1==  Address 0x488ebe8 is 72 bytes inside data symbol "dl_rt"
"""),
    ("helgrind", False, """\
==1== Possible data race during read of size 4 at 0x4A0 by thread #3
==1==    at 0x4859A1C: clCreateProgramWithSource (in /b/interpose/libdlayout-preload.so)
==1== 
==1== This conflicts with a previous write of size 4 by thread #2
==1==    at 0x4859B00: start (in /b/interpose/libdlayout-preload.so)
==1==    by 0x4937000: __pthread_once_slow (pthread_once.c:116)
==1==    by 0x4859C00: dl_shim_start (in /b/interpose/libdlayout-preload.so)
"""),
]


def self_test():
    """The judge on SAMPLES: the sanitize suite must be able to fail."""
    for number, (tool, blamed, report) in enumerate(SAMPLES):
        if bool(judge(tool, report)) != blamed:
            fail("self-test: sample %d judged wrongly" % number)
    print("PASS: %d sample reports judged as expected" % len(SAMPLES))


def main():
    if sys.argv[1:] == ["--self-test"]:
        return self_test()
    parser = argparse.ArgumentParser()
    parser.add_argument("--dl-run", required=True)
    parser.add_argument("--layer", action="store_true")
    parser.add_argument("--tool", required=True,
                        choices=["memcheck", "helgrind", "drd"])
    parser.add_argument("--suppressions", required=True)
    parser.add_argument("--timeout", type=int, default=1500)
    parser.add_argument("--env", action="append", default=[],
                        help="K=V for the dlayout runs (after DL_POLICY)")
    parser.add_argument("program", nargs="+")
    args = parser.parse_args()

    env = dict(os.environ)
    env["DL_POLICY"] = "always"
    env.update(kv.split("=", 1) for kv in args.env)
    launcher = [args.dl_run, "--stats"] + (["--layer"] if args.layer else [])
    launcher += ["--"]
    warm_up = ["valgrind", "--tool=none", "--log-file=/dev/null"]
    warm = subprocess.run(launcher + warm_up + args.program, env=env,
                          stdout=subprocess.DEVNULL, timeout=args.timeout)
    if warm.returncode != 0:
        fail("the program fails under dl-run and valgrind --tool=none")

    with tempfile.TemporaryDirectory() as tmp:
        log_path = os.path.join(tmp, "valgrind.log")
        valgrind = ["valgrind", "--tool=" + args.tool,
                    "--suppressions=" + args.suppressions,
                    "--num-callers=40", "--log-file=" + log_path]
        if args.tool == "memcheck":
            # every error that valgrind.supp does not cover fails; leaks
            # are judged below
            valgrind += ["--error-exitcode=99", "--leak-check=full",
                         "--errors-for-leak-kinds=none",
                         "--show-leak-kinds=definite,indirect,possible"]
        argv = launcher + valgrind + args.program
        print("$ " + " ".join(argv), flush=True)
        try:
            proc = subprocess.run(argv, env=env, timeout=args.timeout,
                                  stderr=subprocess.PIPE)
        except subprocess.TimeoutExpired:
            fail("valgrind run timed out after %d s" % args.timeout)
        with open(log_path, encoding="utf-8", errors="replace") as f:
            log = f.read()

    stderr = proc.stderr.decode("utf-8", "replace")
    print(stderr)
    # the check means nothing unless dlayout really ran under valgrind
    if not re.search(r"^dlayout-stats: .*\blaunches=[1-9]", stderr, re.M):
        fail("no dlayout-stats line with launches under valgrind")
    summary = [l for l in log.splitlines() if "ERROR SUMMARY" in l]
    print(summary[-1] if summary else "(no error summary)")
    problems = judge(args.tool, log)
    for block in problems:
        print("\n".join(block) + "\n")
    if proc.returncode == 99:
        print(log)
        fail("valgrind reports errors that no suppression covers")
    if proc.returncode != 0:
        fail("the program exited with status %d" % proc.returncode)
    if problems:
        fail("%d report(s) involve dlayout" % len(problems))
    print("PASS: no %s report involves dlayout" % args.tool)


if __name__ == "__main__":
    main()
