#!/usr/bin/env python3
"""install_check.py MESON BUILD_DIR

Test of the installed benchmark tools: `meson install --destdir` into a
temporary folder (a relocated prefix: nothing of it is where the build
was configured to install), then the installed `dl-bench suite --quick
--parts 6` run from an unrelated folder.  It must find everything relative
to the installed dl-bench: its script and gnuplot scripts in
share/dlayout/bench, dl-run next to it, the apps in libexec/dlayout, their
kernel sources in share/dlayout/apps.  Checks the exit status, that every
app ran plainly with verified output, and (with gnuplot) that the plot was
drawn.  No timing is checked."""
import csv
import os
import shutil
import subprocess
import sys
import tempfile


def find(root, rel):
    for folder, _, files in os.walk(root):
        path = os.path.join(folder, os.path.basename(rel))
        if folder.endswith(os.path.dirname(rel)) and \
                os.path.basename(rel) in files:
            return path
    return None


def main():
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    meson, build = sys.argv[1], os.path.abspath(sys.argv[2])
    errors = []
    with tempfile.TemporaryDirectory(prefix='dl-install.') as tmp:
        dest = os.path.join(tmp, 'dest')
        cmd = [meson, 'install', '-C', build, '--destdir', dest,
               '--no-rebuild', '--quiet']
        print(' '.join(cmd), flush=True)
        if subprocess.run(cmd).returncode != 0:
            print('FAIL: meson install failed', file=sys.stderr)
            return 1
        dl_bench = find(dest, 'bin/dl-bench')
        if not dl_bench:
            print('FAIL: no bin/dl-bench installed', file=sys.stderr)
            return 1
        out = os.path.join(tmp, 'out')
        cmd = [dl_bench, 'suite', '--quick', '--parts', '6', '--out', out]
        print(' '.join(cmd), flush=True)
        rc = subprocess.run(cmd, cwd=tmp).returncode
        if rc != 0:
            errors.append('installed dl-bench suite exited with %d' % rc)
        path = os.path.join(out, 'apps.csv')
        rows = []
        if os.path.isfile(path):
            with open(path, newline='') as f:
                rows = list(csv.DictReader(f))
        for app in ['lbm', 'spmv', 'blackscholes']:
            if not any(r['app'] == app and r['mode'] == 'plain' and
                       r['verified'] == '1' for r in rows):
                errors.append('no verified plain run of %s' % app)
        have_dl_run = find(dest, 'bin/dl-run') and find(dest,
                                                        'bin/dl-annotate')
        if have_dl_run and not any(r['mode'] == 'dl-run' for r in rows):
            errors.append('dl-run and dl-annotate installed, no dl-run row')
        report = ''
        if os.path.isfile(os.path.join(out, 'report.md')):
            with open(os.path.join(out, 'report.md')) as f:
                report = f.read()
        if '## 6. Applications' not in report or 'Not run' in report:
            errors.append('report.md: the applications did not run')
        if have_dl_run and shutil.which('gnuplot') and \
                '](apps.png)' not in report:
            errors.append('report.md does not embed apps.png')
    for e in errors:
        print('FAIL: ' + e, file=sys.stderr)
    print('install check: %s' % ('FAILED' if errors else 'all passed'))
    return 1 if errors else 0


if __name__ == '__main__':
    sys.exit(main())
