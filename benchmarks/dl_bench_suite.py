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
the gnuplot scripts next to this script."""
import argparse
import csv
import filecmp
import math
import os
import re
import shutil
import statistics
import subprocess
import sys
import time

# Okabe-Ito without its yellow, then grey: distinct and readable on white.
PALETTE = ['#0072B2', '#D55E00', '#009E73', '#CC79A7', '#56B4E9', '#E69F00',
           '#000000', '#999999']


# ----------------------------------------------------------------- tools

def first_existing(candidates, test=os.path.isfile):
    for path in candidates:
        if path and test(path):
            return os.path.normpath(path)
    return None


def is_exe(path):
    return os.path.isfile(path) and os.access(path, os.X_OK)


class Tools:
    """The programs and data the commands need, located from dl-bench."""

    def __init__(self, dl_bench, args):
        self.dl_bench = os.path.realpath(dl_bench)
        bindir = os.path.dirname(self.dl_bench)
        here = os.path.dirname(os.path.realpath(__file__))
        self.plot_dir = here
        self.apps = args.apps_dir or first_existing(
            [os.path.join(bindir, 'apps'), bindir,
             os.path.join(bindir, '..', 'libexec', 'dlayout')],
            lambda d: is_exe(os.path.join(d, 'dl-app-lbm')))
        # Kernel sources: the build tree has copies next to the apps; an
        # install has them in share/dlayout/apps.
        self.kernels = first_existing(
            [self.apps, os.path.join(bindir, '..', 'share', 'dlayout',
                                     'apps')],
            lambda d: os.path.isfile(os.path.join(d, 'lbm.cl')))
        self.dl_run = args.dl_run or first_existing(
            [os.path.join(bindir, 'dl-run'),
             os.path.join(bindir, '..', 'interpose', 'dl-run')], is_exe)
        self.dl_annotate = args.dl_annotate or first_existing(
            [os.path.join(bindir, 'dl-annotate'),
             os.path.join(bindir, '..', 'annotate', 'dl-annotate')], is_exe)
        self.it_app = getattr(args, 'it_app', None) or first_existing(
            [os.path.join(bindir, '..', 'tests', 'integration',
                          'dl-it-app')], is_exe)
        self.commit = describe(here)

    def app(self, name):
        return os.path.join(self.apps, name)

    def kernel(self, name):
        """The kernel source an app builds, named explicitly: an app finds
        its own only next to itself or in the prefix it was built for,
        not in a relocated (DESTDIR) install."""
        return os.path.join(self.kernels, name)


def describe(folder):
    """`git describe` of the checkout the tools were built from, if any."""
    try:
        r = subprocess.run(['git', '-C', folder, 'describe', '--always',
                            '--dirty', '--tags'], capture_output=True,
                           text=True, timeout=20)
    except (OSError, subprocess.SubprocessError):
        return 'unknown'
    return r.stdout.strip() if r.returncode == 0 and r.stdout.strip() \
        else 'unknown'


def device_name(tools, index):
    r = run([tools.dl_bench, 'devices'])
    for line in r.out.splitlines():
        number, _, name = line.partition('\t')
        if number.strip() == str(index):
            return name.strip()
    return 'device %d (not listed by dl-bench devices)' % index


# ------------------------------------------------------- child processes

class Child:
    def __init__(self, rc, out, err, seconds):
        self.rc, self.out, self.err, self.seconds = rc, out, err, seconds


def run(argv, env=None, cwd=None):
    """Runs argv to completion with stdout and stderr captured."""
    t0 = time.monotonic()
    try:
        p = subprocess.run(argv, capture_output=True, env=env, cwd=cwd)
        rc, out, err = p.returncode, p.stdout, p.stderr
    except OSError as e:
        rc, out, err = 127, b'', ('cannot run %s: %s' % (argv[0], e)).encode()
    seconds = time.monotonic() - t0
    return Child(rc if rc >= 0 else 128 - rc,
                 out.decode(errors='replace'), err.decode(errors='replace'),
                 seconds)


def field(text, key):
    """The number of `key=value` in a line of text; NaN if absent."""
    m = re.search(r'(?:^|[ :])%s=([-+0-9.eEinfa]+)' % re.escape(key), text,
                  re.M)
    try:
        return float(m.group(1)) if m else math.nan
    except ValueError:
        return math.nan


def stats_line(text):
    m = re.search(r'dlayout-stats:[^\n]*', text)
    return m.group(0) if m else ''


def spread(values):
    """(median, min, max) of a non-empty list."""
    return statistics.median(values), min(values), max(values)


def num(text):
    try:
        return float(text)
    except (TypeError, ValueError):
        return math.nan


class Progress:
    """`[part 3/6 AoS->ASTA bs vs pttwac] conf6 ...` on stderr."""

    def __init__(self, total):
        self.total, self.part, self.name = total, 0, ''
        self.tty = sys.stderr.isatty()

    def start(self, part, name):
        self.part, self.name = part, name

    def say(self, text):
        prefix = '\r\033[K' if self.tty else ''
        end = '' if self.tty else '\n'
        sys.stderr.write('%s[part %d/%d %s] %s%s' % (
            prefix, self.part, self.total, self.name, text, end))
        sys.stderr.flush()

    def done(self):
        if self.tty:
            sys.stderr.write('\r\033[K')


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


# ================================================================ suite

ALL_SHAPES = [('bcsstk18', 11948, 40), ('e40r000', 17281, 62),
              ('bcsstk31', 35588, 197), ('bcsstk32', 44609, 215),
              ('s3dkq4m2', 90449, 59), ('conf6', 49152, 39)]
QUICK_SHAPES = [ALL_SHAPES[0], ALL_SHAPES[2], ALL_SHAPES[5]]
FIG_TILES = [16, 32, 64]
MARSHAL_COLUMNS = ['shape', 'from', 'to', 'algo', 'count', 'struct', 'elem',
                   'tile', 'bytes', 'seconds', 'seconds_min', 'seconds_max',
                   'gbps', 'gbps_min', 'gbps_max', 'copy_gbps', 'ratio',
                   'verified', 'extra_bytes']

OK, FAIL, USAGE, NA, UNVERIFIED = 0, 1, 2, 3, 4


class Figure:
    """One `dl-bench marshal` measurement: code and its CSV row."""

    def __init__(self, code, row):
        self.code, self.row = code, row

    @property
    def usable(self):
        return self.code == OK

    def value(self, key):
        return num(self.row.get(key)) if self.usable else math.nan

    @property
    def gbps(self):
        return self.value('gbps')

    @property
    def ratio(self):
        return self.value('ratio')

    def ratio_span(self):
        """The ratio at the slowest and the fastest repetition."""
        copy, bytes_ = self.value('copy_gbps'), self.value('bytes')
        return (2 * bytes_ / self.value('seconds_max') / 1e9 / copy,
                2 * bytes_ / self.value('seconds_min') / 1e9 / copy)

    def cell(self):
        if self.code == NA:
            return 'NA'
        if self.code is None:
            return '-'
        if not self.usable:
            return 'unverified'
        return '%.2f (%.2f)' % (self.gbps, self.ratio)


SKIPPED = Figure(None, {})


class Suite:
    def __init__(self, tools, args):
        self.tools, self.args = tools, args
        self.quick, self.out = args.quick, args.out
        self.reps = args.reps or (3 if args.quick else 5)
        self.device = args.device
        self.parts = set(args.parts)
        self.progress = Progress(6)
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

    # ------------------------------------------------ part 1: Figure 1

    def layout(self):
        self.progress.start(1, 'layout microbenchmark')
        counts = [1, 3, 8, 20] if self.quick else [1, 2, 3, 4, 5, 8, 12, 16,
                                                   20, 32]
        m = 16384 if self.quick else 1048576
        columns = ['layout', 'tile', 'variant', 'struct', 'count', 'bytes',
                   'seconds', 'seconds_min', 'seconds_max', 'gbps',
                   'copy_gbps', 'ratio', 'speedup_vs_aos', 'verified']
        f, w = self.open_csv('layout.csv', columns)
        best = {}   # S -> {label: row}, the faster ASTA form
        with f:
            for s in counts:
                self.progress.say('S=%d, every layout' % s)
                r = run([self.tools.dl_bench, 'layout', '--struct', str(s),
                         '--count', str(m), '--reps', str(self.reps),
                         '--device', str(self.device)])
                if r.rc not in (OK, UNVERIFIED):
                    print('dl-bench suite: dl-bench layout --struct %d '
                          'failed (%d):\n%s' % (s, r.rc, r.err),
                          file=sys.stderr)
                    self.write('\n## 1. Layout microbenchmark (Figure 1)\n\n'
                               'Failed to run (see stderr of the run).\n')
                    return False
                rows = list(csv.DictReader(r.out.splitlines()))
                aos = next(x for x in rows if x['layout'] == 'aos')
                best[s] = {}
                for x in rows:
                    ok = x['verified'] == '1'
                    self.unverified += not ok
                    x['speedup_vs_aos'] = ('%.4f' % (num(aos['seconds']) /
                                                     num(x['seconds']))
                                           if ok and aos['verified'] == '1'
                                           else 'NA')
                    w.writerow([x.get(c, 'NA') for c in columns])
                    label = x['layout'] + (x['tile'] if x['tile'] != '0'
                                           else '')
                    old = best[s].get(label)
                    if ok and (old is None or
                               num(x['seconds']) < num(old['seconds'])):
                        best[s][label] = x
                    elif old is None:
                        best[s][label] = x
        self.layout_report(best, m)
        return True

    def layout_report(self, best, m):
        labels = ['aos', 'da'] + ['asta%d' % t for t in (4, 8, 16, 32, 64)]
        self.write('\n## 1. Layout microbenchmark (Figure 1)\n\n'
                   'Work-item i sums the S float fields of record i and '
                   'writes the sum into every field of record i of a second '
                   'array; M = %d records, every kernel specialised with '
                   '`-D S`. GB/s counts the bytes read and written; the '
                   'factor in brackets is the speedup over AoS (time of AoS '
                   '/ time). Each ASTA(T) cell is the faster of two kernels, '
                   'both verified: the 2-D range (T, M/T) and the vector '
                   'form (floatW loads, W = min(T, 16)); `v` marks the '
                   'vector form. CSV: `layout.csv` (both forms, column '
                   '`variant`).\n\n| S | AoS GB/s | DA | ASTA(4) | ASTA(8) | '
                   'ASTA(16) | ASTA(32) | ASTA(64) | fastest |\n'
                   '|---|---|---|---|---|---|---|---|---|\n' % m)
        dat = ['# S, then for DA and ASTA(4..64): speedup over AoS, its '
               'min and max']
        for s, row in best.items():
            aos = row['aos']
            cells, fastest, line = [], None, [str(s)]
            for label in labels:
                x = row.get(label)
                if not x or x['verified'] != '1':
                    cells.append('unverified')
                    line += ['NaN'] * 3 if label != 'aos' else []
                    continue
                t = num(x['seconds'])
                if fastest is None or t < num(row[fastest]['seconds']):
                    fastest = label
                form = ' v' if x['variant'] == 'vec' else ''
                if label == 'aos':
                    cells.append('%.2f' % num(x['gbps']))
                    continue
                ta = num(aos['seconds'])
                cells.append('%.2f (%.2fx)%s' % (num(x['gbps']), ta / t,
                                                 form))
                line += ['%.4f' % (ta / t),
                         '%.4f' % (ta / num(x['seconds_max'])),
                         '%.4f' % (ta / num(x['seconds_min']))]
            self.write('| %d | %s | %s |\n' % (s, ' | '.join(cells),
                                               fastest or '-'))
            if fastest:
                self.fastest.append('S=%d: %s (%.2fx AoS)' % (
                    s, fastest, num(aos['seconds']) /
                    num(row[fastest]['seconds'])))
            dat.append(' '.join(line))
        with open(os.path.join(self.out, 'layout_speedup.dat'), 'w') as f:
            f.write('\n'.join(dat) + '\n')
        self.embed('layout.gp', 'layout.png', 'Speedup over AoS against S')

    # ----------------------------------------------- parts 2-5: marshal

    def figure(self, w, shape, frm, to, nfields, count, tile, algo):
        self.progress.say('%s %s->%s %s T=%d' % (shape, frm, to, algo, tile))
        argv = [self.tools.dl_bench, 'marshal', '--from', frm, '--to', to,
                '--struct', str(nfields), '--elem', '4', '--count',
                str(count), '--algo', algo, '--reps', str(self.reps),
                '--device', str(self.device)]
        if 'asta' in (frm, to):
            argv += ['--tile', str(tile)]
        r = run(argv)
        rows = list(csv.DictReader(r.out.splitlines()))
        if r.rc not in (OK, NA, UNVERIFIED) or not rows:
            print('dl-bench suite: %s failed (%d):\n%s' %
                  (' '.join(argv[1:]), r.rc, r.err), file=sys.stderr)
            return None
        f = Figure(r.rc, rows[0])
        row = dict(rows[0], shape=shape)
        if r.rc == UNVERIFIED:
            self.unverified += 1
        if f.usable:
            twice = 2 * num(row['bytes'])
            row['gbps_min'] = '%.6g' % (twice / num(row['seconds_max']) / 1e9)
            row['gbps_max'] = '%.6g' % (twice / num(row['seconds_min']) / 1e9)
            self.copy.append(num(row['copy_gbps']))
            extra = num(row['extra_bytes']) / num(row['bytes'])
            if algo != 'oop' and extra >= self.worst_extra[0]:
                self.worst_extra = (extra, '%s %s->%s %s' % (
                    shape, frm, to, row['algo']))
        else:  # never print an unverified number
            row = {k: ('NA' if k not in ('shape', 'from', 'to', 'count',
                                         'struct', 'elem', 'tile', 'bytes')
                       else v) for k, v in row.items()}
            if r.rc == NA:
                row['algo'] = 'NA'
            else:
                row['algo'], row['verified'] = rows[0]['algo'], '0'
        w.writerow([row.get(c, 'NA') for c in MARSHAL_COLUMNS])
        return f

    def rows_of(self, rows):
        return rows // 16 + 1 if self.quick else rows  # +1: not a multiple

    def inplace(self):
        self.progress.start(2, 'in-place vs out-of-place')
        rows = 17281 // 16 if self.quick else 17281
        labels = [('oop', 'AoS->ASTA out of place (through a temporary)'),
                  ('bs', 'AoS->ASTA barrier-sync (in place)'),
                  ('pttwac', 'AoS->ASTA PTTWAC (in place)')]
        f, w = self.open_csv('inplace.csv', MARSHAL_COLUMNS)
        with f:
            figs = [self.figure(w, 'e40r0000', 'aos', 'asta', 64, rows, 16,
                                algo) for algo, _ in labels]
        self.write('\n## 2. In-place versus out-of-place (Table 2)\n\n'
                   'e40r0000 in ELL: %d rows x 64 columns of floats, '
                   'AoS->ASTA(16). GB/s (ratio to the copy bandwidth measured '
                   'with it). CSV: `inplace.csv`.\n\n| marshaling kernel | '
                   'GB/s (ratio) | algorithm | extra device memory |\n'
                   '|---|---|---|---|\n' % rows)
        if None in figs:
            self.write('Failed to run (see stderr of the run).\n')
            return False
        self.headlines.append(
            'In place against out of place (AoS->ASTA(16), e40r0000): %s of '
            'the copy bandwidth.' % ', '.join(
                '%s %s' % (algo, '%.2f' % fig.ratio if fig.usable else
                           fig.cell()) for fig, (algo, _) in zip(figs,
                                                                 labels)))
        for fig, (_, label) in zip(figs, labels):
            self.write('| %s | %s | %s | %s bytes |\n' % (
                label, fig.cell(), fig.row.get('algo', 'NA')
                if fig.code != NA else 'NA', fig.row.get('extra_bytes')))
        return True

    def grid(self, csv_name, frm, algos):
        """{(shape, algo, tile): Figure} over the Table-1 shapes."""
        grid = {}
        f, w = self.open_csv(csv_name, MARSHAL_COLUMNS)
        with f:
            for name, rows, cols in self.shapes:
                for algo in algos:
                    for tile in FIG_TILES:
                        if tile not in self.tiles:
                            grid[name, algo, tile] = SKIPPED
                            continue
                        fig = self.figure(w, name, frm, 'asta', cols,
                                          self.rows_of(rows), tile, algo)
                        if fig is None:
                            return None
                        grid[name, algo, tile] = fig
        return grid

    def grid_table(self, grid, algos, names):
        head = ''.join(' %s T=%d |' % (n, t) for n in names
                       for t in reversed(FIG_TILES))
        self.write('| shape (rows x K) |%s\n|---|%s\n' % (
            head, '---|' * (len(names) * len(FIG_TILES))))
        for name, rows, cols in self.shapes:
            cells = [grid[name, a, t].cell() for a in algos
                     for t in reversed(FIG_TILES)]
            self.write('| %s (%d x %d) | %s |\n' % (
                name, self.rows_of(rows), cols, ' | '.join(cells)))

    def bar_data(self, path, grid, algos, names):
        """One row per shape; per series: ratio to copy, min, max."""
        series = [(a, n, t) for a, n in zip(algos, names) for t in self.tiles]
        values = []
        with open(os.path.join(self.out, path), 'w') as f:
            f.write('shape %s\n' % ' '.join(
                '"%s T=%d" lo hi' % (n, t) for _, n, t in series))
            for name, _, _ in self.shapes:
                line = [name]
                for a, _, t in series:
                    fig = grid[name, a, t]
                    if fig.usable:
                        lo, hi = fig.ratio_span()
                        line += ['%.5g' % fig.ratio, '%.5g' % lo,
                                 '%.5g' % hi]
                        values += [lo, hi]
                    else:
                        line += ['NaN'] * 3
                f.write(' '.join(line) + '\n')
        return len(series), values

    def grids(self):
        self.progress.start(3, 'AoS->ASTA bs vs pttwac')
        t3 = self.grid('aos_asta.csv', 'aos', ['bs', 'pttwac'])
        self.write('\n## 3. AoS->ASTA in place, BS versus PTTWAC (Table 3)\n\n'
                   'The ELL shapes of the paper\'s Table 1 as tall arrays of '
                   'floats (a record is one row of K slots). GB/s (ratio to '
                   'copy); NA: the algorithm cannot do the shape on this '
                   'device. CSV: `aos_asta.csv`.\n\n')
        if t3 is None:
            self.write('Failed to run (see stderr of the run).\n')
            return False
        self.grid_table(t3, ['bs', 'pttwac'], ['BS', 'PTTWAC'])
        self.progress.start(4, 'DA->ASTA pipt vs pttwac')
        f7 = self.grid('da_asta.csv', 'da', ['pipt', 'pttwac'])
        self.write('\n## 4. DA->ASTA in place, P-IPT versus PTTWAC '
                   '(Figure 7)\n\nThe same shapes, starting from the '
                   'transposed ELL (DA). CSV: `da_asta.csv`.\n\n')
        if f7 is None:
            self.write('Failed to run (see stderr of the run).\n')
            return False
        self.grid_table(f7, ['pipt', 'pttwac'], ['P-IPT', 'PTTWAC'])
        self.spread_targets(f7)
        self.headlines.append(
            'In place on the Table-1 shapes, median copy ratio: AoS->ASTA '
            '%s; DA->ASTA %s.' % (self.medians(t3, ['bs', 'pttwac'],
                                               ['BS', 'PTTWAC']),
                                  self.medians(f7, ['pipt', 'pttwac'],
                                               ['P-IPT', 'PTTWAC'])))
        n3, v3 = self.bar_data('marshal_aos.dat', t3, ['bs', 'pttwac'],
                               ['BS', 'PTTWAC'])
        n7, v7 = self.bar_data('marshal_da.dat', f7, ['pipt', 'pttwac'],
                               ['P-IPT', 'PTTWAC'])
        ymin, ymax = log_range(v3 + v7 + [1.0])
        self.embed('marshal.gp', 'marshal.png',
                   'AoS->ASTA and DA->ASTA per shape, as a fraction of the '
                   'copy bandwidth', {'n3': n3, 'n7': n7, 'ymin': ymin,
                                      'ymax': ymax,
                                      'nshapes': len(self.shapes)})
        return True

    def medians(self, grid, algos, names):
        """'BS 0.52, PTTWAC 0.02': each algorithm's median ratio."""
        cells = []
        for algo, name in zip(algos, names):
            q = [f.ratio for (_, a, _), f in grid.items()
                 if a == algo and f.usable]
            cells.append('%s %s' % (name, '%.2f' % statistics.median(q)
                                    if q else 'not measured'))
        return ', '.join(cells)

    def spread_targets(self, f7):
        self.write('\nSpread across shapes (max / min GB/s; the paper: '
                   'PTTWAC within 1.16x, P-IPT almost 5x):\n\n| tile | P-IPT '
                   '| PTTWAC |\n|---|---|---|\n')
        worst, worst_t = 0.0, 0
        for t in self.tiles:
            cells = []
            for a in ('pipt', 'pttwac'):
                g = [f7[name, a, t].gbps for name, _, _ in self.shapes]
                q = max(g) / min(g) if all(x > 0 for x in g) else math.nan
                cells.append('%.2fx' % q if math.isfinite(q) else 'n/a')
                if a == 'pttwac':
                    if not math.isfinite(q):
                        worst = math.inf
                    elif q > worst:
                        worst, worst_t = q, t
            self.write('| %d | %s |\n' % (t, ' | '.join(cells)))
        name = 'PTTWAC DA->ASTA spread across shapes'
        if math.isinf(worst):
            self.target(name, '<= 1.2x', None, 'some shape not measured')
        else:
            self.target(name, '<= 1.2x', worst <= 1.2,
                        'worst %.2fx (T=%d)' % (worst, worst_t))
        q = [f7[name_, 'pttwac', 32].ratio for name_, _, _ in self.shapes
             if f7[name_, 'pttwac', 32].usable]
        self.ratio_target('DA->ASTA, T=32 (PTTWAC, Table-1 shapes)', 0.3, q,
                          len(self.shapes) - len(q))

    def ratio_target(self, name, need, ratios, missing):
        """A copy-ratio target over a sweep of figures."""
        goal = '>= %g of copy' % need
        if not ratios or missing:
            self.target(name, goal, None, '%d measured, %d missing' %
                        (len(ratios), missing))
        else:
            self.target(name, goal, min(ratios) >= need, '%.3f .. %.3f '
                        '(%d figures)' % (min(ratios), max(ratios),
                                          len(ratios)))
        self.sweeps.append((name, need, ratios))

    def full(self):
        self.progress.start(5, 'full AoS<->DA and targets')
        buf = (1 << 20) if self.quick else (256 << 20)
        f, w = self.open_csv('full.csv', MARSHAL_COLUMNS)
        self.write('\n## 5. Full AoS<->DA, and the sweeps behind the '
                   'targets\n\nFull conversions of %d MiB buffers of floats '
                   '(S fields per record), automatic algorithm. GB/s (ratio '
                   'to copy). CSV: `full.csv` (also the target sweeps '
                   'below).\n\n| S | records | AoS->DA | plan | DA->AoS | '
                   'plan |\n|---|---|---|---|---|---|\n' % (buf >> 20))
        sweep_s = [2, 20] if self.quick else [2, 20, 5, 8]
        sweep_t = [4, 64] if self.quick else [4, 64, 16]
        sweep_bytes = (256 << 10) if self.quick else (64 << 20)
        fwd, back, there, again, big = [], [], [], [], []
        with f:
            for s in (4, 8, 16):
                count = buf // (s * 4)
                a = self.figure(w, 'full', 'aos', 'da', s, count, 0, 'auto')
                b = a and self.figure(w, 'full', 'da', 'aos', s, count, 0,
                                      'auto')
                if not b:
                    self.write('\nFailed to run (see stderr of the run).\n')
                    return False
                fwd.append(a)
                back.append(b)
                self.write('| %d | %d | %s | %s | %s | %s |\n' % (
                    s, count, a.cell(), a.row['algo'] if a.usable else '',
                    b.cell(), b.row['algo'] if b.usable else ''))
            for s in sweep_s:
                for t in sweep_t:
                    count = sweep_bytes // (s * 4) + 3
                    x = self.figure(w, 'sweep', 'aos', 'asta', s, count, t,
                                    'auto')
                    y = x and self.figure(w, 'sweep', 'asta', 'aos', s,
                                          count, t, 'auto')
                    if not y:
                        return False
                    there.append(x)
                    again.append(y)
            for name, rows, cols in self.shapes:
                x = self.figure(w, name, 'da', 'asta', cols,
                                self.rows_of(rows), 256, 'auto')
                if not x:
                    return False
                big.append(x)

        def ratios(figs):
            return [x.ratio for x in figs if x.usable]

        def missing(figs):
            return sum(1 for x in figs if not x.usable and x.code != NA)
        both = there + again
        self.write('\nTarget sweeps (ratio to copy, min .. max): AoS->ASTA '
                   'and back over S in {%s} x T in {%s} (%d KiB buffers); '
                   'DA->ASTA(256) over the shapes above: see the targets '
                   'below.\n' % (', '.join(map(str, sorted(sweep_s))),
                                 ', '.join(map(str, sorted(sweep_t))),
                                 sweep_bytes >> 10))
        self.ratio_target('AoS->ASTA and back, S 2..20, T 4..64', 0.9,
                          ratios(both), missing(both))
        self.ratio_target('DA->ASTA, T = 256 (Table-1 shapes)', 0.6,
                          ratios(big), missing(big))
        self.ratio_target('full AoS->DA, S 4, 8, 16', 0.35, ratios(fwd),
                          missing(fwd))
        self.ratio_target('full DA->AoS, S 4, 8, 16', 0.35, ratios(back),
                          missing(back))
        return True

    def marshal(self):
        ok = all(run() for part, run in ((2, self.inplace),
                                         (3, self.grids), (5, self.full))
                 if part in self.parts or part == 3 and 4 in self.parts)
        extra, what = self.worst_extra
        self.target('extra device memory of in-place conversions',
                    '<= 0.1% of the buffer', extra <= 0.001 if ok else None,
                    'worst %.4f%% (%s)' % (100 * extra, what))
        return ok

    def targets_plot(self):
        """targets.png: every figure of every copy-ratio target."""
        points, goals = [], []
        for i, (name, need, ratios) in enumerate(self.sweeps):
            goals.append('%d %g "%s"' % (i, need, name.replace('"', "'")))
            points += ['%d %.5g' % (i, q) for q in ratios]
        if not points:
            return
        with open(os.path.join(self.out, 'targets_goals.dat'), 'w') as f:
            f.write('# index goal name\n' + '\n'.join(goals) + '\n')
        with open(os.path.join(self.out, 'targets_ratios.dat'), 'w') as f:
            f.write('# index ratio-to-copy of one figure\n' +
                    '\n'.join(points) + '\n')
        ratios = [q for _, _, r in self.sweeps for q in r]
        ymin, ymax = log_range(ratios + [s[1] for s in self.sweeps] + [1.0])
        ymax *= 2.5  # room for the key above the copy line
        self.embed('targets.gp', 'targets.png', 'Copy ratio of every figure '
                   'behind the targets, against its goal',
                   {'ntargets': len(goals), 'ymin': ymin, 'ymax': ymax,
                    'info': self.info(self.reps, 'each point: the median')})

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
                    '' if len(self.parts) == 6 else '; parts %s only' %
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
                              ({6}, self.apps)):
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


class App:
    """One application program at the suite's and accept's sizes."""

    def __init__(self, name, kernel, iter_opt, quick, full, defs_quick,
                 defs_full, user_quick, user_full):
        self.name, self.kernel, self.iter_opt = name, kernel, iter_opt
        self.prog = 'dl-app-' + name
        self.args = {True: quick, False: full}
        self.defines = {True: defs_quick, False: defs_full}
        # The user's `//DL:` lines of scalar arrays (docs/annotations.md),
        # added before the kernel when its file has none; None for struct
        # pointers, which dl-annotate finds by itself.
        self.user = {True: user_quick, False: user_full}


APPS = [
    App('lbm', 'lbm.cl', '--steps', ['--nx', '24', '--ny', '16', '--nz', '20'],
        ['--nx', '120', '--ny', '120', '--nz', '150'],
        '-DNX=24 -DNY=16 -DNZ=20 -DOMEGA=1.5f',
        '-DNX=120 -DNY=120 -DNZ=150 -DOMEGA=1.5f',
        '//DL: AoS: src[7680][20]\n//DL: AoS: dst[7680][20]\n',
        '//DL: AoS: src[2160000][20]\n//DL: AoS: dst[2160000][20]\n'),
    App('spmv', 'spmv.cl', '--iters', ['--rows', '3000', '--k', '40'],
        ['--shape', 'bcsstk31'], '-DROWS=3000 -DK=40', '-DROWS=35588 -DK=197',
        '//DL: AoS: val[3000][40]\n//DL: AoS: col[3000][40]\n',
        '//DL: AoS: val[35588][197]\n//DL: AoS: col[35588][197]\n'),
    App('blackscholes', 'blackscholes.cl', '--iters', ['--options', '16384'],
        ['--options', '4194304'], '-DNOPT=16384', '-DNOPT=4194304', None,
        None),
]


def annotate(tools, app, quick, layout, work_dir):
    """dl-annotate -D... --layout L on the app's kernel (with the user's
    `//DL:` lines first); returns (path, None) or (None, why)."""
    src = os.path.join(tools.kernels, app.kernel)
    try:
        with open(src) as f:
            text = f.read()
    except OSError as e:
        return None, 'kernel source %s: %s' % (src, e.strerror)
    user = app.user[quick]
    if user and '//DL:' not in text and '// DL:' not in text:
        at = text.find('__kernel')
        if at < 0:
            return None, 'no __kernel in %s' % src
        src = os.path.join(work_dir, '%s.user.cl' % app.name)
        with open(src, 'w') as f:
            f.write(text[:at] + user + text[at:])
    out = os.path.join(work_dir, '%s.%s.cl' % (app.name, layout))
    r = run([tools.dl_annotate] + app.defines[quick].split() +
            ['--layout', layout, src, '-o', out])
    if r.rc != 0:
        return None, 'dl-annotate --layout %s exited with %d: %s' % (
            layout, r.rc, r.err[:300])
    return out, None


class AppsPart:
    """Part 6: the apps plain, LBM's hand-written DA, and each annotated
    kernel as written and under `dl-run --stats`; every output compared
    byte for byte with the plain run of the same size."""

    MODES = ['plain', 'hand-da', 'annotated', 'dl-run']
    COLUMNS = ['app', 'mode', 'layout', 'iterations', 'kernel_ms',
               'kernel_ms_min', 'kernel_ms_max', 'total_ms', 'total_ms_min',
               'total_ms_max', 'marshal_enqueue_ms', 'net_end_to_end',
               'net_kernel_marshal', 'verified']

    def __init__(self, suite):
        self.s = suite
        self.t = suite.tools
        self.quick = suite.quick
        self.dir = os.path.join(suite.out, 'apps')
        self.layouts = ['asta'] if self.quick else ['asta', 'da']
        # Full-size LBM runs take ~20 s each here; the quick programs run
        # in milliseconds, where one run says little on a busy host.
        self.reps = 3 if self.quick else 2
        self.iters = {'lbm': [1, 3] if self.quick else [1, 4, 20, 100]}
        self.default_iters = [1, 3] if self.quick else [1, 2, 4, 8, 16, 30]

    def argv(self, app, mode, layout, n, out, kernel):
        argv = [self.t.dl_run, '--stats', '--'] if mode == 'dl-run' else []
        argv += [self.t.app(app.prog)] + app.args[self.quick]
        argv += [app.iter_opt, str(n), '--output', out,
                 '--device', str(self.s.device)]
        if mode == 'hand-da':
            argv += ['--layout', 'da']
        return argv + ['--kernel', kernel or self.t.kernel(
            'lbm_da.cl' if mode == 'hand-da' else app.kernel)]

    def run_mode(self, app, mode, layout, n, reps, ref, kernel=None):
        """Medians over reps runs; None when a run failed."""
        label = mode + ('-' + layout if mode in ('annotated', 'dl-run')
                        else '')
        out = os.path.join(self.dir, '%s-%s.bin' % (app.name, label))
        kms, tms, mms, match, stats = [], [], [], True, ''
        for r in range(reps):
            self.s.progress.say('%s %s %s=%d (%d/%d)' % (
                app.name, label, app.iter_opt[2:], n, r + 1, reps))
            c = run(self.argv(app, mode, layout, n, out, kernel))
            if c.rc != 0:
                print('dl-bench suite: %s %s exited with %d:\n%s' %
                      (app.prog, label, c.rc, c.err), file=sys.stderr)
                return None
            kms.append(field(c.err, 'kernel_ms'))
            tms.append(field(c.err, 'total_ms'))
            if mode == 'plain' and 'digest' not in ref:
                ref['digest'], ref['out'] = c.out, out
            elif c.out != ref.get('digest') or (
                    out != ref['out'] and
                    not filecmp.cmp(out, ref['out'], shallow=False)):
                match = False
            if mode == 'dl-run':
                stats = stats_line(c.err)
                mms.append(field(stats, 'marshal_enqueue_ms'))
            if any(math.isnan(v) for v in kms + tms + mms):
                print('dl-bench suite: %s %s printed no %s' % (
                    app.prog, label,
                    'dlayout-stats line with marshal_enqueue_ms'
                    if mode == 'dl-run' else 'kernel_ms and total_ms'),
                    file=sys.stderr)
                return None
            if out != ref['out']:
                os.remove(out)
        if not match:
            print('dl-bench suite: %s %s %d: output differs from the plain '
                  'run' % (app.name, label, n), file=sys.stderr)
            self.s.unverified += 1
        return {'kernel': spread(kms), 'total': spread(tms),
                'marshal': statistics.median(mms) if mms else math.nan,
                'match': match, 'stats': stats}

    def row(self, w, app, mode, layout, n, rs, nets=None):
        cells = [app.name, mode, layout, n]
        if not rs['match']:
            w.writerow(cells + ['NA'] * 9 + [0])
            return
        cells += ['%.4f' % v for v in rs['kernel']]
        cells += ['%.3f' % v for v in rs['total']]
        if nets:
            cells += ['%.4f' % rs['marshal'], '%.4f' % nets[0],
                      '%.4f' % nets[1]]
        else:
            cells += ['NA'] * 3
        w.writerow(cells + [1])

    def run_app(self, app, w, blocks):
        """Measures one app; returns its summary for the report."""
        res = {'ok': False, 'why': '', 'dlrun': {}, 'be_total': {},
               'be_kernel': {}, 'kernel_dl': {}, 'stats': {},
               'kernel_da': None}
        kernels = {}
        tools = self.t.dl_run and self.t.dl_annotate
        if not tools:
            res['why'] = ('dl-annotate and dl-run' if not self.t.dl_run and
                          not self.t.dl_annotate else 'dl-annotate'
                          if not self.t.dl_annotate else 'dl-run') + \
                ' not found'
        for layout in self.layouts if tools else []:
            kernels[layout], why = annotate(self.t, app, self.quick, layout,
                                            self.dir)
            res['why'] = why or res['why']
        # Untimed: the first run of a program pays the OpenCL compiler
        # (POCL compiles lazily, at the first launch) unless its cache is
        # warm; the annotated runs below do the same for dl-run.
        n0 = self.iters.get(app.name, self.default_iters)[0]
        warm = {}
        for mode in ['plain', 'hand-da'] if app.name == 'lbm' else ['plain']:
            if not self.run_mode(app, mode, 'aos', n0, 1, warm):
                return res
        for n in self.iters.get(app.name, self.default_iters):
            ref = {}
            plain = self.run_mode(app, 'plain', 'aos', n, self.reps, ref)
            if not plain:
                return res
            self.row(w, app, 'plain', 'aos', n, plain)
            res['kernel_plain'] = plain['kernel'][0] / n
            if app.name == 'lbm':
                da = self.run_mode(app, 'hand-da', 'da', n, self.reps, ref)
                if not da:
                    return res
                self.row(w, app, 'hand-da', 'da', n, da)
                if da['match']:
                    res['kernel_da'] = da['kernel'][0] / n
            for layout, kernel in kernels.items():
                if not kernel:
                    continue
                ann = self.run_mode(app, 'annotated', layout, n, 1, ref,
                                    kernel)
                dl = ann and self.run_mode(app, 'dl-run', layout, n,
                                           self.reps, ref, kernel)
                if not dl:
                    return res
                pk, pt, dk, dt = plain['kernel'], plain['total'], \
                    dl['kernel'], dl['total']
                net_total = pt[0] / dt[0]
                net_kernel = pk[0] / (dk[0] + dl['marshal'])
                self.row(w, app, 'annotated', layout, n, ann)
                self.row(w, app, 'dl-run', layout, n, dl,
                         (net_total, net_kernel))
                if not (dl['match'] and ann['match']):
                    continue
                # end to end: median, and the worst and best pairing
                blocks.setdefault((app.name, layout), []).append(
                    '%d %.4f %.4f %.4f %.4f' % (n, net_total, pt[1] / dt[2],
                                                pt[2] / dt[1], net_kernel))
                for key, net in (('be_total', net_total),
                                 ('be_kernel', net_kernel)):
                    # the smallest N from which the speedup stays >= 1
                    res[key][layout] = (res[key].get(layout) or n) \
                        if net >= 1.0 else None
                res['dlrun'][layout] = True
                res['kernel_dl'][layout] = dk[0] / n
                res['stats'][layout] = dl['stats']
            ref_out = ref.get('out')
            if ref_out and os.path.exists(ref_out):
                os.remove(ref_out)  # LBM: 173 MB
        res['ok'] = True
        # With both tools present, a failed annotation is a failure of the
        # toolchain under test, not a reason to skip quietly.
        if tools and not all(kernels.values()):
            print('dl-bench suite: %s: %s' % (app.name, res['why']),
                  file=sys.stderr)
            res['ok'] = None
        return res

    def run(self):
        os.makedirs(self.dir, exist_ok=True)
        f, w = self.s.open_csv('apps.csv', self.COLUMNS)
        results, blocks = {}, {}
        with f:
            for app in APPS:
                results[app.name] = self.run_app(app, w, blocks)
        with open(os.path.join(self.s.out, 'apps_net.dat'), 'w') as f:
            f.write('# blocks: iterations, end-to-end net speedup (median, '
                    'min, max), kernel + marshal net speedup\n')
            for (name, layout), lines in blocks.items():
                f.write('"%s %s"\n%s\n\n\n' % (name, layout,
                                              '\n'.join(lines)))
        self.nblocks = len(blocks)
        self.report(results, bool(blocks))
        return all(r['ok'] for r in results.values())

    def report(self, results, any_dl):
        s = self.s
        s.write('\n## 6. Applications (Figures 5 and 6)\n\n'
                'The three ordinary OpenCL programs of benchmarks/apps, run '
                'as child processes (%s). Every run\'s output bytes and '
                'digest line are compared with the plain run of the same '
                'size and iteration count. `ms/iter` is the programs\' own '
                'sum of kernel events per iteration at the largest iteration '
                'count. For the dlayout runs the kernel was annotated by '
                '`dl-annotate --layout L` (LBM and SpMV, which use scalar '
                'arrays, get the user\'s `//DL: AoS: a[M][S]` line first) '
                'and run under `dl-run --stats`. Two net speedups are '
                'reported (CSV: `apps.csv`): **end to end** = plain total_ms '
                '/ dlayout total_ms (the programs\' wall time from the first '
                'upload to the last read-back, so it includes dlayout\'s '
                'conversions, restores and its one-time marshaling-kernel '
                'builds); **kernel + marshal** = plain kernel time / '
                '(dlayout kernel time + the runtime\'s marshal_enqueue_ms, '
                'its host time enqueueing conversions, plan builds '
                'included). Break-even: the '
                'smallest measured iteration count (%s) from which the net '
                'speedup stays at 1 or above for every larger count '
                'measured.\n\n| app | plain ms/iter | hand-written DA '
                'ms/iter |\n|---|---|---|\n' % (
                    '`--quick`: small sizes, 1 and 3 iterations' if self.quick
                    else 'full sizes, LBM 120x120x150, SpMV bcsstk31, '
                    'Black-Scholes 4M options',
                    '1, 3' if self.quick else
                    '1, 2, 4, 8, 16, 30; LBM 1, 4, 20, 100'))
        for name, r in results.items():
            if 'kernel_plain' not in r:
                s.write('| %s | failed | |\n' % name)
                continue
            da = r['kernel_da']
            s.write('| %s | %.3f | %s |\n' % (
                name, r['kernel_plain'], '%.3f (%.2fx)' % (
                    da, r['kernel_plain'] / da) if da else '-'))
        goal_name = 'break-even iterations, AoS->ASTA apps (end to end)'
        if not any_dl:
            why = next(iter(results.values()))['why']
            s.write('\nNot run under dlayout: %s.\n' % why)
            s.target(goal_name, '<= 4 (paper)', None, why)
            return
        s.write('\n| app | target | dlayout ms/iter (kernel-only speedup) | '
                'break-even end to end | break-even kernel + marshal | '
                'dlayout-stats (largest N) |\n|---|---|---|---|---|---|\n')
        worst, all_even = 0, True
        for name, r in results.items():
            for layout in self.layouts:
                if not r['dlrun'].get(layout):
                    s.write('| %s | %s | not run: %s | | | |\n' % (
                        name, layout, r['why'] or 'a run failed'))
                    all_even = all_even and layout != 'asta'
                    continue
                kd = r['kernel_dl'][layout]
                bt, bk = r['be_total'].get(layout), r['be_kernel'].get(layout)
                s.write('| %s | %s | %.3f (%.2fx) | %s | %s | `%s` |\n' % (
                    name, layout, kd, r['kernel_plain'] / kd,
                    bt or 'not reached', bk or 'not reached',
                    r['stats'][layout]))
                if layout == 'asta':
                    all_even = all_even and bool(bt)
                    worst = max(worst, bt or 0)
                    self.s.headlines.append(
                        '%s under dl-run (annotated for ASTA): kernel-only '
                        'speedup %.2fx (above 1: faster than plain), '
                        'end-to-end break-even %s.' % (
                            name, r['kernel_plain'] / kd,
                            'from %d iteration%s on' % (bt, 's' * (bt > 1))
                            if bt else 'not reached'))
        s.embed('apps.gp', 'apps.png', 'Net speedup against iterations '
                '(solid: end to end; dashed: kernel + marshal)',
                {'nblocks': self.nblocks, 'info': s.info(self.reps)})
        if all_even:
            s.target(goal_name, '<= 4 (paper)', worst <= 4, 'worst %d' % worst)
        else:
            s.target(goal_name, '<= 4 (paper)', False, 'some app did not '
                     'break even within the measured range')


# =============================================================== accept

ACCEPT_ARGS = {  # app: (full, quick), the iteration option last
    'lbm': (['--nx', '120', '--ny', '120', '--nz', '150', '--steps', '100'],
            ['--nx', '24', '--ny', '16', '--nz', '20', '--steps', '20']),
    'spmv': (['--shape', 'bcsstk31', '--iters', '30'],
             ['--rows', '3000', '--k', '40', '--iters', '4']),
    'blackscholes': (['--options', '4194304', '--iters', '30'],
                     ['--options', '16384', '--iters', '4']),
}
ACCEPT_GOALS = {'lbm': '>= 2x', 'spmv': '<= 1.02', 'blackscholes': '<= 1.02'}
# Annotated programs of tests/integration whose stdout does not depend on
# timing; --quick runs the first two.
SCENARIOS = ['iterate', 'access', 'two_layouts', 'shapes']
VARIANTS = ['plain', 'dl-run', 'dl-run-cold']
# Programs whose plain warm-up ran shorter than SHORT_MS get SHORT_FACTOR
# times the repetitions: their +-10% spread between runs would otherwise
# hide the 2% asked about.
SHORT_MS, SHORT_FACTOR = 1500.0, 4
CONTROLS = ['DL_LOG', 'DL_LOG_FILE', 'DL_STATS', 'DL_DISABLE', 'DL_DUMP_DIR',
            'DL_BINARY_DIR', 'DL_INJECT_DIR', 'DL_TILE', 'DL_ALGO',
            'DL_POLICY']


class Case:
    """One program measured plainly and under dl-run."""

    def __init__(self, name, group, goal, iterations, plain, dl,
                 output=True, cold=False):
        self.name, self.group, self.goal = name, group, goal
        self.iterations, self.plain, self.dl = iterations, plain, dl
        self.output, self.cold = output, cold
        self.match, self.reps = True, 0
        self.wall, self.total, self.marshal, self.stats = {}, {}, {}, {}

    def ratio(self, v):
        if v not in self.wall or 'plain' not in self.wall:
            return math.nan
        return self.wall[v][0] / self.wall['plain'][0]

    def met(self, v):
        """True, False, or None (no goal or not measured)."""
        r = self.ratio(v)
        if math.isnan(r) or not self.goal:
            return None
        return r <= 0.5 if self.goal == '>= 2x' else r <= 1.02


class Accept:
    def __init__(self, tools, args):
        self.tools, self.args, self.quick = tools, args, args.quick
        self.out = args.out
        self.reps = args.reps or (1 if args.quick else 5)
        self.failures = 0
        self.xdg = os.path.join(self.out, 'xdg')
        self.cold_dir = os.path.join(self.xdg, 'dlayout', 'binaries')
        self.warm_dir = os.path.join(self.out, 'bin-warm')
        self.device_name = device_name(tools, 0)

    def prepare_env(self):
        """Every child sees each DL_* control at its default and OUT/xdg
        as its cache, with the user's device calibrations copied in so
        that no timed run calibrates."""
        os.makedirs(os.path.join(self.xdg, 'dlayout'), exist_ok=True)
        home = os.environ.get('XDG_CACHE_HOME') or os.path.join(
            os.environ.get('HOME', '/nonexistent'), '.cache')
        user = os.path.join(home, 'dlayout')
        if os.path.isdir(user):
            for name in os.listdir(user):
                if name.startswith('calibration-'):
                    shutil.copy(os.path.join(user, name),
                                os.path.join(self.xdg, 'dlayout', name))
        self.env = {k: v for k, v in os.environ.items() if k not in CONTROLS}
        self.env['XDG_CACHE_HOME'] = self.xdg

    def cases(self):
        kdir = os.path.join(self.out, 'kernels')
        os.makedirs(kdir, exist_ok=True)
        cases = []
        for app in APPS:
            args = ACCEPT_ARGS[app.name][1 if self.quick else 0]
            kernel, why = annotate(self.tools, app, self.quick, 'da', kdir)
            if not kernel:
                print('dl-bench accept: %s: %s' % (app.name, why),
                      file=sys.stderr)
                return None
            prog = self.tools.app(app.prog)
            plain = ['--kernel', self.tools.kernel(app.kernel)]
            cases.append(Case(app.name, 'apps', ACCEPT_GOALS[app.name],
                              int(args[-1]), [prog] + args + plain,
                              [prog] + args + ['--kernel', kernel],
                              cold=app.name == 'lbm'))
            if app.name != 'lbm':
                continue
            for steps in ([1] if self.quick else [1, 2, 4, 8, 16]):
                a = args[:-1] + [str(steps)]
                cases.append(Case('lbm-steps-%d' % steps, 'lbm-break-even',
                                  '', steps, [prog] + a + plain,
                                  [prog] + a + ['--kernel', kernel]))
        launches = '20000' if self.quick else '100000'
        empty = self.tools.app('dl-app-empty-launch')
        for annotated in (False, True):
            a = [empty, '--launches', launches] + (
                ['--annotated'] if annotated else [])
            cases.append(Case('empty-launch' + ('-annotated' if annotated
                                                else ''), 'empty', '<= 1.02',
                              int(launches), a, a))
        for scen in SCENARIOS[:2 if self.quick else 4] \
                if self.tools.it_app else []:
            a = [self.tools.it_app, scen]
            cases.append(Case('it-' + scen, 'tests', '<= 1.02', 1, a, a,
                              output=False))
        return cases

    def run_once(self, case, variant, out, ref):
        """One run; returns (ok, wall_ms, total_ms, marshal_enqueue_ms,
        stats)."""
        argv = list(case.plain if variant == 'plain' else case.dl)
        if variant != 'plain':
            argv = [self.tools.dl_run, '--stats', '--'] + argv
        if case.output:
            argv += ['--output', out]
        env = dict(self.env)
        if variant == 'dl-run':
            env['DL_BINARY_DIR'] = self.warm_dir
        if variant == 'dl-run-cold' and os.path.isdir(self.cold_dir):
            for name in os.listdir(self.cold_dir):
                if not name.startswith('.'):
                    os.remove(os.path.join(self.cold_dir, name))
        c = run(argv, env=env)
        stats = stats_line(c.err)
        ok = c.rc == 0 and (variant == 'plain' or stats)
        if not ok:
            print('dl-bench accept: %s %s exited with %d%s:\n%s' % (
                case.name, variant, c.rc, ' without a dlayout-stats line'
                if c.rc == 0 else '', c.err[:2000]), file=sys.stderr)
        elif 'stdout' not in ref:
            ref['stdout'] = c.out
        elif ref['stdout'] != c.out:
            case.match = False
        if ok and case.output and 'out' in ref and out != ref['out'] and \
                not filecmp.cmp(out, ref['out'], shallow=False):
            case.match = False
        return ok, c.seconds * 1e3, field(c.err, 'total_ms'), \
            field(stats, 'marshal_enqueue_ms'), stats

    def measure(self, case):
        """Untimed warm-up of plain and dl-run (it fills OUT/bin-warm),
        then the variants interleaved, reps times."""
        odir = os.path.join(self.out, 'outputs')
        os.makedirs(odir, exist_ok=True)
        outs = {v: os.path.join(odir, '%s.%s.bin' % (case.name, v))
                for v in VARIANTS + ['reference']}
        ref = {'out': outs['reference']} if case.output else {}
        variants = VARIANTS if case.cold else VARIANTS[:2]
        print('[accept] %s: warm-up' % case.name, file=sys.stderr)
        ok, plain_ms, *_ = self.run_once(case, 'plain', outs['reference'],
                                         ref)
        ok = ok and self.run_once(case, 'dl-run', outs['dl-run'], ref)[0]
        reps = self.reps
        if not self.quick and plain_ms < SHORT_MS:
            reps = min(64, reps * SHORT_FACTOR)
        case.reps = reps
        samples = {v: [] for v in variants}
        for i in range(reps):
            for v in variants:
                if not ok:
                    break
                print('[accept] %s: %s %d/%d' % (case.name, v, i + 1, reps),
                      file=sys.stderr)
                ok, wall, total, marshal, stats = self.run_once(
                    case, v, outs[v], ref)
                samples[v].append((wall, total, marshal))
                case.stats[v] = stats
        for path in outs.values():
            if os.path.exists(path):
                os.remove(path)  # LBM: 173 MB each
        if not ok:
            self.failures += 1
            return
        for v in variants:
            case.wall[v] = spread([s[0] for s in samples[v]])
            case.total[v] = statistics.median(s[1] for s in samples[v])
            case.marshal[v] = statistics.median(s[2] for s in samples[v])
        if not case.match:
            print('dl-bench accept: %s: an output differs from the plain run'
                  % case.name, file=sys.stderr)
            self.failures += 1

    def csv(self, cases):
        with open(os.path.join(self.out, 'accept.csv'), 'w', newline='') as f:
            w = csv.writer(f, lineterminator='\n')
            w.writerow(['group', 'case', 'variant', 'iterations', 'wall_ms',
                        'wall_ms_min', 'wall_ms_max', 'total_ms',
                        'marshal_enqueue_ms', 'ratio_wall', 'ratio_total',
                        'goal', 'met', 'verified'])
            for c in cases:
                for v in VARIANTS:
                    if v not in c.wall:
                        continue
                    tr = c.total[v] / c.total['plain']
                    met = None if v == 'plain' else c.met(v)
                    w.writerow([c.group, c.name, v, c.iterations] +
                               ['%.1f' % x for x in c.wall[v]] +
                               ['NA' if math.isnan(x) else '%.1f' % x
                                for x in (c.total[v], c.marshal[v])] +
                               ['%.4f' % c.ratio(v),
                                'NA' if math.isnan(tr) else '%.4f' % tr,
                                c.goal or 'NA',
                                'NA' if met is None else int(met),
                                int(c.match)])

    def markdown(self, cases):
        def mark(m):
            return '-' if m is None else 'yes' if m else '**no**'
        md = ['# dlayout acceptance: programs plain and under dl-run\n\n'
              '* device: %s (the programs\' default, device 0)\n'
              '* commit: %s\n* date: %s\n* mode: %s\n\n'
              '`dl-bench accept%s`, %d interleaved repetitions (plain, '
              'dl-run, plain, dl-run, ...; %d times as many for programs '
              'under %.1f s), medians; load average at the end %.2f on %d '
              'CPUs.  Wall = the whole process, from spawn to exit, every '
              'conversion and program build included; ratio = dl-run / '
              'plain (below 1: dl-run is faster).  dl-run runs `dl-run '
              '--stats` with every DL_* control at its default '
              '(DL_POLICY=auto) and a warm binary cache, except the rows '
              'marked cold (default cache emptied before each run).  Every '
              'output, stdout and the result bytes, is compared with the '
              'plain run\'s.\n\n| case | iterations | plain ms (min-max) | '
              'dl-run ms (min-max) | ratio (speedup) | goal | met | same '
              'output |\n|---|---|---|---|---|---|---|---|\n' % (
                  self.device_name, self.tools.commit,
                  time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime()),
                  '**--quick: small sizes, timings not meaningful**'
                  if self.quick else 'full sizes (LBM 120x120x150, SpMV '
                  'bcsstk31, Black-Scholes 4M options)',
                  ' --quick' if self.quick else '', self.reps, SHORT_FACTOR,
                  SHORT_MS / 1000, os.getloadavg()[0], os.cpu_count() or 0)]
        for c in cases:
            if c.group == 'lbm-break-even':
                continue
            for v in VARIANTS[1:]:
                if v not in c.wall:
                    continue
                p, d = c.wall['plain'], c.wall[v]
                md.append('| %s%s | %d | %.0f (%.0f-%.0f) | %.0f (%.0f-%.0f) '
                          '| %.3f (%.2fx) | %s | %s | %s |\n' % (
                              c.name, ' (cold binary cache)'
                              if v == 'dl-run-cold' else '', c.iterations,
                              *p, *d, d[0] / p[0], p[0] / d[0],
                              c.goal or '-', mark(c.met(v)),
                              'yes' if c.match else '**no**'))
        md += self.break_even(cases)
        md.append('\n### dlayout-stats of the last dl-run of each case\n\n')
        for c in cases:
            for v in VARIANTS[1:]:
                if c.stats.get(v) and v in c.wall:
                    md.append('- %s %s: `%s`\n' % (c.name, v, c.stats[v]))
        with open(os.path.join(self.out, 'accept.md'), 'w') as f:
            f.write(''.join(md))

    @staticmethod
    def break_even(cases):
        """The smallest measured step count from which dl-run's wall time
        stays at or below plain's for every larger count.  Step counts
        that dl-run ran without converting compare the plain program with
        itself, and do not count."""
        rows = sorted((c for c in cases if (c.group == 'lbm-break-even' or
                                            c.name == 'lbm') and
                       'dl-run' in c.wall), key=lambda c: c.iterations)
        if not rows:
            return []
        md = ['\n### LBM break-even (DA chosen by the tuner)\n\n| steps | '
              'plain ms | dl-run ms | speedup (wall) | program total_ms '
              'plain / dl-run | marshal_enqueue_ms |\n'
              '|---|---|---|---|---|---|\n']
        be = None
        for c in rows:
            s = c.wall['plain'][0] / c.wall['dl-run'][0]
            md.append('| %d | %.0f | %.0f | %.2fx | %.0f / %.0f | %.0f |\n' % (
                c.iterations, c.wall['plain'][0], c.wall['dl-run'][0], s,
                c.total['plain'], c.total['dl-run'], c.marshal['dl-run']))
            if ' marshals=0 ' in c.stats.get('dl-run', ''):
                continue
            be = None if s < 1.0 else be or c.iterations
        md.append('\nBreak-even (end to end, wall): **%s** (paper: within 4; '
                  'goal: 2).\n' % ('%d steps' % be if be else
                                   'not reached within the measured steps'))
        return md

    def main(self):
        missing = ('the application programs' if not self.tools.apps else
                   'their kernel sources' if not self.tools.kernels else
                   'dl-run' if not self.tools.dl_run else
                   'dl-annotate' if not self.tools.dl_annotate else None)
        if missing:
            print('dl-bench accept: %s not found (see --help)' % missing,
                  file=sys.stderr)
            return FAIL
        os.makedirs(self.out, exist_ok=True)
        self.prepare_env()
        cases = self.cases()
        if not cases:
            return FAIL
        for case in cases:
            self.measure(case)
        self.csv(cases)
        self.markdown(cases)
        print('dl-bench accept: %s/accept.md, %s/accept.csv%s' % (
            self.out, self.out, ' (some runs failed or differed)'
            if self.failures else ''), file=sys.stderr)
        return FAIL if self.failures else OK


# ================================================================= main

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
    if not numbers or not all(1 <= n <= 6 for n in numbers):
        raise argparse.ArgumentTypeError('a list of part numbers 1-6')
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
                       default=list(range(1, 7)),
                       help='run only these parts, e.g. 1,6 (default: all '
                            'six; 3 and 4 run together)')
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
