"""suite_apps.py: part 6 of `dl-bench suite`, the application programs
(dl_bench_suite.py, suite.py)."""
import filecmp
import math
import os
import statistics
import sys

from bench_apps import APPS, annotate
from bench_common import field, run, spread, stats_line


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
