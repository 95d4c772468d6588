"""bench_accept.py: `dl-bench accept` (dl_bench_suite.py): whole
programs, plainly and under dl-run, in interleaved repetitions."""
import csv
import filecmp
import math
import os
import shutil
import statistics
import sys
import time

from bench_apps import APPS, annotate
from bench_common import FAIL, OK, device_name, field, run, spread, \
    stats_line


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
