#!/usr/bin/env python3
"""suite_check.py DL_BENCH [--expect-plots] [SUITE OPTIONS...]

Test of `dl-bench suite --quick`: runs it into a temporary folder and checks
that it exits 0, that every file is there, that every CSV row is verified
(1) or not applicable (NA, with algo NA), and that every plot the report
embeds exists and is a PNG, and that the report says which device and
commit it ran on and names no issue.  No timing is checked."""
import csv
import os
import re
import subprocess
import sys
import tempfile

CSVS = ['layout.csv', 'inplace.csv', 'aos_asta.csv', 'da_asta.csv',
        'full.csv', 'apps.csv', 'irregular.csv']
SECTIONS = ['## 1.', '## 2.', '## 3.', '## 4.', '## 5.', '## 6.',
            '## 7.', '## Targets']
PNG_MAGIC = b'\x89PNG\r\n\x1a\n'


def check_csv(path, errors):
    with open(path, newline='') as f:
        rows = list(csv.DictReader(f))
    name = os.path.basename(path)
    if not rows:
        errors.append('%s: no rows' % name)
    for n, row in enumerate(rows, 2):
        v = row.get('verified')
        if v == '1':
            continue
        if v == 'NA' and row.get('algo') == 'NA':
            continue  # the algorithm cannot do this shape
        errors.append('%s:%d: not verified: %s' % (name, n, row))
    return len(rows)


def main():
    if len(sys.argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    dl_bench, args = sys.argv[1], sys.argv[2:]
    expect_plots = '--expect-plots' in args
    args = [a for a in args if a != '--expect-plots']
    errors = []
    with tempfile.TemporaryDirectory(prefix='dl-bench-suite.') as out:
        cmd = [dl_bench, 'suite', '--quick', '--out', out] + args
        print(' '.join(cmd), flush=True)
        rc = subprocess.run(cmd).returncode
        if rc != 0:
            errors.append('dl-bench suite exited with %d' % rc)
        for name in CSVS + ['report.md']:
            if not os.path.isfile(os.path.join(out, name)):
                errors.append('missing %s' % name)
        for name in CSVS:
            path = os.path.join(out, name)
            if os.path.isfile(path):
                print('%s: %d rows' % (name, check_csv(path, errors)))
        report = ''
        if os.path.isfile(os.path.join(out, 'report.md')):
            with open(os.path.join(out, 'report.md')) as f:
                report = f.read()
        for sec in SECTIONS:
            if sec not in report:
                errors.append('report.md has no section %r' % sec)
        for line in ['* device: ', '* commit: ', '* mode: `--quick`']:
            if line not in report:
                errors.append('report.md does not say %r' % line)
        if re.search(r'\bissue\b', report, re.I):
            errors.append('report.md names an issue')
        if re.search(r'\|\s*unverified\s*\|', report):
            errors.append('report.md shows an unverified figure')
        pngs = re.findall(r'!\[[^]]*\]\(([^)]+\.png)\)', report)
        if expect_plots:
            for want in ['layout.png', 'marshal.png', 'targets.png',
                         'irregular.png', 'irregular_methods.png']:
                if want not in pngs:
                    errors.append('report.md does not embed %s' % want)
        for png in pngs:
            path = os.path.join(out, png)
            try:
                with open(path, 'rb') as f:
                    if f.read(8) != PNG_MAGIC:
                        errors.append('%s is not a PNG' % png)
            except OSError:
                errors.append('missing %s' % png)
    for e in errors:
        print('FAIL: ' + e, file=sys.stderr)
    print('suite check: %s' % ('FAILED' if errors else 'all passed'))
    return 1 if errors else 0


if __name__ == '__main__':
    sys.exit(main())
