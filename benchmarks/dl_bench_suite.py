#!/usr/bin/env python3
"""dl_bench_suite.py DL_BENCH {suite,accept} [options]

`dl-bench suite` and `dl-bench accept` (benchmarks/README.md): dl-bench
runs this script with its own path as DL_BENCH.  The measurements are
dl-bench's (`dl-bench layout`, `dl-bench marshal`, each printing CSV) and
whole programs (the benchmark apps, plain and under dl-run); this script
spawns them, merges their CSV, draws the plots with gnuplot and writes the
report.  Standard library only.

Everything is found relative to DL_BENCH: the apps, dl-run, dl-annotate
and the test programs next to it (installed: bin/) or in the build tree,
the apps' kernel sources next to the apps or in share/dlayout/apps, and
the gnuplot scripts next to this script.

This script reads the options; the work is in the modules next to it:
bench_common.py (tools, child processes), bench_plot.py (gnuplot),
bench_apps.py (the application programs), suite.py (`suite`: its parts
in suite_layout.py, suite_marshal.py and suite_apps.py, the reports) and
bench_accept.py (`accept`)."""
import argparse
import sys

sys.dont_write_bytecode = True  # no __pycache__ in share/ or the build tree

from bench_accept import Accept  # noqa: E402
from bench_common import USAGE, Tools  # noqa: E402
from suite import PART_COUNT, Suite  # noqa: E402


def positive(text):
    value = int(text)
    if not 1 <= value <= 1000:
        raise argparse.ArgumentTypeError('must be between 1 and 1000')
    return value


def parts(text):
    try:
        numbers = [int(x) for x in text.split(',')]
    except ValueError:
        numbers = []
    if not numbers or not all(1 <= n <= PART_COUNT for n in numbers):
        raise argparse.ArgumentTypeError('a list of part numbers 1-%d' %
                                         PART_COUNT)
    return numbers


def parser(command):
    quick = {'suite': 'small sizes: every part in about a minute',
             'accept': 'small sizes, one repetition: under a minute; checks '
                       'the outputs, its timings mean little'}[command]
    p = argparse.ArgumentParser(
        prog='dl-bench ' + command,
        description={
            'suite': 'Runs the benchmark suite (benchmarks/README.md) and '
                     'writes DIR/*.csv, DIR/*.png (gnuplot) and '
                     'DIR/report.md.',
            'accept': 'The acceptance measurements of the adaptive control: '
                      'the application programs, a near-empty kernel '
                      'launched many times (annotated and not), annotated '
                      'test programs, and LBM at a few steps for the '
                      'break-even, each run plainly and under `dl-run '
                      '--stats` (DL_POLICY=auto) in interleaved '
                      'repetitions. Every output must equal the plain '
                      'run\'s, byte for byte. Writes DIR/accept.csv and '
                      'DIR/accept.md.'}[command],
        epilog='Exit status: 0 every run succeeded and every result '
               'matched its reference; 1 a part failed or a result '
               'differed; 2 invalid arguments.')
    p.add_argument('--out', metavar='DIR', required=True,
                   help='output folder (created if missing)')
    p.add_argument('--quick', action='store_true', help=quick)
    if command == 'suite':
        p.add_argument('--parts', metavar='N,N', type=parts,
                       default=list(range(1, PART_COUNT + 1)),
                       help='run only these parts, e.g. 1,6 (default: all '
                            '%d; 3 and 4 run together)' % PART_COUNT)
        p.add_argument('--device', metavar='N', type=int, default=0,
                       help="index into 'dl-bench devices' (default 0)")
    p.add_argument('--reps', metavar='R', type=positive,
                   help='timed repetitions per figure (default %s)' % (
                       '5, 3 with --quick' if command == 'suite'
                       else '5, 1 with --quick'))
    p.add_argument('--apps-dir', metavar='DIR',
                   help='where dl-app-lbm & co. are (default: next to '
                        'dl-bench, or its apps/)')
    p.add_argument('--dl-run', metavar='PATH',
                   help='the dl-run launcher (default: next to dl-bench or '
                        'in the build tree)')
    p.add_argument('--dl-annotate', metavar='PATH', help='likewise')
    if command == 'accept':
        p.add_argument('--it-app', metavar='PATH',
                       help="tests/integration's dl-it-app (likewise; "
                            "without it those cases are left out)")
    return p


def main(argv):
    if len(argv) < 3 or argv[2] not in ('suite', 'accept'):
        print(__doc__, file=sys.stderr)
        return USAGE
    dl_bench, command = argv[1], argv[2]
    args = parser(command).parse_args(argv[3:])
    if not args.out:
        parser(command).error('--out DIR must not be empty')
    tools = Tools(dl_bench, args)
    return (Suite if command == 'suite' else Accept)(tools, args).main()


if __name__ == '__main__':
    sys.exit(main(sys.argv))
