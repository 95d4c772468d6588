"""bench_plot.py: the gnuplot scripts of plot/ run in an output folder
(`dl-bench suite`, dl_bench_suite.py)."""
import math
import os
import shutil
import sys

from bench_common import run

# Okabe-Ito without its yellow, then grey: distinct and readable on white.
PALETTE = ['#0072B2', '#D55E00', '#009E73', '#CC79A7', '#56B4E9', '#E69F00',
           '#000000', '#999999']


# ----------------------------------------------------------------- plots

class Plotter:
    """Runs the gnuplot scripts in the output folder."""

    def __init__(self, tools, out_dir, info):
        self.out_dir, self.info = out_dir, info
        self.plot_dir = tools.plot_dir
        self.term = None
        for term in ('pngcairo', 'png'):
            r = run(['gnuplot', '-e', 'set terminal ' + term])
            if r.rc == 0 and 'unknown' not in r.err and 'rror' not in r.err:
                self.term = term
                break
        if not self.term:
            print('dl-bench suite: gnuplot (with the pngcairo or png '
                  'terminal) not found: no plots (Debian: apt-get install '
                  'gnuplot-nox)', file=sys.stderr)

    @staticmethod
    def quote(text):
        return '"%s"' % str(text).replace('\\', '\\\\').replace('"', '\\"')

    def draw(self, script, png, variables=None):
        """Copies plot_dir/script next to its data and runs it; True when
        it wrote png."""
        if not self.term:
            return False
        shutil.copy(os.path.join(self.plot_dir, script),
                    os.path.join(self.out_dir, script))
        values = {'term': self.term, 'info': self.info,
                  'palette': ' '.join(PALETTE)}
        values.update(variables or {})
        sets = '; '.join('%s=%s' % (k, v if isinstance(v, (int, float))
                                    else self.quote(v))
                         for k, v in values.items())
        r = run(['gnuplot', '-e', sets, script], cwd=self.out_dir)
        path = os.path.join(self.out_dir, png)
        if r.rc != 0 or not os.path.isfile(path):
            print('dl-bench suite: gnuplot %s failed (%d): %s' %
                  (script, r.rc, r.err), file=sys.stderr)
            return False
        return True


def log_range(values):
    """A log-scale range with whole decades around the positive values."""
    pos = [v for v in values if v > 0 and math.isfinite(v)]
    if not pos:
        return 0.01, 10.0
    return 10 ** math.floor(math.log10(min(pos))), max(pos) * 1.6
