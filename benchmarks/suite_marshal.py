"""suite_marshal.py: parts 2-5 of `dl-bench suite`, the marshaling
measurements (`dl-bench marshal`) and the copy-ratio targets, mixed into
suite.Suite."""
import csv
import math
import os
import statistics
import sys

from bench_common import NA, OK, UNVERIFIED, num, run
from bench_plot import log_range

ALL_SHAPES = [('bcsstk18', 11948, 40), ('e40r000', 17281, 62),
              ('bcsstk31', 35588, 197), ('bcsstk32', 44609, 215),
              ('s3dkq4m2', 90449, 59), ('conf6', 49152, 39)]
QUICK_SHAPES = [ALL_SHAPES[0], ALL_SHAPES[2], ALL_SHAPES[5]]
FIG_TILES = [16, 32, 64]
MARSHAL_COLUMNS = ['shape', 'from', 'to', 'algo', 'count', 'struct', 'elem',
                   'tile', 'bytes', 'seconds', 'seconds_min', 'seconds_max',
                   'gbps', 'gbps_min', 'gbps_max', 'copy_gbps', 'ratio',
                   'verified', 'extra_bytes']


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


class MarshalParts:
    """Suite's parts 2-5; uses the Suite's state and report."""

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
