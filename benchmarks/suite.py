"""suite.py: `dl-bench suite` (dl_bench_suite.py): its parts in order,
report.md and summary.md.  The parts are methods of Suite (part 1 from
suite_layout.py, 2-5 from suite_marshal.py) or classes given the Suite
(part 6, suite_apps.py); Suite.main lists them."""
import csv
import os
import statistics
import sys
import time

from bench_common import FAIL, OK, Progress, device_name, run
from bench_plot import Plotter
from suite_apps import AppsPart
import suite_irregular
from suite_layout import LayoutPart
from suite_marshal import ALL_SHAPES, FIG_TILES, QUICK_SHAPES, \
    MarshalParts

# Parts 1-PART_COUNT; a new part gets the next number here, a method that
# runs it (returning True on success) and its entry in Suite.main.
PART_COUNT = 7


class Suite(LayoutPart, MarshalParts):
    def __init__(self, tools, args):
        self.tools, self.args = tools, args
        self.quick, self.out = args.quick, args.out
        self.reps = args.reps or (3 if args.quick else 5)
        self.device = args.device
        self.parts = set(args.parts)
        self.progress = Progress(PART_COUNT)
        self.md = []              # the report, paragraph by paragraph
        self.targets = []         # (name, goal, reached, status)
        self.unverified = 0
        self.copy = []            # copy GB/s measured with every figure
        self.fastest = []         # part 1: the fastest layout per S
        self.headlines = []       # one line per part, for summary.md
        self.plots = []           # (png, caption) drawn
        self.worst_extra = (0.0, 'none')
        self.shapes = QUICK_SHAPES if self.quick else ALL_SHAPES
        self.tiles = [32, 64] if self.quick else FIG_TILES
        self.device_name = device_name(tools, self.device)
        self.mode = 'quick' if self.quick else 'full'
        self.plot = Plotter(tools, self.out, self.info(self.reps))

    def info(self, reps, spread='error bars: min-max'):
        """The line every plot carries."""
        return '%s | commit %s | %s mode | %s of %d repetition%s' % (
            self.device_name, self.tools.commit, self.mode, spread, reps,
            '' if reps == 1 else 's')

    def write(self, text):
        self.md.append(text)

    def target(self, name, goal, status, reached):
        self.targets.append((name, goal, reached, status))

    def open_csv(self, name, columns):
        f = open(os.path.join(self.out, name), 'w', newline='')
        w = csv.writer(f, lineterminator='\n')
        w.writerow(columns)
        return f, w

    def embed(self, script, png, caption, variables=None):
        if self.plot.draw(script, png, variables):
            self.write('\n![%s](%s)\n' % (caption, png))
            self.plots.append((png, caption))
        elif self.plot.term:
            self.write('\n(plot %s: gnuplot failed)\n' % png)

    # -------------------------------------------- part 6: applications

    def apps(self):
        self.progress.start(6, 'applications')
        if not self.tools.apps or not self.tools.kernels:
            what = 'dl-app-lbm & co.' if not self.tools.apps else \
                'their kernel sources (lbm.cl & co.)'
            self.write('\n## 6. Applications\n\nNot run: %s not found (give '
                       '--apps-dir).\n' % what)
            self.target('break-even iterations, AoS->ASTA apps',
                        '<= 4 (paper)', None, 'applications not found')
            print('dl-bench suite: %s not found' % what, file=sys.stderr)
            return False
        return AppsPart(self).run()

    # ------------------------------------ part 7: irregular references

    def irregular(self):
        return suite_irregular.IrregularPart(self, run).run()

    # --------------------------------------------------------- report

    def report(self):
        copy = ('%.2f GB/s (median; %.2f-%.2f over the %d figures)' %
                (statistics.median(self.copy), min(self.copy),
                 max(self.copy), len(self.copy))) if self.copy else \
            'not measured'
        head = ('# dl-bench suite report\n\n'
                '* device: %s (`dl-bench devices` index %d)\n'
                '* commit: %s\n* date: %s\n'
                '* mode: %s, %d timed repetitions per figure (median '
                'reported; min-max in the CSV files and as error bars)%s\n'
                '* host load average (1 min) at the start: %.2f on %d online '
                'CPUs\n'
                '* copy bandwidth measured alongside the figures: %s, the '
                'better of clEnqueueCopyBuffer and a vectorised copy kernel, '
                'counting bytes read + written\n\n'
                'Every conversion and every microbenchmark result below was '
                'checked against a host reference; an unverified figure is '
                'shown as `unverified`, never as a number. Each marshaling '
                'figure\'s ratio is to the copy bandwidth measured '
                'interleaved with that figure (same bytes, same moment), so '
                'ratios stay comparable on a loaded machine while absolute '
                'GB/s do not.\n' % (
                    self.device_name, self.device, self.tools.commit,
                    time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime()),
                    '`--quick` (small sizes: figures are not representative)'
                    if self.quick else 'full', self.reps,
                    '' if len(self.parts) == PART_COUNT else '; parts %s only' %
                    ', '.join(map(str, sorted(self.parts))), self.load0,
                    os.cpu_count() or 0, copy))
        lines = ['\n## Targets\n\nThe copy-ratio targets of the in-place '
                 'conversions, the spread of PTTWAC across shapes and the '
                 'applications\' break-even.\n\n| target | goal | this run | '
                 'status |\n|---|---|---|---|\n']
        for name, goal, reached, status in self.targets:
            lines.append('| %s | %s | %s | %s |\n' % (
                name, goal, reached, 'not measured' if status is None
                else 'met' if status else '**not met**'))
        tail = ('\n---\nProduced by `dl-bench suite%s --out %s`; load average '
                '(1 min) at the end: %.2f.\n' % (
                    ' --quick' if self.quick else '', self.args.out,
                    os.getloadavg()[0]))
        with open(os.path.join(self.out, 'report.md'), 'w') as f:
            f.write(head + ''.join(self.md) + ''.join(lines) + tail)
        self.summary(''.join(lines))

    def summary(self, targets):
        """summary.md: what a reader wants first, from this run."""
        if self.fastest:
            self.headlines.insert(0, 'Fastest layout of the microbenchmark '
                                  'per record size: %s.' %
                                  '; '.join(self.fastest))
        met = sum(1 for t in self.targets if t[3])
        text = ['# dlayout benchmarks: summary\n\n'
                '* device: %s\n* commit: %s\n* date: %s\n* mode: %s\n\n' % (
                    self.device_name, self.tools.commit,
                    time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime()),
                    '**quick** (`dl-bench suite --quick`): small sizes and '
                    'few repetitions, so the figures show the method, not '
                    'what the device can do; run the suite without '
                    '`--quick` for those' if self.quick else 'full'),
                'dlayout converts OpenCL buffers between layouts (AoS, DA, '
                'ASTA) in place on the device.  The figure the results are '
                'built around is the **copy ratio**: the bandwidth of a '
                'conversion over that of a plain copy of the same bytes, '
                'measured at the same moment (1 = as fast as a copy; the '
                'in-place algorithms read and write every byte once, like '
                'a copy, but need no second buffer).  Every figure was '
                'checked against a host reference.\n\n']
        text += ['* %s\n' % h for h in self.headlines]
        text.append('* %d of %d targets met (table below).\n' % (
            met, len(self.targets)))
        text.append(targets)
        for png, caption in self.plots:
            text.append('\n![%s](%s)\n' % (caption, png))
        text.append('\nThe tables behind every figure: [report.md]'
                    '(report.md); the CSV files next to it.  Produced by '
                    '`dl-bench suite%s` (benchmarks/README.md).\n' %
                    (' --quick' if self.quick else ''))
        with open(os.path.join(self.out, 'summary.md'), 'w') as f:
            f.write(''.join(text))

    def main(self):
        os.makedirs(self.out, exist_ok=True)
        self.load0 = os.getloadavg()[0]
        self.sweeps = []
        ok = True
        for numbers, part in (({1}, self.layout),
                              ({2, 3, 4, 5}, self.marshal),
                              ({6}, self.apps),
                              ({7}, self.irregular)):
            if numbers & self.parts and not part():
                ok = False
        if self.sweeps:
            self.targets_plot()
        self.progress.done()
        self.report()
        if self.unverified:
            print('dl-bench suite: %d result(s) did not match the host '
                  'reference' % self.unverified, file=sys.stderr)
        good = ok and not self.unverified
        print('dl-bench suite: %s (%s/report.md)' % (
            'done' if good else 'FAILED', self.out), file=sys.stderr)
        return OK if good else FAIL
