"""suite_irregular.py - part 7 of `dl-bench suite` (dl_bench_suite.py):
irregular references.  Runs `dl-bench irregular`, keeps its CSV as
irregular.csv, and writes a table, the shuffled-stencil target and a plot
(plot/irregular.gp) of the transactions per warp-access before and after
reordering with index redirection, and of the net speedup."""
import csv
import io
import os
import sys

# The target: reordering the shuffled stencil's ELL SpMV at a GPU's W, S.
TARGET_WORKLOAD, TARGET_FEWER = 'spmv-ell/stencil-shuffled', 75.0


METHODS = ['none', 'duplication', 'padding', 'sharing', 'job swap', 'remap']


def duplication_rows(rows):
    """The duplication rows, with the transactions before (`tx_before`:
    the `none` row's) and after (`tx_after`), in CSV order (gpu, device)."""
    out = []
    for x in rows:
        if x['method'] == 'duplication':
            out.append(dict(x, tx_before=x['tx_none'], tx_after=x['tx'],
                            redirect_ms=x['kernel_ms']))
    return out


def per_access(row, key):
    accesses = float(row['accesses'])
    return float(row[key]) / accesses if accesses else float('nan')


class IrregularPart:
    def __init__(self, suite, run):
        self.s, self.run_child = suite, run  # dl_bench_suite.run

    def run(self):
        s = self.s
        s.progress.start(7, 'irregular references')
        argv = [s.tools.dl_bench, 'irregular', '--reps', str(s.reps),
                '--device', str(s.device)] + (['--quick'] if s.quick else [])
        r = self.run_child(argv)
        rows = list(csv.DictReader(io.StringIO(r.out)))
        with open(os.path.join(s.out, 'irregular.csv'), 'w') as f:
            f.write(r.out)
        s.unverified += sum(1 for x in rows if x['verified'] != '1')
        self.section(rows, r.rc)
        if r.rc not in (0, 4):
            print('dl-bench suite: dl-bench irregular failed (%d): %s' %
                  (r.rc, r.err.strip()), file=sys.stderr)
        return r.rc == 0 and bool(rows)

    def section(self, rows, rc):
        s = self.s
        s.write('\n## 7. Irregular references\n\nReads `A[P[e]]` of '
                'generated workloads, plain and reordered on the device '
                '(`A\'[e] = A[P[e]]`, the duplication layout) with a '
                'redirected kernel reading `A\'[e]`. Transactions: per '
                'warp-access, at a GPU\'s W=32 S=128 and at this device\'s '
                'W, S (`dl_coalesce_geometry_for_device`). Extra memory: '
                'A\' over A. Times: medians, ms. Net speedup: N plain '
                'kernels over one reorganisation + N redirected kernels. '
                'The redirected output was compared byte for byte with the '
                'plain one. CSV: `irregular.csv`.\n\n')
        if not rows:
            s.write('Failed to run (exit %d).\n' % rc)
            s.target('shuffled-stencil SpMV, fewer transactions (W=32 '
                     'S=128)', '>= 75%', None, 'not measured')
            return
        dup = duplication_rows(rows)
        self.table(dup)
        self.target(dup)
        self.plot(dup)
        self.s.write('\nEvery method on each workload (W=32 S=128; '
                     'index: the index and job maps a method adds; '
                     'selected: the selector\'s choice with the measured '
                     'figures and the reuse of N launches):\n\n')
        self.methods_table(rows)
        self.methods_plot(rows)
        self.overlap_table(rows)

    def table(self, rows):
        n = rows[0]['iterations']
        self.s.write('| workload | reference | GPU tx/access | device W,S: '
                     'tx/access | A\'/A | plain | reorg. | redirected | '
                     'speedup x1 | x%s | verified |\n'
                     '|---|---|---|---|---|---|---|---|---|---|---|\n' % n)
        for gpu, dev in zip(rows[0::2], rows[1::2]):
            self.s.write(
                '| %s | %s | %.1f -> %.1f (%s%%) | %s,%s: %.1f -> %.1f '
                '(%s%%) | %s | %s | %s | %s | %s | %s | %s |\n' % (
                    gpu['workload'], gpu['reference'],
                    per_access(gpu, 'tx_before'), per_access(gpu, 'tx_after'),
                    gpu['fewer_pct'], dev['W'], dev['S'],
                    per_access(dev, 'tx_before'), per_access(dev, 'tx_after'),
                    dev['fewer_pct'], gpu['extra_frac'], gpu['plain_ms'],
                    gpu['reorg_ms'], gpu['redirect_ms'], gpu['speedup_1'],
                    gpu['speedup_n'],
                    'yes' if gpu['verified'] == '1' else 'NO'))

    def methods_table(self, rows):
        n = rows[0]['iterations']
        self.s.write('| workload | reference | method | tx/access | fewer | '
                     'extra B | index B | reorg. ms | kernel ms | x1 | x%s | '
                     'verified | selected |\n'
                     '|---|---|---|---|---|---|---|---|---|---|---|---|---|\n'
                     % n)
        for x in rows:
            if x['class'] != 'gpu':
                continue
            self.s.write('| %s | %s | %s | %.1f | %s%% | %s | %s | %s | %s | '
                         '%s | %s | %s | %s |\n' % (
                             x['workload'], x['reference'], x['method'],
                             per_access(x, 'tx'), x['fewer_pct'],
                             x['extra_bytes'], x['index_bytes'],
                             x['reorg_ms'], x['kernel_ms'], x['speedup_1'],
                             x['speedup_n'],
                             'yes' if x['verified'] == '1' else 'NO',
                             'yes' if x['selected'] == '1' else ''))

    def overlap_table(self, rows):
        over = [x for x in rows if x['class'] == 'gpu' and x['whole_ms']]
        if not over:
            return
        self.s.write('\nOverlap (docs/irregular.md, "Chunked launches"): '
                     'duplication\'s gathers and kernel as one chunk and as '
                     '4 chunks whose gathers run on a second queue while '
                     'the previous chunk computes, host clock, ms; hidden: '
                     'the difference (negative: overlap costs more than it '
                     'hides):\n\n'
                     '| workload | reference | reorg. | redirected | whole '
                     '| overlapped | hidden |\n'
                     '|---|---|---|---|---|---|---|\n')
        for x in over:
            self.s.write('| %s | %s | %s | %s | %s | %s | %s |\n' % (
                x['workload'], x['reference'], x['reorg_ms'],
                x['kernel_ms'], x['whole_ms'], x['overlap_net_ms'],
                x['reorg_hidden_ms']))

    def methods_plot(self, rows):
        gpu = [x for x in rows if x['class'] == 'gpu']
        with open(os.path.join(self.s.out, 'irregular_methods.dat'),
                  'w') as f:
            f.write('# index label tx_per_access speedup_n method '
                    '(GPU class W=32 S=128)\n')
            for i, x in enumerate(gpu):
                f.write('%d "%s %s" %.4g %s %d\n' % (
                    i, x['workload'], x['method'], per_access(x, 'tx'),
                    x['speedup_n'], METHODS.index(x['method'])))
        self.s.embed('irregular_methods.gp', 'irregular_methods.png',
                     'Every method: transactions per warp-access (W=32 '
                     'S=128) and the net speedup over N launches', {
                         'nrows': len(gpu), 'iters': int(gpu[0]['iterations']),
                         'info': self.s.info(self.s.reps, 'medians')})

    def target(self, rows):
        hit = [x for x in rows if x['workload'] == TARGET_WORKLOAD and
               x['class'] == 'gpu']
        name = 'shuffled-stencil SpMV (ELL), fewer transactions at W=32 S=128'
        if not hit:
            self.s.target(name, '>= 75%', None, 'not measured')
            return
        fewer = float(hit[0]['fewer_pct'])
        self.s.target(name, '>= 75%', fewer >= TARGET_FEWER, '%.1f%%' % fewer)
        self.s.headlines.append(
            'Irregular references: reordering with index redirection cuts '
            'the shuffled-stencil SpMV\'s transactions by %.1f%% at W=32 '
            'S=128 (irregular.csv).' % fewer)

    def plot(self, rows):
        gpu = rows[0::2]
        with open(os.path.join(self.s.out, 'irregular.dat'), 'w') as f:
            f.write('# label before after speedup_1 speedup_n '
                    '(GPU class W=32 S=128)\n')
            for i, x in enumerate(gpu):
                f.write('%d "%s %s" %.4g %.4g %s %s\n' % (
                    i, x['workload'], x['reference'].split()[-1],
                    per_access(x, 'tx_before'), per_access(x, 'tx_after'),
                    x['speedup_1'], x['speedup_n']))
        self.s.embed('irregular.gp', 'irregular.png', 'Transactions per '
                     'warp-access before and after reordering (W=32 S=128), '
                     'and the net speedup', {
                         'nrows': len(gpu), 'iters': int(gpu[0]['iterations']),
                         'info': self.s.info(self.s.reps, 'medians')})
