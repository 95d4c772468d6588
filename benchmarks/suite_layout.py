"""suite_layout.py: part 1 of `dl-bench suite`, the layout
microbenchmark of Figure 1 (`dl-bench layout`), mixed into suite.Suite."""
import csv
import os
import sys

from bench_common import OK, UNVERIFIED, num, run


class LayoutPart:
    """Suite's part 1; uses the Suite's state and report."""

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
