#!/usr/bin/env python3
"""shim_cost.py - what dl-run costs a program end to end, and dlayout's own
share of the program's time, on a machine too noisy for wall time alone.

    shim_cost.py [--runs N] [--dl-run PATH] [--seed S] -- PROGRAM [ARGS...]

Runs PROGRAM N times (default 15) in each of three ways, interleaved
round by round (the order rotates, so that drift hits all three alike):
plainly, under dl-run, and under dl-run --stats.  Prints

* the median wall time of the plain and the dl-run runs, and the median
  of the per-round ratios dl-run / plain with a bootstrap 95% interval
  (2000 resamples of the rounds): the end-to-end cost, as far as the
  noise lets it be told;
* from the --stats runs' `dlayout-stats:` line, dlayout's own time as a
  share of that run's: self_ms (host time inside the intercepted calls
  less the program's forwarded commands), of it tuner_wait_ms (the tuner
  waiting for launch times while the device runs the program's kernels),
  the rest, thread_cpu_ms against the run's CPU time, and device_ms (the
  conversions the tuner's probes timed).  Median and largest over the
  runs: a bound on the loss that the noise does not hide.

The DL_* settings come from the environment (dl-run's defaults
otherwise), e.g. `DL_POLICY=auto nice scripts/shim_cost.py -- build/
tests/integration/dl-it-app graph_loops pagerank`.  The ratio runs go
without --stats: timing the entries costs a few clock reads per call.
docs/controls.md describes the stats line.
"""
import argparse
import os
import random
import re
import resource
import statistics
import subprocess
import sys
import time

OWN = ("self_ms", "tuner_wait_ms", "thread_cpu_ms", "device_ms")
STATS = re.compile(r"^dlayout-stats:.*$", re.M)


def run(argv):
    """(wall ms, CPU ms, stderr) of one run; exits on failure."""
    before, start = resource.getrusage(resource.RUSAGE_CHILDREN), time.time()
    proc = subprocess.run(argv, stdout=subprocess.DEVNULL,
                          stderr=subprocess.PIPE)
    wall = (time.time() - start) * 1e3
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        sys.exit("%s: exit status %d\n%s" %
                 (" ".join(argv), proc.returncode,
                  proc.stderr.decode("utf-8", "replace")))
    cpu = (after.ru_utime + after.ru_stime - before.ru_utime -
           before.ru_stime) * 1e3
    return wall, cpu, proc.stderr.decode("utf-8", "replace")


def own_times(stderr):
    line = STATS.findall(stderr)
    if not line:
        sys.exit("no dlayout-stats line under dl-run --stats")
    fields = dict(f.split("=", 1) for f in line[-1].split()[1:])
    missing = [k for k in OWN if k not in fields]
    if missing:
        sys.exit("the stats line lacks %s" % ", ".join(missing))
    return {k: float(fields[k]) for k in OWN}


def bootstrap_median(values, rng, resamples=2000):
    """The median of values and its bootstrap 95% interval."""
    medians = sorted(
        statistics.median(rng.choices(values, k=len(values)))
        for _ in range(resamples))
    return (statistics.median(values), medians[int(0.025 * resamples)],
            medians[int(0.975 * resamples) - 1])


def share_line(name, values):
    print("  %-26s median %6.2f%%   max %6.2f%%" %
          (name, 100 * statistics.median(values), 100 * max(values)))


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--dl-run",
                        default=os.path.join(here, "..", "build", "interpose",
                                             "dl-run"))
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("program", nargs="+")
    args = parser.parse_args()
    if args.runs < 2:
        sys.exit("--runs must be at least 2")
    ways = [("plain", args.program),
            ("dl-run", [args.dl_run, "--"] + args.program),
            ("stats", [args.dl_run, "--stats", "--"] + args.program)]
    wall = {name: [] for name, _ in ways}
    shares = {k: [] for k in ("self", "wait", "rest", "thread", "device")}
    for r in range(args.runs):
        for name, argv in ways[r % 3:] + ways[:r % 3]:
            ms, cpu, err = run(argv)
            wall[name].append(ms)
            if name != "stats":
                continue
            own = own_times(err)
            shares["self"].append(own["self_ms"] / ms)
            shares["wait"].append(own["tuner_wait_ms"] / ms)
            shares["rest"].append(
                (own["self_ms"] - own["tuner_wait_ms"]) / ms)
            shares["thread"].append(own["thread_cpu_ms"] / cpu)
            shares["device"].append(own["device_ms"] / ms)
        print("round %d/%d: plain %.0f ms, dl-run %.0f ms, --stats %.0f ms" %
              (r + 1, args.runs, wall["plain"][-1], wall["dl-run"][-1],
               wall["stats"][-1]), file=sys.stderr)
    ratios = [d / p for d, p in zip(wall["dl-run"], wall["plain"])]
    med, low, high = bootstrap_median(ratios, random.Random(args.seed))
    print("%s: %d rounds" % (" ".join(args.program), args.runs))
    print("  wall, median: plain %.1f ms, dl-run %.1f ms (plain spread "
          "%.1f-%.1f ms)" % (statistics.median(wall["plain"]),
                             statistics.median(wall["dl-run"]),
                             min(wall["plain"]), max(wall["plain"])))
    print("  dl-run / plain: median %.3f, 95%% interval [%.3f, %.3f]" %
          (med, low, high))
    print("dlayout's own time, share of the --stats run's:")
    share_line("self_ms / wall", shares["self"])
    share_line("  tuner_wait_ms / wall", shares["wait"])
    share_line("  the rest / wall", shares["rest"])
    share_line("thread_cpu_ms / CPU time", shares["thread"])
    share_line("device_ms / wall", shares["device"])
    return 0


if __name__ == "__main__":
    sys.exit(main())
